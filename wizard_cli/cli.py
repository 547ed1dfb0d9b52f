"""The command line: parse arguments, call the core, render, exit. No rule lives here.

Domain errors (:class:`WizardError`) become located lines on stderr and exit code 1; usage
errors are Click's, exit code 2.
"""

from __future__ import annotations

import dataclasses
import errno
import functools
import gc
import inspect
import io
import os
import sys
from dataclasses import dataclass, field
from itertools import islice
from enum import Enum
from typing import TYPE_CHECKING, Annotated, Callable, Iterable, Iterator, Optional

import typer

from . import __version__
from .errors import Problem, WizardError
from .game.model import Sheet
from .sheets.reading import STDIN, display_name, read_presets_file, read_settings_file, read_sheets
from .output.render import (CheckOutput, CompareOutput, NextOutput, Output, RulesOutput, ScoreOutput,
                     StandingsOutput, TrickOutput, emit, emit_stats, status_line)
from .game.scoring import GameResult, score_game
from .game.settings import DEFAULTS as DEFAULT_SETTINGS
from .game.settings import RawSetting, parse_assignment, resolve
from .game.validation import Checked, audit_points, check_sheet

if TYPE_CHECKING:
    from .game.compare import Preset

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
    metavar="SHEET", show_default=False,
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


@dataclass(frozen=True)
class RuleOptions:
    """The options every sheet command shares: rules given outside the sheet, how to read it."""

    assignments: list[str] | None = None  # --set KEY=VALUE…
    settings_file: str | None = None  # --settings FILE
    zero_bid: str | None = None
    first_dealer: str | None = None
    input_format: InputFormat | None = None
    encoding: str | None = None


_SHARED_OPTIONS = {"set": ("assignments", SetOpt), "settings": ("settings_file", SettingsOpt),
                   "zero_bid": ("zero_bid", ZeroBidOpt), "first_dealer": ("first_dealer", FirstDealerOpt),
                   "input_format": ("input_format", InputFormatOpt), "encoding": ("encoding", EncodingOpt)}


def rule_options(*names: str) -> Callable[[Callable], Callable]:
    """Give a command the shared options (all, or those named), handed over as one ``rules``.

    One definition for every command, like sqlite-utils' shared output-option decorator: the
    options are appended to the command's signature, which is what Typer reads.
    """
    chosen = {name: _SHARED_OPTIONS[name] for name in names or _SHARED_OPTIONS}

    def decorate(command: Callable) -> Callable:
        signature = inspect.signature(command, eval_str=True)
        own = [p for p in signature.parameters.values() if p.name != "rules"]
        shared = [inspect.Parameter(name, inspect.Parameter.KEYWORD_ONLY, default=None,
                                    annotation=annotation)
                  for name, (_, annotation) in chosen.items()]

        @functools.wraps(command)
        def run(*args, **kwargs):
            given = {field: kwargs.pop(name) for name, (field, _) in chosen.items()}
            return command(*args, rules=RuleOptions(**given), **kwargs)

        run.__signature__ = signature.replace(parameters=own + shared)
        return run

    return decorate


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
        except OSError as error:  # reading is the core's (WizardError): this is the output failing
            _output_failed(error)
            raise typer.Exit(EXIT_DATA) from None
        except typer.BadParameter:
            raise  # a usage error: Click prints it with the usage line and exits 2
        except Exception as error:  # the last line of defence: one line, never a traceback
            # Typer ≥ 0.16 vendors Click as typer._click, so both module names are Click's own.
            if _state["debug"] or isinstance(error, (typer.Exit, typer.Abort)) or \
                    type(error).__module__.split(".")[0] in ("click", "typer"):
                raise
            sys.stderr.write(f"wizard: internal error: {type(error).__name__}: {_one_line(error)} "
                             "(rerun as `wizard --debug …` to see the traceback)\n")
            raise typer.Exit(EXIT_DATA) from None

    return run


def _one_line(error: Exception) -> str:
    """An exception's text on one short line, for the internal-error message."""
    text = " ".join(str(error).split())
    return text if len(text) <= 200 else text[:200] + "…"


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


