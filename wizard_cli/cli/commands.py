"""The commands: each maps its options to one call and one output. No rule lives here; the
error boundary is ``edge`` (boundary.py): domain errors become located lines on stderr and exit
code 1, usage errors are Click's, exit code 2.
"""

from __future__ import annotations

import dataclasses
import os
import sys
from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING, Annotated, TypedDict

import typer

from .. import __version__
from ..app.batch import Inputs, RuleOptions, load_presets, rule_layers
from ..app.batch import inputs as batch_inputs
from ..errors import ExitCode
from ..game.model import SheetFormat
from ..output.fitting import terminal_width
from ..output.formats import View, emit
from ..output.game_views import (
    ChangedOutput,
    CheckOutput,
    NextOutput,
    ScoreOutput,
    StandingsOutput,
    TrickOutput,
    UndoneOutput,
    status_line,
)
from ..output.lanes import RunDrawing, draws_runs
from ..sheets.formats import WORKBOOK_SUFFIXES, written_as
from ..sheets.source import STDIN, display_name
from .boundary import DEBUG, edge
from .console import (
    check_output,
    flush_output,
    output_after_change,
    report,
    require_stdout,
    say,
    write_output,
)
from .options import (
    BiddingOrderOpt,
    BidsOpt,
    BombEditOpt,
    BombOpt,
    ByOpt,
    CloudOpt,
    DateOpt,
    ForceOpt,
    Format,
    FormatOpt,
    InPlaceSheet,
    NewPlayersOpt,
    NoCloudOpt,
    NoDateOpt,
    OutputFileOpt,
    PlaceOpt,
    PlayerOpt,
    PlaySheet,
    PresetOpt,
    PresetsFileOpt,
    QuietOpt,
    RoundOpt,
    RoundsOpt,
    SetOpt,
    SheetArgs,
    SinceOpt,
    Target,
    TitleOpt,
    TricksOpt,
    UntilOpt,
    changed_sheet,
    choice,
    examples,
    new_date,
    player_names,
    rule_options,
    whole_number,
)
from .shown import ShownCommand

if TYPE_CHECKING:
    from ..app.recording import Recorded
    from ..output.formats import View
    from .reading import Reading


class AppSettings(TypedDict):
    """Typer's keywords for the app (and for the one command ``cli/__init__.py`` builds)."""

    name: str
    help: str
    rich_markup_mode: None
    pretty_exceptions_enable: bool
    add_completion: bool
    no_args_is_help: bool
    context_settings: dict[str, list[str]]


APP_SETTINGS = AppSettings(
    name="wizard",
    help="Score Wizard card-game score sheets: check them against your house rules, "
    "print the rounds and standings, and see how other rules would have changed the result.",
    rich_markup_mode=None,
    pretty_exceptions_enable=False,
    add_completion=True,
    no_args_is_help=True,
    context_settings={"help_option_names": ["-h", "--help"]},
)
app = typer.Typer(**APP_SETTINGS)


def _version(value: bool) -> None:
    """``--version``."""
    if value:
        sys.stdout.write(f"wizard {__version__}\n")
        raise typer.Exit()


@app.callback()
def _main(
    ctx: typer.Context,
    version: Annotated[
        bool,
        typer.Option(
            "--version", callback=_version, is_eager=True, help="Show the version and exit."
        ),
    ] = False,
    debug: Annotated[
        bool, typer.Option("--debug", help="Show the traceback of an internal error.")
    ] = False,
) -> None:
    """Score Wizard card-game score sheets."""
    ctx.meta[DEBUG] = debug


def inputs(paths: list[str], rules: RuleOptions) -> Inputs:
    """The command's sheets as a batch whose problems and notes go to stderr."""
    return batch_inputs(paths, rules, report, flush_output)


def reading(paths: list[str], rules: RuleOptions) -> Reading:
    """A reading command's sheets, read through the library (cli/reading.py, loaded when a
    command reads: start-up matters)."""
    from .reading import Reading

    return Reading(paths, rules)


def show(view: View, items: Iterable, fmt: Format, several: bool = False) -> None:
    """Render items to stdout in the chosen format (a formula warning to stderr)."""
    emit(view, items, fmt.value, sys.stdout, several, warn=say)


