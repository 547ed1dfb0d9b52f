"""The sheet as the server last saw it, and every open event stream waiting for its next change.

The file is watched by a stat poll of (device, inode, mtime, size) every :data:`POLL_SECONDS`:
no dependency, and a rename over the sheet (an editor's save, our own atomic writes) changes the
inode, so it is seen as surely as a write in place. The key is taken *before* the file is read,
so a file still being written when it was read differs from its key at the next poll and is
read again: a half-written sheet shows its problems for a moment, then recovers by itself.

Each change is read (in a worker thread: reading never holds up the streams), scored once and
turned into one event text shared by every stream, so a hundred streams cost one JSON dump, and
memory does not grow with the number of updates.
"""

from __future__ import annotations

import asyncio
import json
import os
from dataclasses import dataclass

from ..app.batch import Inputs
from ..app.serving import Reading, game_now
from ..errors import Problem
from ..game.game import GameResult
from ..output.game_views import ScoreOutput, problem_json

POLL_SECONDS = 0.2


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
        self.event: Event | None = None
        self.stopping = False
        self._key: tuple | None | bool = False  # never equal to a stat key or None (missing)
        self._changed = asyncio.Condition()  # bound to the server's loop at first use
        self._reading = asyncio.Lock()

    def _stat_key(self) -> tuple | None:
        """What changes when the file does (None: it cannot be looked at now)."""
        try:
            info = os.stat(self.path)
        except OSError:
            return None
        return info.st_dev, info.st_ino, info.st_mtime_ns, info.st_size, info.st_ctime_ns

    async def refresh(self) -> bool:
        """Read the sheet again if it changed since last seen; whether it had."""
        async with self._reading:
            key = self._stat_key()
            if key == self._key:
                return False
            from anyio import to_thread

            reading = await to_thread.run_sync(game_now, self.inputs)
            self._key = key
            await self._publish(reading)
            return True

    async def _publish(self, reading: Reading) -> None:
        """Make the new state the current one and wake every stream."""
        self.version += 1
        self.problems = reading.problems
        if reading.result is not None:
            self.result = reading.result
            self.game = {**ScoreOutput().as_json(reading.result), "version": self.version}
            name, data = "update", self.game
        else:
            name = "problems"
            data = {"version": self.version,
                    "problems": [problem_json(problem) for problem in reading.problems]}
        self.event = Event(self.version, name,
                           f"event: {name}\nid: {self.version}\ndata: {wire_json(data)}\n\n")
        async with self._changed:
            self._changed.notify_all()

    async def run(self) -> None:
        """Poll until stopped."""
        while not self.stopping:
            await self.refresh()
            await asyncio.sleep(self.poll)

    async def next_event(self, seen: int | None, timeout: float) -> Event | None:
        """The current event if it is newer than ``seen``, else the next one, waiting at most
        ``timeout`` seconds (None: nothing new, or the server is stopping)."""
        if self.event is None:
            await self.refresh()
        if self.event is not None and self.event.version != seen:
            return self.event
        try:
            async with self._changed:
                await asyncio.wait_for(self._changed.wait(), timeout)
        except asyncio.TimeoutError:
            return None
        if self.stopping or self.event is None or self.event.version == seen:
            return None
        return self.event

    async def stop(self) -> None:
        """End the poll and every stream (the server is shutting down)."""
        self.stopping = True
        async with self._changed:
            self._changed.notify_all()
