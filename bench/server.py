"""A throw-away Tablée server for benchmarks: its own SQLite file, migrated, served by uvicorn."""

from __future__ import annotations

import http.client
import os
import socket
import statistics
import subprocess
import sys
import threading
import time
import urllib.request
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


class BenchServer:
    def __init__(self, workdir: Path, *, extra_env: dict[str, str] | None = None) -> None:
        # BENCH_PORT: a fixed port (engineers sharing a machine each keep to their own range).
        self.port = int(os.environ.get("BENCH_PORT") or free_port())
        self.workers = int(os.environ.get("BENCH_WORKERS", "1"))
        self.env = {
            **os.environ,
            "DATABASE_URL": os.environ.get("BENCH_DATABASE_URL", f"sqlite:///{workdir / 'bench.sqlite3'}"),
            "DEBUG": "false",
            "STATIC_MANIFEST": "false",
            "BENCH_VIEWS": "true",
            "DJANGO_SETTINGS_MODULE": "config.settings",
            "PYTHONPATH": str(ROOT),
            **(extra_env or {}),
        }
        self.log = (workdir / "server.log").open("w")
        self.process: subprocess.Popen[bytes] | None = None
        self.start_timeout = 30.0  # seconds for migrate and the first /healthz answer

    def python(self, code: str) -> str:
        script = "import django; django.setup()\n" + code
        return subprocess.run(
            [sys.executable, "-c", script], cwd=ROOT, env=self.env, check=True, capture_output=True, text=True
        ).stdout

    def start(self) -> None:
        subprocess.run([sys.executable, "manage.py", "migrate", "-v", "0"], cwd=ROOT, env=self.env, check=True)
        self.process = subprocess.Popen(
            [sys.executable, "-m", "uvicorn", "config.asgi:application", "--host", "127.0.0.1", "--port",
             str(self.port), "--no-access-log", "--log-level", "warning", "--workers", str(self.workers)],
            cwd=ROOT, env=self.env, stdout=self.log, stderr=subprocess.STDOUT,
        )  # fmt: skip
        deadline = time.monotonic() + self.start_timeout
        while time.monotonic() < deadline:
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{self.port}/healthz", timeout=1):
                    return
            except OSError:
                time.sleep(0.2)
        raise RuntimeError("bench server did not start")

    def stop(self) -> None:
        if self.process:
            self.process.terminate()
            self.process.wait(timeout=10)
        self.log.close()


@dataclass(frozen=True)
class LoadResult:
    requests_per_second: float
    p50_ms: float
    p95_ms: float
    errors: int


def load(port: int, path: str, *, clients: int, seconds: float, cookie: str = "") -> LoadResult:
    """``clients`` keep-alive connections hammer ``path`` for ``seconds``; latency percentiles in ms."""
    latencies: list[float] = []
    errors = [0]
    lock = threading.Lock()
    stop_at = time.perf_counter() + seconds
    headers = {"Cookie": cookie} if cookie else {}

    def worker() -> None:
        connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
        mine: list[float] = []
        while time.perf_counter() < stop_at:
            start = time.perf_counter()
            try:
                connection.request("GET", path, headers=headers)
                response = connection.getresponse()
                response.read()
                ok = response.status == 200
            except (OSError, http.client.HTTPException):
                connection.close()
                connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
                ok = False
            if ok:
                mine.append((time.perf_counter() - start) * 1000)
            else:
                with lock:
                    errors[0] += 1
        with lock:
            latencies.extend(mine)
        connection.close()

    threads = [threading.Thread(target=worker) for _ in range(clients)]
    began = time.perf_counter()
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    elapsed = time.perf_counter() - began
    latencies.sort()
    if not latencies:
        return LoadResult(0.0, float("nan"), float("nan"), errors[0])
    p95 = latencies[min(len(latencies) - 1, int(len(latencies) * 0.95))]
    return LoadResult(len(latencies) / elapsed, statistics.median(latencies), p95, errors[0])
