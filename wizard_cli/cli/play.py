"""``wizard play``: record one game at the table, prompting each bid and each player's tricks.

Everything it writes goes through the same read-change-check-write as ``wizard add`` (the
sheet is read again for every change, so a value written is on disk at once: end of input,
``quit`` or Ctrl-C leave the sheet as last written). It reads lines, so a game can be replayed
from a pipe or a file as well as typed at a terminal (SPEC §5 "At the table"). A line may hold
several entries (``1 0 2``, ``1,0,2``): they answer the prompts in turn, as if typed one a line
(SPEC §5 "`play`, quick at the table").
"""

from __future__ import annotations

import enum
import os
import sys
from dataclasses import dataclass
from functools import partial
from typing import TextIO

from ..app.amending import latest_entry, take_back_latest
from ..app.batch import existing_files
from ..app.recording import Change, Recorded, SheetText, change_file, record_special, record_values
from ..app.typed_values import parse_cloud
from ..editing.spliced import digest
from ..errors import Problem, UsageError, WizardError, visible
from ..game.game import Game, GameResult
from ..sheets.cells import whole_number
from ..sheets.source import STDIN, display_name
from . import play_seats as seat_changes
from .play_entries import Line
from .play_lines import bid_prompt, bids_so_far, opening_line

HELP = """\
Type the number asked for (or several: 1 0 2 answers this prompt and the next two), or:
  undo (u)   take back the last entry and ask for it again
  score (s)  show the table so far
  join NAME  at a round's first bid: NAME joins from this round (leave NAME: leaves
             after the last one; out NAME: sits this round out)
  quit (q)   stop here: the sheet keeps everything written so far
  help (?)   show this
An empty line asks again (or takes the [default] offered). Bids are written to the sheet as
they are given; a round's tricks once all of them are in."""


class Undo(enum.Enum):
    """``undo`` (or ``u``) answered to a prompt: what :meth:`Table.ask` gives for it."""

    UNDO = "undo"


UNDO = Undo.UNDO


class _Stop(Exception):
    """End of input, or ``quit``."""


class _ChangedMeanwhile(Exception):
    """The sheet is not as play last read it: another command changed it (nothing written)."""


