"""A SIGTERM while ``wizard serve`` is still starting (SPEC §9: "Ctrl-C or SIGTERM stops it
within 2 s, exit 0"): caught from the command's first line, before the start-up's imports
(about a second of them, during which SIGTERM's default would end the process with 143),
remembered, and handed to the server once there is one. Nothing heavy is imported here."""

from __future__ import annotations

import signal

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable
    from types import FrameType

    Handler = Callable[[int, FrameType | None], None]

_asked = False  # a SIGTERM came
_handler: Handler | None = None  # the server's, once it has one


def _caught(sig: int, frame: FrameType | None) -> None:
    """Remember the signal; pass it on to the server's own handler when there is one."""
    global _asked
    _asked = True
    if _handler is not None:
        _handler(sig, frame)


def catch_early() -> None:
    """From now on a SIGTERM is remembered instead of ending the process."""
    signal.signal(signal.SIGTERM, _caught)


def hand_over(handler: Handler) -> bool:
    """A SIGTERM goes to ``handler`` from now on; whether one came already (then the server
    is not started: it stops before it starts)."""
    global _handler
    _handler = handler
    return _asked
