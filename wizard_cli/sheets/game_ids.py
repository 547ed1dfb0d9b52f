"""The game ids a season has seen, in flat memory: 8 bytes an id, however many games.

A long CSV refuses a game whose rows come back after other games, and ``convert`` refuses two
games with one id for a CSV: both need every id seen so far. A million ids as Python strings in
a set are ~100 MB; here each is a 64-bit fingerprint (its hash) in one open-addressed table
(SPEC §4: memory may grow with the players, not with the games). Two different ids share a
fingerprint with a chance of about n²/2⁶⁴ — for two million games, one in four million million.
"""

from __future__ import annotations

from array import array
from typing import Hashable, Sequence

_EMPTY = 0
_ZERO_HASH = -0x3C6EF372FE94F82B  # the fingerprint of anything whose hash is 0 (the empty text)
_LIMIT = 1 << 63


class GameIds:
    """A set of game ids that keeps only their fingerprints (``add``, ``in``, ``len``)."""

    __slots__ = ("_table", "_mask", "_count")

    def __init__(self) -> None:
        self._table = array("q", bytes(8 * 8))  # small: a file of one game needs no more
        self._mask = 7
        self._count = 0

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

    def _slot(self, fingerprint: int) -> int:
        """The slot holding ``fingerprint``, or the empty one where it would go."""
        table, mask = self._table, self._mask
        at = fingerprint & mask
        while True:
            found = table[at]
            if found == fingerprint or found == _EMPTY:
                return at
            at = (at + 1) & mask

    def __contains__(self, key: Hashable) -> bool:
        fingerprint = self._fingerprint(key)
        return self._table[self._slot(fingerprint)] == fingerprint

    def add(self, key: Hashable) -> None:
        """Remember ``key``."""
        fingerprint = self._fingerprint(key)
        at = self._slot(fingerprint)
        if self._table[at] == fingerprint:
            return
        self._table[at] = fingerprint
        self._count += 1
        if self._count * 2 > self._mask:  # at most half full: probes stay short
            self._grow()

    def add_new(self, keys: Sequence[Hashable]) -> bool:
        """Remember ``keys`` (distinct) if none of them is here yet; else remember none of them
        and return False."""
        fingerprints = list(map(self._fingerprint, keys))
        slot = self._slot
        table = self._table
        if any(table[slot(found)] == found for found in fingerprints):
            return False
        while (self._count + len(fingerprints)) * 2 > self._mask:  # room for all, probes short
            self._grow()
        table = self._table
        for found in fingerprints:
            table[slot(found)] = found
        self._count += len(fingerprints)
        return True

    def _grow(self) -> None:
        """Twice the slots, every fingerprint placed again."""
        old = self._table
        self._table = array("q", bytes(8 * 2 * len(old)))
        self._mask = 2 * len(old) - 1
        for fingerprint in old:
            if fingerprint != _EMPTY:
                self._table[self._slot(fingerprint)] = fingerprint