def show_season(view: View, items: Callable[..., Iterable], fmt: Format, several: bool) -> None:
    """:func:`show` of ``items(runs=…)``: whole runs of games asked for and drawn at once where
    the view draws them in the format (output/lanes.py)."""
    if draws_runs(view, fmt.value):
        show(view, RunDrawing(view, fmt.value)(items(runs=True)), fmt, several)
    else:
        show(view, items(runs=False), fmt, several)


def finish(source: Inputs | Reading) -> None:
    """Exit 1 if any sheet was invalid."""
    if source.failed:
        raise typer.Exit(ExitCode.DATA)


# --- commands ----------------------------------------------------------------------------


@app.command(cls=ShownCommand, epilog=examples("score"))
@edge
@rule_options()
def score(sheets: SheetArgs, format: FormatOpt = Format.table, *, rules: RuleOptions) -> None:
    """Round-by-round scores, totals, standings and whether the game is over."""
    source = reading(sheets, rules)
    show_season(
        ScoreOutput(terminal_width(sys.stdout)),
        source.scored_noting_points,
        format,
        len(sheets) > 1,
    )
    finish(source)


@app.command(cls=ShownCommand, epilog=examples("standings"))
@edge
@rule_options()
def standings(sheets: SheetArgs, format: FormatOpt = Format.table, *, rules: RuleOptions) -> None:
    """The standings alone: rank, player, score."""
    source = reading(sheets, rules)
    show_season(StandingsOutput(), source.scored, format, len(sheets) > 1)
    finish(source)


@app.command(cls=ShownCommand, epilog=examples("check"))
@edge
@rule_options()
def check(sheets: SheetArgs, format: FormatOpt = Format.table, *, rules: RuleOptions) -> None:
    """Validate sheets (and audit typed points): ok per valid sheet, every problem on stderr."""
    source = reading(sheets, rules)
    show_season(CheckOutput(), source.audited, format, len(sheets) > 1)
    finish(source)


@app.command("next", cls=ShownCommand, epilog=examples("next"))
@edge
@rule_options()
def next_(
    sheet: Annotated[str, typer.Argument(metavar="SHEET", help="A score sheet; - for stdin.")],
    format: FormatOpt = Format.table,
    *,
    rules: RuleOptions,
) -> None:
    """What happens next at the table: round, dealer, bidding order, who bids, forbidden bid."""
    source = reading([sheet], rules)
    show(NextOutput(), source.scored(), format)
    finish(source)


@app.command(cls=ShownCommand, epilog=examples("trick"))
@edge
def trick(
    cards: Annotated[
        list[str],
        typer.Argument(
            metavar="CARD...",
            help="Cards in the order played: 10H, QS, W (Wizard), J (Jester); "
            "Dragon, Fairy, Bomb, 7.5H (Juggler), 9.75S (Cloud), Shapeshifter:W or :J.",
        ),
    ],
    trump: Annotated[
        str, typer.Option("--trump", metavar="SUIT", help="Trump suit S, H, D, C, or none.")
    ] = "none",
    format: FormatOpt = Format.table,
) -> None:
    """Who wins a trick: the first Wizard, else the highest trump, else the highest of the suit led
    (the Dragon, the Fairy and the Bomb of the anniversary editions too)."""
    from ..game.trick import winning_card

    show(TrickOutput(), [winning_card(cards, trump)], format)


@app.command(cls=ShownCommand, epilog=examples("stats"))
@edge
@rule_options()
def stats(
    sheets: SheetArgs,
    format: FormatOpt = Format.table,
    by: ByOpt = None,
    since: SinceOpt = None,
    until: UntilOpt = None,
    player: PlayerOpt = None,
    *,
    rules: RuleOptions,
) -> None:
    """Per player across games: wins, scores, bid accuracy; or, with --by, per group.

    Games, wins and scores count finished games (a shared first place is a win for each); bid
    figures count every completed round, also those of unfinished games. Sorted by wins, then
    average score. In JSON/CSV averages are rounded to 2 decimals and bidAccuracy (a fraction)
    to 4; a figure with nothing to average is null (empty in CSV). --by handSize|position gives
    rounds, made bids and average points per player per group; --by opponent head to head.
    """
    from ..app.season import game_filter, show_stats

    games = game_filter(since, until, player, say)
    source = reading(sheets, rules)
    show_stats(
        source.games(runs=True), games, by.value if by else None, format.value, sys.stdout, say
    )
    finish(source)


