"""``wizard play``: record one game at the table, prompting each bid and each player's tricks.

Everything it writes goes through the same read-change-check-write as ``wizard add`` (the
sheet is read again for every change, so a value written is on disk at once: end of input,
``quit`` or Ctrl-C leave the sheet as last written). It reads lines, so a game can be replayed
from a pipe or a file as well as typed at a terminal (SPEC §5 "At the table").
"""

from __future__ import annotations

import os
import sys
from typing import TextIO

from ..errors import UsageError, WizardError, visible
from ..game.game import Game
from ..game.scoring import GameResult
from ..sheets.cells import whole_number
from ..sheets.source import STDIN, display_name
from .amending import latest_entry, take_back_latest
from .batch import existing_files
from .recording import Change, Recorded, change_file, record_values


HELP = """\
Type the number asked for, or:
  undo (u)   take back the last entry and ask for it again
  quit (q)   stop here: the sheet keeps everything written so far
  help (?)   show this
An empty line asks again. Bids are written to the sheet as they are given; a round's tricks
once all of them are in."""


class _Stop(Exception):
    """End of input, or ``quit``."""


class Table:
    """One game at the table: the sheet, the state of play, and the terminal (or pipe)."""

    def __init__(self, path: str, stdin: TextIO, stdout: TextIO, stderr: TextIO) -> None:
        self.path = path
        self.source = display_name(path)
        self.stdin, self.stdout, self.stderr = stdin, stdout, stderr
        self.echo = not _isatty(stdin)  # a pipe shows no typing: show each entry after its prompt
        self.typed: list[int] = []  # the tricks typed so far this round, in bidding order
        self.game = self._change(Recorded)

    @property
    def result(self) -> GameResult:
        """The game as it stands, scored."""
        return self.game.result

    # --- the game ---------------------------------------------------------------------------

    def run(self) -> None:
        """Play until the game is over, or the input ends or says quit; Ctrl-C says where the
        game stands and goes on to the error boundary (exit 130)."""
        if self.result.finished:  # nothing left to record: the final standings and the winners
            self.say(self.standings())
            return
        try:
            self.say(self.status())
            while not self.result.finished:  # each round ends with its points and the standings
                self.turn()
        except _Stop:
            self.stopped()
        except KeyboardInterrupt:
            self.say("")
            self.stopped()
            raise

    def turn(self) -> None:
        """Ask for the next bid, or the next player's tricks, and act on the answer."""
        step = self.game.next_step()
        players = self.game.players
        if step.next_bidder is not None:
            seat = players.index(step.next_bidder)
            entry = self.ask(f"{visible(step.next_bidder)} bids: ")
            if entry == "undo":
                self.undo()
            elif self._refused(entry, "bid", step.hand_size):
                pass
            else:
                self._write(lambda current: record_values(current, bids={seat: entry}))
            return
        order = self.order()
        seat = order[len(self.typed)]
        entry = self.ask(f"{visible(players[seat])} took: ")
        if entry == "undo":
            if self.typed:
                self.typed.pop()
            else:
                self.undo()
            return
        if self._refused(entry, "tricks", step.hand_size):
            return
        self.typed.append(entry)
        if len(self.typed) < len(players):
            return
        tricks = dict(zip(order, self.typed))
        self.typed = []
        if self._write(lambda current: record_values(current, tricks=tricks)):
            self.say(self.round_summary())

    def undo(self) -> None:
        """Take back the last value written: the round's latest bid, else the previous round's
        tricks (all of them: asked again from that round's first bidder)."""
        if latest_entry(self.game) is None:
            self.warn("nothing to undo yet")
            return
        done = self._write(take_back_latest)
        if done is not None and done.note is not None:
            self.warn(f"round {done.note.round}: {done.note.message}")

    # --- talking ----------------------------------------------------------------------------

    def ask(self, prompt: str) -> int | str:
        """A whole number or ``undo``, asked until one is given; ``quit`` or the end stops."""
        while True:
            self.stdout.write(prompt)
            self.stdout.flush()
            line = self.stdin.readline()
            if not line:
                self.say("")
                raise _Stop
            entry = line.strip()
            if self.echo:
                self.say(visible(entry))
            word = entry.casefold()
            if not entry:
                continue
            if word in ("quit", "q"):
                raise _Stop
            if word in ("help", "?"):
                self.say(HELP)
                continue
            if word in ("undo", "u"):
                return "undo"
            value = whole_number(entry)
            if isinstance(value, int):
                return value
            self.warn(f"'{entry}' is not a whole number (type a number, or undo, quit, help)")

    def _refused(self, value: int, what: str, size: int | None) -> bool:
        """A value no hand allows is refused with its reason (the sheet's check says the rest)."""
        if value < 0:
            self.warn(f"{what} {value} is negative")
        elif size is not None and value > size:
            self.warn(f"{what} {value} is more than the hand size of {size}")
        else:
            return False
        return True

    def say(self, text: str) -> None:
        """A line (or block) on standard output, shown at once."""
        self.stdout.write(text + "\n")
        self.stdout.flush()

    def warn(self, text: str) -> None:
        """A one-line reason or note on standard error."""
        self.stderr.write(visible(text) + "\n")
        self.stderr.flush()

    def stopped(self) -> None:
        """Where the game stands, on standard error, when play stops before the end."""
        lost = (f" (the tricks typed for round {self.game.current_round} were not written)"
                if self.typed else "")
        self.warn(f"{self.source}: stopped; {self.status()}{lost}")

    # --- views -----------------------------------------------------------------------------

    def status(self) -> str:
        """The status line (what happens next, or who won)."""
        from ..output.game_views import status_line

        return visible(status_line(self.result))

    def standings(self) -> str:
        """The standings table and the status line."""
        from ..output.game_views import standings_block

        block = "\n".join(map(visible, standings_block(self.result, "table").split("\n")))
        return f"{block}\n\n{self.status()}"

    def round_summary(self) -> str:
        """The round just completed: each player's points, then the standings."""
        from ..output.formats import signed

        last = self.result.rounds[self.result.rounds_played - 1]
        points = ", ".join(f"{visible(name)} {signed(p)}"
                           for name, p in zip(self.result.players, last.points))
        after = "" if self.result.finished else "\n"  # a blank line before the next round
        return f"\nRound {last.number} points: {points}\n\n{self.standings()}{after}"

    # --- the sheet --------------------------------------------------------------------------

    def order(self) -> list[int]:
        """The seats of the current round's bidding order."""
        return self.game.bidding_order()

    def _change(self, change: Change) -> Game:
        """Make one change through the one write path; the game as it now stands."""
        return change_file(self.path, None, change, "play").game

    def _write(self, change: Change) -> Recorded | None:
        """Write one change; a refusal is said (one line each) and changes nothing."""
        captured: list[Recorded] = []

        def keep(current) -> Recorded:
            captured.append(change(current))
            return captured[-1]

        try:
            self.game = self._change(keep)
        except WizardError as error:
            for problem in error.problems:
                self.warn(problem.message)
            self._reread()  # someone else may have changed the sheet: carry on where it stands
            return None
        return captured[-1]

    def _reread(self) -> None:
        """The game as the sheet now stands (after a refused write, which may be another
        command's change to it); kept as it was if the sheet cannot be read now."""
        try:
            self.game = self._change(Recorded)
        except WizardError:
            pass


