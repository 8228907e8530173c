"""Django templates against Jinja2 on the hot regions (issue 26, item 5 « Cheap uncached rendering »).

Uncached render CPU of a log entry, a player's board row, a dashboard panel and the sheet's trait rows with the
site's Django templates, and with Jinja2 ports of just those templates (``bench/jinja2/*.jinja``, rendered through
Django's own ``django.template.backends.jinja2`` with the site's filters and tags as functions, ``bench/jinja_env.py``;
bench only, the site's templates are not converted). Figures per region: ms per item with each engine, the ratio
Jinja2/Django (median over interleaved rounds, with the lowest and highest round) and whether both print the same
markup (whitespace and CSRF tokens aside).
Needs Jinja2 (``requirements-bench.txt``); without it the module reports nothing. ``BENCH_LANGUAGE=en`` for English.
The ports end in ``.jinja``, not ``.html``: Django's ``makemessages`` reads ``.html`` files as Django templates.
"""

from __future__ import annotations

import importlib.util
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

from bench.figures import Figure

ROOT = Path(__file__).resolve().parent.parent


def run() -> list[Figure]:
    if importlib.util.find_spec("jinja2") is None:
        print("template_engines: Jinja2 is not installed (requirements-bench.txt): skipped", file=sys.stderr)
        return []
    with tempfile.TemporaryDirectory(prefix="tablee-templates-") as tmp:
        env = {
            **os.environ,
            "DATABASE_URL": os.environ.get("BENCH_DATABASE_URL", f"sqlite:///{Path(tmp) / 'templates.sqlite3'}"),
            "DEBUG": "false",
            "STATIC_MANIFEST": "false",
            "DJANGO_SETTINGS_MODULE": "config.settings",
            "PYTHONPATH": os.pathsep.join(p for p in (str(ROOT), os.environ.get("PYTHONPATH", "")) if p),
        }
        done = subprocess.run([sys.executable, "-m", "bench.template_engines_worker"], cwd=ROOT, env=env,
                              check=False, capture_output=True, text=True)  # fmt: skip
    if done.returncode:
        sys.stderr.write(done.stderr[-12000:])
        raise RuntimeError(f"bench.template_engines_worker failed ({done.returncode})")
    result = json.loads(done.stdout.strip().splitlines()[-1])
    figures = [Figure("templates: load average (1 min)", result["load"][0], "load")]
    for name, region in result["regions"].items():
        prefix = f"templates {result['language']}, {name}"
        figures += [
            Figure(f"{prefix}: Django", region["django_ms"], "ms per item"),
            Figure(f"{prefix}: Jinja2", region["jinja_ms"], "ms per item"),
            Figure(f"{prefix}: Jinja2/Django", region["ratio"], "ratio"),
            Figure(f"{prefix}: Jinja2/Django, lowest round", region["ratio_min"], "ratio"),
            Figure(f"{prefix}: Jinja2/Django, highest round", region["ratio_max"], "ratio"),
            Figure(f"{prefix}: same markup", float(region["same_markup"]), "yes=1"),
            Figure(f"{prefix}: size", float(region["bytes"]), "bytes per item"),
        ]
        if "python_ms" in region:
            figures.append(Figure(f"{prefix}: Python writer", region["python_ms"], "ms per item"))
        if "first_difference" in region:
            print(f"  {name}: the port differs: {region['first_difference']}", file=sys.stderr)
    figures.append(Figure("templates: the whole sheet region, Django", result["sheet_whole_django_ms"], "ms"))
    return figures