@app.command(cls=ShownCommand, epilog=examples("ratings"))
@edge
@rule_options()
def ratings(
    sheets: SheetArgs,
    format: FormatOpt = Format.table,
    history: Annotated[
        bool,
        typer.Option(
            "--history",
            help="One row per player per rated game instead: source, game, "
            "date, player, mu, sigma, ordinal after that game.",
        ),
    ] = False,
    since: SinceOpt = None,
    until: UntilOpt = None,
    player: PlayerOpt = None,
    *,
    rules: RuleOptions,
) -> None:
    """A season's skill ratings per player (openskill's Plackett–Luce model at its defaults).

    Finished games are rated in the order given (files in argument order, games in file order),
    each as one model.rate() of its players in seating order ranked by their standings; new
    players start at model.rating(). Sorted by ordinal (mu - 3·sigma), highest first. JSON and
    CSV carry the numbers as computed, the table rounds them to 2 decimals.
    """
    from ..app.season import game_filter, show_ratings

    games = game_filter(since, until, player, say)
    source = reading(sheets, rules)
    show_ratings(source.games(runs=True), games, history, format.value, sys.stdout, say)
    finish(source)


@app.command(cls=ShownCommand, epilog=examples("plot"))
@edge
@rule_options()
def plot(
    sheets: Annotated[
        list[str],
        typer.Argument(
            metavar="SHEET",
            show_default=False,
            help="A score sheet (one game); with --ratings, a season's sheets; - for stdin.",
        ),
    ],
    output: Annotated[
        str,
        typer.Option(
            "--output",
            "-o",
            metavar="FILE.png|FILE.svg",
            help="The image to write: PNG or SVG, by extension.",
        ),
    ],
    force: Annotated[bool, typer.Option("--force", help="Overwrite FILE if it exists.")] = False,
    ratings: Annotated[
        bool,
        typer.Option(
            "--ratings",
            help="Chart a season's ratings instead: each player's ordinal after "
            "each rated game (as `wizard ratings --history`).",
        ),
    ] = False,
    since: SinceOpt = None,
    until: UntilOpt = None,
    player: PlayerOpt = None,
    *,
    rules: RuleOptions,
) -> None:
    """Chart one game's running totals, or a season's ratings, as a PNG or SVG image.

    One labelled line per player from 0 before round 1, a zero line, the sheet's title; with
    --ratings, one line per player of the ordinal after each rated game. Needs matplotlib:
    pip install '.[plot]' in the wizard checkout. Never overwrites FILE without --force.
    """
    from ..editing.atomic import refuse_existing, write_atomically
    from ..output import chart as charts

    fmt = charts.image_format(output)
    if fmt is None:
        raise typer.BadParameter(
            f"'{output}' is neither .png nor .svg: the extension picks the image format",
            param_hint="'--output' / '-o'",
        )
    if not ratings and (len(sheets) > 1 or since or until or player):
        raise typer.BadParameter(
            "plot draws one game: give one SHEET (--since, --until and --player go with --ratings)",
            param_hint="SHEET",
        )
    if ratings:
        from ..app.season import game_filter, rating_chart

        games = game_filter(since, until, player, say)
        source = reading(sheets, rules)
        refuse_existing(output, force)
        write_atomically(output, rating_chart(source.games(runs=True), games, sheets, fmt), force)
        finish(source)
        return
    source = reading(sheets, rules)
    refuse_existing(output, force)
    charts.require_matplotlib()
    result = source.one_game("plot")
    write_atomically(output, charts.chart_bytes(result, fmt, status_line(result)), force)


# --- compare, rules ----------------------------------------------------------------------


@app.command(cls=ShownCommand, epilog=examples("compare"))
@edge
@rule_options()
def compare(
    sheets: SheetArgs,
    format: FormatOpt = Format.table,
    preset: PresetOpt = None,
    presets: PresetsFileOpt = None,
    rounds: RoundsOpt = False,
    *,
    rules: RuleOptions,
) -> None:
    """The same game under other rules: each player's score and rank per rule set, and the change.

    Rule set 0 is the sheet's own rules (with --settings); each --preset adds one, and all of
    --set/--zero-bid together add one more. With none of them, compare against `official`.
    """
    from ..game.compare import choose_rule_sets, command_line_layer, preset_catalogue
    from ..output.rules_views import CompareOutput

    source = reading(sheets, dataclasses.replace(rules, assignments=None, zero_bid=None))
    catalogue = preset_catalogue(load_presets(presets))
    rule_sets = choose_rule_sets(
        preset or [], catalogue, command_line_layer(rules.assignments, rules.zero_bid)
    )
    compared = source.compared(rule_sets, warn=format not in (Format.json, Format.jsonl))
    show(CompareOutput(rounds), compared, format, len(sheets) > 1)
    finish(source)


