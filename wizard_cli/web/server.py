"""``wizard serve``: listen, say where (and, with ``--entry``, the entry address as text and as a
QR code), serve until Ctrl-C or SIGTERM, then stop within 2 s with exit 0 (SPEC §9).

The socket is bound here, before uvicorn starts, so ``--port 0`` can say the port it got and the
``Host`` check knows it. uvicorn's access log is off (an entry address carries the token) and
its own signal handling is kept but told not to re-raise the signal at the end (which would
make the exit code 143 instead of 0).
"""

from __future__ import annotations

import ipaddress
import socket
from typing import TextIO

from ..app.batch import Inputs
from ..errors import ExitCode, Problem, WizardError, visible

MISSING_EXTRA = (
    "wizard serve needs the serve extra (starlette, uvicorn, jinja2, segno): "
    "pip install '.[serve]' in the wizard-cli folder"
)
WILDCARDS = ("0.0.0.0", "::", "")
LOOPBACK_HOSTS = ("127.0.0.1", "localhost", "::1", "[::1]")
LISTEN_QUEUE = 2048  # connections the kernel holds until accepted (uvicorn's default)


def require_serve_extra() -> None:
    """Fail early, in one line, when the ``serve`` extra is not installed."""
    try:
        import jinja2  # noqa: F401
        import segno  # noqa: F401
        import starlette  # noqa: F401
        import uvicorn  # noqa: F401
    except ImportError:
        raise WizardError(MISSING_EXTRA) from None


def machine_addresses() -> list[str]:
    """This machine's own IP addresses (not loopback), as well as can be found without a
    dependency: the host name's addresses and the one a packet to the outside would leave by."""
    found: list[str] = []
    try:
        for info in socket.getaddrinfo(socket.gethostname(), None):
            host = info[4][0]  # an IP address's text (an int only for a Python without IPv6)
            if isinstance(host, str):
                found.append(host)
    except OSError:
        pass
    for family, probe in ((socket.AF_INET, "192.0.2.1"), (socket.AF_INET6, "2001:db8::1")):
        try:
            with socket.socket(family, socket.SOCK_DGRAM) as udp:
                udp.connect((probe, 9))  # no packet is sent: this only picks the route
                found.append(udp.getsockname()[0])
        except OSError:
            pass
    addresses = []
    for address in found:
        address = address.split("%")[0]
        try:
            parsed = ipaddress.ip_address(address)
        except ValueError:
            continue
        if not parsed.is_loopback and not parsed.is_unspecified and address not in addresses:
            addresses.append(address)
    return addresses


def host_part(address: str) -> str:
    """An address as it stands in a URL or a Host header (IPv6 in brackets)."""
    return f"[{address}]" if ":" in address else address


def allowed_hosts(host: str, port: int) -> frozenset[str]:
    """The ``Host`` values this server answers (SPEC §9): localhost, 127.0.0.1, [::1], the
    ``--host`` address, and for a wildcard host the machine's addresses, each with the port
    (and bare, when the port is 80, as a browser then sends it)."""
    names = {"localhost", "127.0.0.1", "[::1]"}
    if host in WILDCARDS:
        names |= {host_part(address) for address in machine_addresses()}
    else:
        names.add(host_part(host.strip("[]")).lower())
    hosts = {f"{name}:{port}" for name in names}
    if port == 80:
        hosts |= names
    return frozenset(hosts)


def bind(host: str, port: int) -> socket.socket:
    """A listening socket on ``host``:``port`` (0: a free port)."""
    wanted = host.strip("[]") or "0.0.0.0"
    family = socket.AF_INET6 if ":" in wanted else socket.AF_INET
    try:
        sock = socket.socket(family, socket.SOCK_STREAM)
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        if family == socket.AF_INET6 and wanted == "::":
            sock.setsockopt(socket.IPPROTO_IPV6, socket.IPV6_V6ONLY, 0)
        sock.bind((wanted, port))
        sock.listen(128)
    except OSError as error:
        raise WizardError(
            Problem(f"cannot listen on {host_part(wanted)}:{port}: {error.strerror or error}")
        ) from None
    sock.set_inheritable(True)
    return sock


def beyond_loopback(host: str) -> bool:
    """Whether listening on ``host`` reaches past this computer (a wildcard, or an address or
    name other than the loopback ones)."""
    bare = host.strip("[]")
    if bare.lower() == "localhost":
        return False
    try:
        return not ipaddress.ip_address(bare).is_loopback
    except ValueError:
        return True


def addresses_to_open(host: str, port: int) -> list[str]:
    """The addresses to give the room: for a wildcard host each of the machine's, else the one."""
    if host in WILDCARDS:
        return [f"http://{host_part(a)}:{port}/" for a in machine_addresses()] or [
            f"http://127.0.0.1:{port}/"
        ]
    shown = "127.0.0.1" if host == "localhost" else host.strip("[]")
    return [f"http://{host_part(shown)}:{port}/"]


