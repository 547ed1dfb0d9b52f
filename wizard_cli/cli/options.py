"""The options the commands share.

Each option is declared once as an ``Annotated`` alias (as fastapi-cli does); :func:`rule_options`
gives a command the options every sheet command shares (as sqlite-utils' shared decorators).
The error boundary is :mod:`wizard_cli.cli.boundary`.
"""

from __future__ import annotations

import functools
import inspect
import re
from collections.abc import Callable
from enum import Enum
from typing import TYPE_CHECKING, Annotated

import typer

from ..app.batch import RuleOptions
from ..errors import visible
from ..sheets.formats import INPUT_FORMATS, WRITTEN_FORMATS
from .completion import complete_assignment, complete_preset, complete_zero_bid


class Choice(str, Enum):
    """The values of an option of fixed values (``choice``): ``str()`` of one is its value, as
    :class:`~wizard_cli.game.model.SheetFormat`'s. Typer before 0.29 hands an Enum option's
    parsed value back through ``str()`` to find its member: ``'Format.table'`` would find none."""

    def __str__(self) -> str:
        return self.value


class Format(Choice):
    """Output formats (``-f/--format``)."""

    table = "table"
    markdown = "markdown"
    csv = "csv"
    tsv = "tsv"
    json = "json"
    jsonl = "jsonl"


# How to read standard input (files are sniffed by extension and content): the formats that
# have a reader of their own, named as SheetFormat names them. (mypy follows an Enum made from
# a list no further than its base: to it, this and Target are Choice.)
if TYPE_CHECKING:
    InputFormat = Choice
else:
    InputFormat = Choice("InputFormat", [(name.value, name.value) for name in INPUT_FORMATS])


def choice(kind: type[Enum]) -> dict:
    """An option of fixed values: parsed so that a bad one reads as Click's own usage error,
    ``'xml' is not one of 'table', …`` (Typer 0.29's own Enum check adds "Value error, "),
    shown as ``<table|markdown|…>`` and completed by the shell."""
    values = [member.value for member in kind]

    def parse(value: object) -> Enum:
        if isinstance(value, kind):
            return value
        try:
            return kind(value)
        except ValueError:
            raise typer.BadParameter(
                f"{str(value)!r} is not one of {', '.join(map(repr, values))}."
            ) from None

    return {
        "parser": parse,
        "metavar": f"<{'|'.join(values)}>",
        "autocompletion": lambda incomplete: [v for v in values if v.startswith(incomplete)],
    }


def whole_number(low: int | None = None, high: int | None = None) -> Callable[[str], int]:
    """The parser of a whole-number option: what Typer 0.29 takes (spaces around, a sign,
    ``_`` between digits, a ``.0`` fraction) and its words for what it refuses, under every
    Typer (0.28 would say ``'x' is not a valid int.``). The bounds, when given, are the
    option's own: Typer checks no ``min``/``max`` of an option with a parser."""

    def parse(value: object) -> int:
        if isinstance(value, int):
            number = value
        elif (digits := _WHOLE_NUMBER.fullmatch(str(value).strip())) is None or len(
            digits.group(1)
        ) > _MOST_DIGITS:  # (int() refuses past 4,300 digits)
            raise typer.BadParameter(
                "Input should be a valid integer, unable to parse string as an integer"
            )
        else:
            number = int(digits.group(1))
        if low is not None and number < low:
            raise typer.BadParameter(f"Input should be greater than or equal to {low}")
        if high is not None and number > high:
            raise typer.BadParameter(f"Input should be less than or equal to {high}")
        return number

    return parse


_WHOLE_NUMBER = re.compile(r"([+-]?[0-9](?:_?[0-9])*)(?:\.0+)?")
_MOST_DIGITS = 4000  # characters of a whole number taken (a longer one is no option's value)


