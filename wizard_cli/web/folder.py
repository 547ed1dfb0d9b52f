"""``wizard serve DIR``: a folder of sheets as a game night (SPEC §9 "Game night from the page").

- ``GET /`` the list of games (``/list`` the same list alone, swapped in by the page at each
  event of ``/events``), ``/games.json``; ``/season`` and ``/season.json``; ``/new`` the New
  game page; ``POST /api/games`` and ``/api/games/NAME/next`` with the token.
- ``/game/NAME/…``: that game's own app, exactly the one ``serve SHEET`` runs
  (:func:`wizard_cli.web.app.create_app`) mounted at ``/game/NAME``. A game's app and its
  :class:`SheetWatch` are opened when first asked for and at most :data:`MAX_OPEN` are kept (the
  least recently used is stopped), so a folder of thousands of sheets costs one scan, not
  thousands of watchers; every watcher is a task on the one event loop, never a thread.

NAME is only ever looked up among the games the last scan found (see
:mod:`wizard_cli.app.game_night`): a name with ``/`` or ``..``, a symlink, a subfolder is never
read or written.
"""

from __future__ import annotations

import asyncio
import contextlib
import threading
import time
import urllib.parse
from collections import OrderedDict
from collections.abc import Callable
from typing import Any

from starlette.applications import Starlette
from starlette.requests import ClientDisconnect, Request
from starlette.responses import (
    HTMLResponse,
    RedirectResponse,
    Response,
    StreamingResponse,
)
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles
from starlette.types import ASGIApp, Receive, Scope, Send

from .. import __version__
from ..app import game_night
from ..app.batch import SheetRules
from ..errors import WizardError
from . import language
from .app import (
    HERE,
    KEEP_ALIVE_SECONDS,
    NO_STORE,
    Guard,
    JSONBody,
    Refusal,
    create_app,
    entry_body,
    error_body,
    say_line,
    templates,
)
from .watch import SheetWatch, wire_json

POLL_SECONDS = 0.25  # the folder is scanned this often (a change shows within 1 s)
MAX_OPEN = 16  # games whose app and watcher are kept open at once
RESCAN_SECONDS = 0.1  # a request within this of the last scan takes that scan's list
READ_BATCH = 100  # sheets read in one scan at most (a folder of thousands: see refresh)