class Table:
    """One game at the table: the sheet, the state of play, and the terminal (or pipe)."""

    def __init__(
        self,
        path: str,
        stdin: TextIO,
        stdout: TextIO,
        stderr: TextIO,
        start_score: str | None = None,
    ) -> None:
        self.path = path
        self.start_score = start_score  # a joining player's (``--start-score``, SPEC §5)
        self.out: list[int] = []  # who sits out the round to come (written with its first bid)
        self.source = display_name(path)
        self.stdin, self.stdout, self.stderr = stdin, stdout, stderr
        self.echo = not _isatty(stdin)  # a pipe shows no typing: show each line after its prompt
        self.typed: list[int] = []  # the tricks typed so far this round, in bidding order
        self.line: Line | None = None  # the line whose later entries answer the next prompts
        # A prompt answered by a later entry of the line, that line and where the entry starts:
        # echoed once the whole entry is taken (its words after the first too, SPEC §5)
        self.echoing: tuple[str, Line, int] | None = None
        self.opened: int | None = None  # the round whose opening line was last shown
        self.seen = b""  # the fingerprint of the sheet's text as play last read it
        # specialCards (SPEC §5): the round whose "Bomb or Cloud?" is answered, and its Bomb
        # (written with the round's tricks)
        self.asked: int | None = None
        self.bomb = False
        self.game = self._read()

    @property
    def result(self) -> GameResult:
        """The game as it stands, scored."""
        return self.game.result

    # --- the game ---------------------------------------------------------------------------

    def run(self) -> None:
        """Play until the game is over, or the input ends or says quit; Ctrl-C says where the
        game stands and goes on to the error boundary (exit 130), as does a sheet gone
        meanwhile (a WizardError: exit 1)."""
        if self.game.finished:  # nothing left to record: the final standings and the winners
            self.say(self.standings())
            return
        try:
            if not self._at_first_bid() or not self._plain_status():
                self.say(self.status())
            if self.game.bids_in:  # resumed mid-round: the bids already in, before the next
                self.say(bids_so_far(self.game))
            while not self.game.finished:  # each round ends with its points and the standings
                self.turn()
        except _Stop:
            self.stopped()
            return
        except KeyboardInterrupt:
            self.say("")
            self.stopped()
            raise
        finally:
            self._echo()  # an entry answered before an error ends play is still shown
        if self.line is not None:
            self._drop_rest()

    def turn(self) -> None:
        """Ask for the next bid, or the next player's tricks, and act on the answer."""
        if self.game.next_bidder is not None:
            self.bid_turn()
            return
        game = self.game
        players = game.players
        size = game.hand_size()
        if game.settings.special_cards and self.asked != game.current_round and not self.typed:
            self.ask_special()
            return
        order = game.bidding_order()
        seat = order[len(self.typed)]
        rest = size - self.bomb - sum(self.typed)  # nobody takes the Bomb's trick
        last = len(self.typed) == len(order) - 1
        default = rest if last and rest >= 0 else None
        shown = visible(players[seat])
        entry = self.ask(
            f"{shown} took [{default}]: " if default is not None else f"{shown} took: ", default
        )
        assert not isinstance(entry, tuple)  # a seat entry is taken at a first bid only
        if entry == UNDO:
            if self.typed:
                self.typed.pop()
            elif game.settings.special_cards:
                self.unask()
            else:
                self.undo()
            return
        if self._refused(entry, "tricks", size):
            return
        if entry > rest:  # refused at once, only this value asked again (SPEC §9)
            left = max(rest, 0)
            self.refuse(f"only {left} trick{'' if left == 1 else 's'} left to give")
            return
        self.typed.append(entry)
        if len(self.typed) < len(order):
            return
        tricks = dict(zip(order, self.typed))
        self.typed = []
        bomb = self.bomb
        if self.write(
            lambda current: (
                record_special(current, True, None, tricks=tricks)
                if bomb
                else record_values(current, tricks=tricks)
            ),
            f"the tricks of round {game.current_round} were not written",
        ):
            self.opened = None  # the next round opens with its line (again, after an undo)
            self.bomb = False
            self.say(self.round_summary())

    def bid_turn(self) -> None:
        """Ask for the next bid (at a round's first, also a seat entry) and act on the answer."""
        game = self.game
        players = game.players
        first = not game.bids_in
        if first and self.out:  # the round as it will be dealt, with who sits it out
            game = seat_changes.previewed(self)
        seat, size = game.next_bidder, game.hand_size()
        assert seat is not None  # the round as dealt with its out still has its bids to come
        if first and self.opened != game.current_round:
            self.opened = game.current_round
            self.say(opening_line(game))
        entry = self.ask(bid_prompt(game), seats=first)
        if isinstance(entry, tuple):
            seat_changes.seat_entry(self, *entry)
        elif entry == UNDO:
            seat_changes.take_back_out(self) if first and self.out else self.undo()
        elif not self._refused(entry, "bid", size) and self.write(
            seat_changes.first_bid(self, seat, entry)
            if first
            else lambda current: record_values(current, bids={seat: entry}),
            f"{players[seat]}'s bid of {entry} was not written",
        ):
            self.out = []  # written with the round's first bid

    def ask_special(self) -> None:
        """``Bomb or Cloud?`` once a round's bids are in (SPEC §5): ``b``, ``c NAME +1|-1``,
        both (``b c Ben -1``), or Enter (or ``-``) for neither. The Cloud is written at once,
        the Bomb with the round's tricks; ``undo`` takes back the round's last bid."""
        game = self.game
        while True:
            entry = self._entry(SPECIAL_PROMPT)
            word = None if entry is None else entry.casefold()
            if word in (None, "-"):
                break
            if word in ("quit", "q"):
                raise _Stop
            if word in ("help", "?"):
                self.say(SPECIAL_HELP)
                continue
            if word in ("score", "s"):
                self.say(self.score_table())
                continue
            if word in ("undo", "u"):
                self.undo()
                return
            bomb = word == "b"
            if bomb and self.line is not None and (self.line.peek() or "").casefold() == "c":
                word = (self.line.take() or "").casefold()  # the "c" just peeked
            if word == "c":
                name = self.line.take() if self.line is not None else None
                change = self.line.take() if self.line is not None else None
                if name is None or change is None:
                    self.refuse("c takes the player and the change of their bid: c Ben -1")
                    continue
                try:
                    cloud = parse_cloud(f"{name}={change}", game.players, "")
                except WizardError as error:
                    self.refuse(*(problem.message for problem in error.problems))
                    continue
                if not self.write(
                    partial(record_special, bomb=False, cloud=cloud, before_tricks=True),
                    "the Cloud was not written",
                ):
                    continue
            elif not bomb:
                self.refuse(
                    f"'{entry}': answer b (the Bomb), c NAME +1|-1 (the Cloud), both, "
                    "or Enter for neither"
                )
                continue
            self.bomb = bomb
            break
        self.asked = self.game.current_round

    def unask(self) -> None:
        """``undo`` at a round's first trick count: the "Bomb or Cloud?" answer is taken back
        (the Cloud, if it was written) and asked again."""
        in_play = self.game.in_play
        if self.asked != self.game.current_round:
            self.undo()
            return
        if in_play is not None and in_play.cloud is not None:
            done = self.write(take_back_latest, "the Cloud was not taken back")
            if done is None:
                return
            assert done.note is not None  # a take-back says what it took back
            self.warn(f"round {done.note.round}: {done.note.message}")
        self.asked, self.bomb = None, False

    def undo(self) -> None:
        """Take back the last value written: the round's latest bid, else the previous round's
        tricks (all of them: asked again from that round's first bidder)."""
        if latest_entry(self.game) is None:
            self.refuse("nothing to undo yet")
            return
        done = self.write(take_back_latest, "nothing was taken back")
        if done is not None and done.note is not None and done.note.round is None:
            self.warn(done.note.message)  # a join or a leave: the round is asked again
            self.opened = None
        elif done is not None and done.note is not None:
            self.warn(f"round {done.note.round}: {done.note.message}")

    # --- talking ----------------------------------------------------------------------------

    def ask(
        self, prompt: str, default: int | None = None, seats: bool = False
    ) -> int | Undo | tuple[str, str]:
        """A whole number or ``undo``, asked until one is given (an empty line takes the
        ``default``, if any); ``quit`` or the end stops. With ``seats`` (a round's first bid),
        also ``join NAME``, ``leave NAME`` or ``out NAME``: (word, NAME)."""
        while True:
            entry = self._entry(prompt)
            if entry is None:  # an empty line
                if default is not None:
                    return default
                continue
            word = entry.casefold()
            if word in ("quit", "q"):
                raise _Stop
            if word in ("help", "?"):
                self.say(HELP)
                continue
            if word in ("score", "s"):
                self.say(self.score_table())
                continue
            if word in ("undo", "u"):
                return UNDO
            if word in seat_changes.WORDS:
                seat = seat_changes.seat_word(self, word, seats)
                if seat is not None:
                    return seat
                continue
            value = whole_number(entry)
            if isinstance(value, int):
                return value
            assert value is not None  # only an empty text is None, and an entry is never empty
            self.refuse(
                f"'{value.text}' is not a whole number (type a number, or undo, quit, help)"
            )

    def _entry(self, prompt: str) -> str | None:
        """The next entry: the line's next one (its prompt shown with it), else a new line's
        first (None for an empty line)."""
        self._echo()
        if self.line is not None:
            start = self.line.at
            entry = self.line.take()
            if entry is not None:
                self.echoing = (prompt, self.line, start)
                return entry
            self.line = None
        self.stdout.write(prompt)
        self.stdout.flush()
        text = self.stdin.readline()
        if not text:
            self.say("")
            raise _Stop
        line = Line(text)
        if self.echo:
            self.say(visible(line.shown()))
        entry = line.take()
        if entry is not None:
            self.line = line
        return entry

    def _refused(self, value: int, what: str, size: int | None) -> bool:
        """A value no hand allows is refused with its reason (the sheet's check says the rest)."""
        if value < 0:
            self.refuse(f"{what} {value} is negative")
        elif size is not None and value > size:
            self.refuse(f"{what} {value} is more than the hand size of {size}")
        else:
            return False
        return True

    def refuse(self, *reasons: str) -> None:
        """An entry refused: its reason, and the rest of its line dropped (said in one line)."""
        for reason in reasons:
            self.warn(reason)
        self._drop_rest()

    def _drop_rest(self) -> None:
        """The rest of the line is not taken: said on stderr when there is any."""
        if self.line is not None:
            rest = self.line.rest()
            self.line = None
            if rest:
                self.warn(f"rest of the line dropped: {rest}")

    def _echo(self) -> None:
        """The prompt last answered by a later entry of the line, with that whole entry."""
        if self.echoing is not None:
            prompt, line, start = self.echoing
            self.echoing = None
            self.say(prompt + visible(line.taken_since(start)))

    def say(self, text: str) -> None:
        """A line (or block) on standard output, shown at once (after a pending echo)."""
        self._echo()
        self.stdout.write(text + "\n")
        self.stdout.flush()

    def warn(self, text: str) -> None:
        """A one-line reason or note on standard error (after a pending echo)."""
        self._echo()
        self.stderr.write(visible(text) + "\n")
        self.stderr.flush()

    def stopped(self) -> None:
        """Where the game stands, on standard error, when play stops before the end."""
        self.warn(f"{self.source}: stopped; {self.status()}{self._lost()}")

    def _lost(self) -> str:
        """What was typed and not written (tricks of a round not complete)."""
        return (
            f" (the tricks typed for round {self.game.current_round} were not written)"
            if self.typed
            else ""
        )

    # --- views -----------------------------------------------------------------------------

    def status(self) -> str:
        """The status line (what happens next, or who won)."""
        from ..output.game_views import status_line

        return visible(status_line(self.result))

    def standings(self) -> str:
        """The standings table and the status line (left out while it would say no more than
        the next round's opening line, which follows it)."""
        from ..output.game_views import standings_block

        block = "\n".join(map(visible, standings_block(self.result, "table").split("\n")))
        if not self.game.finished and self._plain_status():
            return block
        return f"{block}\n\n{self.status()}"

    def score_table(self) -> str:
        """What ``wizard score`` prints for the sheet, fitted to the terminal."""
        from ..output.fitting import terminal_width
        from ..output.game_views import ScoreOutput

        return ScoreOutput(terminal_width(self.stdout)).as_text(self.result, "table")

    def round_summary(self) -> str:
        """The round just completed: each player's points, then the standings."""
        from ..output.formats import signed

        last = self.result.rounds[self.result.rounds_played - 1]
        assert last.points is not None  # a complete round is scored
        points = ", ".join(
            f"{visible(name)} {signed(p)}"
            for name, p in zip(self.result.players, last.points)
            if p is not None
        )  # the seated only (SPEC §1)
        after = "" if self.result.finished else "\n"  # a blank line before the next round
        return f"\nRound {last.number} points: {points}\n\n{self.standings()}{after}"

    def _at_first_bid(self) -> bool:
        """Whether the next entry is a round's first bid."""
        return self.game.next_bidder is not None and not self.game.bids_in

    def _plain_status(self) -> bool:
        """Whether the status line says only what happens next (everyone can still win)."""
        return len(self.game.contenders()) == len(self.game.players)

    # --- the sheet --------------------------------------------------------------------------

    def _read(self) -> Game:
        """The game as the sheet stands (read through the one write path, which writes nothing
        here), its text's fingerprint kept to see whether another command changes it meanwhile
        (not the text: a 60 MB sheet is held once, SPEC §4)."""

        def unchanged(current: SheetText) -> Recorded:
            self.seen = digest(current.text)
            return Recorded(current)

        return change_file(self.path, unchanged, "play", whole=False).game

    def write(self, change: Change, what: str) -> Recorded | None:
        """Write one change (``what`` says it was not, for a message); a refusal is said (one line
        each) and changes nothing. A sheet changed meanwhile by another command is not
        changed: play carries on from where it now stands."""
        captured: list[Recorded] = []

        def keep(current: SheetText) -> Recorded:
            # Another command's change refuses this entry only when the step it records is no
            # longer the one in turn (an edit of another round does not).
            if digest(current.text) != self.seen and in_turn(current.game) != in_turn(self.game):
                raise _ChangedMeanwhile()
            captured.append(change(current))
            self.seen = digest(captured[-1].sheet.text)
            return captured[-1]

        if not os.path.exists(self.path):
            self._gone(what)
        try:
            game = change_file(self.path, keep, "play", whole=False).game
        except _ChangedMeanwhile:
            lost = self._lost()
            self.typed = []
            self._reread(what)
            self.refuse(
                f"{self.source}: the sheet was changed meanwhile by another command: "
                f"{what}{lost}; play carries on from where it now stands"
            )
            if self.game.finished:
                self.say(self.standings())
            return None
        except WizardError as error:
            if not os.path.exists(self.path):
                self._gone(what)
            self.refuse(*(problem.message for problem in error.problems))
            return None
        self.game = game
        return captured[-1]

    def _reread(self, what: str) -> None:
        """The game as the sheet now stands (after another command's change to it)."""
        try:
            self.game = self._read()
        except WizardError as error:
            if not os.path.exists(self.path):
                self._gone(what)
            raise WizardError(
                Problem("the sheet cannot be read now: play stops", self.source), *error.problems
            ) from None

    def _gone(self, what: str) -> None:
        """The sheet was deleted or moved while play waited: it stops, exit 1."""
        raise WizardError(
            Problem(
                f"the sheet is no longer there (deleted or moved meanwhile): "
                f"{what}{self._lost()}; play stops",
                self.source,
            )
        )


