"""The Python library (SPEC §10): what the commands do, callable from Python, returning data and
never printing.

``import wizard_cli as wizard`` gives these names (the package loads this module when one is
first used, so that ``import wizard_cli`` stays as cheap as before). Sheets are read by the same
batch as the commands (app/batch.py), checked by the same validation and scored by the same
engine; every object returned has the ``as_json()`` of what its command prints as JSON.
"""

from __future__ import annotations

import dataclasses
import functools
import io
import itertools
import operator
import os
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence, Sized
from typing import IO, TYPE_CHECKING, Any, Literal, Union, overload

from .app.batch import Inputs, SheetRules, existing_files
from .errors import Problem, UsageError, WizardError, shorten, visible
from .game import game as engine
from .game.game import GameResult, NextStep, score_game
from .game.model import BadValue, RoundColumns, RoundRecord, Sheet, Truncated, Value
from .game.runs import CheckedRun, ScoredRun
from .game.settings import MAX_PLAYERS, RawSetting, resolve
from .game.validation import Checked, validated_game
from .sheets.source import STDIN

if TYPE_CHECKING:
    from .game.compare import Comparison, RuleSet
    from .game.ratings import RatingRow, SeasonRatings
    from .game.stats import PlayerStats, Season

__all__ = [
    "Game",
    "GameResult",
    "NextStep",
    "Problem",
    "Problems",
    "Ratings",
    "Stats",
    "WizardError",
    "check",
    "compare",
    "load",
    "next_step",
    "ratings",
    "read",
    "score",
    "stats",
]

Source = Union[str, bytes, "os.PathLike[str]", "os.PathLike[bytes]", IO[str], IO[bytes]]
"""A sheet's source: a path (text or bytes), ``"-"`` for standard input, or a file object
(text or binary)."""

Settings = Mapping[str, Any]
"""Settings by their §2 keys (camelCase, as in sheets): ``{"zeroBidScoring": "doubleBonus"}``."""

# what ``input_format`` may name (as --input-format; other apps' exports too, SPEC §3)
INPUT_FORMATS = ("yaml", "csv", "keepwiz", "escalier")
NEW_SOURCE = ""  # a game made by Game.new was read from nowhere: its problems name no file
STREAM_NAME = "<stream>"  # a file object's name in messages when it has none of its own
SPOOL_CHUNK = 1 << 16
MAX_ROUNDS = 20  # a game has at most 20 rounds (SPEC §4): Game.new reads one more, no further


class Game(engine.Game):
    """One valid game, frozen (SPEC §10): its ``players``, effective ``settings``, ``rounds``,
    the round in play, dealer, bidding order, forbidden bid and status. Made by :func:`read`
    and :func:`load`, or from Python values by :meth:`new`."""

    @classmethod
    def new(
        cls,
        players: Sequence[str],
        rounds: Iterable[tuple[Sequence[int | None], Sequence[int] | None]] = (),
        *,
        settings: Settings | None = None,
        first_dealer: str | None = None,
        title: str | None = None,
    ) -> Game:
        """A game from Python values, validated as a sheet is: the players in seating order;
        each round as ``(bids, tricks)`` in seating order, ``tricks`` None (and a bid not yet
        made None) for the round in play; the settings by their §2 keys. Raises
        :class:`WizardError` with every problem, as ``wizard check`` finds them."""
        layer = _settings_layer(settings, checked=False)  # checked with the rest, by validation
        _text_or_none(first_dealer, "first_dealer", "a player's name")
        _text_or_none(title, "title", "a text")
        if isinstance(players, str):
            raise WizardError(Problem("players: a list of names in seating order, not one text"))
        # (None is no name: empty, as a sheet's `~` would be); read no further than one past
        # what a game can have, so that an endless iterable of names ends
        given = list(itertools.islice(players, MAX_PLAYERS + 1))
        names = ["" if name is None else str(name) for name in given]
        if len(given) > MAX_PLAYERS:  # how many, as validation says it ("more than" unsized)
            sized = isinstance(players, Sized)
            names = Truncated(names, len(players) if sized else MAX_PLAYERS, exact=sized)
        records: list[RoundRecord] = []
        problems: list[Problem] = []
        for number, entry in enumerate(rounds, start=1):
            if number > MAX_ROUNDS + 1:  # past what a game can have: validation says so
                break
            record = _round_record(number, entry, len(names), problems)
            if record is not None:
                records.append(record)
        if problems:
            raise WizardError(*problems)
        sheet = Sheet(
            source=NEW_SOURCE,
            title=title,
            players=names,
            player_lines=[None] * len(names),  # (validation checks the names line by line)
            first_dealer=first_dealer,
            settings=layer,
            rounds=RoundColumns.of(records),
        )
        return _public(validated_game(sheet))