@app.command(cls=ShownCommand, epilog=examples("rules"))
@edge
def rules(format: FormatOpt = Format.table, presets: PresetsFileOpt = None) -> None:
    """Every setting (default, allowed values, meaning, name in the app) and every preset."""
    from ..game.compare import rules_catalogue
    from ..output.rules_views import RulesOutput

    show(RulesOutput(), [rules_catalogue(load_presets(presets))], format)


# --- writing sheets: new, add, edit, undo, play, convert ---------------------------------


@app.command(cls=ShownCommand, epilog=examples("new"))
@edge
@rule_options("set", "settings", "zero_bid", "first_dealer")
def new(
    players: Annotated[
        list[str],
        typer.Option(
            "--players",
            metavar="A,B,C...",
            show_default=False,
            help="The players in seating order (clockwise), comma-separated: 3 to 6.",
        ),
    ],
    title: TitleOpt = None,
    date: DateOpt = None,
    no_date: NoDateOpt = False,
    place: PlaceOpt = None,
    output: OutputFileOpt = None,
    force: ForceOpt = False,
    *,
    rules: RuleOptions,
) -> None:
    """A blank, commented YAML sheet with every setting written out, ready for `wizard add`;
    dated today unless --date or --no-date."""
    from ..sheets.blank import new_sheet

    day = new_date(date, no_date)
    check_output(output, force)
    layers = rule_layers(rules)
    text = new_sheet(
        player_names(players),
        layers,
        rules.first_dealer,
        title,
        output if output != STDIN else None,
        day,
        place,
    )
    write_output(text, output, force)


@app.command(cls=ShownCommand, epilog=examples("add"))
@edge
@rule_options("set", "settings", "zero_bid", "first_dealer", "encoding")
def add(
    sheet: InPlaceSheet,
    bids: BidsOpt = None,
    tricks: TricksOpt = None,
    bidding_order: BiddingOrderOpt = False,
    format: FormatOpt = Format.table,
    quiet: QuietOpt = False,
    out: Annotated[
        str | None,
        typer.Option(
            "--out", metavar="NAME[,NAME]", help="Who sits out the round these --bids start."
        ),
    ] = None,
    bomb: BombOpt = False,
    cloud: CloudOpt = None,
    *,
    rules: RuleOptions,
) -> None:
    """Record a round's bids, then its tricks, in a YAML sheet; print what comes next or the scores."""
    from ..app.recording import record_in_file

    given = tricks if cloud is None else ""  # the Cloud may be recorded on its own
    source = inputs([changed_sheet(sheet, "add", bids, given)], rules)
    require_stdout(display_name(sheet), quiet)
    done = record_in_file(sheet, source.rules, bids, tricks, bidding_order, out, bomb, cloud)
    _after(
        done,
        ScoreOutput(terminal_width(sys.stdout)) if tricks is not None else NextOutput(),
        format,
        quiet,
        sheet,
    )


@app.command(cls=ShownCommand, epilog=examples("edit"))
@edge
@rule_options("set", "settings", "zero_bid", "first_dealer", "encoding")
def edit(
    sheet: InPlaceSheet,
    round: RoundOpt,
    bids: BidsOpt = None,
    tricks: TricksOpt = None,
    bidding_order: BiddingOrderOpt = False,
    format: FormatOpt = Format.table,
    quiet: QuietOpt = False,
    bomb: BombEditOpt = None,
    cloud: CloudOpt = None,
    no_cloud: NoCloudOpt = False,
    out: Annotated[
        str | None,
        typer.Option(
            "--out",
            metavar="NAME[,NAME]",
            help="Take NAME's values out of the round: NAME sits it out.",
        ),
    ] = None,
    seated: Annotated[
        str | None,
        typer.Option(
            "--seated",
            metavar="NAME[,NAME]",
            help="Seat NAME, who sat the round out, with --bids NAME=N (and --tricks).",
        ),
    ] = None,
    *,
    rules: RuleOptions,
) -> None:
    """Change recorded bids or tricks of a round; nothing is written if any rule then breaks."""
    from ..app.amending import edit_file

    special = (
        bomb is not None or cloud is not None or no_cloud or out is not None or (seated is not None)
    )
    source = inputs([changed_sheet(sheet, "edit", bids, "" if special else tricks)], rules)
    require_stdout(display_name(sheet), quiet)
    done = edit_file(
        sheet, source.rules, round, bids, tricks, bidding_order, bomb, cloud, no_cloud, out, seated
    )
    if not quiet:
        report(done.changes)  # each value changed, in seating order, bids before tricks
    _after(done, ChangedOutput(), format, quiet, sheet)


