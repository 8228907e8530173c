"""What keys a character's sheet (characters/fragments.py) and panels (characters/panels.py), read directly: fast,
without pages.

The page tests (test_fragments.py) prove the bytes; these prove the declarations: the cast in the dashboard's order,
the session entries a sheet reads and those it does not, the reader's role, and panels kept until the table changes.
"""

from __future__ import annotations

import re
from types import SimpleNamespace

import pytest
from django.core.cache import caches

from campaigns.models import Membership
from characters.fragments import reader_session, sheet_depends
from characters.models import Character
from characters.panels import PanelOf, _cast, panel_depends, panels_html
from characters.services import creation as creation_services
from characters.services.atouts import atout_gain
from tests.campaigns.factories import membership
from tests.characters.factories import pc, table

pytestmark = pytest.mark.django_db

PANEL_ID = re.compile(r'id="character-panel-(\d+)"')


@pytest.fixture(autouse=True)
def _empty_cache() -> None:
    caches["fragments"].clear()


@pytest.fixture
def cast():  # type: ignore[no-untyped-def]
    campaign, narrator, (owner, other) = table()
    zoe = pc(campaign, owner, name="Zoé")
    abel = pc(campaign, other, name="Abel")
    npc = creation_services.npc_create(campaign=campaign, actor=narrator, name="Comtesse", concept="Veuve noire")
    return SimpleNamespace(campaign=campaign, narrator=narrator, owner=owner, zoe=zoe, abel=abel, npc=npc)


def test_the_cast_is_in_the_dashboards_order_with_each_version(cast) -> None:  # type: ignore[no-untyped-def]
    rows = _cast(cast.campaign)
    assert [row.name for row in rows] == ["Comtesse", "Abel", "Zoé"]  # NPCs, then PCs, each by name
    zoe = next(row for row in rows if row.pk == cast.zoe.pk)
    reader = membership(cast.campaign, cast.narrator)
    before = panel_depends(PanelOf(zoe, cast.campaign), reader)
    atout_gain(character=cast.zoe, actor=cast.narrator, amount=1, note="bravoure")
    zoe = next(row for row in _cast(cast.campaign) if row.pk == cast.zoe.pk)
    assert panel_depends(PanelOf(zoe, cast.campaign), reader).rows != before.rows  # its version is part of the key


def test_a_sheet_reads_the_readers_own_session_entries_not_djangos() -> None:
    request = SimpleNamespace(session={"_auth_user_id": "3", "roll_difficulty": 2, "a": 1})
    assert reader_session(request) == (("a", 1), ("roll_difficulty", 2))
    assert reader_session(SimpleNamespace()) == ()  # a live push has no session: the same key as a page without entries
    assert reader_session(None) == ()


def test_the_sheet_and_the_panel_depend_on_the_readers_role(cast) -> None:  # type: ignore[no-untyped-def]
    narrator, player = membership(cast.campaign, cast.narrator), membership(cast.campaign, cast.owner)
    zoe = Character.objects.get(pk=cast.zoe.pk)
    as_narrator, as_player = sheet_depends(zoe, narrator), sheet_depends(zoe, player)
    assert as_narrator.subjects == as_player.subjects and as_narrator.viewer != as_player.viewer
    assert as_narrator.rows[0] == zoe.pk and as_narrator.rows[2] == cast.owner.username
    assert sheet_depends(Character.objects.get(pk=cast.npc.pk), narrator).rows[2] is None  # an NPC has no owner
    panel = PanelOf(next(r for r in _cast(cast.campaign) if r.pk == zoe.pk), cast.campaign)
    assert panel_depends(panel, narrator).viewer != panel_depends(panel, player).viewer


def _panels(cast, who) -> list[str]:  # type: ignore[no-untyped-def]
    reader: Membership = membership(cast.campaign, who)
    reader.refresh_from_db()  # the stream head as a page reads it
    html = str(panels_html(reader))
    return re.findall(r"<article .*?</article>", html, re.S)


def test_panels_come_in_order_and_a_change_shows_once_the_table_moves(cast) -> None:  # type: ignore[no-untyped-def]
    first = _panels(cast, cast.narrator)
    assert [int(PANEL_ID.search(html).group(1)) for html in first] == [cast.npc.pk, cast.abel.pk, cast.zoe.pk]  # type: ignore[union-attr]
    assert _panels(cast, cast.narrator) == first  # kept
    Character.objects.filter(pk=cast.zoe.pk).update(name="Zoé-sans-événement")
    assert "Zoé-sans-événement" not in "".join(_panels(cast, cast.narrator))  # no Event, no change to read
    atout_gain(character=Character.objects.get(pk=cast.zoe.pk), actor=cast.narrator, amount=1, note="bravoure")
    again = _panels(cast, cast.narrator)
    assert "Zoé-sans-événement" in again[2] and again[0] == first[0]  # the others read as they were


def test_a_campaign_without_characters_has_no_panels() -> None:
    campaign, narrator, _players = table(players=0)
    reader = membership(campaign, narrator)
    assert 'id="no-characters"' in panels_html(reader) and "<article" not in panels_html(reader)


def test_a_note_leaves_the_grid_of_panels_kept(cast) -> None:  # type: ignore[no-untyped-def]
    """The campaign row in a declaration is its own columns, not the stream head loaded with it: an Event that
    touched none of the grid's subjects (a note) leaves its inner key as it was."""
    from campaigns import services
    from characters.panels import PANELS, panels_depends
    from core.kept_regions import inner_key

    def reader() -> Membership:  # as a page reads it (campaigns.access): with the campaign and its stream
        found = membership(cast.campaign, cast.narrator)
        return Membership.objects.select_related("campaign", "campaign__stream").get(pk=found.pk)

    before = panels_depends(reader().campaign, reader())
    services.note_write(membership=reader(), text="Une note")
    after = panels_depends(reader().campaign, reader())
    assert before.head != after.head and before.rows == after.rows
    assert inner_key(PANELS, before) == inner_key(PANELS, after)
