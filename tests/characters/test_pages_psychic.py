"""The sheet's psychic section: feeding a domain (narrator) and Régénération (the sheet's editor)."""

from __future__ import annotations

import pytest
from django.urls import reverse

from characters import selectors
from characters.models import PowerFeed
from characters.services.powers import feed_allow
from characters.services.revers import revers_inflict
from tests.campaigns.factories import UserFactory
from tests.characters.factories import pc, table

pytestmark = pytest.mark.django_db


def _act(character, name: str) -> str:  # type: ignore[no-untyped-def]
    return reverse("characters:act", args=[character.pk, name])


@pytest.fixture
def psy_table():  # type: ignore[no-untyped-def]
    campaign, narrator, (owner, other) = table()
    psy = pc(campaign, owner, {"telepathie": 2, "conscience": 5, "presence": 4})
    return campaign, narrator, owner, other, psy


def test_the_narrator_lets_presence_feed_telepathie_and_the_player_pays_with_it(client, psy_table) -> None:  # type: ignore[no-untyped-def]
    campaign, narrator, owner, other, psy = psy_table
    client.force_login(narrator)
    response = client.post(_act(psy, "feed"), {"domain": "telepathie", "trait": "presence"}, HTTP_HX_REQUEST="true")
    assert response.status_code == 200 and 'id="feeds"' in response.text
    assert 'id="id_feed_domain"' in response.text and 'for="id_feed_trait"' in response.text
    client.force_login(owner)
    page = client.get(psy.get_absolute_url())
    assert 'name="fed_by"' in page.text and "Let a trait feed" not in page.text
    client.cookies["django_language"] = "en"
    response = client.post(_act(psy, "power"), {"domain": "telepathie", "power_rank": 2, "fed_by": "presence"},
                           HTTP_HX_REQUEST="true")  # fmt: skip
    assert response.status_code == 200
    assert "data-lowered" in response.text and "Mediocre until rest" in response.text
    psy.refresh_from_db()
    assert selectors.trait_value(psy, "presence") == 3


def test_feeding_is_the_narrators_call(client, psy_table) -> None:  # type: ignore[no-untyped-def]
    campaign, narrator, owner, other, psy = psy_table
    client.force_login(owner)
    assert client.post(_act(psy, "feed"), {"domain": "telepathie", "trait": "presence"}).status_code == 403
    assert not PowerFeed.objects.exists()  # a refusal changes nothing
    feed = feed_allow(character=psy, actor=narrator, domain="telepathie", trait="presence")
    assert client.post(_act(psy, "unfeed"), {"feed": feed.pk}).status_code == 403
    client.force_login(UserFactory())
    assert client.post(_act(psy, "feed"), {"domain": "telepathie", "trait": "presence"}).status_code == 404
    client.force_login(narrator)
    assert client.post(_act(psy, "unfeed"), {"feed": feed.pk}).status_code == 302
    assert not PowerFeed.objects.exists()


def test_the_owner_starts_and_stops_regeneration_and_others_cannot(client, psy_table) -> None:  # type: ignore[no-untyped-def]
    campaign, narrator, owner, other, psy = psy_table
    revers_inflict(character=psy, actor=narrator, domain="physical", severity=2, source="balle")
    client.force_login(other)
    assert client.post(_act(psy, "healing"), {"power": "regeneration"}).status_code == 403
    client.force_login(UserFactory())
    assert client.post(_act(psy, "healing"), {"power": "regeneration"}).status_code == 404
    psy.refresh_from_db()
    assert not psy.healing_power and psy.healing_points == 0
    client.force_login(owner)
    client.cookies["django_language"] = "en"
    response = client.post(_act(psy, "healing"), {"power": "regeneration"}, HTTP_HX_REQUEST="true")
    assert response.status_code == 200 and "Regeneration running · Potential spent on it: 1" in response.text
    client.force_login(other)
    assert client.post(_act(psy, "healing_stop")).status_code == 403
    client.force_login(owner)
    response = client.post(_act(psy, "healing_stop"), HTTP_HX_REQUEST="true")
    assert response.status_code == 200 and "Regeneration (Conscience)" in response.text
    psy.refresh_from_db()
    assert not psy.healing_power


def test_a_refused_regeneration_answers_with_the_reason(client, psy_table) -> None:  # type: ignore[no-untyped-def]
    campaign, narrator, owner, other, psy = psy_table
    client.force_login(owner)
    client.cookies["django_language"] = "en"
    response = client.post(_act(psy, "healing"), {"power": "regeneration"}, HTTP_HX_REQUEST="true")
    assert "No physical Revers this power can heal." in response.text
