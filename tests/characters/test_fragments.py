"""Sheets and dashboard panels kept by the character's version (characters/fragments.py): nothing visible
changes, a change shows at once, and a kept sheet never reaches a reader who may see or do less."""

from __future__ import annotations

import re

import pytest
from django.core.cache import caches
from django.test import Client
from django.urls import reverse

from campaigns.models import Campaign
from characters.models import Character
from characters.services import creation as creation_services
from characters.services.atouts import atout_gain
from characters.services.equipment import equipment_add
from characters.services.revers import revers_inflict
from characters.services.sheet import character_update
from states.services.wounds import savage_wounds_take
from tests.characters.factories import open_session, pc, table
from tests.page_marks import without_tokens

pytestmark = pytest.mark.django_db

RENDERED_AT = re.compile(r'data-live-since="\d+"')


@pytest.fixture(autouse=True)
def _empty_cache() -> None:
    caches["fragments"].clear()


@pytest.fixture
def setting():  # type: ignore[no-untyped-def]
    campaign, narrator, (owner, other) = table(savage_states=True)
    jim = pc(campaign, owner)
    character_update(character=jim, actor=narrator, data={"narrator_notes": "SECRET-NOTE"},
                     expected_version=jim.version)  # fmt: skip
    npc = creation_services.npc_create(campaign=campaign, actor=narrator, name="Comtesse", concept="Veuve noire")
    revers_inflict(character=npc, actor=narrator, domain="physical", severity=2, source="un coup")
    return campaign, narrator, owner, other, Character.objects.get(pk=jim.pk), npc


def _client(user, language: str = "fr") -> Client:  # type: ignore[no-untyped-def]
    client = Client()
    client.force_login(user)
    client.cookies["django_language"] = language
    return client


def _pages(campaign: Campaign, jim: Character, npc: Character) -> dict[str, tuple[str, dict[str, str]]]:
    return {
        "sheet": (jim.get_absolute_url(), {}),
        "sheet-htmx": (jim.get_absolute_url(), {"HTTP_HX_REQUEST": "true"}),
        "npc": (npc.get_absolute_url(), {}),
        "dashboard": (reverse("campaigns:dashboard", args=[campaign.pk]), {}),
        "home": (reverse("campaigns:home", args=[campaign.pk]), {}),
        "log": (reverse("campaigns:log", args=[campaign.pk]), {}),
        "log-kind": (reverse("campaigns:log", args=[campaign.pk]) + "?kind=note", {}),
        "log-htmx": (reverse("campaigns:log", args=[campaign.pk]), {"HTTP_HX_REQUEST": "true"}),
    }


def _render_all(campaign: Campaign, people: dict[str, object], jim: Character, npc: Character) -> dict[tuple, str]:
    out = {}
    for who, user in people.items():
        for language in ("fr", "en"):
            client = _client(user, language)
            for name, (url, headers) in _pages(campaign, jim, npc).items():
                response = client.get(url, **headers, follow=True)
                html = without_tokens(response.content.decode())
                out[(who, language, name)] = (response.status_code, RENDERED_AT.sub("RENDERED_AT", html))
    return out


def test_pages_are_byte_identical_with_and_without_kept_sheets_and_panels(settings, setting) -> None:  # type: ignore[no-untyped-def]
    """Every role (narrator, owner, another player), both languages, the sheet page, its htmx partial, an NPC
    sheet, the dashboard, the home page and the log: kept fragments (cold, then warm) give the same bytes as
    rendering afresh (the note form, the side columns, the feed, the panels, the sheet)."""
    campaign, narrator, owner, other, jim, npc = setting
    people = {"narrator": narrator, "owner": owner, "other": other}
    settings.FRAGMENT_CACHE = False
    plain = _render_all(campaign, people, jim, npc)
    settings.FRAGMENT_CACHE = True
    cold = _render_all(campaign, people, jim, npc)
    warm = _render_all(campaign, people, jim, npc)
    for key, page in plain.items():
        assert cold[key] == page, key
        assert warm[key] == page, key
    assert "SECRET-NOTE" in plain[("narrator", "fr", "sheet")][1]
    assert 'id="character-panel-' in plain[("narrator", "en", "dashboard")][1]
    assert plain[("other", "fr", "npc")][0] == 404
    assert (
        'id="note-form"' in plain[("owner", "en", "home")][1]
        and 'id="my-characters"' in plain[("owner", "en", "home")][1]
    )


