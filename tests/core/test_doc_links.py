"""The documents stand alone: every relative link in README.md and docs/*.md reaches a file of the repository."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
DOCUMENTS = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
# [text](target) links; code spans are stripped first so that examples in backticks are not links.
LINK = re.compile(r"\[[^\]]*\]\(([^)\s]+)\)")
CODE = re.compile(r"`[^`]*`")


def relative_links(path: Path) -> list[str]:
    text = CODE.sub("", path.read_text(encoding="utf-8"))
    targets = [t.split("#", 1)[0] for t in LINK.findall(text)]
    return [t for t in targets if t and not re.match(r"^[a-z][a-z0-9+.-]*:", t)]


@pytest.mark.parametrize("path", DOCUMENTS, ids=lambda p: str(p.relative_to(ROOT)))
def test_every_relative_link_resolves_inside_the_repository(path: Path) -> None:
    broken = []
    for target in relative_links(path):
        resolved = (path.parent / target).resolve()
        if not resolved.exists() or ROOT not in resolved.parents:
            broken.append(target)
    assert broken == []


@pytest.mark.parametrize("path", DOCUMENTS, ids=lambda p: str(p.relative_to(ROOT)))
def test_no_document_points_outside_the_repository(path: Path) -> None:
    """Paths written in backticks count too: ``../shared/…`` would send a reader to a file they do not have."""
    assert "../shared" not in path.read_text(encoding="utf-8")


def test_the_newcomers_path_reaches_every_app_and_each_rule_set() -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert "docs/architecture.md" in relative_links(ROOT / "README.md")
    architecture = (ROOT / "docs" / "architecture.md").read_text(encoding="utf-8")
    apps = ["config", "accounts", "core", "campaigns", "characters", "states", "conflicts", "tragic", "frag"]
    assert [app for app in apps if f"`{app}/" not in architecture] == []
    assert {"glossary.md", "sources.md", "rules-decisions.md"} <= set(relative_links(ROOT / "docs" / "architecture.md"))
    assert readme