SheetArgs = Annotated[
    list[str],
    typer.Argument(
        metavar="SHEET",
        show_default=False,
        help="Score sheets: YAML/JSON (a --- stream is a season) or CSV (long or wide); - for stdin.",
    ),
]
FormatOpt = Annotated[
    Format,
    typer.Option(
        "--format", "-f", **choice(Format), help="table, markdown, csv, tsv, json or jsonl."
    ),
]
SetOpt = Annotated[
    list[str] | None,
    typer.Option(
        "--set",
        metavar="KEY=VALUE",
        show_default=False,
        autocompletion=complete_assignment,
        help="Override one setting (repeatable); `wizard rules` lists them.",
    ),
]
SettingsOpt = Annotated[
    str | None,
    typer.Option(
        "--settings",
        metavar="FILE",
        help="A YAML file of settings (or a sheet whose settings to use).",
    ),
]
ZeroBidOpt = Annotated[
    str | None,
    typer.Option(
        "--zero-bid",
        metavar="Z",
        autocompletion=complete_zero_bid,
        help="Same as --set zeroBidScoring=Z (flatBonus, doubleBonus, perCardBonus).",
    ),
]
FirstDealerOpt = Annotated[
    str | None,
    typer.Option(
        "--first-dealer",
        metavar="NAME",
        help="Who dealt round 1 (default: the sheet's, else the first player).",
    ),
]
InputFormatOpt = Annotated[
    InputFormat | None,
    typer.Option(
        "--input-format", **choice(InputFormat), help="Format of standard input (default: sniffed)."
    ),
]
EncodingOpt = Annotated[
    str | None,
    typer.Option(
        "--encoding",
        metavar="NAME",
        help="Text encoding of the sheets (default UTF-8, with or without BOM).",
    ),
]

PresetOpt = Annotated[
    list[str] | None,
    typer.Option(
        "--preset",
        metavar="NAME",
        show_default=False,
        autocompletion=complete_preset,
        help="Compare under a preset too (repeatable): official, doubleZero, screwTheDealer, "
        "canadian, perfectGame, or one of --presets FILE.",
    ),
]
PresetsFileOpt = Annotated[
    str | None,
    typer.Option(
        "--presets",
        metavar="FILE",
        help="A YAML file of your own presets: name: {setting: value, …}.",
    ),
]
RoundsOpt = Annotated[
    bool,
    typer.Option("--rounds", help="Also show the round points that differ between the rule sets."),
]


class By(Choice):
    """``stats --by``: the groupings of SPEC §5."""

    handSize = "handSize"
    position = "position"
    opponent = "opponent"


ByOpt = Annotated[
    By | None,
    typer.Option(
        "--by",
        **choice(By),
        help="A row per player per hand size, bidding position (1 = the dealer's left), or "
        "opponent (head to head over finished games).",
    ),
]
SinceOpt = Annotated[
    str | None,
    typer.Option(
        "--since",
        metavar="DATE",
        help="Only games on or after DATE (YYYY-MM-DD); undated games are then left out.",
    ),
]
UntilOpt = Annotated[
    str | None,
    typer.Option(
        "--until",
        metavar="DATE",
        help="Only games on or before DATE (YYYY-MM-DD); undated games are then left out.",
    ),
]
PlayerOpt = Annotated[
    list[str] | None,
    typer.Option(
        "--player",
        metavar="NAME",
        show_default=False,
        help="Only games in which NAME sat (repeatable: all of them); case and spaces aside.",
    ),
]

OutputFileOpt = Annotated[
    str | None,
    typer.Option(
        "--output",
        "-o",
        metavar="FILE",
        help="Write to FILE instead of standard output (never over an existing file without --force).",
    ),
]
ForceOpt = Annotated[bool, typer.Option("--force", help="Overwrite the output file if it exists.")]


