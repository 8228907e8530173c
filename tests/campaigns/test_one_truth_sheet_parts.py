"""The consistency check (``tests/campaigns/test_one_truth.py``) is not vacuous for the sheet's frame and its Atout
parts (``characters.sheet_atouts``): each of their declarations, without what it depends on, shows a stale or a
foreign screen, and the check fails."""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from typing import Any

import pytest

from core import regions
from tests.campaigns import test_one_truth as one_truth
from tests.campaigns.test_one_truth import _play

pytestmark = pytest.mark.django_db


def _without(declaration: Callable[..., regions.Depends], prefix: str) -> Callable[..., regions.Depends]:
    def depends(*args: Any) -> regions.Depends:
        declared = declaration(*args)
        kept = frozenset(s for s in declared.all_subjects() if not s.startswith((prefix, "table:")))
        return dataclasses.replace(declared, subjects=kept, campaign_id=0)  # no catch-all either

    return depends


def test_the_check_fails_when_the_sheets_frame_drops_the_characters_traits(monkeypatch: pytest.MonkeyPatch) -> None:
    """The frame without ``traits:<id>``: after a wound, the sheet kept before it (badges, chances) is served."""
    from characters.views import sheet as sheet_views

    frame = sheet_views.SHEET.frame
    assert frame is not None
    lacking = dataclasses.replace(
        sheet_views.SHEET, frame=dataclasses.replace(frame, depends=_without(frame.depends, "traits:"))
    )
    monkeypatch.setattr(sheet_views, "SHEET", lacking)
    monkeypatch.setitem(regions._registry, "sheet", lacking)
    with pytest.raises(AssertionError):
        _play([("wound", 0)])


def test_the_check_fails_when_the_atout_parts_drop_the_character(monkeypatch: pytest.MonkeyPatch) -> None:
    """The balance, counters, version and ledger without the character (its subject and its row's version): after an
    Atout spent, the parts kept before it are served in the sheet."""
    from characters import sheet_atouts

    def depends(character: Any, membership: Any, request: Any = None) -> regions.Depends:
        declared = _without(sheet_atouts.atouts_depends, "character:")(character, membership, request)
        return dataclasses.replace(declared, rows=(character.pk,))

    for part in sheet_atouts.PARTS:
        if part.depends is sheet_atouts.atouts_depends:
            monkeypatch.setitem(regions._registry, part.name, dataclasses.replace(part, depends=depends))
    with pytest.raises(AssertionError):
        _play([("spend", 0)])


def test_the_check_fails_when_the_take_revers_list_drops_the_other_characters(monkeypatch: pytest.MonkeyPatch) -> None:
    """The « take a Revers in another's place » list without ``characters:<campaign>``: a Revers inflicted on Lisa
    is not offered on Jim's sheet."""
    from characters import sheet_atouts

    part = regions.get("sheet-take-revers")
    lacking = dataclasses.replace(part, depends=_without(sheet_atouts.take_revers_depends, "characters:"))
    monkeypatch.setitem(regions._registry, part.name, lacking)
    with pytest.raises(AssertionError):
        _play([("revers", 1)])


def test_the_check_fails_when_a_ledger_line_drops_its_reader(monkeypatch: pytest.MonkeyPatch) -> None:
    """A ledger line without its reader (narrator or not): the narrator's veto button is served to a player, or the
    player's line without it to the narrator."""
    from characters import sheet_atouts

    def depends(*args: Any) -> regions.Depends:
        return dataclasses.replace(sheet_atouts.ledger_line_depends(*args), viewer=())

    lacking = dataclasses.replace(sheet_atouts.LEDGER_LINE, depends=depends)
    monkeypatch.setitem(regions._registry, lacking.name, lacking)
    table = one_truth._table

    def with_the_narrator_in_english(**options: Any) -> Any:
        # Jim's sheet open for the narrator in his player's language too: otherwise the language alone keeps their
        # lines apart.
        t = table(**options)
        page = one_truth._sheet(t.narrator, t.jim, "en")
        page.html = page.get()
        t.pages.append(page)
        return t

    monkeypatch.setattr(one_truth, "_table", with_the_narrator_in_english)
    with pytest.raises(AssertionError):
        _play([("spend", 0)])