def serve_sheet(
    inputs: Inputs, host: str, port: int, entry: bool, stderr: TextIO, new_token: bool = False
) -> ExitCode:
    """Serve the sheet until stopped; the exit code. With ``entry``, the token kept in the
    state folder (a new one with ``new_token``) is the one the entry address carries."""
    require_serve_extra()
    from .token_file import entry_token, token_path

    token = entry_token(token_path(), renew=new_token) if entry else None
    import gc

    import uvicorn

    # The CLI raises the collector's first threshold for batches that make no cycles; a server
    # making a few cycles per request (tasks, exceptions) would then grow to the high-water mark
    # of 100,000 dead objects before collecting: memory stays flat with the default instead.
    gc.set_threshold(700, 10, 10)

    from .app import create_app
    from .connections import (
        accept_backlog,
        bounded_protocol,
        connection_cap,
        raise_descriptor_limit,
    )
    from .watch import SheetWatch

    limit = raise_descriptor_limit()
    cap = connection_cap(limit)
    sock = bind(host, port)
    port = sock.getsockname()[1]
    watch = SheetWatch(inputs)
    app = create_app(watch, token, allowed_hosts(host, port))
    say_where(inputs.paths[0], host, port, token, stderr)

    config = uvicorn.Config(
        app,
        log_level="warning",
        access_log=False,
        lifespan="on",
        timeout_graceful_shutdown=1,
        server_header=False,
        http=bounded_protocol(cap),
        backlog=accept_backlog(limit, cap),
        h11_max_incomplete_event_size=16 * 1024,
    )
    run_until_stopped(server_class()(config, watch), sock)
    stderr.write("wizard serve: stopped\n")
    stderr.flush()
    return ExitCode.OK


def run_until_stopped(server, sock: socket.socket) -> None:  # noqa: ANN001
    """Serve until Ctrl-C or SIGTERM; a SIGTERM that came during the start-up stops it before
    it starts (SPEC §9: exit 0, at any moment)."""
    from ..stop_signal import hand_over

    if not hand_over(server.handle_exit):
        server.run(sockets=[sock])


def say_where(path: str, host: str, port: int, token: str | None, stderr: TextIO) -> None:
    """The lines ``serve`` starts with: where to look, who may write, the entry QR code."""
    addresses = addresses_to_open(host, port)
    lines = [f"wizard serve: {visible(path)} at {addresses[0]} (Ctrl-C to stop)"]
    if host in WILDCARDS:
        lines.append(
            "Open to the room's network: anyone on it can watch at " + " or ".join(addresses)
        )
    elif host in ("127.0.0.1", "localhost", "::1", "[::1]"):
        lines.append(
            "Only this computer can open it; --host 0.0.0.0 opens it to the room's network."
        )
    if token is None:
        lines.append("Read-only: nothing can be entered (--entry allows a phone to).")
    stderr.write("\n".join(lines) + "\n")
    if token is not None:
        import segno

        address = f"{addresses[0]}enter?token={token}"
        stderr.write(f"Entry page (whoever has this address can write to the sheet): {address}\n")
        if beyond_loopback(host):  # a phone can only scan its way to an address it can reach
            segno.make(address, error="m").terminal(out=stderr, compact=True)
    stderr.flush()


_said: dict[str, float] = {}


def _one_line(loop, context: dict) -> None:  # noqa: ANN001
    """What the event loop would log with a traceback (an accept that failed, a callback that
    raised), as one line on stderr, at most once every 5 s for each kind: no client can fill
    the terminal (SPEC §9)."""
    import sys
    import time

    message = context.get("message") or "unexpected error"
    error = context.get("exception")
    now = time.monotonic()
    if now - _said.get(message, -10.0) < 5.0:
        return
    _said[message] = now
    detail = f": {type(error).__name__}: {error}" if error is not None else ""
    sys.stderr.write(f"wizard serve: {visible(message)}{visible(detail)}\n")
    sys.stderr.flush()


def server_class() -> type:
    """uvicorn's Server, made to end with exit 0 on Ctrl-C or SIGTERM, ending the event
    streams first (they would otherwise hold the shutdown up until its timeout)."""
    import asyncio

    import uvicorn

    class Server(uvicorn.Server):
        def __init__(self, config: uvicorn.Config, watch) -> None:  # noqa: ANN001
            super().__init__(config)
            self.watch = watch
            self.loop: asyncio.AbstractEventLoop | None = None

        async def startup(self, sockets=None) -> None:  # noqa: ANN001
            self.loop = asyncio.get_running_loop()
            self.loop.set_exception_handler(_one_line)
            await super().startup(sockets)
            # asyncio listens with its backlog, which is also how many it accepts at once (kept
            # small: see connections.accept_backlog); the kernel's queue of connections not yet
            # accepted holds no descriptor of ours, so it is made long again: a reconnect storm
            # waits there instead of being dropped (a dropped SYN costs a client a second).
            for sock in sockets or ():
                sock.listen(LISTEN_QUEUE)

        def handle_exit(self, sig, frame) -> None:  # noqa: ANN001
            # As uvicorn's, without remembering the signal to raise again at the end.
            if self.should_exit:
                self.force_exit = True
            self.should_exit = True
            self.watch.stopped.set()  # a write waiting for the sheet's lock gives up now
            if self.loop is not None:
                self.loop.call_soon_threadsafe(lambda: asyncio.ensure_future(self.watch.stop()))

    return Server
