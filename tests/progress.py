"""A line every few seconds saying how far the suite is: tests done of the total, by outcome, and the time.

pytest's dots say nothing of how long is left, and under load a line of dots can take minutes (issue: « 23
minutes of dots »). With xdist the controller hears every report, so this runs there; alone, in the one process.
"""

from __future__ import annotations

import time
from collections import Counter

import pytest

EVERY_SECONDS = 10.0


class Progress:
    def __init__(self, config: pytest.Config) -> None:
        self.config = config
        self.started = time.monotonic()
        self.last = self.started
        self.total: int | None = None
        self.outcomes: Counter[str] = Counter()

    def pytest_collection_finish(self, session: pytest.Session) -> None:
        if not hasattr(self.config, "workerinput"):
            self.total = len(session.items)

    @pytest.hookimpl(optionalhook=True)
    def pytest_xdist_node_collection_finished(self, node: object, ids: list[str]) -> None:
        self.total = max(self.total or 0, len(ids))

    def pytest_runtest_logreport(self, report: pytest.TestReport) -> None:
        if report.when == "call" or (report.when == "setup" and not report.passed):
            self.outcomes[report.outcome] += 1
        now = time.monotonic()
        if now - self.last >= EVERY_SECONDS and self.outcomes:
            self.last = now
            self.say(now)

    def say(self, now: float) -> None:
        reporter = self.config.pluginmanager.get_plugin("terminalreporter")
        if reporter is None:
            return
        done = sum(self.outcomes.values())
        of = f"/{self.total}" if self.total else ""
        counts = ", ".join(f"{n} {outcome}" for outcome, n in sorted(self.outcomes.items()))
        minutes, seconds = divmod(int(now - self.started), 60)
        reporter.ensure_newline()
        reporter.write_line(f"  … {done}{of} tests, {minutes}m{seconds:02d}s: {counts}")


def pytest_configure(config: pytest.Config) -> None:
    if not hasattr(config, "workerinput") and config.getoption("verbose") <= 0:
        config.pluginmanager.register(Progress(config), "tablee-progress")