def existing_files(paths: Iterable[str], param_hint: str = "SHEET") -> None:
    """A missing or unreadable input file is a usage error (exit 2), found before any output."""
    for path in paths:
        if path == STDIN:
            continue
        if not os.path.exists(path):
            raise typer.BadParameter(f"no such file: {path}", param_hint=param_hint)
        if not os.path.isfile(path):
            raise typer.BadParameter(f"not a file: {path}", param_hint=param_hint)
        if not os.access(path, os.R_OK):
            raise typer.BadParameter(f"cannot read: {path} (permission denied)",
                                     param_hint=param_hint)


def rule_layers(rules: RuleOptions) -> list[list[RawSetting]]:
    """``--settings`` then ``--set``/``--zero-bid``, each checked once for type and range."""
    layers: list[list[RawSetting]] = []
    if rules.settings_file is not None:
        existing_files([rules.settings_file], "--settings")
        layers.append(read_settings_file(rules.settings_file))
    command_line = [parse_assignment(text) for text in rules.assignments or ()]
    if rules.zero_bid is not None:
        command_line.append(RawSetting("zeroBidScoring", rules.zero_bid, from_text=True))
    layers.append(command_line)
    problems = resolve(layers, None).problems
    if problems:
        raise WizardError(*problems)
    return layers


def inputs(paths: list[str], rules: RuleOptions) -> Inputs:
    """Check the command's inputs up front: usage errors exit 2, bad settings exit 1."""
    from .sheets.reading import text_encoding

    existing_files(paths)
    if rules.encoding is not None:
        try:
            text_encoding(rules.encoding)
        except LookupError as error:  # unknown, or no text encoding (rot13, hex)
            raise typer.BadParameter(str(error), param_hint="--encoding") from None
    return Inputs(paths, rule_layers(rules), rules.first_dealer,
                  rules.input_format.value if rules.input_format else None, rules.encoding)


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
@rule_options()
def score(sheets: SheetArgs, format: FormatOpt = Format.table, *, rules: RuleOptions) -> None:
    """Round-by-round scores, totals, standings and whether the game is over."""
    source = inputs(sheets, rules)
    show(ScoreOutput(), source.scored(), format, len(sheets) > 1)
    finish(source)


@app.command()
@edge
@rule_options()
def standings(sheets: SheetArgs, format: FormatOpt = Format.table, *, rules: RuleOptions) -> None:
    """The standings alone: rank, player, score."""
    source = inputs(sheets, rules)
    show(StandingsOutput(), source.scored(), format, len(sheets) > 1)
    finish(source)


@app.command()
@edge
@rule_options()
def check(sheets: SheetArgs, format: FormatOpt = Format.table, *, rules: RuleOptions) -> None:
    """Validate sheets (and audit typed points): ok per valid sheet, every problem on stderr."""
    source = inputs(sheets, rules)

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
@rule_options()
def next_(sheet: Annotated[str, typer.Argument(metavar="SHEET", help="A score sheet; - for stdin.")],
          format: FormatOpt = Format.table, *, rules: RuleOptions) -> None:
    """What happens next at the table: round, dealer, bidding order, who bids, forbidden bid."""
    source = inputs([sheet], rules)
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
    from .game.trick import winning_card

    show(TrickOutput(), [winning_card(cards, trump)], format)


@app.command()
@edge
@rule_options()
def stats(sheets: SheetArgs, format: FormatOpt = Format.table, *, rules: RuleOptions) -> None:
    """Per player across games: wins, scores, bid accuracy.

    Games, wins and scores count finished games (a shared first place is a win for each); bid
    figures count every completed round, also those of unfinished games. Sorted by wins, then
    average score. In JSON/CSV averages are rounded to 2 decimals and bidAccuracy (a fraction)
    to 4; a figure with nothing to average is null (empty in CSV).
    """
    from .game.stats import season_stats

    source = inputs(sheets, rules)
    emit_stats(season_stats(source.scored()), format.value, sys.stdout)
    finish(source)


