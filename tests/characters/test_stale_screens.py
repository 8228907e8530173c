"""The three stale screens of issue 26, each on a reload and on the live push: the sheet is a region whose
declaration names what it reads (characters.fragments.sheet_depends), so a change it depends on shows at once."""

from __future__ import annotations

import re

import pytest
from django.test import Client

from campaigns.live_render import forget_renderings, rendering_of
from campaigns.models import Event, Membership
from characters.models import Character
from characters.services.revers import revers_inflict
from characters.subjects import sheet_subject
from states.models import SavageSettings
from states.rules.ranks import DEFAULT_RANK_DICE
from states.services.sheet import savage_settings_update
from states.services.wounds import savage_wounds_set
from tests.campaigns.regions_dom import apply_fragments, element
from tests.characters.factories import pc, table

pytestmark = pytest.mark.django_db

CHANCES = re.compile(r'<span class="roll-chance">([^<]*)</span>')


def _client(user) -> Client:  # type: ignore[no-untyped-def]
    client = Client()
    client.force_login(user)
    client.cookies["django_language"] = "en"
    return client


def _pushed(event: Event, user, character: Character, page: str) -> str:  # type: ignore[no-untyped-def]
    """``page`` (a sheet page watching its character) with the live message of ``event`` applied."""
    forget_renderings()
    membership = Membership.objects.get(campaign_id=character.campaign_id, user=user)
    rendering = rendering_of(event.pk)
    assert rendering is not None
    html = rendering.html_for(membership, watching=frozenset({sheet_subject(character.pk)}), language="en",
                              csrf_token="x" * 32)  # fmt: skip
    return apply_fragments(page, html)


def _attribute_die(page: str, trait: str) -> str:
    row = element(page, "sheet") or ""
    found = re.search(rf'data-attribute="{trait}">.*?<strong>([^<]+)</strong>', row, re.S)
    assert found is not None, "no Savage attribute row on the sheet"
    return found.group(1)


def test_a_rank_die_changed_in_the_states_settings_shows_at_once_on_the_players_sheet() -> None:
    """Issue 26, case 1: « rank 2: d4 → d12 » in the states settings; the player's sheet shows d12 at once, on a
    reload and on the live push (the attribute rows read SavageSettings through conflicts_tags.attribute_rolls)."""
    campaign, narrator, (owner, _other) = table(savage_states=True)
    jim = pc(campaign, owner)
    client = _client(owner)
    page = client.get(jim.get_absolute_url()).text
    shown = _attribute_die(page, "vigor")
    ranks = [str(rank) for rank, die in DEFAULT_RANK_DICE.items() if die == shown]
    assert ranks, shown
    settings, _created = SavageSettings.objects.get_or_create(campaign=campaign)
    new = "d12" if shown != "d12" else "d10"
    savage_settings_update(campaign=campaign, actor=narrator, revers_to_wounds=settings.revers_to_wounds,
                           rank_dice={**settings.rank_dice, **dict.fromkeys(ranks, new)},
                           expected_version=settings.version)  # fmt: skip
    assert _attribute_die(client.get(jim.get_absolute_url()).text, "vigor") == new
    pushed = _pushed(Event.objects.get(kind="savage.settings_changed"), owner, jim, page)
    assert _attribute_die(pushed, "vigor") == new


def test_after_a_live_wound_the_sheets_one_tap_chances_are_the_new_ones() -> None:
    """Issue 26, case 2: after a wound the one-tap chips show the chances the roll will carry, on the live push
    as on a fresh GET, and the pushed sheet is the fresh one, byte for byte."""
    campaign, narrator, (owner, _other) = table(savage_states=True)
    jim = pc(campaign, owner)
    client = _client(owner)
    page = client.get(jim.get_absolute_url()).text
    before = CHANCES.findall(page)
    savage_wounds_set(character=jim, actor=narrator, count=2, expected_version=None)
    fresh = client.get(jim.get_absolute_url()).text
    assert CHANCES.findall(fresh) != before  # the wound weighs on the Tests
    pushed = _pushed(Event.objects.filter(kind__startswith="savage.").latest("pk"), owner, jim, page)
    assert CHANCES.findall(pushed) == CHANCES.findall(fresh)
    assert element(pushed, "sheet") == element(fresh, "sheet")


def test_take_a_revers_offers_a_revers_inflicted_after_the_sheet_was_shown() -> None:
    """Issue 26, case 3: « Take a Revers in another's place » offers a Revers inflicted on another character
    after the sheet was last shown, on a reload and on the live push."""
    campaign, narrator, (p1, p2) = table()
    jim = pc(campaign, p1, name="Jim")
    lisa = pc(campaign, p2, name="Lisa")
    client = _client(p1)
    page = client.get(jim.get_absolute_url()).text
    assert "Lisa: " not in page
    revers_inflict(character=lisa, actor=narrator, domain="physical", severity=1, source="Morsure")
    fresh = client.get(jim.get_absolute_url()).text
    assert "Lisa: " in (element(fresh, "form-take_revers") or "")  # « Lisa: Light (Physical), 1 Atout »
    pushed = _pushed(Event.objects.get(kind="character.revers_inflicted"), p1, jim, page)
    assert "Lisa: " in (element(pushed, "form-take_revers") or "")
    assert element(pushed, "sheet") == element(fresh, "sheet")


def test_the_answer_to_ones_own_post_shows_the_write_not_the_regions_kept_before_it() -> None:
    """The sheet's answer to a narrator's trait change renders its trait rows (regions inside it) after the write;
    the head read with the membership, before the write, names the table before it: the trait rows kept under that
    head by the page's GET must not be served (core.regions.head_trusted)."""
    from django.urls import reverse

    campaign, narrator, (p1, _p2) = table()
    jim = pc(campaign, p1, name="Jim")
    client = _client(narrator)

    def rank(html: str) -> str:
        row = re.search(r'data-trait="medecine">.*?<strong>([^<]+)</strong>', html, re.S)
        assert row is not None
        return row.group(1)

    assert rank(client.get(jim.get_absolute_url()).text) != "Great"  # the trait rows kept under this head (6: Great)
    url = reverse("characters:act", args=[jim.pk, "trait_set"])
    answer = client.post(url, {"code": "medecine", "rank": 6, "kind": "field"}, HTTP_HX_REQUEST="true").text
    assert rank(answer) == "Great"
