"""The game ids a season has seen, in flat memory: 8 bytes an id, however many games.

A long CSV refuses a game whose rows come back after other games, and ``convert`` refuses two
games with one id for a CSV: both need every id seen so far. A million ids as Python strings in
a set are ~100 MB; here each is a 64-bit fingerprint (its hash) in one open-addressed table
(SPEC §4: memory may grow with the players, not with the games). Two different ids share a
fingerprint with a chance of about n²/2⁶⁴ — for two million games, one in four million million.

The fingerprints added last (up to RECENT of them, ~2 MiB) wait in a plain set before they go
into the table: a season lane's run of games is asked for and added at once, at C speed, with
no Python step per id (issue 20), while memory stays flat.
"""

from __future__ import annotations

from array import array
from collections.abc import Hashable, Sequence

_EMPTY = 0
_ZERO_HASH = -0x3C6EF372FE94F82B  # the fingerprint of anything whose hash is 0 (the empty text)
_LIMIT = 1 << 63
RECENT = 1 << 15  # fingerprints held in a set before they are placed in the table


class GameIds:
    """A set of game ids that keeps only their fingerprints (``add``, ``in``, ``len``)."""

    __slots__ = ("_table", "_mask", "_count", "_placed", "_recent")

    def __init__(self) -> None:
        self._table = array("q", bytes(8 * 8))  # small: a file of one game needs no more
        self._mask = 7
        self._count = 0  # fingerprints remembered (placed or recent)
        self._placed = 0  # of them, in the table
        self._recent: set[int] = set()  # the others: added last, not yet in the table

    def __len__(self) -> int:
        return self._count

    @staticmethod
    def _fingerprint(key: Hashable) -> int:
        """A non-zero 64-bit signed fingerprint (zero marks an empty slot): a whole number is
        itself (CPython hashes -1 and -2 alike, 2⁶¹ as 1), anything else its hash. The numbers
        that would meet an empty slot or the empty text's mark are hashed like large ones."""
        if type(key) is int:
            if -_LIMIT < key < _LIMIT and key != _EMPTY and key != _ZERO_HASH:
                return key
            key = ("int", key)
        return hash(key) or _ZERO_HASH

    def _fingerprints(self, keys: Sequence[Hashable]) -> list[int]:
        """Each key's fingerprint: texts (what a CSV's ids are) hashed at once."""
        if set(map(type, keys)) <= {str}:
            found = list(map(hash, keys))
            if 0 not in found:  # (only the empty text hashes to 0, in practice)
                return found
        return list(map(self._fingerprint, keys))

    def _slot(self, fingerprint: int) -> int:
        """The slot holding ``fingerprint``, or the empty one where it would go."""
        table, mask = self._table, self._mask
        at = fingerprint & mask
        while True:
            found = table[at]
            if found in (fingerprint, _EMPTY):
                return at
            at = (at + 1) & mask

    def _placed_here(self, fingerprint: int) -> bool:
        """Whether the table holds ``fingerprint``."""
        return self._table[self._slot(fingerprint)] == fingerprint

    def __contains__(self, key: Hashable) -> bool:
        fingerprint = self._fingerprint(key)
        return fingerprint in self._recent or (self._placed > 0 and self._placed_here(fingerprint))

    def add(self, key: Hashable) -> None:
        """Remember ``key``."""
        fingerprint = self._fingerprint(key)
        if fingerprint in self._recent or (self._placed and self._placed_here(fingerprint)):
            return
        self._recent.add(fingerprint)
        self._count += 1
        if len(self._recent) >= RECENT:
            self._place_recent()

    def add_new(self, keys: Sequence[Hashable]) -> bool:
        """Remember ``keys`` (distinct) if none of them is here yet; else remember none of them
        and return False."""
        fingerprints = self._fingerprints(keys)
        recent = self._recent
        if not recent.isdisjoint(fingerprints) or (
            self._placed and any(map(self._placed_here, fingerprints))
        ):
            return False
        recent.update(fingerprints)
        self._count += len(fingerprints)
        if len(recent) >= RECENT:
            self._place_recent()
        return True

    def _place_recent(self) -> None:
        """The recent fingerprints placed in the table (grown first, to stay at most half full:
        probes stay short)."""
        recent = self._recent
        while (self._placed + len(recent)) * 2 > self._mask:
            self._grow()
        table, slot = self._table, self._slot
        for fingerprint in recent:
            table[slot(fingerprint)] = fingerprint
        self._placed += len(recent)
        recent.clear()

    def _grow(self) -> None:
        """Twice the slots, every fingerprint placed again."""
        old = self._table
        self._table = array("q", bytes(8 * 2 * len(old)))
        self._mask = 2 * len(old) - 1
        for fingerprint in old:
            if fingerprint != _EMPTY:
                self._table[self._slot(fingerprint)] = fingerprint
