"""The log's exports follow the filter as it stands; a text search finds only what the reader may read."""

from __future__ import annotations

import json

import pytest
from django.test import Client
from django.urls import reverse

from campaigns import services
from characters.models import Character
from tests.campaigns.factories import campaign_with, membership, narrator_of, players_of

pytestmark = pytest.mark.django_db


def _client(user) -> Client:  # type: ignore[no-untyped-def]
    client = Client()
    client.force_login(user)
    return client


def _table():  # type: ignore[no-untyped-def]
    campaign = campaign_with(players=2)
    narrator, (lisa, jim) = narrator_of(campaign), players_of(campaign)
    hero = Character.objects.create(campaign=campaign, name="Hercule Vautrin", owner=lisa)
    n, lisa_m = membership(campaign, narrator), membership(campaign, lisa)
    services.note_write(membership=n, text="Le trésor est dans la crypte.")
    services.note_write(membership=n, text="Le trésor est un piège (secret du MJ).", private=True)
    services.note_write(membership=lisa_m, text="Mon trésor caché, rien qu'à moi.", private=True)
    services.note_write(membership=n, text="Une ombre passe.", characters=[hero])
    return campaign, narrator, lisa, jim


def test_the_export_buttons_send_the_filter_form_as_it_stands() -> None:
    """The htmx filter swaps only the entries: the exports are buttons of the filter form itself, so they
    send its current values (before, links carried the query of the page's first load)."""
    campaign, narrator, _lisa, _jim = _table()
    html = _client(narrator).get(reverse("campaigns:log", args=[campaign.pk])).content.decode()
    for fmt in ("md", "json"):
        url = reverse("campaigns:log_export", args=[campaign.pk, fmt])
        assert f'form="log-filters" class="small" formaction="{url}"' in html
    assert '<form method="get" id="log-filters"' in html


@pytest.mark.parametrize("fmt", ["md", "json"])
def test_an_export_holds_only_the_filtered_events(fmt: str) -> None:
    campaign, narrator, _lisa, _jim = _table()
    url = reverse("campaigns:log_export", args=[campaign.pk, fmt])
    whole = _client(narrator).get(url).content.decode()
    found = _client(narrator).get(url, {"q": "trésor", "kind": "note"}).content.decode()
    assert "Une ombre passe" in whole and "Une ombre passe" not in found and "la crypte" in found
    assert found != whole
    if fmt == "json":
        kinds = {event["kind"] for event in json.loads(found)["events"]}
        assert kinds == {"note"}


def test_search_finds_only_what_the_reader_may_read() -> None:
    campaign, narrator, lisa, jim = _table()
    log = reverse("campaigns:log", args=[campaign.pk])

    def found(user, q: str) -> str:  # type: ignore[no-untyped-def]
        return _client(user).get(log, {"q": q}, HTTP_HX_REQUEST="true").content.decode()

    narrators = found(narrator, "Trésor")  # case aside (SQLite folds ASCII letters only)
    assert "la crypte" in narrators and "secret du MJ" in narrators and "Mon trésor caché" in narrators
    assert "Une ombre" not in narrators
    assert "la crypte" in found(lisa, "trésor") and "Mon trésor caché" in found(lisa, "trésor")
    assert "secret du MJ" not in found(lisa, "trésor")
    jims = found(jim, "trésor")
    assert "la crypte" in jims and "secret du MJ" not in jims and "Mon trésor caché" not in jims
    assert "Une ombre passe" in found(jim, "vautrin")  # the character it names
    export = _client(jim).get(reverse("campaigns:log_export", args=[campaign.pk, "json"]), {"q": "trésor"})
    assert "secret du MJ" not in export.content.decode() and "Mon trésor caché" not in export.content.decode()
