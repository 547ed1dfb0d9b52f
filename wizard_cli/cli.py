"""The command line: parse arguments, call the core, render, exit. No rule lives here.

Domain errors (:class:`WizardError`) become located lines on stderr and exit code 1; usage
errors are Click's, exit code 2.
"""

from __future__ import annotations

import codecs
import functools
import gc
import os
import sys
from dataclasses import dataclass, field
from enum import Enum
from typing import Annotated, Callable, Iterable, Iterator, Optional

import typer

from . import __version__
from .errors import Problem, WizardError
from .model import Sheet
from .reading import STDIN, read_settings_file, read_sheets
from .render import (CheckOutput, NextOutput, Output, ScoreOutput, StandingsOutput, TrickOutput,
                     emit)
from .scoring import GameResult, score_game
from .settings import RawSetting, parse_assignment, resolve
from .validation import Checked, audit_points, check_sheet

EXIT_DATA = 1
EXIT_INTERRUPTED = 130
EXIT_PIPE_CLOSED = 141

app = typer.Typer(
    name="wizard",
    help="Score Wizard card-game score sheets: check them against your house rules, "
         "print the rounds and standings, and see how other rules would have changed the result.",
    rich_markup_mode=None,
    pretty_exceptions_enable=False,
    add_completion=False,
    no_args_is_help=True,
    context_settings={"help_option_names": ["-h", "--help"]},
)


class Format(str, Enum):
    """Output formats (``-f/--format``)."""

    table = "table"
    markdown = "markdown"
    csv = "csv"
    tsv = "tsv"
    json = "json"
    jsonl = "jsonl"


class InputFormat(str, Enum):
    """How to read standard input (files are sniffed by extension and content)."""

    yaml = "yaml"
    csv = "csv"


SheetArgs = Annotated[list[str], typer.Argument(
    metavar="SHEET...", show_default=False,
    help="Score sheets: YAML/JSON (a --- stream is a season) or CSV (long or wide); - for stdin.")]
FormatOpt = Annotated[Format, typer.Option(
    "--format", "-f", help="table, markdown, csv, tsv, json or jsonl.")]
SetOpt = Annotated[Optional[list[str]], typer.Option(
    "--set", metavar="KEY=VALUE", show_default=False,
    help="Override one setting (repeatable); `wizard rules` lists them.")]
SettingsOpt = Annotated[Optional[str], typer.Option(
    "--settings", metavar="FILE", help="A YAML file of settings (or a sheet whose settings to use).")]
ZeroBidOpt = Annotated[Optional[str], typer.Option(
    "--zero-bid", metavar="Z", help="Same as --set zeroBidScoring=Z (flatBonus, doubleBonus, perCardBonus).")]
FirstDealerOpt = Annotated[Optional[str], typer.Option(
    "--first-dealer", metavar="NAME", help="Who dealt round 1 (default: the sheet's, else the first player).")]
InputFormatOpt = Annotated[Optional[InputFormat], typer.Option(
    "--input-format", help="Format of standard input (default: sniffed).")]
EncodingOpt = Annotated[Optional[str], typer.Option(
    "--encoding", metavar="NAME", help="Text encoding of the sheets (default UTF-8, with or without BOM).")]

_state = {"debug": False}


# --- the edge: errors, pipes, Ctrl-C --------------------------------------------------------

def report(problems: Iterable[Problem]) -> None:
    """Each problem on its own line on stderr."""
    for problem in problems:
        sys.stderr.write(f"{problem}\n")


