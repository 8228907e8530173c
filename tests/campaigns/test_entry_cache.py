"""Log entries are a region, rendered once and kept (campaigns/entry_region.py): nothing visible changes, and a kept
entry never reaches a reader who may not read it or who may do less with it."""

from __future__ import annotations

import re

import pytest
from django.core.cache import caches
from django.test import Client
from django.urls import reverse

from campaigns import services
from campaigns.models import Campaign, Event
from characters.models import Character
from tests.campaigns.factories import campaign_with, membership, narrator_of, players_of
from tests.page_marks import without_tokens

pytestmark = pytest.mark.django_db

RENDERED_AT = re.compile(r'data-live-since="\d+"')


@pytest.fixture(autouse=True)
def _empty_cache() -> None:
    caches["fragments"].clear()


def _client(user, language: str = "fr") -> Client:  # type: ignore[no-untyped-def]
    client = Client()
    client.force_login(user)
    client.cookies["django_language"] = language
    return client


def _table() -> tuple[Campaign, dict[str, object]]:
    """A narrator and two players; public, narrator-only and player-private notes, a correction, a session."""
    campaign = campaign_with(players=2)
    narrator, (lisa, jim) = narrator_of(campaign), players_of(campaign)
    hero = Character.objects.create(campaign=campaign, name="Hercule", owner=lisa)
    session = services.game_session_create(campaign=campaign, actor=narrator, date=campaign.created_at.date())
    services.game_session_open(game_session=session, actor=narrator)
    n, lisa_m, jim_m = membership(campaign, narrator), membership(campaign, lisa), membership(campaign, jim)
    services.note_write(membership=n, text="Tout le monde voit **ceci**.", characters=[hero])
    services.note_write(membership=n, text="SECRET-NARRATEUR", private=True)
    services.note_write(membership=lisa_m, text="SECRET-DE-LISA", private=True, characters=[hero])
    wrong = services.note_write(membership=jim_m, text="Jim se trompe.")
    services.event_correct(membership=jim_m, event=wrong, reason="mauvais jour")
    return campaign, {"narrator": narrator, "lisa": lisa, "jim": jim}


def _pages(campaign: Campaign) -> dict[str, tuple[str, dict[str, str]]]:
    log = reverse("campaigns:log", args=[campaign.pk])
    return {
        "home": (reverse("campaigns:home", args=[campaign.pk]), {}),
        "dashboard": (reverse("campaigns:dashboard", args=[campaign.pk]), {}),
        "log": (log, {}),
        "log-kind": (log + "?kind=note", {}),
        "log-htmx": (log, {"HTTP_HX_REQUEST": "true"}),
    }


def _render_all(campaign: Campaign, people: dict[str, object]) -> dict[tuple[str, str, str], str]:
    out = {}
    for who, user in people.items():
        for language in ("fr", "en"):
            client = _client(user, language)
            for name, (url, headers) in _pages(campaign).items():
                response = client.get(url, **headers, follow=True)
                html = without_tokens(response.content.decode())
                out[(who, language, name)] = RENDERED_AT.sub("RENDERED_AT", html)  # the live socket's start time
    return out


def test_pages_are_byte_identical_with_and_without_kept_entries(settings) -> None:  # type: ignore[no-untyped-def]
    """Every role, both languages, the dashboard, home, log, a filter and the htmx partial: the kept entries
    (cold, then warm) give the same bytes as rendering each entry afresh."""
    campaign, people = _table()
    settings.FRAGMENT_CACHE = False
    plain = _render_all(campaign, people)
    settings.FRAGMENT_CACHE = True
    cold = _render_all(campaign, people)
    warm = _render_all(campaign, people)
    for key, html in plain.items():
        assert cold[key] == html, key
        assert warm[key] == html, key
    assert "SECRET-NARRATEUR" in plain[("narrator", "fr", "log")]
    assert "Jim se trompe" in plain[("lisa", "en", "log")] and "mauvais jour" in plain[("lisa", "en", "log")]


def test_a_kept_entry_never_reaches_a_reader_who_may_not_read_it() -> None:
    campaign, people = _table()
    log = reverse("campaigns:log", args=[campaign.pk])
    narrator = _client(people["narrator"]).get(log).content.decode()  # every entry now kept, as narrators see them
    assert "SECRET-NARRATEUR" in narrator and "SECRET-DE-LISA" in narrator
    lisa = _client(people["lisa"]).get(log).content.decode()
    jim = _client(people["jim"]).get(log).content.decode()
    assert "SECRET-DE-LISA" in lisa and "SECRET-NARRATEUR" not in lisa
    assert "SECRET-DE-LISA" not in jim and "SECRET-NARRATEUR" not in jim
    for page in ("home",):
        html = _client(people["jim"]).get(reverse(f"campaigns:{page}", args=[campaign.pk])).content.decode()
        assert "SECRET" not in html
    # The narrator may correct any entry; Jim only his own: the narrator's kept forms are not his.
    public_note = Event.objects.get(kind="note", payload__text="Tout le monde voit **ceci**.")
    correct_url = reverse("campaigns:event_correct", args=[campaign.pk, public_note.pk])
    assert correct_url in narrator and correct_url not in jim
    # Nor does a player's private note, kept as its author reads it, reach the public log.
    public = Client().get(reverse("campaigns:public_log", args=[_publish(campaign, people)])).content.decode()
    assert "SECRET" not in public and correct_url not in public


def _publish(campaign: Campaign, people: dict[str, object]) -> str:
    services.public_log_publish(campaign=campaign, actor=people["narrator"])
    campaign.refresh_from_db()
    return str(campaign.public_log_token)


def test_a_correction_and_a_new_name_show_at_once() -> None:
    from characters.services import sheet as character_services

    campaign, people = _table()
    log = reverse("campaigns:log", args=[campaign.pk])
    client = _client(people["lisa"])
    note = Event.objects.get(kind="note", payload__text="Tout le monde voit **ceci**.")

    def entry() -> str:
        html = client.get(log).content.decode()
        return html[html.index(f'id="event-{note.pk}"') :].split("</li>")[0]

    assert "(Hercule)" in entry()
    hero = Character.objects.get(name="Hercule")
    character_services.character_update(
        character=hero, actor=people["lisa"], data={"name": "Hercule Poirot"}, expected_version=hero.version
    )
    assert "(Hercule Poirot)" in entry()
    services.event_correct(membership=membership(campaign, people["narrator"]), event=note, reason="faux")
    assert "Corrected by" in entry() or "Corrigé par" in entry()
    assert "faux" in entry()


def test_the_entries_of_a_kept_list_are_not_also_kept_under_the_head() -> None:
    """The dashboard's feed and the plain log page's list are kept under the stream's head: rendered only once it has
    moved, when no entry can be kept under the new head yet. Their entries are kept by their declaration alone (a key
    under the head each was a digest and a read for nothing); a filtered log page keeps them under the head too."""
    campaign, people = _table()
    client = _client(people["narrator"])
    store = caches["fragments"]
    for url in (reverse("campaigns:dashboard", args=[campaign.pk]), reverse("campaigns:log", args=[campaign.pk])):
        store.clear()
        assert client.get(url).status_code == 200
        keys = list(store._cache)  # type: ignore[attr-defined]  # the memory store's own
        assert any("region:entry:" in key for key in keys) and not any("region-at:entry:" in key for key in keys)
    store.clear()
    client.get(reverse("campaigns:log", args=[campaign.pk]) + "?kind=note")
    assert any("region-at:entry:" in key for key in store._cache)  # type: ignore[attr-defined]  # the store's own
