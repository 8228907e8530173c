"""Rooms small enough to see at once: no module of the project over 600 lines.

A module past ~500 lines is split into a package by the concepts it holds (docs/contributing.md); this
test is the hard limit. Migrations (generated, never edited) and data (card, map and rule tables, vendored
libraries) are not modules one reads as code, so they are left out.
"""

from __future__ import annotations

from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
LIMIT = 600
CODE = {".py", ".js"}
# Directories that hold no code of ours, or code no one reads line by line (mutants/: a mutation run's copies of the
# rules, every function written out many times over, git-ignored).
SKIPPED = {".git", ".venv", "staticfiles", "node_modules", "__pycache__", "migrations", "vendor", "data", "mutants"}


def modules(root: Path = ROOT) -> list[Path]:
    found = []
    stack = [root]
    while stack:
        folder = stack.pop()
        for path in folder.iterdir():
            if path.is_dir():
                if path.name not in SKIPPED and not path.name.startswith("."):
                    stack.append(path)
            elif path.suffix in CODE:
                found.append(path)
    return found


def too_long(paths: list[Path], root: Path = ROOT) -> dict[str, int]:
    lengths = {str(path.relative_to(root)): len(path.read_text(encoding="utf-8").splitlines()) for path in paths}
    return {name: lines for name, lines in sorted(lengths.items()) if lines > LIMIT}


def test_no_module_is_over_600_lines() -> None:
    found = modules()
    assert len(found) > 200 and ROOT / "tragic" / "engine" / "cards.py" in found
    assert too_long(found) == {}, "split these modules by concept (docs/contributing.md)"


def test_the_check_sees_a_long_module_and_skips_migrations_and_data(tmp_path: Path) -> None:
    for name, lines in {
        "app/long.py": LIMIT + 1,
        "app/short.py": LIMIT,
        "static/js/long.js": LIMIT + 5,
        "app/migrations/0001_initial.py": 2000,
        "app/data/table.py": 2000,
        "mutants/app/long.py": 2000,
    }.items():
        path = tmp_path / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text("x = 1\n" * lines)
    assert too_long(modules(tmp_path), tmp_path) == {"app/long.py": LIMIT + 1, "static/js/long.js": LIMIT + 5}
