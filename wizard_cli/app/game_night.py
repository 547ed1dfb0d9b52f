"""A folder of sheets as a game night (SPEC §9 "Game night from the page: `wizard serve DIR`"):
which files are games, what the list says of each, the New game and Next game sheets, and the
season over the folder. Nothing here knows of the web; the server calls it from a worker thread.

Only regular files directly in the folder named ``*.yaml`` or ``*.yml`` are games: a symlink
(wherever it leads), a subfolder or any other name is never read or written. A game is known by
its NAME, the file name without the extension; a request's NAME is looked up among the names
found, never joined to the folder as a path, so ``../`` cannot reach outside it.
"""

from __future__ import annotations

import dataclasses
import datetime
import os
import re
import stat
import unicodedata
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any

from ..errors import Problem, WizardError
from .batch import Inputs, SheetRules

SUFFIXES = (".yaml", ".yml")
MAX_TEXT = 200  # a title or place longer than this is refused (a field is untrusted)
MAX_TRIES = 1000  # names tried before a new game gives up (`-2` … `-1000`)
NOT_READ = "not read yet"
NOT_FINISHED = "the game is not finished: its next game starts when it is"


@dataclass(frozen=True, slots=True)
class Entry:
    """One game file as the folder's scan found it: what changes when it does, and its path."""

    name: str
    path: str
    key: tuple  # (inode, mtime, size, ctime): a change makes a new key
    mtime: float


@dataclass(frozen=True, slots=True)
class Progress:
    """Where a read game stands, in parts, so a page can say it in its own language: the
    winners of a finished game; else the round, of how many, and who bids next (None: the
    tricks are to enter)."""

    winners: tuple[str, ...] = ()
    round: int | None = None
    of: int | None = None
    bidder: str | None = None

    def text(self) -> str:
        """The list's status in English: `Round 7 of 10: Olga to bid`, `Ben wins`."""
        from ..errors import name_list

        if self.winners:
            verb = "wins" if len(self.winners) == 1 else "share the win"
            return f"{name_list(self.winners)} {verb}"
        where = f"Round {self.round} of {self.of}"
        return (
            f"{where}: {self.bidder} to bid"
            if self.bidder is not None
            else (f"{where}: tricks to enter")
        )


@dataclass(frozen=True, slots=True)
class Summary:
    """What the list shows of one game (SPEC §9): ``problems`` set when the sheet does not read."""

    name: str
    title: str | None
    date: str | None
    place: str | None
    notes: str | None
    players: tuple[str, ...]
    status: dict | None  # as in ``score -f json``
    status_text: str  # `Round 7 of 10: Olga to bid`, `Ben wins`
    problems: tuple[Problem, ...]
    finished: bool
    mtime: float
    progress: Progress | None = None  # what status_text says, in parts (the page's language)

    def as_json(self) -> dict[str, Any]:
        """The ``/games.json`` item."""
        from ..output.game_views import problem_json

        return {
            "name": self.name,
            "title": self.title,
            "date": self.date,
            "place": self.place,
            "notes": self.notes,
            "players": list(self.players),
            "status": self.status,
            "problems": [problem_json(p) for p in self.problems] if self.problems else None,
        }


def folder_inputs(paths: list[str], rules: SheetRules) -> Inputs:
    """The folder's sheets as a batch that never follows a symbolic link: one put in a game's
    place since the folder was scanned may lead out of it (SPEC §9), and is refused unread."""
    return Inputs(paths, rules, follow_links=False)


def game_files(folder: str) -> dict[str, Entry]:
    """Every game file directly in ``folder`` by NAME (a ``.yaml`` wins over a ``.yml`` of the
    same name). Symlinks and anything not a regular file are left out, unread."""
    found: dict[str, Entry] = {}
    try:
        scan = os.scandir(folder)
    except OSError:
        return found
    with scan:
        for item in scan:
            base, suffix = os.path.splitext(item.name)
            if suffix.lower() not in SUFFIXES or not base or base.startswith("."):
                continue
            try:
                info = item.stat(follow_symlinks=False)
            except OSError:
                continue
            if not stat.S_ISREG(info.st_mode):  # a symlink, a folder, a FIFO: never a game
                continue
            if base in found and suffix.lower() != ".yaml":
                continue
            found[base] = Entry(
                base,
                item.path,
                (info.st_ino, info.st_mtime_ns, info.st_size, info.st_ctime_ns),
                info.st_mtime,
            )
    return found