@app.command()
@edge
@rule_options()
def plot(sheet: Annotated[str, typer.Argument(metavar="SHEET", help="A score sheet (one game); - for stdin.")],
         output: Annotated[str, typer.Option("--output", "-o", metavar="FILE.png|FILE.svg",
                                             help="The image to write: PNG or SVG, by extension.")],
         force: Annotated[bool, typer.Option("--force", help="Overwrite FILE if it exists.")] = False,
         *, rules: RuleOptions) -> None:
    """Chart one game's running totals as a PNG or SVG image.

    One labelled line per player from 0 before round 1, a zero line, the sheet's title. Needs
    matplotlib: pip install 'wizard-cli[plot]'. Never overwrites FILE without --force.
    """
    from .output import chart as charts
    from .sheets.atomic import refuse_existing, write_atomically

    fmt = charts.image_format(output)
    if fmt is None:
        raise typer.BadParameter(f"'{output}' is neither .png nor .svg: the extension picks the "
                                 "image format", param_hint="'--output' / '-o'")
    source = inputs([sheet], rules)
    refuse_existing(output, force)
    charts.require_matplotlib()
    games = list(islice(source.checked(), 2))
    if len(games) > 1:
        raise WizardError(Problem("holds several games; plot draws one game (split the season, "
                                  "e.g. with wizard convert)", games[0].source))
    checked = games[0]
    if not checked.valid:
        raise WizardError(*checked.problems)
    result = score_game(checked.sheet, checked.settings, checked.first_dealer)
    write_atomically(output, charts.chart_bytes(result, fmt, status_line(result)), force)


# --- compare, rules ----------------------------------------------------------------------

PresetOpt = Annotated[Optional[list[str]], typer.Option(
    "--preset", metavar="NAME", show_default=False,
    help="Compare under a preset too (repeatable): official, doubleZero, screwTheDealer, "
         "canadian, perfectGame, or one of --presets FILE.")]
PresetsFileOpt = Annotated[Optional[str], typer.Option(
    "--presets", metavar="FILE", help="A YAML file of your own presets: name: {setting: value, …}.")]
RoundsOpt = Annotated[bool, typer.Option(
    "--rounds", help="Also show the round points that differ between the rule sets.")]


def load_presets(path: str | None) -> list[Preset]:
    """The user's presets from ``--presets FILE`` (missing file: exit 2; bad content: exit 1)."""
    from .game.compare import user_presets  # compare's rule sets only for compare and rules

    if path is None:
        return []
    if path != STDIN and not os.path.isfile(path):
        raise typer.BadParameter(f"no such file: {path}", param_hint="--presets")
    problems: list[Problem] = []
    entries = read_presets_file(path, problems)
    return user_presets(entries, display_name(path), problems)


@app.command()
@edge
@rule_options()
def compare(sheets: SheetArgs, format: FormatOpt = Format.table, preset: PresetOpt = None,
            presets: PresetsFileOpt = None, rounds: RoundsOpt = False, *,
            rules: RuleOptions) -> None:
    """The same game under other rules: each player's score and rank per rule set, and the change.

    Rule set 0 is the sheet's own rules (with --settings); each --preset adds one, and all of
    --set/--zero-bid together add one more. With none of them, compare against `official`.
    """
    from .game.compare import choose_rule_sets, command_line_layer, compare_sheet, preset_catalogue

    source = inputs(sheets, dataclasses.replace(rules, assignments=None, zero_bid=None))
    catalogue = preset_catalogue(load_presets(presets))
    rule_sets = choose_rule_sets(preset or [], catalogue,
                                 command_line_layer(rules.assignments, rules.zero_bid))

    def compared():
        for checked in source.checked():
            if not checked.valid:
                source.fail(checked.problems)
                continue
            try:
                comparison = compare_sheet(checked, rule_sets, source.layers)
            except WizardError as error:
                source.fail(error.problems)
                continue
            if format not in (Format.json, Format.jsonl):
                report(warning.problem() for warning in comparison.warnings)
            yield comparison

    show(CompareOutput(rounds), compared(), format, len(sheets) > 1)
    finish(source)


@app.command()
@edge
def rules(format: FormatOpt = Format.table, presets: PresetsFileOpt = None) -> None:
    """Every setting (default, allowed values, meaning, name in the app) and every preset."""
    from .game.compare import rules_catalogue

    show(RulesOutput(), [rules_catalogue(load_presets(presets))], format)