def _round_record(
    number: int, entry: Any, players: int, problems: list[Problem]
) -> RoundRecord | None:
    """One round given to :meth:`Game.new` as a record, or None with its problem noted."""
    try:
        given_bids, given_tricks = entry
        bids = list(itertools.islice(given_bids, players + 1))  # (one past: an endless one ends)
        tricks = None if given_tricks is None else list(itertools.islice(given_tricks, players + 1))
    except (TypeError, ValueError):
        problems.append(
            Problem(
                "a round is a pair (bids, tricks), each a list of whole numbers in seating order",
                round=number,
            )
        )
        return None
    for what, given, values in (("bids", given_bids, bids), ("tricks", given_tricks, tricks)):
        if values is not None and len(values) != players:
            many: int | str = len(given) if isinstance(given, Sized) else len(values)
            if not isinstance(given, Sized) and len(values) > players:
                many = f"more than {players}"  # (read no further)
            problems.append(Problem(f"{many} {what} for {players} players", round=number))
            return None
    lines: list[int | None] = [None] * players
    return RoundRecord(
        number,
        None,
        [_value(bid) for bid in bids],
        list(lines),
        None if tricks is None else [_value(took) for took in tricks],
        None if tricks is None else list(lines),
    )


def _value(value: object) -> Value:
    """A bid or tricks value given from Python: a whole number, None (not in yet), or a
    :class:`BadValue` (a flag, a float, text), reported as a sheet's is."""
    if value is None or type(value) is int:
        return value
    if not isinstance(value, bool) and hasattr(value, "__index__"):
        return operator.index(value)  # an int of another type (numpy's)
    return BadValue(visible(shorten(str(value), 12)))


@functools.cache
def _seated_kind() -> type[Game]:
    """The library's game with seating (SPEC §1): a :class:`Game` that deals, bids and scores
    as :class:`~wizard_cli.game.seated.SeatedGame` does. Made when a sheet with seating is
    first read: game/seated.py is loaded only then (start-up matters)."""
    from .game.seated import SeatedGame

    class _SeatedGame(SeatedGame, Game):
        """A valid game whose seating changes, as the library gives it."""

    _SeatedGame.__qualname__ = "_SeatedGame"  # (named as if made at the module's top)
    return _SeatedGame


def __getattr__(name: str) -> type[Game]:
    """``_SeatedGame``, made when first asked for (:func:`_seated_kind`): pickle finds a
    seated game's class by its module and name."""
    if name == "_SeatedGame":
        return _seated_kind()
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def _public(game: engine.Game) -> Game:
    """A validated game as the library's :class:`Game` (the same sheet, settings and dealer),
    of the seated kind when its sheet records seating (validation made a SeatedGame of it)."""
    kind = Game if game.sheet.seating is None else _seated_kind()
    return kind(game.sheet, game.settings, game.first_dealer)


class Problems(Sequence[Problem]):
    """Everything wrong with one invalid sheet: a sequence of :class:`Problem`, with the
    ``source`` and ``game`` of the sheet (each problem names the game). ``found`` holds them as
    they were found, each named only as its reader or check named it: what the command line
    says on stderr."""

    valid = False  # (what ``check``'s JSON says of the sheet)

    def __init__(self, source: str, game: str | int | None, problems: Iterable[Problem]) -> None:
        self.source, self.game = source, game
        self.found = list(problems)
        self.problems = [
            problem if problem.game == game else dataclasses.replace(problem, game=game)
            for problem in self.found
        ]

    def __getitem__(self, index: Any) -> Any:
        return self.problems[index]

    def __len__(self) -> int:
        return len(self.problems)

    def __repr__(self) -> str:
        return f"Problems({self.source!r}, {self.game!r}, {self.problems!r})"

    def __str__(self) -> str:
        """Every problem on its own line, as the command line says them."""
        return "\n".join(map(str, self.problems))

    def as_json(self) -> dict[str, Any]:
        """The sheet as ``check --format json`` prints it."""
        from .output.game_views import CheckOutput

        return CheckOutput().as_json(self)  # type: ignore[arg-type]


