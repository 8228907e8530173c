"""docs/rules-coverage.md stays true: every test it names exists, every row has one of the three statuses, every
« implemented » row names a test and every « decided otherwise » row its decision."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
MATRIX = ROOT / "docs" / "rules-coverage.md"
TEST_REF = re.compile(r"`(tests/[\w/]+\.py)::(test_\w+)`")
STATUSES = {"implemented", "advice only", "decided otherwise"}


def _rows() -> list[list[str]]:
    rows = []
    for line in MATRIX.read_text(encoding="utf-8").splitlines():
        if line.startswith("| ") and not line.startswith("| Rule") and not line.startswith("| ---"):
            rows.append([cell.strip() for cell in line.strip("|").split(" | ")])
    return rows


def test_every_row_has_a_status_and_its_evidence() -> None:
    rows = _rows()
    assert len(rows) >= 100, len(rows)
    for rule, status, evidence in rows:
        assert status in STATUSES, (rule, status)
        if status == "implemented":
            assert TEST_REF.search(evidence), rule
        if status == "decided otherwise":
            assert "rules-decisions.md" in evidence, rule


def test_every_test_the_matrix_names_exists() -> None:
    missing = []
    for path, name in TEST_REF.findall(MATRIX.read_text(encoding="utf-8")):
        source = ROOT / path
        if not source.exists() or not re.search(rf"^def {name}\(", source.read_text(encoding="utf-8"), re.M):
            missing.append(f"{path}::{name}")
    assert not missing, missing
