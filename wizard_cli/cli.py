"""The command line: parse arguments, call the core, render, exit. No rule lives here.

Domain errors (:class:`WizardError`) become located lines on stderr and exit code 1; usage
errors are Click's, exit code 2.
"""

from __future__ import annotations

import codecs
import functools
import os
import sys
from itertools import islice
from dataclasses import dataclass, field
from enum import Enum
from typing import Annotated, Callable, Iterable, Iterator, Optional

import typer

from . import __version__
from .errors import Problem, WizardError
from .model import Sheet
from .reading import STDIN, read_settings_file, read_sheets
from .render import (CheckOutput, NextOutput, Output, ScoreOutput, StandingsOutput, TrickOutput,
                     emit, emit_stats, status_line)
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


from .settings import DEFAULTS as DEFAULT_SETTINGS  # noqa: E402


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


def rule_layers(settings_file: str | None, assignments: list[str] | None,
                zero_bid: str | None) -> list[list[RawSetting]]:
    """``--settings`` then ``--set``/``--zero-bid``, each checked once for type and range."""
    layers: list[list[RawSetting]] = []
    if settings_file is not None:
        existing_files([settings_file], "--settings")
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
    from .reading import text_encoding

    existing_files(paths)
    if encoding is not None:
        try:
            text_encoding(encoding)
        except LookupError as error:  # unknown, or no text encoding (rot13, hex)
            raise typer.BadParameter(str(error), param_hint="--encoding") from None
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


@app.command()
@edge
def stats(sheets: SheetArgs, format: FormatOpt = Format.table, set: SetOpt = None,
          settings: SettingsOpt = None, zero_bid: ZeroBidOpt = None,
          first_dealer: FirstDealerOpt = None, input_format: InputFormatOpt = None,
          encoding: EncodingOpt = None) -> None:
    """Per player across games: wins, scores, bid accuracy.

    Games, wins and scores count finished games (a shared first place is a win for each); bid
    figures count every completed round, also those of unfinished games. Sorted by wins, then
    average score. In JSON/CSV averages are rounded to 2 decimals and bidAccuracy (a fraction)
    to 4; a figure with nothing to average is null (empty in CSV).
    """
    from .stats import season_stats

    source = inputs(sheets, settings, set, zero_bid, first_dealer, input_format, encoding)
    emit_stats(season_stats(source.scored()), format.value, sys.stdout)
    finish(source)


@app.command()
@edge
def plot(sheet: Annotated[str, typer.Argument(metavar="SHEET", help="A score sheet (one game); - for stdin.")],
         output: Annotated[str, typer.Option("--output", "-o", metavar="FILE.png|FILE.svg",
                                             help="The image to write: PNG or SVG, by extension.")],
         force: Annotated[bool, typer.Option("--force", help="Overwrite FILE if it exists.")] = False,
         set: SetOpt = None, settings: SettingsOpt = None, zero_bid: ZeroBidOpt = None,
         first_dealer: FirstDealerOpt = None, input_format: InputFormatOpt = None,
         encoding: EncodingOpt = None) -> None:
    """Chart one game's running totals as a PNG or SVG image.

    One labelled line per player from 0 before round 1, a zero line, the sheet's title. Needs
    matplotlib: pip install 'wizard-cli[plot]'. Never overwrites FILE without --force.
    """
    from . import plot as charts

    fmt = charts.image_format(output)
    if fmt is None:
        raise typer.BadParameter(f"'{output}' is neither .png nor .svg: the extension picks the "
                                 "image format", param_hint="'--output' / '-o'")
    source = inputs([sheet], settings, set, zero_bid, first_dealer, input_format, encoding)
    from .files import refuse_existing, write_atomically

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

from .compare import (Preset, choose_rule_sets, command_line_layer, compare_sheet,  # noqa: E402
                      preset_catalogue, rules_catalogue, user_presets)
from .reading import display_name, read_presets_file  # noqa: E402
from .render import CompareOutput, RulesOutput  # noqa: E402

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
    if path is None:
        return []
    if path != STDIN and not os.path.isfile(path):
        raise typer.BadParameter(f"no such file: {path}", param_hint="--presets")
    problems: list[Problem] = []
    entries = read_presets_file(path, problems)
    return user_presets(entries, display_name(path), problems)


@app.command()
@edge
def compare(sheets: SheetArgs, format: FormatOpt = Format.table, set: SetOpt = None,
            zero_bid: ZeroBidOpt = None, preset: PresetOpt = None,
            presets: PresetsFileOpt = None, settings: SettingsOpt = None,
            first_dealer: FirstDealerOpt = None, rounds: RoundsOpt = False,
            input_format: InputFormatOpt = None, encoding: EncodingOpt = None) -> None:
    """The same game under other rules: each player's score and rank per rule set, and the change.

    Rule set 0 is the sheet's own rules (with --settings); each --preset adds one, and all of
    --set/--zero-bid together add one more. With none of them, compare against `official`.
    """
    source = inputs(sheets, settings, None, None, first_dealer, input_format, encoding)
    catalogue = preset_catalogue(load_presets(presets))
    rule_sets = choose_rule_sets(preset or [], catalogue, command_line_layer(set, zero_bid))

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
    from .files import refuse_existing

    if output is not None and output != STDIN:
        refuse_existing(output, force)


def write_output(text: str, output: str | None, force: bool) -> None:
    """The text to ``-o FILE`` (atomically, never over a file without --force), else stdout."""
    from .files import write_atomically

    if output is None or output == STDIN:
        sys.stdout.write(text)
    else:
        write_atomically(output, text, force)