class FolderWatch:
    """The folder as last scanned: each game's summary (read again only when its file changes),
    a version that grows with every change seen, and the games opened so far."""

    def __init__(
        self,
        folder: str,
        rules: SheetRules = SheetRules(),  # noqa: B008
        token: str | None = None,
        poll: float = POLL_SECONDS,
        keep_alive: float = KEEP_ALIVE_SECONDS,
    ) -> None:
        self.folder = folder
        self.rules = rules
        self.token = token
        self.poll = poll
        self.keep_alive = keep_alive
        self.version = 0
        self.entries: dict[str, game_night.Entry] = {}
        self.summaries: dict[str, game_night.Summary] = {}
        self.stopping = False
        self.stopped = threading.Event()  # (server.py sets it at a signal, as a sheet's)
        self.games: OrderedDict[str, tuple[SheetWatch, Any, asyncio.Task]] = OrderedDict()
        self._changed: asyncio.Event | None = None
        self._reading = asyncio.Lock()
        self._season: tuple[int, dict, list] | None = None
        self._scanned_at = -1.0
        self._read: dict[str, tuple] = {}  # the key of the file each summary was read from

    async def refresh(self, force: bool = False) -> bool:
        """Scan the folder; read the games that are new or changed, at most
        :data:`READ_BATCH` at a time, newest file first (a request waits for one batch at most;
        the rest are read by the next scans, listed meanwhile as not read yet); whether
        anything changed. A scan finished less than :data:`RESCAN_SECONDS` ago stands unless
        ``force`` (a write of ours): requests in a burst cost one scan."""
        from anyio import to_thread

        if not force and time.monotonic() - self._scanned_at < RESCAN_SECONDS:
            return False
        async with self._reading:
            if not force and time.monotonic() - self._scanned_at < RESCAN_SECONDS:
                return False  # (scanned while this one waited)
            read = dict(self._read)
            summaries = dict(self.summaries)

            def scan() -> tuple[dict, bool]:
                entries = game_night.game_files(self.folder)
                changed = entries.keys() != self.entries.keys()
                todo = sorted(
                    (entry for name, entry in entries.items() if read.get(name) != entry.key),
                    key=lambda entry: entry.mtime,
                    reverse=True,
                )
                for entry in todo[:READ_BATCH]:
                    summaries[entry.name] = game_night.summary(entry, self.rules)
                    read[entry.name] = entry.key
                    changed = True
                for entry in todo[READ_BATCH:]:
                    if entry.name not in summaries:
                        summaries[entry.name] = game_night.unread(entry)
                for name in set(summaries) - set(entries):
                    del summaries[name]
                    read.pop(name, None)
                return entries, changed

            entries, changed = await to_thread.run_sync(scan)
            self.entries = entries
            self._scanned_at = time.monotonic()
            if not changed:
                return False
            self.summaries, self._read = summaries, read
            self.version += 1
            for name in [name for name in self.games if name not in entries]:
                await self.close(name)
            changed_event, self._changed = self._changed, None
            if changed_event is not None:
                changed_event.set()
            return True

    def listed(self) -> list[game_night.Summary]:
        """The games, newest first (SPEC §9)."""
        return game_night.newest_first(self.summaries.values())

    async def run(self) -> None:
        """Scan until stopped."""
        while not self.stopping:
            with contextlib.suppress(Exception):  # (a scan never stops the server)
                await self.refresh()
            await asyncio.sleep(self.poll)

    async def next_version(self, seen: int | None, timeout: float) -> int | None:
        """The version, once it differs from ``seen`` (None: nothing new within ``timeout``)."""
        if self.stopping:
            return None
        if self.version != seen:
            return self.version
        if self._changed is None:
            self._changed = asyncio.Event()
        try:
            await asyncio.wait_for(self._changed.wait(), timeout)
        except TimeoutError:
            return None
        return None if self.stopping else self.version

    def game_app(self, name: str) -> Any:
        """The open app of the game NAME (opened now, the least recently used closed when more
        than :data:`MAX_OPEN` are); None when the folder has no such game."""
        entry = self.entries.get(name)
        if entry is None:
            return None
        if name in self.games:
            self.games.move_to_end(name)
            return self.games[name][1]
        watch = SheetWatch(game_night.folder_inputs([entry.path], self.rules))
        quoted = urllib.parse.quote(name, safe="")
        extra = {
            "folder": True,
            "next_game": f"/api/games/{quoted}/next" if self.token is not None else None,
        }
        app = create_app(
            watch, self.token, None, self.keep_alive, f"/game/{quoted}", lambda: extra
        ).app  # (the folder's Guard stands in front of it)
        self.games[name] = (watch, app, asyncio.get_running_loop().create_task(watch.run()))
        while len(self.games) > MAX_OPEN:
            oldest = next(iter(self.games))
            opened = self.games.pop(oldest)
            asyncio.get_running_loop().create_task(self.close(oldest, opened))
        return app

    async def close(self, name: str, opened: tuple | None = None) -> None:
        """Stop one game's watcher (its streams end; a page reconnects and opens it again)."""
        opened = opened or self.games.pop(name, None)
        if opened is None:
            return
        watch, _, task = opened
        await watch.stop()
        task.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await task

    async def stop(self) -> None:
        """End the scan, every game's watcher and every stream (the server is shutting down)."""
        self.stopping = True
        self.stopped.set()
        for name in list(self.games):
            await self.close(name)
        changed, self._changed = self._changed, None
        if changed is not None:
            changed.set()

    def season(self) -> tuple[dict, list]:
        """``stats``/``ratings`` JSON and the ratings chart's lines over the folder's games
        that read, oldest first (the list reversed); computed once per version."""
        if self._season is not None and self._season[0] == self.version:
            return self._season[1], self._season[2]
        paths = [
            self.entries[s.name].path
            for s in reversed(self.listed())
            if not s.problems and s.status is not None and s.name in self.entries
        ]
        data = game_night.season_json(paths, self.rules)
        lines = game_night.rating_lines(paths, self.rules)
        self._season = (self.version, data, lines)
        return data, lines