InPlaceSheet = Annotated[
    str,
    typer.Argument(
        metavar="SHEET", help="A YAML score sheet, changed in place (comments and layout kept)."
    ),
]
BidsOpt = Annotated[
    str | None,
    typer.Option(
        "--bids",
        metavar="VALUES",
        help="Bids in seating order (1,0,2,1; - for a player still to bid), in bidding order with "
        "--bidding-order, or by name (Anna=1,Ben=0).",
    ),
]
TricksOpt = Annotated[
    str | None,
    typer.Option(
        "--tricks", metavar="VALUES", help="Tricks taken, in seating (or bidding) order or by name."
    ),
]
BiddingOrderOpt = Annotated[
    bool,
    typer.Option(
        "--bidding-order",
        help="A list of values is in bidding order, from the dealer's left, as "
        "bids are called out (a shorter list: the first bidders').",
    ),
]
BombOpt = Annotated[
    bool,
    typer.Option(
        "--bomb",
        help="The Bomb fell in this round (with --tricks, which then add up to the hand "
        "size less one; specialCards).",
    ),
]
CloudOpt = Annotated[
    str | None,
    typer.Option(
        "--cloud",
        metavar="NAME=±1",
        help="The Cloud: who took its trick and how their bid changed "
        "(NAME=+1 or NAME=-1; specialCards).",
    ),
]
BombEditOpt = Annotated[
    bool | None,
    typer.Option(
        "--bomb/--no-bomb", help="Give the round the Bomb, or take it away (specialCards)."
    ),
]
NoCloudOpt = Annotated[bool, typer.Option("--no-cloud", help="Take the round's Cloud away.")]
RoundOpt = Annotated[
    int,
    typer.Option(
        "--round",
        metavar="N",
        show_default=False,
        parser=whole_number(),
        help="The round to change (a completed one or the round in play).",
    ),
]
QuietOpt = Annotated[bool, typer.Option("--quiet", "-q", help="Print nothing after the change.")]
PlaySheet = Annotated[
    str,
    typer.Argument(
        metavar="SHEET", help="The YAML sheet to record into (made with --players if missing)."
    ),
]
NewPlayersOpt = Annotated[
    list[str] | None,
    typer.Option(
        "--players",
        metavar="A,B,C...",
        show_default=False,
        help="Start a new sheet: the players in seating order (clockwise), 3 to 6.",
    ),
]
TitleOpt = Annotated[
    str | None, typer.Option("--title", metavar="TEXT", help="A title for the game.")
]
DateOpt = Annotated[
    str | None,
    typer.Option("--date", metavar="YYYY-MM-DD", help="The day of the game.  [default: today]"),
]
NoDateOpt = Annotated[bool, typer.Option("--no-date", help="Write no date.")]
PlaceOpt = Annotated[
    str | None, typer.Option("--place", metavar="TEXT", help="Where the game is played.")
]


def new_date(date: str | None, no_date: bool) -> str | None:
    """A new sheet's date (SPEC §5 "Games are dated"): ``--date``'s, none with ``--no-date``,
    else today's; both at once is a usage error (exit 2)."""
    if no_date:
        if date is not None:
            raise typer.BadParameter(
                "give --date or --no-date, not both", param_hint="--date/--no-date"
            )
        return None
    from ..sheets.blank import sheet_date

    return sheet_date(date)


def player_names(players: list[str]) -> list[str]:
    """``--players A,B --players C`` → ['A', 'B', 'C'] (names trimmed). A name with bytes the
    terminal's encoding could not decode is refused: it could not be written as text."""
    names = [name.strip() for option in players for name in option.split(",")]
    for name in names:
        try:
            name.encode("utf-8")
        except UnicodeEncodeError:
            shown = visible(name.encode("utf-8", "backslashreplace").decode())
            raise typer.BadParameter(
                f"'{shown}' is not valid text (a byte the terminal's encoding cannot read)",
                param_hint="--players",
            ) from None
    return names


def changed_sheet(sheet: str, command: str, bids: str | None = "", tricks: str | None = "") -> str:
    """The sheet a command changes in place: a file's path, never standard input; ``add`` and
    ``edit`` need values to record."""
    if bids is None and tricks is None:
        raise typer.BadParameter("give --bids or --tricks (or both)", param_hint="--bids/--tricks")
    if sheet == "-":
        raise typer.BadParameter(
            f"{command} edits a file in place: give its path, not -", param_hint="SHEET"
        )
    return sheet


# What ``convert`` writes: every sheet format with a writer (another app's export is read only).
if TYPE_CHECKING:
    Target = Choice
else:
    Target = Choice("Target", [(name.value, name.value) for name in WRITTEN_FORMATS])


