"""Run every benchmark module and print ``name: value unit`` lines; write bench/results.json.

Each module ``bench/<part>.py`` defines ``run() -> list[Figure]``. Benchmarks never fail the
build: a module that raises is reported and the others still run.
"""

from __future__ import annotations

import argparse
import importlib
import json
import os
import platform
import sys
import time
import traceback
from pathlib import Path

from bench.figures import Figure

HERE = Path(__file__).resolve().parent


def main() -> int:
    parser = argparse.ArgumentParser(prog="python -m bench")
    parser.add_argument("only", nargs="*", help="module names to run (default: all)")
    args = parser.parse_args()
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    names = args.only or sorted(
        p.stem
        for p in HERE.glob("*.py")
        if p.stem
        not in {
            "__init__",
            "__main__",
            "figures",
            "jinja_env",
            "live_server",
            "pages_worker",
            "server",
            "template_engines_worker",
            "views",
        }
    )
    results: dict[str, object] = {
        "machine": {"python": sys.version.split()[0], "platform": platform.platform(), "cpus": os.cpu_count()},
        "started": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
        "figures": [],
    }
    figures: list[dict[str, object]] = []
    for name in names:
        try:
            module = importlib.import_module(f"bench.{name}")
            produced: list[Figure] = module.run()
        except Exception:  # noqa: BLE001 - a broken benchmark is reported, the others still run
            print(f"{name}: FAILED", file=sys.stderr)
            traceback.print_exc()
            continue
        for figure in produced:
            print(f"{figure.name}: {figure.value:.4g} {figure.unit}", flush=True)
            figures.append({"module": name, "name": figure.name, "value": figure.value, "unit": figure.unit})
    results["figures"] = figures
    (HERE / "results.json").write_text(json.dumps(results, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
