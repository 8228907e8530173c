"""An answer names the stream position it shows at least (``X-Live-Position``, campaigns/answer_position.py):
the page drops live pushes rendered before it (static/js/tablee.js)."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from campaigns import services
from campaigns.answer_position import HEADER
from campaigns.models import CampaignStream, Event
from tests.campaigns.factories import UserFactory, campaign_with, membership, narrator_of, players_of
from tests.characters.factories import pc

pytestmark = pytest.mark.django_db


def logged_in(user) -> Client:  # type: ignore[no-untyped-def]
    client = Client()
    client.force_login(user)
    return client


def head(campaign_id: int) -> int:
    return CampaignStream.objects.get(campaign_id=campaign_id).position


def test_a_campaign_page_names_the_head_it_was_read_at() -> None:
    campaign = campaign_with(players=1)
    player = players_of(campaign)[0]
    services.note_write(membership=membership(campaign, narrator_of(campaign)), text="Une note")
    response = logged_in(player).get(reverse("campaigns:home", args=[campaign.pk]))
    assert response.status_code == 200
    assert response[HEADER] == str(head(campaign.pk))


@pytest.mark.django_db(transaction=True)  # the position is noted when the event's transaction commits
def test_a_note_posted_answers_with_its_own_events_position() -> None:
    campaign = campaign_with(players=1)
    player = players_of(campaign)[0]
    client = logged_in(player)
    before = head(campaign.pk)
    response = client.post(
        reverse("campaigns:note_create", args=[campaign.pk]), {"text": "Je fouille"}, HTTP_HX_REQUEST="true"
    )
    assert response.status_code == 200
    note = Event.objects.get(campaign=campaign, kind="note")
    assert note.position == before + 1
    assert response[HEADER] == str(note.position)


@pytest.mark.django_db(transaction=True)
def test_a_refused_note_answers_at_the_head_it_read() -> None:
    campaign = campaign_with(players=1)
    client = logged_in(players_of(campaign)[0])
    before = head(campaign.pk)
    response = client.post(reverse("campaigns:note_create", args=[campaign.pk]), {"text": ""}, HTTP_HX_REQUEST="true")
    assert response.status_code == 400
    assert response[HEADER] == str(before)
    assert head(campaign.pk) == before


def test_no_position_for_a_stranger_nor_before_the_membership_is_read() -> None:
    campaign = campaign_with(players=1)
    stranger = logged_in(UserFactory())
    response = stranger.get(reverse("campaigns:home", args=[campaign.pk]))
    assert response.status_code == 404 and HEADER not in response
    # A sheet reads its character before the membership: the head read then could be newer than the sheet.
    jim = pc(campaign, players_of(campaign)[0])
    response = logged_in(players_of(campaign)[0]).get(reverse("characters:detail", args=[jim.pk]))
    assert response.status_code == 200 and HEADER not in response


@pytest.mark.django_db(transaction=True)
def test_a_sheet_write_answers_with_the_position_of_the_event_it_appended() -> None:
    campaign = campaign_with(players=1)
    jim = pc(campaign, players_of(campaign)[0])
    client = logged_in(narrator_of(campaign))
    response = client.post(reverse("characters:act", args=[jim.pk, "gain"]), {"amount": 1}, HTTP_HX_REQUEST="true")
    assert response.status_code == 200
    gained = Event.objects.filter(campaign=campaign).latest("position")
    assert gained.kind == "character.atout_gained" and response[HEADER] == str(gained.position)
