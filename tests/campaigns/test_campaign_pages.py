"""Creating and configuring a campaign through its pages."""

from __future__ import annotations

import pytest
from django.core.management import call_command
from django.test import Client
from django.urls import reverse

from campaigns.models import Campaign, Event, Membership, SessionStatus
from states.models import SavageSettings
from tests.campaigns.factories import UserFactory, campaign_with, narrator_of

pytestmark = pytest.mark.django_db


def logged_in(user) -> Client:  # type: ignore[no-untyped-def]
    client = Client()
    client.force_login(user)
    return client


def test_a_narrator_creates_a_campaign_with_its_rule_options() -> None:
    user = UserFactory()
    response = logged_in(user).post(
        reverse("campaigns:list"),
        {
            "name": "Lutèce",
            "creation_mode": "streamlined",
            "starting_atouts": 16,
            "session_award": 1,
            "savage_states": "on",
            "revers_recovery_light_days": 1,
            "revers_recovery_deep_days": 7,
        },
    )
    campaign = Campaign.objects.get(name="Lutèce")
    assert response.status_code == 302
    assert campaign.creation_mode == "streamlined" and campaign.starting_atouts == 16
    assert Membership.objects.get(campaign=campaign, user=user).is_narrator
    assert Event.objects.filter(campaign=campaign, kind="campaign.created").count() == 1


def test_a_bad_campaign_form_shows_errors_in_french_and_saves_nothing() -> None:
    response = logged_in(UserFactory()).post(
        reverse("campaigns:list"),
        {"name": "", "creation_mode": "nope", "starting_atouts": 0, "session_award": 1,
         "revers_recovery_light_days": 0, "revers_recovery_deep_days": 7},
    )  # fmt: skip
    html = response.content.decode()
    assert response.status_code == 400
    assert "Ce champ est obligatoire" in html
    assert "Un personnage commence avec au moins un Atout" in html
    assert not Campaign.objects.exists()


def test_settings_change_is_logged_with_old_and_new_values() -> None:
    campaign = campaign_with()
    client = logged_in(narrator_of(campaign))
    data = {
        "campaign-creation_mode": "standard", "campaign-starting_atouts": 21, "campaign-session_award": 2,
        "campaign-revers_recovery_light_days": 1, "campaign-revers_recovery_deep_days": 7,
        "campaign-version": campaign.version, "rules-version": 1, "rules-human_maximum": 7, "rules-progression": "",
        "rules-streamlined_atouts": 15, "rules-potential_rest_hours": 8, "rules-npc_out_after": 2,
    }  # fmt: skip
    client.get(reverse("campaigns:settings", args=[campaign.pk]))
    response = client.post(reverse("campaigns:settings_section", args=[campaign.pk, "characters"]), data)
    assert response.status_code == 302
    event = Event.objects.get(kind="campaign.settings_changed")
    assert event.payload["changed"] == {"starting_atouts": [11, 21], "session_award": [1, 2]}
    response = client.post(
        reverse("campaigns:settings_section", args=[campaign.pk, "states"]),
        {"campaign-version": campaign.version + 1, "savage-version": 1, "savage-weigh_on_cecj": "on",
         **{f"savage-rank_{v}": d for v, d in SavageSettings().rank_dice.items()}},
    )  # fmt: skip
    assert response.status_code == 302
    assert Event.objects.filter(kind="campaign.settings_changed").latest("pk").payload["changed"] == {
        "savage_states": [True, False]
    }


def test_a_stale_settings_form_says_someone_acted_first() -> None:
    campaign = campaign_with()
    client = logged_in(narrator_of(campaign))
    url = reverse("campaigns:settings_section", args=[campaign.pk, "campaign"])
    data = {"name": "A", "description": "", "version": campaign.version}
    client.post(url, data)
    response = client.post(url, {**data, "name": "B"})
    assert response.status_code == 409
    assert "Quelqu’un a modifié" in response.content.decode() or "Quelqu'un a modifié" in response.content.decode()
    campaign.refresh_from_db()
    assert campaign.name == "A"


def test_the_demo_loads_twice_without_duplicating() -> None:
    call_command("load_demo", password="demo-pass-123")
    call_command("load_demo", password="demo-pass-456")
    campaign = Campaign.objects.get()
    assert campaign.memberships.count() == 3
    assert campaign.game_sessions.filter(status=SessionStatus.CLOSED).count() == 1
    assert campaign.events.filter(kind="note").count() >= 3
    client = Client()
    assert client.login(username="narratrice", password="demo-pass-456")
    assert client.get(reverse("campaigns:dashboard", args=[campaign.pk])).status_code == 200


def test_opening_a_session_says_so_and_the_sessions_page_reads_right_in_french() -> None:
    """The status is « Ouverte » (not the verb « Ouvrir »), the menu says « Séances » and opening is confirmed."""
    campaign = campaign_with(players=1)
    client = logged_in(narrator_of(campaign))
    client.post(reverse("campaigns:sessions", args=[campaign.pk]), {"date": "2026-11-22", "title": "Les catacombes"})
    game_session = campaign.game_sessions.get()
    response = client.post(
        reverse("campaigns:session_transition", args=[campaign.pk, game_session.pk, "open"]), follow=True
    )
    html = response.content.decode()
    assert "Séance 1 ouverte" in html
    assert "<td>Ouverte" in html and "<td>Ouvrir" not in html
    assert ">Séances</a>" in html and ">Sessions</a>" not in html
