"""The sheet as the server last saw it, and every open event stream waiting for its next change.

The file is watched by a stat poll of (device, inode, mtime, size) every :data:`POLL_SECONDS`:
no dependency, and a rename over the sheet (an editor's save, our own atomic writes) changes the
inode, so it is seen as surely as a write in place. The key is taken *before* the file is read,
so a file still being written when it was read differs from its key at the next poll and is
read again: a half-written sheet shows its problems for a moment, then recovers by itself.

Each change is read (in a worker thread: reading never holds up the streams), scored once and
turned into one event text shared by every stream, so a hundred streams cost one JSON dump, and
memory does not grow with the number of updates. A read that failed (the file missing, not a
regular file, an I/O error) is tried again within 1 s whether or not the file changes.

Waiting for a change holds no lock (SPEC §9 "Staying up, also"): each publish sets the
:class:`asyncio.Event` the streams wait on and the next waiter makes a new one, so a stream
cancelled while it waits (a client that drops) leaves nothing half done behind it. (A
``Condition`` waited on under its lock deadlocked Python 3.11 when such waits were cancelled.)
"""

from __future__ import annotations

import asyncio
import json
import os
import threading
import time
from dataclasses import dataclass

from ..app.batch import Inputs
from ..app.serving import Reading, game_now
from ..errors import Problem
from ..game.game import GameResult
from ..output.game_views import ScoreOutput, problem_json

POLL_SECONDS = 0.2
RETRY_SECONDS = 0.5  # a failed read is read again after this (and the next poll)


@dataclass(frozen=True, slots=True)
class Event:
    """One server-sent event: ``update`` (the game) or ``problems``, ready to send."""

    version: int
    name: str
    text: str  # the whole event, ``event:``, ``id:`` and ``data:`` lines and the blank line

    def first(self) -> str:
        """The event as a stream's first, with how soon to reconnect (1 s) if it breaks."""
        return "retry: 1000\n" + self.text


def wire_json(value: object) -> str:
    """JSON as the server sends it: one line (an event's data may not break), ASCII only (a
    name with a lone surrogate is still valid UTF-8 on the wire)."""
    return json.dumps(value, ensure_ascii=True, separators=(",", ":"))


class SheetWatch:
    """The sheet's current state: the last valid game (kept on screen while the sheet is
    invalid), the current problems, and a version that grows with every change seen."""

    def __init__(self, inputs: Inputs, poll: float = POLL_SECONDS) -> None:
        self.inputs = inputs
        self.path = inputs.paths[0]
        self.poll = poll
        self.version = 0
        self.result: GameResult | None = None  # the last valid game
        self.game: dict | None = None  # its /game.json object, with its version
        self.problems: tuple[Problem, ...] = ()  # the sheet's problems now (none: it is valid)
        self.fingerprint: bytes | None = None  # of the bytes the current version was read from
        self.event: Event | None = None
        self.stopping = False
        self.stopped = threading.Event()  # set at shutdown, from any thread: writes stop waiting
        self._key: tuple | None | bool = False  # never equal to a stat key or None (missing)
        self._retry_at: float | None = None  # the last read failed: when to read again
        self._changed: asyncio.Event | None = None  # set at the next publish (made on the loop)
        self._reading = asyncio.Lock()

    def _stat_key(self) -> tuple | None:
        """What changes when the file does (None: it cannot be looked at now)."""
        try:
            info = os.stat(self.path)
        except OSError:
            return None
        return info.st_dev, info.st_ino, info.st_mtime_ns, info.st_size, info.st_ctime_ns

    def shown(self) -> tuple[int, bytes | None]:
        """The current version and the fingerprint of the bytes it was read from."""
        return self.version, self.fingerprint

    async def refresh(self) -> bool:
        """Read the sheet again if it changed since last seen, or if the last read failed and
        a second has nearly passed; whether there is a new version."""
        async with self._reading:
            key = self._stat_key()
            retry = self._retry_at is not None and time.monotonic() >= self._retry_at
            if key == self._key and not retry:
                return False
            from anyio import to_thread

            reading = await to_thread.run_sync(game_now, self.inputs)
            failed_before = self._retry_at is not None
            self._retry_at = time.monotonic() + RETRY_SECONDS if reading.failed else None
            if (
                key == self._key
                and failed_before
                and reading.failed
                and reading.problems == self.problems
            ):
                return False  # failed again, the same way: nothing new to tell the streams
            self._key = key
            self._publish(reading)
            return True

    def _publish(self, reading: Reading) -> None:
        """Make the new state the current one and wake every stream."""
        self.version += 1
        self.problems = reading.problems
        self.fingerprint = reading.fingerprint
        if reading.result is not None:
            self.result = reading.result
            self.game = {**ScoreOutput().as_json(reading.result), "version": self.version}
            name, data = "update", self.game
        else:
            name = "problems"
            data = {
                "version": self.version,
                "problems": [problem_json(problem) for problem in reading.problems],
            }
        self.event = Event(
            self.version, name, f"event: {name}\nid: {self.version}\ndata: {wire_json(data)}\n\n"
        )
        self._wake()

    def _wake(self) -> None:
        """Wake everything waiting for a change; the next waiter waits on a new Event."""
        changed, self._changed = self._changed, None
        if changed is not None:
            changed.set()

    async def run(self) -> None:
        """Poll until stopped."""
        while not self.stopping:
            await self.refresh()
            await asyncio.sleep(self.poll)

    async def next_event(self, seen: int | None, timeout: float) -> Event | None:
        """The current event if it is newer than ``seen``, else the next one, waiting at most
        ``timeout`` seconds (None: nothing new, or the server is stopping). Holds no lock while
        it waits: being cancelled here (a client gone) is harmless."""
        if self.event is None:
            await self.refresh()
        if self.stopping:
            return None
        if self.event is not None and self.event.version != seen:
            return self.event
        if self._changed is None:
            self._changed = asyncio.Event()
        try:
            await asyncio.wait_for(self._changed.wait(), timeout)
        except TimeoutError:
            return None
        if self.stopping or self.event is None or self.event.version == seen:
            return None
        return self.event

    async def stop(self) -> None:
        """End the poll and every stream (the server is shutting down)."""
        self.stopping = True
        self.stopped.set()
        self._wake()