def _silence_stdout() -> None:
    """After the reader of a pipe has gone, send the rest of stdout nowhere (no noise at exit)."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError, AttributeError):
        pass


def edge(command: Callable) -> Callable:
    """Turn what a command raises into exit codes: data errors 1, Ctrl-C 130, a closed pipe quiet."""

    @functools.wraps(command)
    def run(*args, **kwargs):
        try:
            return command(*args, **kwargs)
        except WizardError as error:
            report(error.problems)
            raise typer.Exit(EXIT_DATA) from None
        except BrokenPipeError:
            _silence_stdout()
            raise typer.Exit(EXIT_PIPE_CLOSED) from None
        except KeyboardInterrupt:
            raise typer.Exit(EXIT_INTERRUPTED) from None
        except Exception as error:  # the last line of defence: one line, never a traceback
            if _state["debug"] or isinstance(error, (typer.Exit, typer.Abort)) or \
                    type(error).__module__.startswith("click"):
                raise
            sys.stderr.write(f"wizard: internal error: {type(error).__name__}: {error} "
                             "(rerun with --debug to see the traceback)\n")
            raise typer.Exit(EXIT_DATA) from None

    return run


def _version(value: bool) -> None:
    """``--version``."""
    if value:
        sys.stdout.write(f"wizard {__version__}\n")
        raise typer.Exit()


@app.callback()
def _main(
    version: Annotated[bool, typer.Option("--version", callback=_version, is_eager=True,
                                          help="Show the version and exit.")] = False,
    debug: Annotated[bool, typer.Option("--debug", help="Show the traceback of an internal error.")] = False,
) -> None:
    """Score Wizard card-game score sheets."""
    _state["debug"] = debug


# --- inputs shared by the commands -------------------------------------------------------

@dataclass
class Inputs:
    """Where the sheets come from and the rules given outside them, read once for all sheets."""

    paths: list[str]
    layers: list[list[RawSetting]] = field(default_factory=list)
    first_dealer: str | None = None
    input_format: str | None = None
    encoding: str | None = None
    failed: bool = False

    def checked(self) -> Iterator[Checked]:
        """Every sheet of every source, validated; a source that cannot be read is one failure."""
        for path in self.paths:
            try:
                for sheet in read_sheets(path, self.input_format, self.encoding):
                    yield check_sheet(sheet, self.layers, self.first_dealer)
            except WizardError as error:
                yield Checked(Sheet(source=error.problems[0].path or path), DEFAULT_SETTINGS, 0,
                              error.problems)

    def scored(self) -> Iterator[GameResult]:
        """Every valid sheet scored; the problems of the others go to stderr (and set ``failed``)."""
        for checked in self.checked():
            if checked.valid:
                yield score_game(checked.sheet, checked.settings, checked.first_dealer)
            else:
                self.fail(checked.problems)

    def fail(self, problems: Iterable[Problem]) -> None:
        """Report problems on stderr; the command will exit 1."""
        self.failed = True
        report(problems)


from .settings import DEFAULTS as DEFAULT_SETTINGS  # noqa: E402


def existing_files(paths: Iterable[str]) -> None:
    """A missing sheet file is a usage error (exit 2), found before any output."""
    for path in paths:
        if path != STDIN and not os.path.isfile(path):
            raise typer.BadParameter(f"no such file: {path}", param_hint="SHEET")


def rule_layers(settings_file: str | None, assignments: list[str] | None,
                zero_bid: str | None) -> list[list[RawSetting]]:
    """``--settings`` then ``--set``/``--zero-bid``, each checked once for type and range."""
    layers: list[list[RawSetting]] = []
    if settings_file is not None:
        existing_files([settings_file])
        layers.append(read_settings_file(settings_file))
    command_line = [parse_assignment(text) for text in assignments or ()]
    if zero_bid is not None:
        command_line.append(RawSetting("zeroBidScoring", zero_bid, from_text=True))
    layers.append(command_line)
    problems = resolve(layers, None).problems
    if problems:
        raise WizardError(*problems)
    return layers


def inputs(paths: list[str], settings_file: str | None = None, assignments: list[str] | None = None,
           zero_bid: str | None = None, first_dealer: str | None = None,
           input_format: InputFormat | None = None, encoding: str | None = None) -> Inputs:
    """Check the command's inputs up front: usage errors exit 2, bad settings exit 1."""
    existing_files(paths)
    if encoding is not None:
        try:
            codecs.lookup(encoding)
        except LookupError:
            raise typer.BadParameter(f"unknown encoding: {encoding}", param_hint="--encoding") from None
    return Inputs(paths, rule_layers(settings_file, assignments, zero_bid), first_dealer,
                  input_format.value if input_format else None, encoding)


def show(output: Output, items: Iterable, fmt: Format, several: bool = False) -> None:
    """Render items to stdout in the chosen format."""
    emit(output, items, fmt.value, sys.stdout, several)


