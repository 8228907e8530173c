"""The mutation score of each rules package and module, from the results a mutation run left in mutants/.

    .venv/bin/python scripts/mutation_scores.py states.rules conflicts.rules characters.rules tragic.engine frag.engine

With ``--names survived`` (or ``--names unchecked``) it prints the names of those mutants instead, one a line, for
``mutmut run``: a named mutant is checked again, so the survivors alone can be re-run against new tests
(``mutmut run "conflicts.rules.budget*"`` checks every mutant of the module again, not only those left).

With ``--sample N SEED`` it prints N mutant names drawn at random (seeded, so the same sample again) from every
mutant of the packages named, checked or not: the engines have thousands of mutants, more than a run can check in
an evening, and a random sample's score estimates the whole's without favouring the modules listed first.

Killed counts what a test caught (a timed-out mutant too: it hung the rules); the score is killed over every mutant
checked, « no tests » included (no test reaches that code, so nothing would notice it change). Mutants not yet
checked are counted apart: a run stopped half-way says how far it got.
"""

from __future__ import annotations

import json
import random
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


def _metas(package: str) -> list[Path]:
    """The results of a package's modules, or of one module (``conflicts.rules.budget``)."""
    path = ROOT / "mutants" / package.replace(".", "/")
    module = path.with_name(path.name + ".py.meta")
    return [module] if module.exists() else sorted(path.glob("*.py.meta"))


def names(status: str, packages: list[str]) -> int:
    for package in packages:
        for meta in _metas(package):
            codes = json.loads(meta.read_text(encoding="utf-8"))["exit_code_by_key"]
            for name, code in codes.items():
                if _status(code).replace(" ", "_") == status or (status == "survived" and _status(code) == "no tests"):
                    print(name)
    return 0


def sample(size: int, seed: int, packages: list[str]) -> int:
    every = [
        name
        for package in packages
        for meta in _metas(package)
        for name in json.loads(meta.read_text(encoding="utf-8"))["exit_code_by_key"]
    ]
    # Sorted first, so that the draw depends on the seed and the mutants only; shuffled then cut, so that a larger
    # sample of the same seed holds the smaller one (a run stopped at 200 goes on to 400 without redrawing).
    every.sort()
    random.Random(seed).shuffle(every)
    for name in sorted(every[:size]):
        print(name)
    return 0


def main(packages: list[str]) -> int:
    for package in packages:
        total: Counter[str] = Counter()
        lines = []
        for meta in _metas(package):
            codes = json.loads(meta.read_text(encoding="utf-8"))["exit_code_by_key"]
            counts = Counter(_status(code) for code in codes.values())
            if counts:
                lines.append("  " + _line(meta.name.removesuffix(".py.meta"), counts))
            total += counts
        print(_line(package, total))
        print("\n".join(lines))
    return 0


if __name__ == "__main__":
    args = sys.argv[1:]
    if args[:1] == ["--names"] and len(args) > 1 and args[1] in ("survived", "unchecked"):
        sys.exit(names(args[1].replace("unchecked", "not_checked"), args[2:]))
    if args[:1] == ["--sample"] and len(args) > 3:
        sys.exit(sample(int(args[1]), int(args[2]), args[3:]))
    sys.exit(main(args or ["states.rules", "conflicts.rules", "characters.rules", "tragic.engine", "frag.engine"]))
