"""Non-members see nothing of a campaign; players never read narrators' secrets."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from campaigns import services
from campaigns.models import Event
from tests.campaigns.factories import UserFactory, campaign_with, membership, narrator_of, players_of

pytestmark = pytest.mark.django_db


def client_for(user) -> Client:  # type: ignore[no-untyped-def]
    client = Client()
    client.force_login(user)
    return client


MEMBER_PAGES = ["campaigns:home", "campaigns:log"]
NARRATOR_PAGES = ["campaigns:dashboard", "campaigns:settings", "campaigns:members", "campaigns:sessions"]


@pytest.mark.parametrize("name", MEMBER_PAGES + NARRATOR_PAGES)
def test_a_non_member_gets_404_on_every_campaign_page(name: str) -> None:
    campaign = campaign_with()
    response = client_for(UserFactory()).get(reverse(name, args=[campaign.pk]))
    assert response.status_code == 404


def test_an_anonymous_visitor_is_sent_to_log_in() -> None:
    campaign = campaign_with()
    response = Client().get(reverse("campaigns:log", args=[campaign.pk]))
    assert response.status_code == 302
    assert reverse("login") in response["Location"]


@pytest.mark.parametrize("name", NARRATOR_PAGES)
def test_a_player_is_refused_narrator_pages(name: str) -> None:
    campaign = campaign_with(players=1)
    response = client_for(players_of(campaign)[0]).get(reverse(name, args=[campaign.pk]))
    assert response.status_code == 403


def test_a_player_cannot_change_settings_and_nothing_changes() -> None:
    campaign = campaign_with(players=1)
    response = client_for(players_of(campaign)[0]).post(
        reverse("campaigns:settings_section", args=[campaign.pk, "campaign"]),
        {"name": "Volé", "version": campaign.version},
    )
    assert response.status_code == 403
    campaign.refresh_from_db()
    assert campaign.name == "Les Ombres"


def test_a_player_cannot_close_a_session() -> None:
    campaign = campaign_with(players=1)
    narrator = narrator_of(campaign)
    game_session = services.game_session_create(campaign=campaign, actor=narrator, date=campaign.created_at.date())
    services.game_session_open(game_session=game_session, actor=narrator)
    response = client_for(players_of(campaign)[0]).post(
        reverse("campaigns:session_transition", args=[campaign.pk, game_session.pk, "close"])
    )
    assert response.status_code == 403
    game_session.refresh_from_db()
    assert game_session.status == "open"


def test_a_player_cannot_advance_the_clock() -> None:
    campaign = campaign_with(players=1)
    before = campaign.game_clock
    response = client_for(players_of(campaign)[0]).post(
        reverse("campaigns:clock_advance", args=[campaign.pk]), {"days": 1, "hours": 0, "minutes": 0}
    )
    assert response.status_code == 403
    campaign.refresh_from_db()
    assert campaign.game_clock == before


def test_players_never_see_narrator_only_or_another_players_private_events() -> None:
    campaign = campaign_with(players=2)
    alice, bob = players_of(campaign)
    services.note_write(membership=membership(campaign, narrator_of(campaign)), text="SECRET-NARRATOR", private=True)
    services.note_write(membership=membership(campaign, bob), text="SECRET-BOB", private=True)
    services.note_write(membership=membership(campaign, alice), text="ALICE-OWN", private=True)
    services.note_write(membership=membership(campaign, bob), text="PUBLIC-BOB")

    for url in (reverse("campaigns:log", args=[campaign.pk]), reverse("campaigns:home", args=[campaign.pk])):
        html = client_for(alice).get(url).content.decode()
        assert "SECRET-NARRATOR" not in html
        assert "SECRET-BOB" not in html
        assert "ALICE-OWN" in html
        assert "PUBLIC-BOB" in html

    for fmt in ("md", "json"):
        text = client_for(alice).get(reverse("campaigns:log_export", args=[campaign.pk, fmt])).content.decode()
        assert "SECRET-NARRATOR" not in text and "SECRET-BOB" not in text
        assert "ALICE-OWN" in text

    narrator_html = client_for(narrator_of(campaign)).get(reverse("campaigns:log", args=[campaign.pk])).content.decode()
    assert "SECRET-NARRATOR" in narrator_html and "SECRET-BOB" in narrator_html


def test_a_player_cannot_correct_another_members_entry() -> None:
    campaign = campaign_with(players=2)
    alice, bob = players_of(campaign)
    note = services.note_write(membership=membership(campaign, bob), text="Bob's note")
    response = client_for(alice).post(
        reverse("campaigns:event_correct", args=[campaign.pk, note.pk]), {"reason": "faux"}
    )
    assert response.status_code == 302
    assert not Event.objects.filter(kind="correction").exists()


def test_a_player_cannot_correct_an_entry_they_cannot_see() -> None:
    campaign = campaign_with(players=1)
    secret = services.note_write(membership=membership(campaign, narrator_of(campaign)), text="x", private=True)
    response = client_for(players_of(campaign)[0]).post(
        reverse("campaigns:event_correct", args=[campaign.pk, secret.pk]), {"reason": "faux"}
    )
    assert response.status_code == 404