def play_game(path: str, players: list[str] | None, assignments: list[str] | None,
              stdin: TextIO | None = None, stdout: TextIO | None = None,
              stderr: TextIO | None = None) -> None:
    """``wizard play SHEET``: make the sheet from ``--players``/``--set`` if it does not exist,
    then play it from where it stands."""
    if path == STDIN:
        raise UsageError("play records into a file: give its path, not -", param_hint="SHEET")
    if os.path.lexists(path):
        existing_files([path])  # a folder or a device is a usage error, as for every command
        if players or assignments:
            raise UsageError(f"{path} exists, and its own rules apply: --players and --set only "
                             "start a new sheet", param_hint="--players/--set")
    else:
        if not players:
            raise UsageError(f"no such file: {path} (give --players A,B,C… to start a new game "
                             "in it)", param_hint="SHEET")
        if not path.lower().endswith((".yaml", ".yml")):
            raise UsageError(f"{path}: play starts a YAML sheet: name it .yaml or .yml",
                             param_hint="SHEET")
        _new_sheet(path, players, assignments)
    Table(path, stdin or sys.stdin, stdout or sys.stdout, stderr or sys.stderr).run()


def _new_sheet(path: str, players: list[str], assignments: list[str] | None) -> None:
    """A blank sheet, as ``wizard new`` writes it."""
    from ..sheets.atomic import write_atomically
    from ..sheets.blank import new_sheet
    from .batch import RuleOptions, rule_layers

    layers = rule_layers(RuleOptions(assignments=assignments))
    write_atomically(path, new_sheet(players, layers, None, None, path))


def _isatty(stream: TextIO) -> bool:
    """Whether a stream is a terminal (a test's stand-in without ``isatty`` is not)."""
    try:
        return stream.isatty()
    except (AttributeError, ValueError, OSError):
        return False

