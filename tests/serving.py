"""Helpers for the tests of ``wizard serve`` as a real process: start it, read what it says,
follow its event stream from a thread."""

from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import sys
import tempfile
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
# axe-core, kept under tests/vendor/axe-core (its MPL-2.0 licence beside it, its header intact).
AXE = Path(__file__).parent / "vendor" / "axe-core" / "axe.min.js"


def axe_violations(page) -> list[str]:
    """axe-core's violations of a Playwright page as it is (WCAG 2.x A and AA, and best
    practice). Evaluated through the DevTools protocol, which the page's CSP does not govern;
    nothing is added to the page itself."""
    page.evaluate(AXE.read_text(encoding="utf-8") + "\n;0")
    return page.evaluate("""async () => {
        const result = await axe.run(document, {resultTypes: ["violations"]});
        return result.violations.map(v => v.id + ": " + v.help + " — " +
            v.nodes.map(n => n.target.join(" ")).slice(0, 5).join(", "));
    }""")


class Server:
    """``wizard serve SHEET --port 0 …`` in its own process, stopped (SIGTERM) on exit."""

    def __init__(
        self,
        sheet: Path,
        *options: str,
        nofile: int | None = None,
        state: Path | None = None,
        cwd: Path = ROOT,
    ) -> None:
        self.sheet = sheet
        self.cwd = cwd  # where it runs: a sheet named relative to it is shown by that name
        # The entry token is kept under $XDG_STATE_HOME: a folder of this test's, never ~.
        self.state = state or Path(tempfile.mkdtemp(prefix="wizard-state-"))
        self.options = options
        self.nofile = nofile  # the open-file limit (soft and hard) to start it under
        self.lines: list[str] = []
        self.url = ""
        self.token: str | None = None

    def __enter__(self) -> Server:
        env = dict(os.environ, PYTHONUNBUFFERED="1", XDG_STATE_HOME=str(self.state))
        self.process = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "wizard_cli",
                "serve",
                str(self.sheet),
                "--port",
                "0",
                *self.options,
            ],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            cwd=self.cwd,
            env=env,
            preexec_fn=self._limit if self.nofile else None,
        )
        started = threading.Event()

        def read() -> None:
            for line in self.process.stderr:
                self.lines.append(line)
                found = re.search(r" at (http://\S+/) ", line)
                if found and not self.url:
                    self.url = found.group(1)
                token = re.search(r"\?token=(\S+)", line)
                if token:
                    self.token = token.group(1)
                if self.url and ("--entry" not in self.options or self.token):
                    started.set()
            started.set()

        self._reader = threading.Thread(target=read, daemon=True)
        self._reader.start()
        if not started.wait(30) or not self.url:
            self.process.kill()
            raise AssertionError("serve did not start: " + "".join(self.lines))
        return self

    def _limit(self) -> None:
        import resource

        resource.setrlimit(resource.RLIMIT_NOFILE, (self.nofile, self.nofile))

    def stop(self) -> tuple[int, float]:
        """SIGTERM; the exit code and how long it took to come (at most 10 s waited)."""
        asked = time.monotonic()
        self.process.send_signal(signal.SIGTERM)
        try:
            code = self.process.wait(10)
        except subprocess.TimeoutExpired:
            code = -1
        return code, time.monotonic() - asked

    def __exit__(self, *exc: object) -> None:
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
            try:
                self.process.wait(10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()

    @property
    def stderr(self) -> str:
        """What it wrote on stderr so far (all of it, once it has ended)."""
        if self.process.poll() is not None:
            self._reader.join(5)
        return "".join(self.lines)

    def rss_kib(self) -> int:
        """The server's resident memory now."""
        status = Path(f"/proc/{self.process.pid}/status").read_text()
        return int(re.search(r"VmRSS:\s+(\d+)", status).group(1))

    def post(self, path: str, body: object, token: str | None = None):
        import httpx

        return httpx.post(
            self.url.rstrip("/") + path,
            content=json.dumps(body),
            timeout=30,
            headers={
                "Content-Type": "application/json",
                "X-Wizard-Token": token or self.token or "",
            },
        )


@dataclass
class Received:
    """One event off the stream, with when it arrived (time.monotonic())."""

    at: float
    name: str
    data: dict = field(default_factory=dict)


class Events:
    """An open ``/events`` stream read in a thread: every event, as it arrives."""

    def __init__(self, url: str) -> None:
        self.url = url.rstrip("/") + "/events"
        self.received: list[Received] = []
        self.comments: list[float] = []
        self.connected = threading.Event()
        self._stop = False
        self._arrived = threading.Condition()
        self._thread = threading.Thread(target=self._read, daemon=True)

    def __enter__(self) -> Events:
        self._thread.start()
        assert self.connected.wait(30), "no event stream"
        return self

    def __exit__(self, *exc: object) -> None:
        self._stop = True

    def _read(self) -> None:
        import httpx

        name, data = "message", []
        try:
            with httpx.stream("GET", self.url, timeout=None) as response:
                self.connected.set()
                for line in response.iter_lines():
                    if self._stop:
                        return
                    if line.startswith(":"):
                        self.comments.append(time.monotonic())
                    elif line.startswith("event:"):
                        name = line[6:].strip()
                    elif line.startswith("data:"):
                        data.append(line[5:].strip())
                    elif line == "" and data:
                        with self._arrived:
                            self.received.append(
                                Received(time.monotonic(), name, json.loads("\n".join(data)))
                            )
                            self._arrived.notify_all()
                        name, data = "message", []
        except Exception:  # noqa: BLE001 - the server went away: the stream ends
            self.connected.set()
        finally:
            with self._arrived:
                self._arrived.notify_all()

    def wait_for(self, test, timeout: float = 5.0, after: int = 0) -> Received | None:
        """The first event from index ``after`` on that ``test`` accepts, waiting up to
        ``timeout`` seconds for it."""
        deadline = time.monotonic() + timeout
        with self._arrived:
            while True:
                for event in self.received[after:]:
                    if test(event):
                        return event
                left = deadline - time.monotonic()
                if left <= 0 or not self._thread.is_alive():
                    return None
                self._arrived.wait(left)