# --- writing sheets: new, add, convert -------------------------------------------------------

OutputFileOpt = Annotated[Optional[str], typer.Option(
    "--output", "-o", metavar="FILE",
    help="Write to FILE instead of standard output (never over an existing file without --force).")]
ForceOpt = Annotated[bool, typer.Option("--force", help="Overwrite the output file if it exists.")]


class Target(str, Enum):
    """What ``convert`` writes."""

    yaml = "yaml"
    json = "json"
    csv = "csv"
    wide_csv = "wide-csv"


_TARGET_BY_SUFFIX = {".yaml": Target.yaml, ".yml": Target.yaml, ".json": Target.json,
                     ".csv": Target.csv}


def check_output(output: str | None, force: bool) -> None:
    """Refuse an existing output file up front, before reading or converting anything."""
    from .sheets.atomic import refuse_existing

    if output is not None and output != STDIN:
        refuse_existing(output, force)


def write_output(text: str, output: str | None, force: bool) -> None:
    """The text to ``-o FILE`` (atomically, never over a file without --force), else stdout."""
    from .sheets.atomic import write_atomically

    if output is None or output == STDIN:
        sys.stdout.write(text)
    else:
        write_atomically(output, text, force)


def _names(players: list[str]) -> list[str]:
    """``--players A,B --players C`` → ['A', 'B', 'C'] (names trimmed)."""
    return [name.strip() for option in players for name in option.split(",")]


@app.command()
@edge
@rule_options("set", "settings", "zero_bid", "first_dealer")
def new(players: Annotated[list[str], typer.Option(
            "--players", metavar="A,B,C...", show_default=False,
            help="The players in seating order (clockwise), comma-separated: 3 to 6.")],
        title: Annotated[Optional[str], typer.Option("--title", metavar="TEXT",
                                                     help="A title for the game.")] = None,
        output: OutputFileOpt = None, force: ForceOpt = False, *, rules: RuleOptions) -> None:
    """A blank, commented YAML sheet with every setting written out, ready for `wizard add`."""
    from .sheets.writing import new_sheet

    check_output(output, force)
    layers = rule_layers(rules)
    text = new_sheet(_names(players), layers, rules.first_dealer, title,
                     output if output != STDIN else None)
    write_output(text, output, force)


@app.command()
@edge
@rule_options("set", "settings", "zero_bid", "first_dealer", "encoding")
def add(sheet: Annotated[str, typer.Argument(
            metavar="SHEET", help="A YAML score sheet, edited in place (comments and layout kept).")],
        bids: Annotated[Optional[str], typer.Option(
            "--bids", metavar="VALUES",
            help="Bids in seating order (1,0,2,1; - for a player still to bid) or by name "
                 "(Anna=1,Ben=0): starts the next round, or fills in the round in play.")] = None,
        tricks: Annotated[Optional[str], typer.Option(
            "--tricks", metavar="VALUES",
            help="Tricks taken, in seating order or by name: completes the round in play.")] = None,
        format: FormatOpt = Format.table, *, rules: RuleOptions) -> None:
    """Record a round's bids, then its tricks, in a YAML sheet; print what comes next, or the scores."""
    from .app.recording import record_in_file

    if bids is None and tricks is None:
        raise typer.BadParameter("give --bids or --tricks (or both)", param_hint="--bids/--tricks")
    if sheet == STDIN:
        raise typer.BadParameter("add edits a file in place: give its path, not -", param_hint="SHEET")
    source = inputs([sheet], rules)
    checked = record_in_file(sheet, rules.encoding, source.layers, rules.first_dealer, bids, tricks)
    result = score_game(checked.sheet, checked.settings, checked.first_dealer)
    show(ScoreOutput() if tricks is not None else NextOutput(), [result], format)