def finish(source: Inputs) -> None:
    """Exit 1 if any sheet was invalid."""
    if source.failed:
        raise typer.Exit(EXIT_DATA)


# --- commands ----------------------------------------------------------------------------

@app.command()
@edge
def score(sheets: SheetArgs, format: FormatOpt = Format.table, set: SetOpt = None,
          settings: SettingsOpt = None, zero_bid: ZeroBidOpt = None,
          first_dealer: FirstDealerOpt = None, input_format: InputFormatOpt = None,
          encoding: EncodingOpt = None) -> None:
    """Round-by-round scores, totals, standings and whether the game is over."""
    source = inputs(sheets, settings, set, zero_bid, first_dealer, input_format, encoding)
    show(ScoreOutput(), source.scored(), format, len(sheets) > 1)
    finish(source)


@app.command()
@edge
def standings(sheets: SheetArgs, format: FormatOpt = Format.table, set: SetOpt = None,
              settings: SettingsOpt = None, zero_bid: ZeroBidOpt = None,
              first_dealer: FirstDealerOpt = None, input_format: InputFormatOpt = None,
              encoding: EncodingOpt = None) -> None:
    """The standings alone: rank, player, score."""
    source = inputs(sheets, settings, set, zero_bid, first_dealer, input_format, encoding)
    show(StandingsOutput(), source.scored(), format, len(sheets) > 1)
    finish(source)


@app.command()
@edge
def check(sheets: SheetArgs, format: FormatOpt = Format.table, set: SetOpt = None,
          settings: SettingsOpt = None, zero_bid: ZeroBidOpt = None,
          first_dealer: FirstDealerOpt = None, input_format: InputFormatOpt = None,
          encoding: EncodingOpt = None) -> None:
    """Validate sheets (and audit typed points): ok per valid sheet, every problem on stderr."""
    source = inputs(sheets, settings, set, zero_bid, first_dealer, input_format, encoding)

    def audited() -> Iterator[Checked]:
        for checked in source.checked():
            if checked.valid:
                result = score_game(checked.sheet, checked.settings, checked.first_dealer)
                checked.problems += audit_points(checked, result)
            if not checked.valid:
                source.fail(checked.problems)
            yield checked

    show(CheckOutput(), audited(), format, len(sheets) > 1)
    finish(source)


@app.command("next")
@edge
def next_(sheet: Annotated[str, typer.Argument(metavar="SHEET", help="A score sheet; - for stdin.")],
          format: FormatOpt = Format.table, set: SetOpt = None, settings: SettingsOpt = None,
          zero_bid: ZeroBidOpt = None, first_dealer: FirstDealerOpt = None,
          input_format: InputFormatOpt = None, encoding: EncodingOpt = None) -> None:
    """What happens next at the table: round, dealer, bidding order, who bids, forbidden bid."""
    source = inputs([sheet], settings, set, zero_bid, first_dealer, input_format, encoding)
    show(NextOutput(), source.scored(), format)
    finish(source)


@app.command()
@edge
def trick(cards: Annotated[list[str], typer.Argument(
              metavar="CARD...", help="Cards in the order played: 10H, QS, W (Wizard), J (Jester).")],
          trump: Annotated[str, typer.Option("--trump", metavar="SUIT",
                                             help="Trump suit S, H, D, C, or none.")] = "none",
          format: FormatOpt = Format.table) -> None:
    """Who wins a trick: the first Wizard, else the highest trump, else the highest of the suit led."""
    from .trick import winning_card

    show(TrickOutput(), [winning_card(cards, trump)], format)


def main() -> None:
    """Console entry point: run the app; a closed pipe or Ctrl-C ends quietly."""
    # What start-up built (Typer, Click, Pydantic) lives until exit: keep the garbage
    # collector from walking it again and again while a season streams through.
    gc.freeze()
    status: int | str | None = 0
    try:
        app(prog_name="wizard")
    except SystemExit as exit_:
        status = exit_.code
    except KeyboardInterrupt:
        status = EXIT_INTERRUPTED
    try:
        sys.stdout.flush()
    except BrokenPipeError:
        _silence_stdout()
        status = EXIT_PIPE_CLOSED
    sys.exit(status)
