"""The mutation score of each rules package and module, from the results a mutation run left in mutants/.

    .venv/bin/python scripts/mutation_scores.py states.rules conflicts.rules characters.rules

Killed counts what a test caught (a timed-out mutant too: it hung the rules); the score is killed over every mutant
checked, « no tests » included (no test reaches that code, so nothing would notice it change). Mutants not yet
checked are counted apart: a run stopped half-way says how far it got.
"""

from __future__ import annotations

import json
import sys
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
KILLED = {1, 3, 36, 24, -24, 152, 255}  # mutmut's exit codes for killed and timed out
SURVIVED = {0}
NO_TESTS = {5, 33}


def _status(code: int | None) -> str:
    if code is None:
        return "not checked"
    if code in KILLED:
        return "killed"
    if code in SURVIVED:
        return "survived"
    if code in NO_TESTS:
        return "no tests"
    return "other"


def _line(name: str, counts: Counter[str]) -> str:
    checked = counts["killed"] + counts["survived"] + counts["no tests"]
    score = f"{100 * counts['killed'] / checked:.1f} %" if checked else "—"
    rest = f", {counts['not checked']} not checked" if counts["not checked"] else ""
    return (
        f"{name}: {score} ({counts['killed']} killed, {counts['survived']} survived, "
        f"{counts['no tests']} without tests{rest})"
    )


def main(packages: list[str]) -> int:
    for package in packages:
        total: Counter[str] = Counter()
        lines = []
        for meta in sorted((ROOT / "mutants" / package.replace(".", "/")).glob("*.py.meta")):
            codes = json.loads(meta.read_text(encoding="utf-8"))["exit_code_by_key"]
            counts = Counter(_status(code) for code in codes.values())
            if counts:
                lines.append("  " + _line(meta.name.removesuffix(".py.meta"), counts))
            total += counts
        print(_line(package, total))
        print("\n".join(lines))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:] or ["states.rules", "conflicts.rules", "characters.rules"]))