def create_folder_app(
    folder: FolderWatch, hosts: frozenset[str] | None = None, presets: tuple = ()
) -> Guard:
    """The application for a folder of sheets (the module's docstring lists its routes)."""
    token = folder.token
    writing = asyncio.Lock()

    def page(name: str, status: int = 200, **context: object) -> HTMLResponse:
        # the request's language (web/language.py: Chooser below decides it)
        return HTMLResponse(
            templates()
            .get_template(name)
            .render(
                wizard_version=__version__,
                base="",
                folder=True,
                source=None,
                entry=token is not None,
                **context,
            ),
            status,
            NO_STORE,
        )

    def listing() -> dict:
        return {"version": folder.version, "games": folder.listed()}

    async def index(request: Request) -> Response:
        await folder.refresh()
        return page("folder.html", title="Game night", **listing())

    async def list_fragment(request: Request) -> Response:
        return page("folder_list.html", **listing())

    async def games_json(request: Request) -> Response:
        await folder.refresh()
        return JSONBody([summary.as_json() for summary in folder.listed()])

    async def events(request: Request) -> Response:
        async def stream():
            seen = None
            while not folder.stopping:
                version = await folder.next_version(seen, folder.keep_alive)
                if folder.stopping:
                    return
                if version is None:
                    yield ": keep-alive\n\n"
                    continue
                first = "retry: 1000\n" if seen is None else ""
                yield (
                    f"{first}event: update\nid: {version}\ndata: "
                    f"{wire_json({'version': version})}\n\n"
                )
                seen = version

        return StreamingResponse(
            stream(),
            media_type="text/event-stream",
            headers={**NO_STORE, "X-Accel-Buffering": "no"},
        )

    async def season_data() -> tuple[dict, list]:
        from anyio import to_thread

        await folder.refresh()
        return await to_thread.run_sync(folder.season)

    async def season_json(request: Request) -> Response:
        data, _ = await season_data()
        return JSONBody(data)

    async def season(request: Request) -> Response:
        from .season_view import season_context

        data, lines = await season_data()
        return page("season.html", title="Season", **season_context(data, lines))

    async def new(request: Request) -> Response:
        if token is None:
            return page("off.html", 404, title="Entry is off")
        import datetime

        from ..game.compare import preset_catalogue
        from ..game.settings import SPECS

        await folder.refresh()
        known: list[str] = []
        for summary in folder.listed():
            known += [name for name in summary.players if name not in known]
        return page(
            "new.html",
            title="New game",
            known=known,
            presets=list(preset_catalogue(presets).values()),
            specs=SPECS,
            today=datetime.date.today().isoformat(),
        )

    async def written(request: Request, make: Callable[[dict], tuple[Callable, str]]) -> Response:
        try:
            body = await entry_body(request, token)
        except Refusal as refusal:
            return JSONBody({"error": str(refusal)}, refusal.status)
        except ClientDisconnect:
            if not folder.stopping:
                say_line("a client left before its request had arrived: nothing was written")
            return Response(status_code=400)
        from anyio import to_thread

        def write() -> str:
            text, stem = make(body)
            return game_night.write_new(folder.folder, stem, text)

        try:
            async with writing:
                name = await to_thread.run_sync(write)
        except game_night.NotFinished as error:
            return JSONBody(error_body(error), 409)
        except WizardError as error:
            status = 503 if "cannot write" in str(error) else 422
            return JSONBody(error_body(error), status)
        await folder.refresh(force=True)
        return JSONBody({"name": name, "url": f"/game/{urllib.parse.quote(name, safe='')}/"}, 201)

    async def new_game(request: Request) -> Response:
        return await written(request, lambda body: game_night.new_game_text(body, presets=presets))

    async def next_game(request: Request) -> Response:
        name = request.path_params["name"]
        await folder.refresh(force=True)
        entry = folder.entries.get(name)
        if entry is None:
            return JSONBody({"error": f"no game {name!r} in this folder"}, 404)
        return await written(
            request, lambda body: game_night.next_game_text(entry.path, folder.rules)
        )

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette):
        poll = asyncio.create_task(folder.run())
        try:
            yield
        finally:
            await folder.stop()
            poll.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await poll

    routes = [
        Route("/", index),
        Route("/list", list_fragment),
        Route("/events", events),
        Route("/games.json", games_json),
        Route("/season", season),
        Route("/season.json", season_json),
        Route("/new", new),
        Route("/api/games", new_game, methods=["POST"]),
        Route("/api/games/{name}/next", next_game, methods=["POST"]),
        Mount("/static", StaticFiles(directory=HERE / "static"), name="static"),
    ]
    app = Starlette(routes=routes, lifespan=lifespan)
    return Guard(Games(language.Chooser(app), folder), hosts)  # each game: its own Chooser