@app.command()
@edge
@rule_options()
def convert(sheet: Annotated[str, typer.Argument(
                metavar="SHEET", help="A score sheet or a season (YAML/JSON or CSV); - for stdin.")],
            to: Annotated[Optional[Target], typer.Option(
                "--to", help="yaml, json, csv (long) or wide-csv (default: from -o's extension).")] = None,
            output: OutputFileOpt = None, force: ForceOpt = False, *,
            rules: RuleOptions) -> None:
    """Convert a sheet or season between YAML, JSON, long CSV and wide CSV, losing nothing that scores."""
    from .sheets.writing import CSV_TARGETS, convert as convert_sheets, csv_drops, portable

    if to is None:
        to = _TARGET_BY_SUFFIX.get(os.path.splitext(output or "")[1].lower())
        if to is None:
            raise typer.BadParameter("say which format to write: yaml, json, csv or wide-csv",
                                     param_hint="--to")
    source = inputs([sheet], rules)
    check_output(output, force)
    checked = list(source.checked())
    problems = [problem for one in checked for problem in one.problems]
    if problems:
        raise WizardError(*problems)
    sheets = [portable(one, source.layers, rules.first_dealer is not None) for one in checked]
    text = convert_sheets(sheets, to.value)
    note = csv_drops(sheets, to.value) if to.value in CSV_TARGETS else None
    write_output(text, output, force)
    if note:
        sys.stderr.write(f"{checked[0].source}: {note}\n")


OUTPUT_BUFFER_BYTES = 1 << 16


class _ClosedOutput(io.TextIOBase):
    """Standard output when the tool was started with it closed (``wizard … >&-``)."""

    def write(self, text: str) -> int:
        raise OSError(errno.EBADF, "standard output is closed")


def _output_failed(error: OSError) -> None:
    """Say in one line that the output could not be written (a full disk, a closed stdout)."""
    sys.stderr.write(f"wizard: cannot write the output: {error.strerror or error}\n")
    _silence_stdout()  # what is still buffered goes nowhere, not into a second error at exit


def _buffer_output() -> None:
    """Write to a pipe or a file in 64 KiB blocks rather than Python's 8 KiB.

    A season prints megabytes: each 8 KiB block cost a system call and a wake-up of the reader
    (a fifth of the run). A terminal keeps its line buffering, and unbuffered output asked for
    (``PYTHONUNBUFFERED``, ``python -u``) is left as it is.
    """
    stream = sys.stdout
    if (not isinstance(stream, io.TextIOWrapper) or stream.write_through
            or not isinstance(stream.buffer, io.BufferedWriter)):  # unbuffered, or no file
        return
    try:
        if stream.isatty():
            return
        stream.flush()
        binary = open(stream.fileno(), "wb", buffering=OUTPUT_BUFFER_BYTES, closefd=False)
    except (OSError, ValueError):  # no real file behind it, or already closed
        return
    sys.stdout = io.TextIOWrapper(binary, encoding=stream.encoding, errors=stream.errors)


def main() -> None:
    """Console entry point: run the app; a closed pipe or Ctrl-C ends quietly."""
    # What start-up built (Typer, Click, Pydantic) lives until exit: keep the garbage
    # collector from walking it again and again while a season streams through.
    gc.freeze()
    # A season streams a million short-lived rows through, a block of thousands at a time: a
    # collection every 700 new objects would walk each block's rows while they are still in
    # use. They form no cycles; a larger first generation lets them die unwalked.
    gc.set_threshold(100_000, 10, 10)
    status: int | str | None = 0
    if sys.stdout is None:
        sys.stdout = _ClosedOutput()
    _buffer_output()
    if hasattr(sys.stdout, "reconfigure"):  # a name or '→' the terminal cannot show: \u2192
        sys.stdout.reconfigure(errors="backslashreplace")
    try:
        app(prog_name="wizard")
    except SystemExit as exit_:
        status = exit_.code
    except KeyboardInterrupt:
        status = EXIT_INTERRUPTED
    except OSError as error:  # Click's own output (--help, a usage error) could not be written
        _output_failed(error)
        status = EXIT_DATA
    try:
        sys.stdout.flush()
    except BrokenPipeError:
        _silence_stdout()
        status = EXIT_PIPE_CLOSED
    except OSError as error:
        _output_failed(error)
        status = EXIT_DATA
    sys.exit(status)
