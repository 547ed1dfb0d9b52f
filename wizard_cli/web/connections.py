"""How many connections ``serve`` holds, and how long a request may take to arrive (SPEC §9
"Staying up, also").

- At start the soft file-descriptor limit is raised to the hard one; the server then holds at
  most half of it in connections (at least the 100 event streams promised, where the limit
  leaves room for them), so a flood of sockets can never use up the descriptors the sheet's
  reads, the lock and the writes need.
- A connection past that cap is answered ``503`` and closed at once, in the accept itself
  (uvicorn's own ``limit_concurrency`` answers only after reading a request, and holds the
  socket meanwhile). First, though, the oldest connection that has not yet sent a whole
  request is let go in its favour: idle sockets cannot keep the table's phones out.
- A request's headers and body must arrive within :data:`ARRIVAL_SECONDS` of its first byte
  (of the connection, for the first request): a connection that sends nothing, or a header a
  byte at a time, is closed then. Event streams, once asked for, are not limited.
"""

from __future__ import annotations

import resource
import time

ARRIVAL_SECONDS = 10.0
SHUTDOWN_GRACE = 0.5  # what a response still being written gets at shutdown, before the close
STREAMS_PROMISED = 100
SPARE_DESCRIPTORS = 32  # for the sheet, its lock, a write's temporary file, the thread pool
_REFUSED = (
    b"HTTP/1.1 503 Service Unavailable\r\ncontent-type: text/plain; charset=utf-8\r\n"
    b"content-length: 37\r\nconnection: close\r\n\r\n"
    b"too many connections: try again soon\n"
)
_TOO_SLOW = (
    b"HTTP/1.1 408 Request Timeout\r\ncontent-type: text/plain; charset=utf-8\r\n"
    b"content-length: 39\r\nconnection: close\r\n\r\n"
    b"the request did not arrive within 10 s\n"
)


def raise_descriptor_limit() -> int:
    """Raise the soft limit of open files to the hard one (as far as the system allows);
    the limit now in force."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    wanted = hard if hard != resource.RLIM_INFINITY else 1 << 20
    for target in (wanted, 1 << 16, 4096):  # an unlimited hard limit is capped by the kernel
        if target <= soft:
            break
        try:
            resource.setrlimit(resource.RLIMIT_NOFILE, (target, hard))
            return target
        except (ValueError, OSError):
            continue
    return soft


def connection_cap(limit: int) -> int:
    """How many connections to hold under a descriptor limit of ``limit``: half of it, and at
    least the 100 event streams promised when the limit leaves room for them beside the spare
    descriptors."""
    return max(limit // 2, min(STREAMS_PROMISED, limit - SPARE_DESCRIPTORS), 1)


def accept_backlog(limit: int, cap: int) -> int:
    """The listen backlog, which is also how many connections asyncio accepts at a time: each
    accepted socket reaches the cap's check only two turns of the event loop later, by when
    up to three such bursts may have been accepted, so three bursts, the cap and the spare
    descriptors are kept within the limit."""
    return max(4, min(128, (limit - cap - SPARE_DESCRIPTORS) // 4))


def bounded_protocol(cap: int, arrival: float = ARRIVAL_SECONDS) -> type:
    """uvicorn's h11 protocol, holding at most ``cap`` connections and closing one whose
    request has not arrived within ``arrival`` seconds."""
    import h11
    from uvicorn.protocols.http.h11_impl import H11Protocol

    class BoundedH11Protocol(H11Protocol):
        refused = False
        _deadline = None  # asyncio.TimerHandle: this request must have arrived by then
        _since = 0.0  # when the request now awaited began (monotonic)

        def connection_made(self, transport) -> None:  # noqa: ANN001
            if len(self.connections) >= cap and not self._make_room():
                self.refused = True
                transport.write(_REFUSED)
                transport.close()
                return
            super().connection_made(transport)
            self._await_request()

        def connection_lost(self, exc: Exception | None) -> None:
            if self.refused:
                return
            self._stop_clock()
            super().connection_lost(exc)

        def data_received(self, data: bytes) -> None:
            if self._deadline is None and self.conn.their_state is h11.IDLE:
                self._await_request()  # the next request on a kept-alive connection
            super().data_received(data)
            if self.conn.their_state not in (h11.IDLE, h11.SEND_BODY):
                self._stop_clock()  # the whole request is in (or the connection is ending)

        def on_response_complete(self) -> None:
            self._await_request()  # kept alive, idle: may be let go for a new connection
            super().on_response_complete()
            if self.conn.their_state not in (h11.IDLE, h11.SEND_BODY):
                self._stop_clock()  # a pipelined request, already whole

        def shutdown(self) -> None:
            """As uvicorn's (idle connections close, busy ones finish their response), then,
            after a moment, close what is still open: a body that never comes or an event
            stream whose reader stalled would otherwise hold the shutdown until uvicorn
            cancels their tasks, with a traceback each (SPEC §9: stopped within 2 s)."""
            super().shutdown()
            self.loop.call_later(SHUTDOWN_GRACE, self._close_at_shutdown)

        def _close_at_shutdown(self) -> None:
            if not self.transport.is_closing():
                self._stop_clock()
                self.transport.close()

        def _await_request(self) -> None:
            self._stop_clock()
            self._since = time.monotonic()
            self._deadline = self.loop.call_later(arrival, self._too_slow)

        def _stop_clock(self) -> None:
            if self._deadline is not None:
                self._deadline.cancel()
                self._deadline = None

        def waiting(self) -> bool:
            """Whether this connection is still waiting for a whole request to arrive."""
            return self._deadline is not None and self.conn.their_state in (h11.IDLE, h11.SEND_BODY)

        def _too_slow(self) -> None:
            self._deadline = None
            if self.transport.is_closing() or self.conn.their_state not in (
                h11.IDLE,
                h11.SEND_BODY,
            ):
                return
            self._let_go()

        def _let_go(self) -> None:
            """Close this connection: a 408 if no request of it is being answered."""
            self._stop_clock()
            if self.conn.their_state is h11.IDLE and (
                self.cycle is None or self.cycle.response_complete
            ):
                self.transport.write(_TOO_SLOW)
            self.transport.close()
            self.connections.discard(self)  # its descriptor is going: make room at once

        def _make_room(self) -> bool:
            """Let the oldest connection still waiting for its request go; whether one was."""
            waiting = [
                c for c in self.connections if isinstance(c, BoundedH11Protocol) and c.waiting()
            ]
            if not waiting:
                return False
            min(waiting, key=lambda c: c._since)._let_go()
            return True

    return BoundedH11Protocol
