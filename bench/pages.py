"""Page cost in process: CPU ms per request of everyday pages and their ratio to a bare Django page.

The bare page makes 12 queries and renders a 40-row table in the site's base template, in the same
process, with the same settings (``DEBUG=false``, SQLite unless ``BENCH_DATABASE_URL``). The campaign
has 1,000 events by default; ``BENCH_PAGE_EVENTS=1000,10000,50000`` measures growth with history.
Ratio = bare CPU time / page CPU time, per interleaved round; the median over rounds, with the lowest and the
highest round (``.ratio_min``, ``.ratio_max``) for the spread.

First view after a change (issue 26): ``*_after_*`` pages are requested right after a real use case changed what
they show (a note for the dashboard and the log, an Atout spent for the sheet, a draw for the narrator's Sequence
page); the use case is not timed, the request after it is. ``BENCH_PAGES_MODE=changed`` runs only those, their
warm twins and the bare page: ``BENCH_PAGES_MODE=changed python -m bench pages``.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

from bench.figures import Figure

ROOT = Path(__file__).resolve().parent.parent


def measure(events: int, workdir: Path) -> dict[str, object]:
    env = {
        **os.environ,
        "DATABASE_URL": os.environ.get("BENCH_DATABASE_URL", f"sqlite:///{workdir / f'pages-{events}.sqlite3'}"),
        "DEBUG": "false",
        "STATIC_MANIFEST": "false",
        "BENCH_VIEWS": "true",
        "DJANGO_SETTINGS_MODULE": "config.settings",
        "PYTHONPATH": str(ROOT),
    }
    done = subprocess.run(
        [sys.executable, "-m", "bench.pages_worker", str(events)],
        cwd=ROOT, env=env, check=False, capture_output=True, text=True,
    )  # fmt: skip
    if done.returncode:
        sys.stderr.write(done.stderr[-4000:])
        raise RuntimeError(f"bench.pages_worker {events} failed ({done.returncode})")
    return json.loads(done.stdout.strip().splitlines()[-1])


def run() -> list[Figure]:
    counts = [int(n) for n in os.environ.get("BENCH_PAGE_EVENTS", "1000").split(",") if n.strip()]
    figures: list[Figure] = [Figure("pages.load_before", os.getloadavg()[0], "load average (1 min)")]
    with tempfile.TemporaryDirectory(prefix="tablee-pages-") as tmp:
        for events in counts:
            result = measure(events, Path(tmp))
            for name, page in result["pages"].items():  # type: ignore[attr-defined]
                prefix = f"pages.{events}.{name}"
                figures.append(Figure(f"{prefix}.cpu", page["cpu_ms"], "ms"))
                figures.append(Figure(f"{prefix}.queries", page["queries"], "queries"))
                if name != "bare":
                    figures.append(Figure(f"{prefix}.ratio", page["ratio"], "bare/page"))
                    figures.append(Figure(f"{prefix}.ratio_min", page["ratio_min"], "bare/page"))
                    figures.append(Figure(f"{prefix}.ratio_max", page["ratio_max"], "bare/page"))
    figures.append(Figure("pages.load_after", os.getloadavg()[0], "load average (1 min)"))
    return figures
