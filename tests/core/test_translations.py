"""Every French catalogue is complete: no untranslated or fuzzy entry ships."""

from __future__ import annotations

from pathlib import Path

import polib
import pytest

ROOT = Path(__file__).resolve().parents[2]
CATALOGUES = sorted(p for p in ROOT.glob("**/locale/fr/LC_MESSAGES/django.po") if ".venv" not in p.parts)


def test_there_are_french_catalogues() -> None:
    assert len(CATALOGUES) >= 3


@pytest.mark.parametrize("path", CATALOGUES, ids=lambda p: str(p.relative_to(ROOT)))
def test_catalogue_is_fully_translated(path: Path) -> None:
    catalogue = polib.pofile(str(path))
    assert [e.msgid for e in catalogue.untranslated_entries()] == []
    assert [e.msgid for e in catalogue.fuzzy_entries()] == []


@pytest.mark.parametrize("path", CATALOGUES, ids=lambda p: str(p.relative_to(ROOT)))
def test_catalogue_has_each_message_once(path: Path) -> None:
    """Catalogues merge side by side (`merge=union`): a message added on two branches must not stay twice."""
    catalogue = polib.pofile(str(path))
    keys = [(e.msgctxt, e.msgid) for e in catalogue if not e.obsolete]
    assert sorted(k for k in set(keys) if keys.count(k) > 1) == []
