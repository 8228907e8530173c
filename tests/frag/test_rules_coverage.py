"""docs/rules-coverage-frag.md: every test it lists exists, no row is « wrong », every decision has a row."""

from __future__ import annotations

import ast
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
MATRIX = ROOT / "docs" / "rules-coverage-frag.md"


def _rows() -> list[list[str]]:
    rows = []
    for line in MATRIX.read_text(encoding="utf-8").splitlines():
        if (
            line.startswith("| ")
            and not line.startswith("| ---")
            and not line.startswith("| #")
            and "| status |" not in line
        ):
            rows.append([cell.strip() for cell in line.strip("|").split("|")])
    return rows


def _tests_in(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    return {n.name for n in tree.body if isinstance(n, ast.FunctionDef | ast.AsyncFunctionDef)}


def test_every_listed_test_exists_and_no_row_is_wrong() -> None:
    rows = _rows()
    assert len(rows) > 80
    listed = 0
    for row in rows:
        status, tests = row[-2], row[-1]
        assert status in ("tested", "by construction", "n/a"), row
        if status != "n/a":
            assert tests, f"a row without tests: {row}"
        for reference in re.findall(r"`([^`]+)`", tests):
            file, _, name = reference.partition("::")
            path = ROOT / file
            assert path.is_file(), reference
            assert name in _tests_in(path), f"{reference} does not exist"
            listed += 1
    assert listed > 100


def test_every_frag_decision_has_a_row() -> None:
    decisions = ROOT / "docs" / "rules-decisions.md"
    text = decisions.read_text(encoding="utf-8")
    frag = text[text.index("## Frag") :]
    frag = frag[: frag.index("\n## ", 1)]
    names = re.findall(r"^- \*\*(.+?)\.\*\*", frag, flags=re.MULTILINE)
    covered = {row[0] for row in _rows()}
    assert names and set(names) <= covered, set(names) - covered