SPECIAL_PROMPT = "Bomb or Cloud? (b, c NAME +1|-1, Enter for neither): "
SPECIAL_HELP = """\
Once a round's bids are in (specialCards): b if the Bomb fell (its trick goes to nobody, so the
tricks add up to one less), c NAME +1 or c NAME -1 for whoever took the Cloud's trick and how
their bid changed, b c NAME -1 for both; Enter (or -) for neither. undo takes back the last bid."""


def in_turn(game: Game) -> tuple:
    """What decides the entry play is about to record: the players, the round and its hand,
    who bids next and the bids in (the tricks are asked once these are all in)."""
    return (
        tuple(game.players),
        game.finished,
        game.current_round,
        None if game.finished else game.hand_size(),
        game.next_bidder,
        tuple(sorted(game.bids_in.items())),
    )


@dataclass(frozen=True)
class NewGame:
    """What ``play`` writes into a sheet it starts besides players and rules (SPEC §5 "Games
    are dated"): ``--title``, ``--date``/``--no-date`` (as given: checked when the sheet is
    made), ``--place``."""

    title: str | None = None
    date: str | None = None
    no_date: bool = False
    place: str | None = None

    def given(self) -> list[str]:
        """The options given, by name: errors with an existing sheet, as --players is."""
        return [
            option
            for option, value in (
                ("--title", self.title),
                ("--date", self.date),
                ("--no-date", self.no_date),
                ("--place", self.place),
            )
            if value not in (None, False)
        ]