# Each command's help ends with real examples (as sqlite-utils' do), run from the repository
# root by tests/test_conventions.py; `\b` keeps Click from rewrapping them.
EXAMPLES = {
    "score": [
        "wizard score sample_sheets/worked-example.yaml",
        "wizard score sample_sheets/season.csv -f jsonl",
        "wizard score sample_sheets/worked-example-long.csv --set roundMode=custom",
    ],
    "standings": [
        "wizard standings sample_sheets/season.csv",
        "wizard standings sample_sheets/worked-example.yaml -f json",
    ],
    "check": [
        "wizard check sample_sheets/worked-example.yaml",
        "wizard check sample_sheets/season.csv sample_sheets/worked-example-wide.csv -f json",
    ],
    "next": [
        "wizard next sample_sheets/six-players-in-progress.yaml",
        "wizard next sample_sheets/six-players-in-progress.yaml -f json",
    ],
    "trick": [
        "wizard trick 10H QS W",
        "wizard trick 3C KC 2S --trump S",
        "wizard trick 9.75S Bomb AS --trump H",
    ],
    "stats": [
        "wizard stats sample_sheets/season.csv",
        "wizard stats sample_sheets/season.csv --by handSize -f csv",
    ],
    "ratings": [
        "wizard ratings sample_sheets/season.csv",
        "wizard ratings sample_sheets/season.csv --history -f jsonl",
    ],
    "plot": [
        "wizard plot sample_sheets/worked-example.yaml -o game.png",
        "wizard plot sample_sheets/season.csv --ratings -o ratings.svg",
    ],
    "compare": [
        "wizard compare sample_sheets/worked-example.yaml",
        "wizard compare sample_sheets/worked-example.yaml --preset doubleZero",
        "wizard compare sample_sheets/worked-example.yaml --zero-bid perCardBonus --rounds",
    ],
    "rules": ["wizard rules", "wizard rules -f json"],
    "new": [
        "wizard new --players Anna,Ben,Cara -o friday.yaml",
        "wizard new --players Anna,Ben,Cara,Dan --set roundMode=custom",
    ],
    "add": ["wizard add friday.yaml --bids 1,0,0", "wizard add friday.yaml --tricks 1,0,0"],
    "edit": ["wizard edit friday.yaml --round 1 --tricks 0,1,0"],
    "join": ["wizard join friday.yaml Dan --start-score lowest"],
    "leave": ["wizard leave friday.yaml Cara"],
    "undo": ["wizard undo friday.yaml"],
    "play": ["wizard play friday.yaml", "wizard play saturday.yaml --players Anna,Ben,Cara,Dan"],
    "serve": ["wizard serve friday.yaml", "wizard serve friday.yaml --host 0.0.0.0 --entry"],
    "convert": [
        "wizard convert sample_sheets/worked-example.yaml --to wide-csv",
        "wizard convert sample_sheets/season.csv -o season.yaml",
    ],
}


def examples(command: str) -> str:
    """The end of a command's help: its examples, one a line, as written."""
    return "Examples:\n\n\b\n" + "\n".join(EXAMPLES[command])


_SHARED_OPTIONS = {
    "set": ("assignments", SetOpt),
    "settings": ("settings_file", SettingsOpt),
    "zero_bid": ("zero_bid", ZeroBidOpt),
    "first_dealer": ("first_dealer", FirstDealerOpt),
    "input_format": ("input_format", InputFormatOpt),
    "encoding": ("encoding", EncodingOpt),
}


def rule_options(*names: str) -> Callable[[Callable], Callable]:
    """Give a command the shared options (all, or those named), handed over as one ``rules``.

    One definition for every command, like sqlite-utils' shared output-option decorator: the
    options are appended to the command's signature, which is what Typer reads.
    """
    chosen = {name: _SHARED_OPTIONS[name] for name in names or _SHARED_OPTIONS}

    def decorate(command: Callable) -> Callable:
        signature = inspect.signature(command, eval_str=True)
        own = [p for p in signature.parameters.values() if p.name != "rules"]
        shared = [
            inspect.Parameter(
                name, inspect.Parameter.KEYWORD_ONLY, default=None, annotation=annotation
            )
            for name, (_, annotation) in chosen.items()
        ]

        @functools.wraps(command)
        def run(*args, **kwargs):
            given = {field: kwargs.pop(name) for name, (field, _) in chosen.items()}
            if isinstance(given.get("input_format"), Enum):
                given["input_format"] = given["input_format"].value
            return command(*args, rules=RuleOptions(**given), **kwargs)

        # typeshed's functions have no __signature__, which inspect.signature (so Typer) reads
        run.__signature__ = signature.replace(parameters=own + shared)  # type: ignore[attr-defined]
        return run

    return decorate
