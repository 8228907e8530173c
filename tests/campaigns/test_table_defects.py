"""Defects found in a played evening (issue 12): each test failed before its fix."""

from __future__ import annotations

import datetime as dt

import pytest
from django.conf import settings
from django.core.management import call_command
from django.test import Client
from django.urls import reverse
from django.utils import translation

from campaigns import services
from campaigns.chronicle import describe
from campaigns.models import Campaign, Event, Invitation
from tests.campaigns.factories import PASSWORD, campaign_with, narrator_of

pytestmark = pytest.mark.django_db


def _client(user, language: str) -> Client:  # type: ignore[no-untyped-def]
    client = Client(HTTP_ACCEPT_LANGUAGE=language)
    client.force_login(user)
    client.cookies["django_language"] = language
    return client


@pytest.mark.parametrize("language", ["fr", "en"])
def test_the_session_date_input_carries_an_iso_value_in_both_languages(language: str) -> None:
    """A browser's <input type=date> rejects « 23/11/2026 »: the French form then said "required"."""
    campaign = campaign_with()
    client = _client(narrator_of(campaign), language)
    html = client.get(reverse("campaigns:sessions", args=[campaign.pk])).content.decode()
    value = html.split('type="date"')[0].rsplit("<input", 1)[1] + html.split('type="date"')[1].split(">")[0]
    assert 'value="' in value
    iso = value.split('value="')[1].split('"')[0]
    dt.date.fromisoformat(iso)  # raises on « 23/11/2026 »
    response = client.post(reverse("campaigns:sessions", args=[campaign.pk]), {"date": iso, "title": "Les catacombes"})
    assert response.status_code == 302
    assert campaign.game_sessions.get().date == dt.date.fromisoformat(iso)


def test_creating_an_invitation_redirects_and_the_link_stays_listed_until_revoked() -> None:
    campaign = campaign_with()
    client = _client(narrator_of(campaign), "fr")
    url = reverse("campaigns:members", args=[campaign.pk])
    response = client.post(url, {"role": "player"})
    assert response.status_code == 302  # a refresh of the next page makes no second invitation
    invitation = Invitation.objects.get(campaign=campaign)
    page = client.get(url).content.decode()
    assert invitation.get_absolute_url() in page
    assert client.get(url).content.decode().count(invitation.get_absolute_url()) == 1
    assert Invitation.objects.filter(campaign=campaign).count() == 1
    client.post(reverse("campaigns:invitation_revoke", args=[campaign.pk, invitation.pk]))
    assert not Invitation.objects.filter(campaign=campaign).exists()
    assert invitation.get_absolute_url() not in client.get(url).content.decode()
    assert Event.objects.filter(campaign=campaign, kind="invitation.revoked").exists()


def test_the_invitation_time_in_the_log_is_in_the_readers_time_zone() -> None:
    campaign = campaign_with()
    now = dt.datetime(2026, 11, 23, 10, 0, tzinfo=dt.UTC)
    services.invitation_create(campaign=campaign, actor=narrator_of(campaign), role="player", now=now)
    event = Event.objects.get(campaign=campaign, kind="invitation.created")
    with translation.override("fr"):
        text = describe(event)
    expires = now + dt.timedelta(hours=settings.INVITATION_TTL_HOURS)
    paris = expires.astimezone(dt.timezone(dt.timedelta(hours=1)))  # Paris in November: UTC+1
    assert f"{paris:%H:%M}" in text
    assert f"{expires:%H:%M}" not in text


def test_settings_changes_in_the_log_name_fields_as_the_reader_knows_them() -> None:
    campaign = campaign_with()
    services.campaign_settings_update(
        campaign=campaign, actor=narrator_of(campaign), data={"creation_mode": "streamlined"},
        expected_version=campaign.version,
    )  # fmt: skip
    event = Event.objects.get(campaign=campaign, kind="campaign.settings_changed")
    with translation.override("fr"):
        text = describe(event)
    assert "creation_mode" not in text
    assert "création" in text


def test_the_time_passing_in_the_log_reads_in_the_readers_language() -> None:
    campaign = campaign_with()
    with translation.override("fr"):
        services.clock_advance(campaign=campaign, actor=narrator_of(campaign), delta=dt.timedelta(days=1, hours=6))
    event = Event.objects.get(campaign=campaign, kind="clock.advanced")
    with translation.override("en"):
        assert "1 day 6 h" in describe(event)
    with translation.override("fr"):
        assert "1 jour 6 h" in describe(event)


def test_load_demo_keeps_existing_passwords_and_says_the_port(monkeypatch: pytest.MonkeyPatch, capsys) -> None:  # type: ignore[no-untyped-def]
    call_command("load_demo", password=PASSWORD)
    monkeypatch.setenv("PORT", "8123")
    call_command("load_demo")
    out = capsys.readouterr().out
    assert "8123" in out
    assert Client().login(username="narratrice", password=PASSWORD)


def test_the_demo_clock_reads_paris_1925() -> None:
    call_command("load_demo", password=PASSWORD)
    campaign = Campaign.objects.get()
    assert campaign.game_clock.year == 1925


def test_the_public_log_link_field_has_a_label() -> None:
    """axe-core's one critical finding: an unlabelled `#public-log-link`."""
    campaign = campaign_with()
    client = _client(narrator_of(campaign), "fr")
    client.post(reverse("campaigns:public_log_toggle", args=[campaign.pk]), {"publish": "1"})
    html = client.get(reverse("campaigns:log", args=[campaign.pk])).content.decode()
    assert 'id="public-log-link"' in html
    assert '<label for="public-log-link">' in html