def play_game(
    path: str,
    players: list[str] | None,
    assignments: list[str] | None,
    stdin: TextIO | None = None,
    stdout: TextIO | None = None,
    stderr: TextIO | None = None,
    new: NewGame = NewGame(),
    start_score: str | None = None,
) -> None:
    """``wizard play SHEET``: make the sheet from ``--players``/``--set`` (and ``new``) if it
    does not exist, then play it from where it stands."""
    if path == STDIN:
        raise UsageError("play records into a file: give its path, not -", param_hint="SHEET")
    if os.path.lexists(path):
        existing_files([path])  # a folder or a device is a usage error, as for every command
        if players or assignments:
            raise UsageError(
                f"{path} exists, and its own rules apply: --players and --set only "
                "start a new sheet",
                param_hint="--players/--set",
            )
        if new.given():
            given = new.given()
            verb = "is" if len(given) == 1 else "are"
            raise UsageError(
                f"{path} exists: {' and '.join(given)} {verb} only for a new sheet",
                param_hint="/".join(given),
            )
    else:
        if not players:
            raise UsageError(
                f"no such file: {path} (give --players A,B,C… to start a new game in it)",
                param_hint="SHEET",
            )
        if not path.lower().endswith((".yaml", ".yml")):
            raise UsageError(
                f"{path}: play starts a YAML sheet: name it .yaml or .yml", param_hint="SHEET"
            )
        _new_sheet(path, players, assignments, new)
    if (
        start_score is not None
        and start_score not in ("lowest", "average")
        and not isinstance(whole_number(start_score), int)
    ):
        raise UsageError(
            f"--start-score {start_score!r}: give a whole number, lowest or average",
            param_hint="--start-score",
        )
    Table(path, stdin or sys.stdin, stdout or sys.stdout, stderr or sys.stderr, start_score).run()


def _new_sheet(path: str, players: list[str], assignments: list[str] | None, new: NewGame) -> None:
    """A blank sheet, as ``wizard new`` writes it."""
    from ..app.batch import RuleOptions, rule_layers
    from ..editing.atomic import write_atomically
    from ..sheets.blank import new_sheet
    from .options import new_date

    date = new_date(new.date, new.no_date)
    layers = rule_layers(RuleOptions(assignments=assignments))
    write_atomically(path, new_sheet(players, layers, None, new.title, path, date, new.place))


def _isatty(stream: TextIO) -> bool:
    """Whether a stream is a terminal (a test's stand-in without ``isatty`` is not)."""
    try:
        return stream.isatty()
    except (AttributeError, ValueError, OSError):
        return False
