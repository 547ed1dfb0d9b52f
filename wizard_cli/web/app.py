"""The routes of the table's screen (SPEC §9) and the rules of who may do what.

- ``GET /`` (``?big=1`` for a TV), ``/board`` (the same board alone, which the page swaps in on
  each event), ``/game.json``, ``/events`` (Server-Sent Events), ``/enter`` and ``/enter/board``.
- ``POST /api/bid``, ``/api/tricks``, ``/api/undo`` with ``--entry`` only: the token in
  ``X-Wizard-Token`` (compared in constant time), a JSON body of at most 4 KiB; the write is the
  app layer's (:mod:`wizard_cli.app.serving`), one at a time.
- Every response carries the CSP and the other headers of :data:`SECURITY_HEADERS`, and a
  request whose ``Host`` is not one of this server's names is refused with 421 (DNS rebinding).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import secrets
from collections.abc import Callable
from pathlib import Path

from starlette.applications import Starlette
from starlette.requests import ClientDisconnect, Request
from starlette.responses import HTMLResponse, Response, StreamingResponse
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from .. import __version__
from ..app import serving
from ..errors import WizardError, visible
from ..output.game_views import problem_json
from . import exports, language, views
from .watch import SheetWatch, wire_json

HERE = Path(__file__).parent
MAX_BODY = 4096
MAX_OUT = 12  # names a sit-out choice holds: a sheet lists at most 12 players (SPEC §1)
MAX_DEPTH = 32  # JSON nested deeper than this is refused (SPEC §9)
BODY_SECONDS = 10.0  # a request's body must arrive within this (SPEC §9)
KEEP_ALIVE_SECONDS = 15.0
TOKEN_HEADER = "x-wizard-token"
SECURITY_HEADERS = [
    (b"content-security-policy", b"default-src 'self'"),
    (b"x-content-type-options", b"nosniff"),
    (b"referrer-policy", b"no-referrer"),
    (b"x-frame-options", b"DENY"),  # the entry page's buttons are not to be clicked in a frame
]
NO_STORE = {"Cache-Control": "no-store"}
SHARED_TYPES = {
    "svg": "image/svg+xml",
    "md": "text/markdown; charset=utf-8",
    "csv": "text/csv; charset=utf-8",
}


def templates():
    """Jinja2 templates in the language of the request being answered (:mod:`.language`),
    autoescaped; every value printed has its control characters escaped (SPEC §8)."""
    return language.templates()


class JSONBody(Response):
    """JSON as the server sends it (one line, ASCII), never cached."""

    media_type = "application/json"

    def __init__(self, content: object, status_code: int = 200) -> None:
        super().__init__(wire_json(content), status_code, NO_STORE)


class Refusal(Exception):
    """An entry request refused before it reaches the sheet: its status and message."""

    def __init__(self, status: int, message: str) -> None:
        super().__init__(message)
        self.status = status


def create_app(
    watch: SheetWatch,
    token: str | None = None,
    hosts: frozenset[str] | None = None,
    keep_alive: float = KEEP_ALIVE_SECONDS,
    base: str = "",
    extra: Callable[[], dict] | None = None,
) -> Guard:
    """The application for one sheet. ``token``: entry is on (None: nothing can be written);
    ``hosts``: the ``Host`` values accepted (None: any, for tests that do not ask); ``base``:
    where it is mounted (a folder's game: ``/game/NAME``); ``extra``: more for every page
    (the folder's Next game)."""
    writing = asyncio.Lock()
    source = watch.inputs.paths[0]

    def page(name: str, status: int = 200, **context: object) -> HTMLResponse:
        more = extra() if extra is not None else {}
        template = templates().get_template(name)  # the request's language (web/language.py)
        return HTMLResponse(
            template.render(wizard_version=__version__, base=base, **more, **context),
            status,
            NO_STORE,
        )

    def board(request: Request) -> dict:
        return views.board(watch.result, watch.problems, watch.version, source) | {
            "big": request.query_params.get("big") == "1",
            "entry": token is not None,
        }

    async def scoreboard(request: Request) -> Response:
        await watch.refresh()
        return page("page.html", **board(request))

    async def board_fragment(request: Request) -> Response:
        await watch.refresh()  # asked before the first poll has read the sheet: read it now
        return page("board.html", **board(request))

    async def game_json(request: Request) -> Response:
        await watch.refresh()
        problems = [problem_json(p) for p in watch.problems]
        if watch.game is None:  # never a valid game to show: there is no game object to give
            return JSONBody(
                {
                    "error": "the sheet has no valid game yet",
                    "version": watch.version,
                    "stale": True,
                    "problems": problems,
                },
                503,
            )
        if problems:  # the last valid game, said to be stale, with what is wrong now
            return JSONBody(
                {**watch.game, "version": watch.version, "stale": True, "problems": problems}
            )
        return JSONBody(watch.game)

    async def events(request: Request) -> Response:
        async def stream():
            seen = None
            while not watch.stopping:
                event = await watch.next_event(seen, keep_alive)
                if watch.stopping:
                    return
                if event is None:
                    yield ": keep-alive\n\n"
                    continue
                yield event.text if seen is not None else event.first()
                seen = event.version

        return StreamingResponse(
            stream(),
            media_type="text/event-stream",
            headers={**NO_STORE, "X-Accel-Buffering": "no"},
        )

    async def shared(request: Request) -> Response:
        """``/game.svg``, ``/game.md``, ``/game.csv``: the game to download or share (SPEC §9),
        as an attachment named after the sheet."""
        await watch.refresh()
        if watch.result is None:
            return JSONBody({"error": "the sheet has no valid game yet"}, 503)
        suffix = request.url.path.rsplit(".", 1)[1]
        if suffix == "svg":
            context = board(request)
            body = (
                templates()
                .get_template("game.svg")
                .render(**context, layout=exports.image_layout(context["game"]))
            )
        else:
            body = exports.score_text(watch.result, "markdown" if suffix == "md" else "csv")
        name = exports.download_name(source, suffix)
        return Response(
            body,
            media_type=SHARED_TYPES[suffix],
            headers={**NO_STORE, "Content-Disposition": f'attachment; filename="{name}"'},
        )

    async def entry_context(request: Request) -> dict:
        context = views.board(watch.result, watch.problems, watch.version, source)
        context["entry"] = views.entry(watch.result) if watch.result is not None else None
        seats = context["entry"] and context["entry"].get("seats")
        out = request.query_params.getlist("out")[:MAX_OUT]  # the page's sit-out choice
        if seats and out and not watch.problems:  # the round as it would be dealt (SPEC §5)
            from anyio import to_thread

            previewed = await to_thread.run_sync(serving.preview_out, inputs, out)
            views.sitting_out(context, *previewed, out)
        return context

    async def enter(request: Request) -> Response:
        if token is None:
            return page("off.html", 404, title="Entry is off")
        await watch.refresh()
        return page("enter.html", **await entry_context(request))

    async def enter_fragment(request: Request) -> Response:
        if token is None:
            return page("off.html", 404, title="Entry is off")
        await watch.refresh()
        return page("enter_board.html", **await entry_context(request))

    def api(action: Callable[[dict, tuple[int, bytes | None]], serving.Recorded]) -> Callable:
        async def endpoint(request: Request) -> Response:
            try:
                body = await entry_body(request, token)
            except Refusal as refusal:
                return JSONBody({"error": str(refusal)}, refusal.status)
            except ClientDisconnect:  # nobody to answer: one line, no traceback (SPEC §9)
                if not watch.stopping:  # (at shutdown the server let go of it)
                    say_line("a client left before its request had arrived: nothing was written")
                return Response(status_code=400)
            shown = watch.shown()  # what the phone may have seen, before any write of ours
            try:
                async with writing:  # one write at a time here; the sheet's lock for the rest
                    from anyio import to_thread

                    done = await to_thread.run_sync(action, body, shown)
            except serving.NotInTurn as error:
                await watch.refresh()
                # The phone needs what is in turn now, not where the sheet is: the message alone.
                message = "; ".join(visible(p.message) for p in error.problems)
                return JSONBody({"error": message, "game": watch.game}, 409)
            except serving.Refused as error:
                return JSONBody(error_body(error), 422)
            except WizardError as error:  # CannotWrite: locked, read-only, a failed write
                return JSONBody(error_body(error), 503)  # (or the server stopping meanwhile)
            await watch.refresh()
            return JSONBody(
                {"game": watch.game, "message": str(done.note) if done.note else "recorded"}
            )

        return endpoint

    inputs, stopping = watch.inputs, watch.stopped
    bid = api(
        lambda body, shown: serving.enter_bid(
            source,
            inputs,
            body.get("round"),
            body.get("player"),
            body.get("bid"),
            stopping,
            body.get("out"),
        )
    )
    join = api(
        lambda body, shown: serving.enter_join(
            source,
            inputs,
            body.get("player"),
            body.get("after"),
            body.get("startScore"),
            body.get("version"),
            shown,
            stopping,
        )
    )
    leave = api(
        lambda body, shown: serving.enter_leave(
            source, inputs, body.get("player"), body.get("version"), shown, stopping
        )
    )
    tricks = api(
        lambda body, shown: serving.enter_tricks(
            source,
            inputs,
            body.get("round"),
            body.get("tricks"),
            body.get("bomb"),
            body.get("cloud"),
            stopping,
        )
    )
    cloud = api(
        lambda body, shown: serving.enter_cloud(
            source, inputs, body.get("round"), body.get("player"), body.get("change"), stopping
        )
    )
    undo = api(
        lambda body, shown: serving.enter_undo(
            source, inputs, body.get("round"), body.get("version"), shown, stopping
        )
    )

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette):
        poll = asyncio.create_task(watch.run())
        try:
            yield
        finally:
            await watch.stop()
            poll.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await poll

    routes = [
        Route("/", scoreboard),
        Route("/board", board_fragment),
        Route("/game.json", game_json),
        Route("/events", events),
        *(Route(f"/game.{suffix}", shared) for suffix in SHARED_TYPES),
        Route("/enter", enter),
        Route("/enter/board", enter_fragment),
        Route("/api/bid", bid, methods=["POST"]),
        Route("/api/tricks", tricks, methods=["POST"]),
        Route("/api/undo", undo, methods=["POST"]),
        Route("/api/cloud", cloud, methods=["POST"]),
        Route("/api/join", join, methods=["POST"]),
        Route("/api/leave", leave, methods=["POST"]),
        Mount("/static", StaticFiles(directory=HERE / "static"), name="static"),
    ]
    app = Starlette(routes=routes, lifespan=lifespan)
    return Guard(language.Chooser(app), hosts)


def error_body(error: WizardError) -> dict:
    """A refused write: the message as ``add`` gives it (one located line per problem)."""
    return {"error": str(error), "problems": [problem_json(p) for p in error.problems]}


async def entry_body(request: Request, token: str | None) -> dict:
    """The JSON object of an entry request, once its token, type and size are right."""
    if token is None:
        raise Refusal(403, "entry is off: start wizard serve with --entry to write")
    given = request.headers.get(TOKEN_HEADER, "")
    if not secrets.compare_digest(given.encode("latin-1"), token.encode("latin-1")):
        raise Refusal(403, f"missing or wrong {TOKEN_HEADER.title()}: nothing was written")
    kind = request.headers.get("content-type", "").split(";")[0].strip().lower()
    if kind != "application/json":
        raise Refusal(415, "send JSON (Content-Type: application/json)")
    length = request.headers.get("content-length", "")
    if length.isdigit() and int(length) > MAX_BODY:
        raise Refusal(413, f"the body is over {MAX_BODY} bytes")

    async def whole() -> bytes:
        body = bytearray()
        async for chunk in request.stream():
            body += chunk
            if len(body) > MAX_BODY:
                raise Refusal(413, f"the body is over {MAX_BODY} bytes")
        return bytes(body)

    try:
        body = await asyncio.wait_for(whole(), BODY_SECONDS)
    except TimeoutError:
        raise Refusal(408, f"the body did not arrive within {BODY_SECONDS:g} s") from None
    try:
        text = body.decode("utf-8")  # json.loads would take UTF-16 and UTF-32 as well
    except UnicodeDecodeError:
        raise Refusal(400, "the body is not UTF-8") from None
    if _deeper_than(text, MAX_DEPTH):
        raise Refusal(400, f"the body's JSON is nested deeper than {MAX_DEPTH} levels")
    try:
        data = json.loads(text)
    except (ValueError, RecursionError):
        raise Refusal(400, "the body is not JSON") from None
    if not isinstance(data, dict):
        raise Refusal(400, "the body must be a JSON object")
    return data


def _deeper_than(text: str, limit: int) -> bool:
    """Whether the JSON text opens more than ``limit`` brackets at once (outside strings):
    checked before parsing, which would recurse once per level (SPEC §9: deeper than 32 is
    400; a 4 KiB body of ``[`` once ended in a RecursionError)."""
    depth, in_string, escaped = 0, False, False
    for char in text:
        if in_string:
            if escaped:
                escaped = False
            elif char == "\\":
                escaped = True
            elif char == '"':
                in_string = False
        elif char == '"':
            in_string = True
        elif char in "[{":
            depth += 1
            if depth > limit:
                return True
        elif char in "]}":
            depth -= 1
    return False


def say_line(line: str) -> None:
    """One line on stderr about a client (never its token, never a traceback)."""
    import sys

    sys.stderr.write(f"wizard serve: {line}\n")
    sys.stderr.flush()


class Guard:
    """ASGI middleware: the ``Host`` check (421) and the security headers on every response."""

    def __init__(self, app: ASGIApp, hosts: frozenset[str] | None) -> None:
        self.app = app
        self.hosts = hosts

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        async def guarded(message: Message) -> None:
            if message["type"] == "http.response.start":
                message = {**message, "headers": [*message.get("headers", []), *SECURITY_HEADERS]}
            await send(message)

        if self.hosts is not None:
            host = dict(scope.get("headers") or []).get(b"host", b"").decode("latin-1").lower()
            if host not in self.hosts:
                refused = JSONBody(
                    {"error": f"this server does not answer to the host {host!r}"}, 421
                )
                await refused(scope, receive, guarded)
                return
        await self.app(scope, receive, guarded)