class Stats:
    """A season's figures per player (``wizard stats``): ``rows`` sorted by wins, then average
    score; ``season`` holds every figure."""

    __slots__ = ("season",)

    def __init__(self, season: Season) -> None:
        self.season = season

    @property
    def rows(self) -> list[PlayerStats]:
        return self.season.ranked()

    def as_json(self) -> list[dict[str, Any]]:
        """The list ``stats --format json`` prints."""
        from .output.season_views import StatsOutput

        view = StatsOutput()
        return [view.as_json(row) for row in self.rows]


class Ratings:
    """A season's openskill ratings (``wizard ratings``): ``rows`` by ordinal, highest first."""

    __slots__ = ("season",)

    def __init__(self, season: SeasonRatings) -> None:
        self.season = season

    @property
    def rows(self) -> list[RatingRow]:
        return self.season.table()

    def as_json(self) -> list[dict[str, Any]]:
        """The list ``ratings --format json`` prints."""
        from .output.ratings_views import RatingsOutput

        view = RatingsOutput()
        return [view.as_json(row) for row in self.rows]


# --- reading -------------------------------------------------------------------------------


@overload
def read(
    source: Source,
    *,
    settings: Settings | None = None,
    first_dealer: str | None = None,
    input_format: str | None = None,
    encoding: str | None = None,
    layers: Sequence[Sequence[RawSetting]] = (),
    runs: Literal[False] = False,
    notes: Callable[[Problem], object] | None = None,
    waiting: Callable[[], None] | None = None,
) -> Iterator[Game | Problems]: ...
@overload
def read(
    source: Source,
    *,
    settings: Settings | None = None,
    first_dealer: str | None = None,
    input_format: str | None = None,
    encoding: str | None = None,
    layers: Sequence[Sequence[RawSetting]] = (),
    runs: bool,
    notes: Callable[[Problem], object] | None = None,
    waiting: Callable[[], None] | None = None,
) -> Iterator[Game | Problems | CheckedRun]: ...
def read(
    source: Source,
    *,
    settings: Settings | None = None,
    first_dealer: str | None = None,
    input_format: str | None = None,
    encoding: str | None = None,
    layers: Sequence[Sequence[RawSetting]] = (),
    runs: bool = False,
    notes: Callable[[Problem], object] | None = None,
    waiting: Callable[[], None] | None = None,
) -> Iterator[Game | Problems | CheckedRun]:
    """Every game of a source, one at a time in flat memory: a :class:`Game` for each valid
    sheet, a :class:`Problems` for each invalid one. ``settings`` lie over each sheet's own (as
    ``--settings``); ``first_dealer`` as ``--first-dealer``; ``input_format`` ``yaml``,
    ``csv``, ``keepwiz`` or ``escalier`` (default: sniffed). A bad setting, format, encoding or
    path raises :class:`WizardError` here, at the call, before anything is read.

    What the command line needs besides (keyword-only, as the commands use them):
    ``encoding`` the text encoding (``--encoding``; default UTF-8, with or without a BOM);
    ``layers`` settings already checked, layer by layer, lying over ``settings`` (``--settings``
    then ``--set``/``--zero-bid``, as ``RawSetting`` lists); ``runs``: a long CSV's whole runs
    of finished valid games come as one :class:`~wizard_cli.game.runs.CheckedRun` each (its
    ``parts()`` give the games when it is not taken whole; the season lane); ``notes`` is told
    each thing a source skipped (not a problem of a sheet); ``waiting`` is called before the
    source waits on standard input (output held back can be sent first)."""
    _text_or_none(first_dealer, "first_dealer", "a player's name")
    _text_or_none(encoding, "encoding", "an encoding's name")
    own = [_settings_layer(settings)] if settings else []
    rules = SheetRules([*own, *layers], first_dealer, encoding)
    if input_format is not None and input_format not in INPUT_FORMATS:
        raise WizardError(
            Problem(f"input_format: '{input_format}' is not one of {', '.join(INPUT_FORMATS)}")
        )
    if encoding is not None:
        _check_encoding(encoding)
    batch = Inputs([], rules, input_format)
    if notes is not None:
        batch.report = functools.partial(_each, notes)
    if waiting is not None:
        batch.waiting = waiting
    if isinstance(source, (str, bytes, os.PathLike)):
        path = os.fsdecode(source)
        try:
            existing_files([path])
        except UsageError as error:
            raise WizardError(Problem(error.message)) from None
        batch.paths = [path]
        return _games(batch, runs, None)
    if not callable(getattr(source, "read", None)):
        raise TypeError(f"read() takes a path, '-' or a file object, not {type(source).__name__}")
    _check_readable(source)
    # (a file object's games come one by one, never as runs: a run's games would keep the
    # spooled copy's name, which is gone once read; runs are only a faster way to the same)
    return _spooled_games(source, batch, False)