def summary(entry: Entry, rules: SheetRules) -> Summary:
    """Read one game for the list (as ``serve SHEET`` reads it: opened so it cannot block)."""
    from .serving import game_now

    reading = game_now(folder_inputs([entry.path], rules))
    result = reading.result
    if result is None:
        first = reading.problems[:1] or (Problem("does not read"),)
        # Named by its file's name alone: the list does not show where the folder is.
        first = (dataclasses.replace(first[0], path=os.path.basename(entry.path)),)
        return Summary(
            entry.name, None, None, None, None, (), None, str(first[0]), first, False, entry.mtime
        )
    status = result.status()
    where = progress(result)
    return Summary(
        entry.name,
        result.title,
        result.date,
        result.place,
        result.notes,
        tuple(result.players),
        status.as_json(),
        where.text(),
        (),
        result.finished,
        entry.mtime,
        where,
    )


def unread(entry: Entry) -> Summary:
    """A game found but not read yet (a folder of thousands is read a batch at a time)."""
    return Summary(entry.name, None, None, None, None, (), None, NOT_READ, (), False, entry.mtime)


def progress(result: Any) -> Progress:
    """Where a game stands for the list's status (:meth:`Progress.text`)."""
    step = result.validated.next_step()
    if step.finished:
        return Progress(winners=tuple(result.winners))
    return Progress(round=step.round, of=result.rounds_total, bidder=step.next_bidder)


def newest_first(summaries: Iterable[Summary]) -> list[Summary]:
    """The list's order (SPEC §9): dated games newest first by date, then file time; undated
    games after them, newest file first."""
    listed = sorted(summaries, key=lambda s: (s.mtime, s.name), reverse=True)
    return sorted(listed, key=lambda s: (s.date is None, _negated(s.date)))


def _negated(date: str | None) -> tuple[int, ...]:
    """An ISO date as a key sorting the newest first."""
    return tuple(-int(part) for part in re.findall(r"\d+", date or ""))


# --- New game, Next game ---------------------------------------------------------------------


def file_stem(date: str | None, title: str | None) -> str:
    """`2026-12-06-friday-night`: the title lower-cased, accents dropped, every run of other
    characters a `-` (`game` without a title), after the date."""
    decomposed = unicodedata.normalize("NFKD", title or "")
    plain = "".join(char for char in decomposed if not unicodedata.combining(char))  # accents
    slug = re.sub(r"[^a-z0-9]+", "-", plain.lower()).strip("-")[:60].strip("-") or "game"
    return f"{date}-{slug}" if date else slug


def write_new(folder: str, stem: str, text: Callable[[str], str]) -> str:
    """Write ``text(FILE)`` (the sheet naming its own file) as ``STEM.yaml`` in ``folder``,
    never over a file (``STEM-2``, ``-3``, …), through the CLI's atomic write; the NAME."""
    from ..editing.atomic import OVERWRITE_HINT, write_atomically

    for number in range(1, MAX_TRIES + 1):
        name = stem if number == 1 else f"{stem}-{number}"
        path = os.path.join(folder, name + ".yaml")
        if os.path.lexists(path) or os.path.lexists(os.path.join(folder, name + ".yml")):
            continue
        try:
            write_atomically(path, text(name + ".yaml"), force=False, shown=name + ".yaml")
        except WizardError as error:
            if any(p.message == OVERWRITE_HINT for p in error.problems):
                continue  # made meanwhile by someone else: the next number
            raise
        return name
    raise WizardError(Problem(f"no free file name for {stem}.yaml"))


def new_game_text(
    fields: dict, today: Callable[[], datetime.date] = datetime.date.today, presets: Iterable = ()
) -> tuple[Callable[[str], str], str]:
    """The sheet ``wizard new`` would write for the New game form's fields (checked as the
    command checks its options, with its messages), and the file name's stem."""
    from ..game.compare import preset_catalogue, unknown_preset
    from ..game.settings import RawSetting, command_line_settings, resolve
    from ..sheets.blank import new_sheet, sheet_date

    players = fields.get("players")
    if isinstance(players, str):
        players = players.split(",")
    if not isinstance(players, list) or not all(isinstance(p, str) for p in players):
        raise WizardError(Problem("--players: give the players' names, in seating order"))
    players = [name.strip() for name in players]
    title = _text(fields, "title")
    place = _text(fields, "place")
    dealer = _text(fields, "firstDealer")
    date_text = _text(fields, "date")
    date = sheet_date(date_text, today)
    layers: list[list[RawSetting]] = []
    preset = _text(fields, "preset")
    if preset is not None:
        catalogue = preset_catalogue(presets)
        if preset not in catalogue:
            raise WizardError(unknown_preset(preset, catalogue))
        layers.append(list(catalogue[preset].settings))
    settings = fields.get("settings")
    settings = {} if settings is None else settings  # ("", 0, false, [] are no mapping)
    if not isinstance(settings, dict):
        raise WizardError(Problem("settings: give a mapping of setting names to values"))
    layers.append(
        command_line_settings(
            [f"{key}={_setting_text(key, value)}" for key, value in settings.items()], None
        )
    )
    problems = resolve(layers, None).problems
    if problems:
        raise WizardError(*problems)
    new_sheet(players, layers, dealer, title, None, date, place)  # (checked before a name)
    return (
        lambda file: new_sheet(players, layers, dealer, title, file, date, place),
        file_stem(date, title),
    )