@app.command(cls=ShownCommand, epilog=examples("undo"))
@edge
@rule_options("set", "settings", "zero_bid", "first_dealer", "encoding")
def undo(
    sheet: InPlaceSheet,
    format: FormatOpt = Format.table,
    quiet: QuietOpt = False,
    *,
    rules: RuleOptions,
) -> None:
    """Take back the round in play with its bids, or else the last round's tricks."""
    from ..app.amending import undo_file

    source = inputs([changed_sheet(sheet, "undo")], rules)
    require_stdout(display_name(sheet), quiet)
    done = undo_file(sheet, source.rules)
    game = done.game  # a round's tricks taken back: its bids all in, waiting for the tricks
    tricks_back = game.in_play is not None and game.next_bidder is None
    _after(done, UndoneOutput(tricks_back), format, quiet, sheet)


@app.command(cls=ShownCommand, epilog=examples("join"))
@edge
@rule_options("set", "settings", "zero_bid", "first_dealer", "encoding")
def join(
    sheet: InPlaceSheet,
    name: Annotated[str, typer.Argument(metavar="NAME", help="Who joins.")],
    after: Annotated[
        str | None,
        typer.Option("--after", metavar="NAME", help="Seat them after NAME (default: last)."),
    ] = None,
    start_score: Annotated[
        str | None,
        typer.Option(
            "--start-score",
            metavar="N|lowest|average",
            help="Their total before their first round (default 0).",
        ),
    ] = None,
    format: FormatOpt = Format.table,
    quiet: QuietOpt = False,
    *,
    rules: RuleOptions,
) -> None:
    """A player joins from the next round to be dealt; print what comes next."""
    from ..app.seat_changes import join_in_file

    source = inputs([changed_sheet(sheet, "join")], rules)
    require_stdout(display_name(sheet), quiet)
    done = join_in_file(sheet, source.rules, name, after, start_score)
    _after(done, NextOutput(), format, quiet, sheet)


@app.command(cls=ShownCommand, epilog=examples("leave"))
@edge
@rule_options("set", "settings", "zero_bid", "first_dealer", "encoding")
def leave(
    sheet: InPlaceSheet,
    name: Annotated[str, typer.Argument(metavar="NAME", help="Who leaves.")],
    format: FormatOpt = Format.table,
    quiet: QuietOpt = False,
    *,
    rules: RuleOptions,
) -> None:
    """A player leaves after the last complete round; print what comes next."""
    from ..app.seat_changes import leave_in_file

    source = inputs([changed_sheet(sheet, "leave")], rules)
    require_stdout(display_name(sheet), quiet)
    done = leave_in_file(sheet, source.rules, name)
    _after(done, NextOutput(), format, quiet, sheet)


def _after(done: Recorded, output: View, format: Format, quiet: bool, sheet: str) -> None:
    """What a change to a sheet prints: what was done (stderr), the game as it now stands. If
    that output fails, it says the sheet was written all the same."""
    if not quiet:
        report([done.note] if done.note else [])
        with output_after_change(display_name(sheet)):
            show(output, [done.result()], format)


@app.command(cls=ShownCommand, epilog=examples("play"))
@edge
def play(
    sheet: PlaySheet,
    players: NewPlayersOpt = None,
    assignments: SetOpt = None,
    title: TitleOpt = None,
    date: DateOpt = None,
    no_date: NoDateOpt = False,
    place: PlaceOpt = None,
    start_score: Annotated[
        str | None,
        typer.Option(
            "--start-score",
            metavar="N|lowest|average",
            help="A player joining (join NAME) starts with this total (default 0).",
        ),
    ] = None,
) -> None:
    """Record a game at the table: prompt each bid and each player's tricks in turn, writing
    each to the sheet at once. Type a number, or undo (u), quit (q), help (?); reads lines, so a
    game can be replayed from a pipe or a file. A new sheet is dated today unless --date or
    --no-date."""
    from .play import NewGame, play_game

    new = NewGame(title, date, no_date, place)
    play_game(
        sheet,
        player_names(players) if players else None,
        assignments,
        new=new,
        start_score=start_score,
    )