def _each(notes: Callable[[Problem], object], problems: Iterable[Problem]) -> None:
    """Each of a batch's notes told to ``notes``."""
    for problem in problems:
        notes(problem)


def _check_encoding(encoding: str) -> None:
    """An encoding that is unknown, or no text encoding (rot13, hex), is refused at the call."""
    from .sheets.source import text_encoding

    try:
        text_encoding(encoding)
    except LookupError as error:
        raise WizardError(Problem(f"encoding: {error}")) from None


def _check_readable(handle: IO[Any]) -> None:
    """A file object that is closed, or open for writing only, is refused at the call."""
    readable = getattr(handle, "readable", None)
    try:
        closed = bool(getattr(handle, "closed", False))
        unreadable = not closed and callable(readable) and not readable()
    except ValueError:  # (what io's readable() says of a closed file)
        closed, unreadable = True, False
    if closed or unreadable:
        what = "closed" if closed else "not opened for reading"
        raise WizardError(Problem(f"cannot read: {what}", _name(handle)))


def _games(
    batch: Inputs, runs: bool, named: tuple[str, str] | None
) -> Iterator[Game | Problems | CheckedRun]:
    """The batch's sheets as games and problems, and its runs as they are (``named``: a spooled
    file's path, and the name to give it instead)."""
    for checked in batch.checked(runs):
        if isinstance(checked, CheckedRun):
            yield checked
        else:
            yield _item(checked, named)


def _item(checked: Checked, named: tuple[str, str] | None) -> Game | Problems:
    """One checked sheet as the library gives it."""
    if named is not None:
        checked = _renamed(checked, *named)
    if checked.validated is not None:
        return _public(checked.validated)
    return Problems(checked.source, checked.game, checked.problems)


def _renamed(checked: Checked, path: str, name: str) -> Checked:
    """A sheet read from a spooled copy, named as its file object is."""

    def problem(found: Problem) -> Problem:
        return dataclasses.replace(
            found,
            path=name if found.path == path else found.path,
            message=found.message.replace(path, name),
        )

    sheet = dataclasses.replace(checked.sheet, source=name)
    validated = checked.validated
    return dataclasses.replace(
        checked,
        sheet=sheet,
        problems=list(map(problem, checked.problems)),
        validated=None if validated is None else dataclasses.replace(validated, sheet=sheet),
    )


def _spooled_games(
    handle: IO[Any], batch: Inputs, runs: bool
) -> Iterator[Game | Problems | CheckedRun]:
    """A file object's games: copied a chunk at a time to a temporary file (flat memory; its
    bytes as they are, its text as UTF-8), read from there as any file is."""
    import tempfile

    name = getattr(handle, "name", None)
    name = name if isinstance(name, str) and name else STREAM_NAME
    suffix = os.path.splitext(name)[1] if name != STREAM_NAME else ""
    with tempfile.TemporaryDirectory(prefix="wizard-") as folder:
        path = os.path.join(folder, f"sheet{suffix}")
        with open(path, "wb") as spool:
            try:
                first = handle.read(SPOOL_CHUNK)
                if not isinstance(first, (str, bytes, bytearray)):  # (a non-blocking one: None)
                    raise TypeError(f"read(): the file object read {type(first).__name__}")
                left = _spool_limit(first, name, batch.input_format)
                if isinstance(first, str):
                    text = io.TextIOWrapper(
                        spool, encoding="utf-8", errors="surrogateescape", newline=""
                    )
                    text.write(first)
                    _copy(handle, text, left)
                    text.detach()
                else:
                    spool.write(first)
                    _copy(handle, spool, left)
            except (OSError, ValueError) as error:  # a read that fails half-way, a closed file
                reason = getattr(error, "strerror", None) or error
                raise WizardError(Problem(f"cannot read: {reason}", name)) from None
        batch.paths = [path]
        yield from _games(batch, runs, (path, name))