def next_game_text(
    path: str, rules: SheetRules, today: Callable[[], datetime.date] = datetime.date.today
) -> tuple[Callable[[str], str], str]:
    """The Next game's sheet after the finished game at ``path`` (SPEC §9): the players seated
    in its last round in their seating order (no start scores, joins or leaves), the same rules
    and title, the first dealer the next of them to the left of its first dealer (going round
    the old seating), today's date."""
    from ..game.settings import RawSetting
    from ..sheets.blank import new_sheet
    from .serving import game_now

    reading = game_now(folder_inputs([path], rules))
    result = reading.result
    if result is None:
        raise WizardError(*reading.problems)
    if not result.finished:
        raise NotFinished(Problem(NOT_FINISHED))
    listed = list(result.players)
    seating = result.validated.sheet.seating
    seated = (
        seating.seated(len(result.validated.sheet.rounds))
        if seating is not None
        else range(len(listed))
    )
    players = [listed[seat] for seat in seated]
    count = len(listed)
    dealer = next(
        listed[seat]
        for step in range(1, count + 1)
        if (seat := (result.first_dealer + step) % count) in seated
    )
    layer = [RawSetting(key, value) for key, value in result.settings.as_dict().items()]
    date = today().isoformat()
    new_sheet(players, [layer], dealer, result.title, None, date, None)
    return (
        lambda file: new_sheet(players, [layer], dealer, result.title, file, date, None),
        file_stem(date, result.title),
    )


class NotFinished(WizardError):
    """Next game asked of a game still in play (409)."""


def _text(fields: dict, key: str) -> str | None:
    """An optional text field: None when missing, null or blank; refused when not text or too
    long."""
    value = fields.get(key)
    if value is None or (isinstance(value, str) and not value.strip()):
        return None
    if not isinstance(value, str):
        raise WizardError(Problem(f"{key}: give text"))
    if len(value) > MAX_TEXT:
        raise WizardError(Problem(f"{key}: at most {MAX_TEXT} characters"))
    return value.strip()


def _setting_text(key: str, value: object) -> str:
    """A setting's value as ``--set KEY=VALUE`` would give it (so the messages are the same)."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (int, str)) and len(str(value)) <= MAX_TEXT:
        return str(value)
    raise WizardError(Problem(f"--set {key}: give a number, true/false or one of its options"))


# --- the season --------------------------------------------------------------------------------


def season_json(paths: list[str], rules: SheetRules) -> dict[str, Any]:
    """``stats -f json`` and ``ratings -f json`` over ``paths`` (oldest first), and each
    player's ordinal after each rated game (the ratings chart's lines); a table that cannot be
    made (openskill missing) is its message."""
    import io
    import json

    from .season import game_filter, show_ratings, show_stats

    out: dict[str, Any] = {}
    for key, show in (
        (
            "stats",
            lambda o: show_stats(
                folder_inputs(paths, rules).games(runs=True),
                game_filter(None, None, None),
                None,
                "json",
                o,
            ),
        ),
        (
            "ratings",
            lambda o: show_ratings(
                folder_inputs(paths, rules).games(runs=True),
                game_filter(None, None, None),
                False,
                "json",
                o,
            ),
        ),
    ):
        text = io.StringIO()
        try:
            show(text)
            out[key] = json.loads(text.getvalue()) if text.getvalue().strip() else []
        except WizardError as error:
            out[key] = None
            out[f"{key}Error"] = str(error)
    return out


def rating_lines(paths: list[str], rules: SheetRules) -> list[dict]:
    """Each player's ordinal after each rated game: ``[{"player", "points": [(game, ordinal)]}]``
    (empty when there is nothing to rate or openskill is missing)."""
    from ..game.ratings import rating_history
    from .season import game_filter, season_results

    lines: dict[str, list[tuple[int, float]]] = {}
    try:
        for row in rating_history(
            season_results(
                folder_inputs(paths, rules).games(runs=True), game_filter(None, None, None)
            )
        ):
            lines.setdefault(row.player, []).append((row.rated, row.ordinal))
    except (WizardError, ImportError):
        return []
    return [{"player": player, "points": points} for player, points in lines.items()]
