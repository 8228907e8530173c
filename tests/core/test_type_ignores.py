"""An ignored type error says which error and why: ``# type: ignore[code]  # reason``.

mypy runs in ``make test`` (``make typecheck``) and reports ignores that no longer hide anything
(``warn_unused_ignores``); this test keeps the ones that remain readable. Migrations are generated and
not type-checked; tests are not type-checked either.
"""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
CHECKED = ["accounts", "campaigns", "characters", "config", "conflicts", "core", "frag", "states", "tragic"]
IGNORE = re.compile(r"#\s*type:\s*ignore")
EXPLAINED = re.compile(r"#\s*type:\s*ignore\[[a-z-]+(?:,\s*[a-z-]+)*\]\s+#\s*\S")


def unexplained(text: str) -> list[int]:
    return [n for n, line in enumerate(text.splitlines(), 1) if IGNORE.search(line) and not EXPLAINED.search(line)]


def test_every_type_ignore_names_its_error_and_its_reason() -> None:
    found = {
        f"{path.relative_to(ROOT)}:{line}"
        for app in CHECKED
        for path in (ROOT / app).rglob("*.py")
        if "migrations" not in path.parts
        for line in unexplained(path.read_text(encoding="utf-8"))
    }
    assert found == set()


def test_the_check_reads_an_ignore_as_the_convention_says() -> None:
    assert unexplained("x = f()  # type: ignore[arg-type]  # the row exists: checked above") == []
    assert unexplained("x = f()  # type: ignore[arg-type, index]  # why") == []
    assert unexplained("x = f()  # type: ignore\ny = g()  # type: ignore[misc]\nz = 1") == [1, 2]