DEFAULT_PORT, PORTS = 8000, range(65536)  # (the range shown as Typer shows an option's own)


@app.command(cls=ShownCommand, epilog=examples("serve"))
@edge
@rule_options("set", "settings", "zero_bid", "first_dealer", "encoding")
def serve(
    sheet: Annotated[
        str,
        typer.Argument(metavar="SHEET", help="The score sheet to show (a season: its last game)."),
    ],
    host: Annotated[
        str,
        typer.Option(
            "--host",
            metavar="H",
            help="The address to listen on; 0.0.0.0 for the room's "
            "network (default: this computer only).",
        ),
    ] = "127.0.0.1",
    port: Annotated[
        int,
        typer.Option(
            "--port",
            metavar="P",
            parser=whole_number(0, PORTS[-1]),
            show_default=False,
            help=f"The port to listen on; 0 picks a free one.  [default: {DEFAULT_PORT}; "
            f"0<=x<={PORTS[-1]}]",
        ),
    ] = DEFAULT_PORT,
    entry: Annotated[
        bool,
        typer.Option(
            "--entry",
            help="Let a phone enter bids and tricks: prints a secret entry address "
            "and its QR code.",
        ),
    ] = False,
    new_token: Annotated[
        bool,
        typer.Option(
            "--new-token", help="Make a new entry token: addresses given out before stop working."
        ),
    ] = False,
    *,
    rules: RuleOptions,
) -> None:
    """The table's screen: a live web page of the game for a TV or the players' phones.

    The page follows the sheet as anyone changes it (add, play, an editor) and shows the round in
    play, the grid, the standings and a chart; /?big=1 is for a TV across the room. With --entry
    a phone can enter bids and tricks through the same locked edit as `wizard add`. Needs the
    serve extra: pip install '.[serve]'. Ctrl-C stops it.
    """
    from ..web.server import require_serve_extra, serve_sheet

    if sheet == STDIN:
        raise typer.BadParameter(
            "serve follows a file as it changes: give its path, not -", param_hint="SHEET"
        )
    require_serve_extra()
    if os.path.isdir(sheet):  # a folder of sheets: a game night (SPEC §9)
        from ..app.batch import SheetRules
        from ..web.folder import serve_folder

        layers = SheetRules(rule_layers(rules), rules.first_dealer, rules.encoding)
        raise typer.Exit(serve_folder(sheet, layers, host, port, entry, sys.stderr, new_token))
    source = inputs([sheet], rules)
    raise typer.Exit(serve_sheet(source, host, port, entry, sys.stderr, new_token))


@app.command(cls=ShownCommand, epilog=examples("convert"))
@edge
@rule_options()
def convert(
    sheet: Annotated[
        str,
        typer.Argument(
            metavar="SHEET", help="A score sheet or a season (YAML/JSON or CSV); - for stdin."
        ),
    ],
    to: Annotated[
        Target | None,
        typer.Option(
            "--to",
            **choice(Target),
            help="yaml, json, csv (long) or wide-csv (default: from -o's extension).",
        ),
    ] = None,
    output: OutputFileOpt = None,
    force: ForceOpt = False,
    *,
    rules: RuleOptions,
) -> None:
    """Convert a sheet or season between YAML, JSON, long CSV and wide CSV, losing nothing that scores."""
    from ..app.converting import Conversion

    suffix = os.path.splitext(output or "")[1].lower()
    if suffix in WORKBOOK_SUFFIXES:
        raise typer.BadParameter(
            f"'{output}': workbooks ({', '.join(WORKBOOK_SUFFIXES)}) are read, not written; "
            "convert writes yaml, json, csv or wide-csv (-o NAME.yaml, .yml, .json or .csv, or "
            "--to)",
            param_hint="'--output' / '-o'",
        )
    target = written_as(output or "") if to is None else SheetFormat(to.value)
    if target is None:
        raise typer.BadParameter(
            "say which format to write: yaml, json, csv or wide-csv", param_hint="--to"
        )
    source = inputs([sheet], rules)
    check_output(output, force)
    with Conversion(source, target, rules.first_dealer is not None, say) as conversion:
        write_output(conversion.pieces(), output, force)
    for line in conversion.dropped():
        say(line)