def _spool_limit(first: str | bytes | bytearray, name: str, input_format: str | None) -> int | None:
    """How much more of a stream to copy: a CSV (or another app's export) is read as it comes,
    however long; anything else is read whole by its reader, which refuses one past 64 MiB
    (SPEC §4), so one byte past that is enough (an endless stream is not copied forever)."""
    from .sheets.formats import SNIFF_BYTES, sniff_format
    from .sheets.source import MAX_YAML_BYTES

    if input_format is None:
        head = first[:SNIFF_BYTES]
        kind = sniff_format(
            name, head.encode("utf-8", "surrogatepass") if isinstance(head, str) else bytes(head)
        )
        input_format = kind.value
    if input_format not in ("yaml", "json"):
        return None
    return max(0, MAX_YAML_BYTES + 1 - len(first))  # (text: a character is a byte or more)


def _copy(handle: IO[Any], spool: IO[Any], left: int | None) -> None:
    """A stream copied a chunk at a time, ``left`` at most (None: to its end)."""
    while left is None or left > 0:
        chunk = handle.read(SPOOL_CHUNK if left is None else min(SPOOL_CHUNK, left))
        if not chunk:
            return
        spool.write(chunk)
        if left is not None:
            left -= len(chunk)


def load(
    source: Source,
    *,
    settings: Settings | None = None,
    first_dealer: str | None = None,
    input_format: str | None = None,
) -> Game:
    """The one game of a source, as :func:`read` reads it; raises :class:`WizardError` (its
    ``problems``) when the sheet is invalid, or the source holds no game or several."""
    items = read(source, settings=settings, first_dealer=first_dealer, input_format=input_format)
    first = next(items, None)
    if first is None:
        raise WizardError(Problem("holds no game", _name(source)))
    if next(items, None) is not None:
        raise WizardError(
            Problem("holds several games; load reads one (read gives each)", first.source)
        )
    if isinstance(first, Problems):
        raise WizardError(*first.problems)
    return first


def check(
    source: Source,
    *,
    settings: Settings | None = None,
    first_dealer: str | None = None,
    input_format: str | None = None,
) -> list[Problem]:
    """Every problem of every sheet of a source (``wizard check``: a valid sheet's typed
    ``points`` audited too), flat, in order; empty when all are valid."""
    from .game.validation import audit_points

    found: list[Problem] = []
    for item in read(
        source, settings=settings, first_dealer=first_dealer, input_format=input_format
    ):
        if isinstance(item, Problems):
            found += item
        else:
            found += Problems(item.source, item.game, audit_points(score_game(item)))
    return found


def _name(source: Source) -> str:
    """A source as messages name it."""
    if isinstance(source, (str, bytes, os.PathLike)):
        path = os.fsdecode(source)
        return "<stdin>" if path == STDIN else path
    name = getattr(source, "name", None)
    return name if isinstance(name, str) and name else STREAM_NAME


def _text_or_none(value: object, keyword: str, what: str) -> None:
    """A keyword that takes a text or None given anything else is a TypeError at the call."""
    if value is not None and not isinstance(value, str):
        raise TypeError(f"{keyword}: {what} or None, not {type(value).__name__}")


def _settings_layer(settings: Settings | None, checked: bool = True) -> list[RawSetting]:
    """Settings given from Python as one layer, each checked now (unless not ``checked``): a
    bad one raises :class:`WizardError` with the problem text the command line prints."""
    if settings is None:
        return []
    if not isinstance(settings, Mapping):
        raise WizardError(
            Problem(
                "settings: a mapping of settings by their keys, such as "
                "{'zeroBidScoring': 'doubleBonus'}"
            )
        )
    layer = [RawSetting(key, value) for key, value in settings.items()]
    problems = resolve([layer], None).problems if checked else []
    if problems:
        raise WizardError(*problems)
    return layer