def _names(players: list[str]) -> list[str]:
    """``--players A,B --players C`` → ['A', 'B', 'C'] (names trimmed)."""
    return [name.strip() for option in players for name in option.split(",")]


@app.command()
@edge
def new(players: Annotated[list[str], typer.Option(
            "--players", metavar="A,B,C...", show_default=False,
            help="The players in seating order (clockwise), comma-separated: 3 to 6.")],
        set: SetOpt = None, settings: SettingsOpt = None, zero_bid: ZeroBidOpt = None,
        first_dealer: FirstDealerOpt = None,
        title: Annotated[Optional[str], typer.Option("--title", metavar="TEXT",
                                                     help="A title for the game.")] = None,
        output: OutputFileOpt = None, force: ForceOpt = False) -> None:
    """A blank, commented YAML sheet with every setting written out, ready for `wizard add`."""
    from .writing import new_sheet

    check_output(output, force)
    layers = rule_layers(settings, set, zero_bid)
    text = new_sheet(_names(players), layers, first_dealer, title,
                     output if output != STDIN else None)
    write_output(text, output, force)


@app.command()
@edge
def add(sheet: Annotated[str, typer.Argument(
            metavar="SHEET", help="A YAML score sheet, edited in place (comments and layout kept).")],
        bids: Annotated[Optional[str], typer.Option(
            "--bids", metavar="VALUES",
            help="Bids in seating order (1,0,2,1; - for a player still to bid) or by name "
                 "(Anna=1,Ben=0): starts the next round, or fills in the round in play.")] = None,
        tricks: Annotated[Optional[str], typer.Option(
            "--tricks", metavar="VALUES",
            help="Tricks taken, in seating order or by name: completes the round in play.")] = None,
        format: FormatOpt = Format.table, set: SetOpt = None, settings: SettingsOpt = None,
        zero_bid: ZeroBidOpt = None, first_dealer: FirstDealerOpt = None,
        encoding: EncodingOpt = None) -> None:
    """Record a round's bids, then its tricks, in a YAML sheet; print what comes next, or the scores."""
    from .files import write_atomically
    from .reading import display_name, open_binary, text_encoding
    from .recording import record

    if bids is None and tricks is None:
        raise typer.BadParameter("give --bids or --tricks (or both)", param_hint="--bids/--tricks")
    if sheet == STDIN:
        raise typer.BadParameter("add edits a file in place: give its path, not -", param_hint="SHEET")
    source = inputs([sheet], settings, set, zero_bid, first_dealer, None, encoding)
    name = display_name(sheet)
    if any(found.kind != "yaml" for found in read_sheets(sheet, None, encoding)):
        raise WizardError(Problem("add edits YAML sheets only; make one from this CSV with "
                                  f"`wizard convert {sheet} --to yaml -o NEW.yaml`", name))
    with open_binary(sheet) as handle:
        raw = handle.read()
    codec = text_encoding(encoding)
    bom = codecs.BOM_UTF8 if codec == "utf-8-sig" and raw.startswith(codecs.BOM_UTF8) else b""
    text = raw.decode(codec)
    recorded = record(text, name, source.layers, first_dealer, bids, tricks)
    if recorded.text != text:
        write_atomically(sheet, bom + recorded.text.encode("utf-8" if codec == "utf-8-sig" else codec),
                         force=True)
    checked = recorded.checked
    result = score_game(checked.sheet, checked.settings, checked.first_dealer)
    show(ScoreOutput() if tricks is not None else NextOutput(), [result], format)


@app.command()
@edge
def convert(sheet: Annotated[str, typer.Argument(
                metavar="SHEET", help="A score sheet or a season (YAML/JSON or CSV); - for stdin.")],
            to: Annotated[Optional[Target], typer.Option(
                "--to", help="yaml, json, csv (long) or wide-csv (default: from -o's extension).")] = None,
            output: OutputFileOpt = None, force: ForceOpt = False,
            set: SetOpt = None, settings: SettingsOpt = None, zero_bid: ZeroBidOpt = None,
            first_dealer: FirstDealerOpt = None, input_format: InputFormatOpt = None,
            encoding: EncodingOpt = None) -> None:
    """Convert a sheet or season between YAML, JSON, long CSV and wide CSV, losing nothing that scores."""
    from .writing import CSV_TARGETS, convert as convert_sheets, csv_drops, portable

    if to is None:
        to = _TARGET_BY_SUFFIX.get(os.path.splitext(output or "")[1].lower())
        if to is None:
            raise typer.BadParameter("say which format to write: yaml, json, csv or wide-csv",
                                     param_hint="--to")
    source = inputs([sheet], settings, set, zero_bid, first_dealer, input_format, encoding)
    check_output(output, force)
    checked = list(source.checked())
    problems = [problem for one in checked for problem in one.problems]
    if problems:
        raise WizardError(*problems)
    sheets = [portable(one, source.layers, first_dealer is not None) for one in checked]
    text = convert_sheets(sheets, to.value)
    note = csv_drops(sheets, to.value) if to.value in CSV_TARGETS else None
    write_output(text, output, force)
    if note:
        sys.stderr.write(f"{checked[0].source}: {note}\n")


def main() -> None:
    """Console entry point: run the app; a closed pipe or Ctrl-C ends quietly."""
    status: int | str | None = 0
    if hasattr(sys.stdout, "reconfigure"):  # a name or '→' the terminal cannot show: \u2192
        sys.stdout.reconfigure(errors="backslashreplace")
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