def test_a_kept_feed_never_reaches_a_reader_who_may_not_read_it(setting) -> None:  # type: ignore[no-untyped-def]
    """The dashboard's and home page's feeds are kept per member: a narrator-only note and a player's
    private note stay with those who may read them."""
    from campaigns import services
    from tests.campaigns.factories import membership

    campaign, narrator, owner, other, jim, npc = setting
    services.note_write(membership=membership(campaign, narrator), text="SECRET-NARRATEUR", private=True)
    services.note_write(membership=membership(campaign, owner), text="SECRET-DU-JOUEUR", private=True)
    dashboard = _client(narrator).get(reverse("campaigns:dashboard", args=[campaign.pk])).text
    assert "SECRET-NARRATEUR" in dashboard and "SECRET-DU-JOUEUR" in dashboard  # kept as the narrator reads it
    home = reverse("campaigns:home", args=[campaign.pk])
    assert "SECRET-DU-JOUEUR" in _client(owner).get(home).text  # kept as its author reads it
    as_owner, as_other = _client(owner).get(home).text, _client(other).get(home).text
    assert "SECRET-NARRATEUR" not in as_owner
    assert "SECRET-NARRATEUR" not in as_other and "SECRET-DU-JOUEUR" not in as_other


def test_a_kept_sheet_never_reaches_a_reader_who_may_see_or_do_less(setting) -> None:  # type: ignore[no-untyped-def]
    campaign, narrator, owner, other, jim, npc = setting
    url = jim.get_absolute_url()
    as_narrator = _client(narrator).get(url).text  # kept as the narrator reads it
    assert "SECRET-NOTE" in as_narrator and 'id="narrator-tools"' in as_narrator
    as_owner = _client(owner).get(url).text  # kept as the owner reads it
    assert "SECRET-NOTE" not in as_owner and 'id="narrator-tools"' not in as_owner
    assert 'id="form-spend"' in as_owner
    as_other = _client(other).get(url).text
    assert "SECRET-NOTE" not in as_other and 'id="form-spend"' not in as_other
    # The NPC's sheet, kept for the narrator, stays the narrator's.
    assert _client(narrator).get(npc.get_absolute_url()).status_code == 200
    assert _client(owner).get(npc.get_absolute_url()).status_code == 404
    # Each reader's CSRF token is their own, never the one of the reader the sheet was kept for.
    narrator_client, owner_client = _client(narrator), _client(owner)
    narrator_client.get(url)
    page = owner_client.get(url).text
    assert owner_client.cookies["csrftoken"].value != narrator_client.cookies["csrftoken"].value
    tokens = set(re.findall(r'name="csrfmiddlewaretoken" value="([^"]+)"', page))
    assert len(tokens) == 1 and "__tablee_csrf_marker__" not in page


def test_every_change_shows_at_once_on_a_kept_sheet_and_panel(setting) -> None:  # type: ignore[no-untyped-def]
    """Atouts, Revers, gear, words, states, an open session, a new character to name, a renamed owner."""
    campaign, narrator, owner, other, jim, npc = setting
    # The same clients throughout: a kept sheet is only reused within one reader's session.
    client, owner_en, url = _client(narrator), _client(owner, "en"), jim.get_absolute_url()
    dashboard = reverse("campaigns:dashboard", args=[campaign.pk])

    def sheet() -> str:
        return client.get(url).text

    def panel() -> str:
        html = client.get(dashboard).text
        return html[html.index(f'id="character-panel-{jim.pk}"') :].split("</article>")[0]

    sheet(), panel()
    atout_gain(character=jim, actor=narrator, amount=3, note="bravoure")
    assert "bravoure" in sheet()
    revers_inflict(character=Character.objects.get(pk=jim.pk), actor=narrator, domain="social", severity=3,
                   source="SCANDALE")  # fmt: skip
    assert "SCANDALE" in sheet() and "panel-revers" in panel()
    equipment_add(character=Character.objects.get(pk=jim.pk), actor=owner,
                  data={"category": "gear", "name": "LAMPE-TEMPÊTE", "bonus": 1})  # fmt: skip
    assert "LAMPE-TEMPÊTE" in sheet()
    jim = Character.objects.get(pk=jim.pk)
    character_update(character=jim, actor=owner, data={"concept": "NOUVEAU-CONCEPT"}, expected_version=jim.version)
    assert "NOUVEAU-CONCEPT" in sheet() and "NOUVEAU-CONCEPT" in panel()
    savage_wounds_take(character=Character.objects.get(pk=jim.pk), actor=narrator, count=1, expected_version=None)
    assert 'data-state="wounds"' in sheet() and 'data-state="wounds"' in panel()
    assert "Between sessions" in owner_en.get(url).text
    open_session(campaign, narrator)
    assert "During a session" in owner_en.get(url).text
    newcomer = pc(campaign, other, name="NOUVEAU-VENU")
    revers_inflict(character=newcomer, actor=narrator, domain="physical", severity=1, source="chute")
    assert ">NOUVEAU-VENU: " in owner_en.get(url).text  # a Revers the take-a-Revers form may name
    sheet(), panel()  # kept as they are now
    owner.username = "RENOMMÉ"
    owner.save()
    assert "RENOMMÉ" in sheet() and "RENOMMÉ" in panel()
