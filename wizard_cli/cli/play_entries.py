"""One line of ``play``'s input as the entries it holds (SPEC §5 "`play`, quick at the table"):
``1 0 2`` or ``1,0,2`` answer the prompts in turn, as if typed one a line."""

from __future__ import annotations

import re

from ..errors import shorten
from ..sheets.cells import SHOWN

_ENTRY = re.compile(r"[^\s,]+")  # entries are separated by spaces, commas or both
_TYPED = re.compile(r"\S")  # where a line's text starts
LONGEST_ENTRY = 64  # characters of an entry kept: no number, word or command is longer


class Line:
    """The entries of one line of input, handed out one at a time (found as they are asked
    for: a line of a million entries is never split into a list)."""

    def __init__(self, text: str) -> None:
        self.text = text
        self.at = 0

    def take(self) -> str | None:
        """The next entry, or None when the line has no more."""
        found = _ENTRY.search(self.text, self.at)
        if found is None:
            self.at = len(self.text)
            return None
        self.at = found.end()
        start = found.start()  # a 50 MB entry is no number: only its start is kept, to show
        return self.text[start : min(self.at, start + LONGEST_ENTRY)]

    def taken_since(self, at: int) -> str:
        """The entries taken from ``at`` on, one space between them (each cut short): an entry
        of several words (``b c Cara +1``, ``join Fay``) as its prompt's echo shows it."""
        return " ".join(
            shorten(self.text[found.start() : min(found.end(), found.start() + SHOWN + 1)], SHOWN)
            for found in _ENTRY.finditer(self.text, at, self.at)
        )

    def peek(self) -> str | None:
        """The next entry, left to be taken."""
        at = self.at
        entry = self.take()
        self.at = at
        return entry

    def shown(self) -> str:
        """The line as typed (cut short), for a pipe's echo."""
        start = _TYPED.search(self.text)
        if start is None:
            return ""
        typed = self.text[start.start() : start.start() + SHOWN + 1].rstrip()
        return shorten(typed, SHOWN)

    def rest(self) -> str:
        """The entries not taken yet, one space between them (cut short)."""
        shown: list[str] = []
        length = 0
        for found in _ENTRY.finditer(self.text, self.at):
            if length > SHOWN:
                shown.append("…")
                break
            shown.append(shorten(found.group(), SHOWN))
            length += len(shown[-1]) + 1
        self.at = len(self.text)
        return " ".join(shown)
