"""docs/rules-coverage-tragic.md lists every rule of the TRAGIC texts with its status and tests: each test
it names exists, no row is "wrong", every FAQ answer and erratum has its row."""

from __future__ import annotations

import ast
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
MATRIX = ROOT / "docs" / "rules-coverage-tragic.md"
STATUSES = {"tested", "untested", "advice", "table"}
ROW = re.compile(
    r"^\|\s*(?P<id>[A-Za-z0-9]+(?:-[A-Za-z0-9]+)?)\s*\|(?P<rule>[^|]+)\|(?P<status>[^|]+)\|(?P<tests>[^|]*)\|$"
)


def rows() -> list[dict[str, str]]:
    found = []
    for line in MATRIX.read_text(encoding="utf-8").splitlines():
        match = ROW.match(line)
        if match and match["id"] != "id":
            found.append({k: v.strip() for k, v in match.groupdict().items()})
    return found


def functions_of(file: str) -> set[str]:
    tree = ast.parse((ROOT / "tests" / "tragic" / file).read_text(encoding="utf-8"))
    return {node.name for node in tree.body if isinstance(node, ast.FunctionDef) and node.name.startswith("test_")}


def test_every_listed_test_exists_and_every_status_is_known():
    listed = rows()
    assert len(listed) > 100
    assert len({r["id"] for r in listed}) == len(listed), "each rule has one row"
    for row in listed:
        assert row["status"] in STATUSES, row
        tests = re.findall(r"`([\w.]+\.py)::(\w+)`", row["tests"])
        if row["status"] == "tested":
            assert tests, f"{row['id']} is tested by no test"
        for file, name in tests:
            assert (ROOT / "tests" / "tragic" / file).exists(), f"{row['id']}: no file {file}"
            assert name in functions_of(file), f"{row['id']}: no test {file}::{name}"


def test_every_faq_answer_and_erratum_has_a_row():
    ids = {r["id"] for r in rows()}
    assert {f"F{n}" for n in range(1, 18)} <= ids
    assert {f"E{n}" for n in range(1, 5)} <= ids
    assert "wrong" not in {r["status"] for r in rows()}