# --- what the commands show --------------------------------------------------------------


def score(game: engine.Game) -> GameResult:
    """The game scored (``wizard score``): rounds, standings (``standings[0].player``, its
    ``score``) and status; ``as_json()`` is what ``score -f json`` prints, ``standings_json()``
    what ``standings -f json`` prints."""
    return score_game(_a_game(game, "score"))


def next_step(game: engine.Game) -> NextStep:
    """What happens next at the table (``wizard next``)."""
    return _a_game(game, "next_step").next_step()


def _a_game(game: object, call: str) -> engine.Game:
    """The game a call was given, or a TypeError saying what it takes."""
    if not isinstance(game, engine.Game):
        raise TypeError(
            f"{call}() takes a Game (from load, read or Game.new), not {type(game).__name__}"
        )
    return game


def compare(
    game: engine.Game,
    rule_sets: Iterable[Settings | str | RuleSet] = (),
    *,
    layers: Sequence[Sequence[RawSetting]] | None = None,
) -> Comparison:
    """The game under other rules (``wizard compare``): rule set 0 is the game's own; each
    entry of ``rule_sets`` adds one, settings by their keys (named by what they set, as
    ``--set``) or a built-in preset's name; with none, the ``official`` preset.

    For the command line (keyword-only and as it gives them): an entry may be a
    :class:`~wizard_cli.game.compare.RuleSet` as it is (``choose_rule_sets`` makes them, the
    user's presets included); ``layers`` are the settings the game was read with from outside
    its sheet (``--settings``), which each rule set lies over with the sheet's own (by default
    the game's effective settings stand for both)."""
    from .game.compare import (
        DEFAULT_PRESET,
        SHEET_RULES,
        RuleSet,
        command_line_name,
        compare_sheet,
        preset_catalogue,
        unknown_preset,
    )

    _a_game(game, "compare")
    if isinstance(rule_sets, (str, Mapping)):  # (iterated, one would be its letters or keys)
        raise TypeError(
            "rule_sets: a list of settings mappings or preset names, "
            f"such as [{rule_sets!r}], not one {type(rule_sets).__name__}"
        )
    catalogue = preset_catalogue()
    chosen = [RuleSet(SHEET_RULES)]
    for entry in rule_sets:
        if isinstance(entry, RuleSet):
            chosen.append(entry)
        elif isinstance(entry, str):
            if entry not in catalogue:
                raise WizardError(unknown_preset(entry, catalogue))
            preset = catalogue[entry]
            chosen.append(RuleSet(preset.name, preset.settings, preset.name))
        else:
            layer = _settings_layer(entry)
            chosen.append(RuleSet(command_line_name(layer), tuple(layer)))
    if len(chosen) == 1:
        official = catalogue[DEFAULT_PRESET]
        chosen.append(RuleSet(official.name, official.settings, official.name))
    if layers is not None:
        return compare_sheet(game, chosen, layers)
    # the game's effective settings stand for whatever layers it was read with
    own = [RawSetting(key, value) for key, value in game.settings.as_dict().items()]
    return compare_sheet(game, chosen, [own])


def _results(
    games: Iterable[engine.Game | GameResult | ScoredRun], call: str
) -> Iterator[GameResult | ScoredRun]:
    """Each game scored (a result as it is; so is a season lane's scored run, which the
    ``stats`` and ``ratings`` commands hand over for whole runs of a long CSV)."""
    for game in games:
        if isinstance(game, engine.Game):
            yield score_game(game)
        elif isinstance(game, (GameResult, ScoredRun)):
            yield game
        elif isinstance(game, Problems):  # an invalid sheet read() handed on: no figure without it
            raise WizardError(*game.problems)
        else:
            raise TypeError(f"{call}() takes Games (or their results), not {type(game).__name__}")


def stats(games: Iterable[engine.Game | GameResult | ScoredRun]) -> Stats:
    """A season's figures per player over the games, in order (``wizard stats``)."""
    from .game.stats import season_stats

    return Stats(season_stats(_results(games, "stats")))


def ratings(games: Iterable[engine.Game | GameResult | ScoredRun]) -> Ratings:
    """A season's openskill ratings from its finished games, in order (``wizard ratings``)."""
    from .game.ratings import season_ratings

    return Ratings(season_ratings(_results(games, "ratings")))
