"""What the live benchmarks (bench/live.py, bench/catch_up.py) share: a server whose CPU can be read, members
signed in by a seed script, and sockets opened as their pages open them.

- ``LiveBenchServer``: bench.server's throw-away server, with a fixed port and ``--workers`` if asked, a patient
  stop, and ``cpu_seconds()`` (user+system time of the server and its workers, from /proc), a figure that does
  not depend on how loaded the machine is;
- ``SIGN_IN``: the start of a seed script (run by ``BenchServer.python``), defining ``session_of(user)``, the
  session key a member's cookie carries; ``seeded(server, script)`` runs a script and reads the JSON it prints
  last;
- ``page_socket(port, campaign, session, query)``: a campaign's socket opened with the member's cookies and the
  page's origin, as a browser opens it.
"""

from __future__ import annotations

import contextlib
import json
import os
import signal
import subprocess
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

from bench.server import BenchServer

CSRF = "benchcsrftokenbenchcsrftoken0123"  # 32 characters: accepted unmasked by Django's CSRF check

SIGN_IN = r"""
import json
from django.contrib.auth.models import User
from django.contrib.sessions.backends.db import SessionStore
from django.contrib.auth import SESSION_KEY, BACKEND_SESSION_KEY, HASH_SESSION_KEY

def session_of(user):
    session = SessionStore()
    session[SESSION_KEY] = str(user.pk)
    session[BACKEND_SESSION_KEY] = "django.contrib.auth.backends.ModelBackend"
    session[HASH_SESSION_KEY] = user.get_session_auth_hash()
    session.save()
    return session.session_key
"""


class LiveBenchServer(BenchServer):
    """bench.server's throw-away server, with a fixed port (``port``; else bench.server's choice) and
    ``--workers``, and its CPU time."""

    def __init__(
        self, workdir: Path, *, port: int | None = None, workers: int = 1, extra_env: dict[str, str] | None = None
    ) -> None:
        super().__init__(workdir, extra_env=extra_env)
        if port is not None:
            self.port = port
        self.workers = workers
        self.start_timeout = 60.0  # two workers on a loaded machine start slowly

    def stop(self) -> None:
        """Stop the server, killing it if it has not stopped within 30 s (a loaded machine's two workers may
        take longer than bench.server's 10 s to shut down), so that the figures measured are still printed."""
        if self.process and self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=30)
            except subprocess.TimeoutExpired:
                for pid in self._children():
                    with contextlib.suppress(ProcessLookupError):
                        os.kill(pid, signal.SIGKILL)
                self.process.kill()
                self.process.wait(timeout=10)
        self.log.close()

    def _children(self) -> list[int]:
        assert self.process is not None
        found = []
        for stat in Path("/proc").glob("[0-9]*/stat"):
            try:
                ppid = int(stat.read_text().rsplit(")", 1)[1].split()[1])
            except (OSError, IndexError, ValueError):
                continue
            if ppid == self.process.pid:
                found.append(int(stat.parent.name))
        return found

    def cpu_seconds(self) -> float:
        """User+system CPU of the server and its worker processes so far."""
        assert self.process is not None
        tick = os.sysconf("SC_CLK_TCK")
        total = 0.0
        for stat in Path("/proc").glob("[0-9]*/stat"):
            try:
                fields = stat.read_text().rsplit(")", 1)[1].split()
            except OSError:
                continue
            pid, ppid = int(stat.parent.name), int(fields[1])
            if pid == self.process.pid or ppid == self.process.pid:
                total += (int(fields[11]) + int(fields[12])) / tick
        return total


def seeded(server: BenchServer, script: str) -> Any:
    """Run a seed script in the server's database and return the JSON it printed last."""
    return json.loads(server.python(script).strip().splitlines()[-1])


@contextlib.asynccontextmanager
async def page_socket(port: int, campaign: int, session: str, query: str = "") -> AsyncIterator[Any]:
    """The campaign's socket as a member's page opens it (``query``: ``?after=…&watch=…``)."""
    import websockets

    url = f"ws://127.0.0.1:{port}/ws/campaigns/{campaign}/{query}"
    headers = {"Cookie": f"sessionid={session}; csrftoken={CSRF}", "Origin": f"http://127.0.0.1:{port}"}
    async with websockets.connect(url, additional_headers=headers, max_size=None, ping_interval=None) as socket:
        yield socket