class Games:
    """ASGI: ``/game/NAME/…`` to the game's own app (with the path below it), the rest to the
    folder's routes. An unknown NAME is 404; ``/game/NAME`` is sent on to ``/game/NAME/``."""

    def __init__(self, app: ASGIApp, folder: FolderWatch) -> None:
        self.app = app
        self.folder = folder

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        path = scope.get("path", "")
        if scope["type"] != "http" or not path.startswith("/game/"):
            await self.app(scope, receive, send)
            return
        name, slash, rest = path[len("/game/") :].partition("/")
        if name not in self.folder.entries:
            await self.folder.refresh()  # (a game made a moment ago by another process)
        game = self.folder.game_app(name)
        if game is None:
            await JSONBody({"error": "no such game in this folder"}, 404)(scope, receive, send)
            return
        if not slash:
            quoted = urllib.parse.quote(name, safe="")
            await RedirectResponse(f"/game/{quoted}/", 307)(scope, receive, send)
            return
        inner = dict(scope, path="/" + rest, raw_path=("/" + rest).encode("utf-8", "replace"))
        await game(inner, receive, send)


def serve_folder(
    folder: str,
    rules: SheetRules,
    host: str,
    port: int,
    entry: bool,
    stderr: Any,
    new_token: bool = False,
) -> int:
    """``wizard serve DIR`` until stopped, as ``serve SHEET`` serves a sheet; the exit code.
    With ``entry``, the token kept in the state folder (a new one with ``new_token``)."""
    import gc

    import uvicorn

    from ..errors import ExitCode, visible
    from .connections import (
        accept_backlog,
        bounded_protocol,
        connection_cap,
        raise_descriptor_limit,
    )
    from .server import (
        LOOPBACK_HOSTS,
        addresses_to_open,
        allowed_hosts,
        bind,
        run_until_stopped,
        server_class,
    )

    gc.set_threshold(700, 10, 10)  # (as serve_sheet: memory stays flat)
    limit = raise_descriptor_limit()
    cap = connection_cap(limit)
    sock = bind(host, port)
    port = sock.getsockname()[1]
    from .token_file import entry_token, token_path

    token = entry_token(token_path(), renew=new_token) if entry else None
    watch = FolderWatch(folder, rules, token)
    app = create_folder_app(watch, allowed_hosts(host, port))
    address = addresses_to_open(host, port)[0]
    stderr.write(f"wizard serve: the games in {visible(folder)} at {address} (Ctrl-C to stop)\n")
    if token is None:
        stderr.write("Read-only: nothing can be entered (--entry allows a phone to).\n")
    else:
        where = f"{address}?token={token}"
        stderr.write(f"Entry (whoever has this address can write the folder's games): {where}\n")
        if host not in LOOPBACK_HOSTS:
            import segno

            segno.make(where, error="m").terminal(out=stderr, compact=True)
    stderr.flush()
    config = uvicorn.Config(
        app,
        log_level="warning",
        access_log=False,
        lifespan="on",
        timeout_graceful_shutdown=1,
        server_header=False,
        http=bounded_protocol(cap),
        backlog=accept_backlog(limit, cap),
        h11_max_incomplete_event_size=16 * 1024,
    )
    run_until_stopped(server_class()(config, watch), sock)
    stderr.write("wizard serve: stopped\n")
    stderr.flush()
    return ExitCode.OK
