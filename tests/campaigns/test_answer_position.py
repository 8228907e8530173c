"""An answer names the stream positions it shows at least (``X-Live-Position``, campaigns/answer_position.py):
the page drops live pushes rendered before it (static/js/tablee.js). Each position names its stream
(``campaign:3=41``, ``tragic:7=12``), so a page takes only its own stream's; a whole page carries its position
on its socket's element (``data-live-after``), so its socket starts there instead of replaying the last seconds."""

from __future__ import annotations

import re

import pytest
from django.test import Client
from django.urls import reverse

from campaigns import services
from campaigns.answer_position import HEADER, AnswerPosition
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


def at(campaign_id: int, position: int) -> str:
    return f"campaign:{campaign_id}={position}"


def live_after(html: str) -> str:
    match = re.search(r'id="live-socket"[^>]* data-live-after="(\d*)"', html)
    assert match is not None
    return match.group(1)


def test_a_campaign_page_names_the_head_it_was_read_at() -> None:
    campaign = campaign_with(players=1)
    player = players_of(campaign)[0]
    services.note_write(membership=membership(campaign, narrator_of(campaign)), text="Une note")
    response = logged_in(player).get(reverse("campaigns:home", args=[campaign.pk]))
    assert response.status_code == 200
    assert response[HEADER] == at(campaign.pk, head(campaign.pk))
    # The page's socket starts from that position: it has nothing to replay on connecting.
    assert live_after(response.content.decode()) == str(head(campaign.pk))


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
    assert response[HEADER] == at(campaign.pk, note.position)


@pytest.mark.django_db(transaction=True)
def test_a_refused_note_answers_at_the_head_it_read() -> None:
    campaign = campaign_with(players=1)
    client = logged_in(players_of(campaign)[0])
    before = head(campaign.pk)
    response = client.post(reverse("campaigns:note_create", args=[campaign.pk]), {"text": ""}, HTTP_HX_REQUEST="true")
    assert response.status_code == 400
    assert response[HEADER] == at(campaign.pk, before)
    assert head(campaign.pk) == before


def test_no_position_for_a_stranger() -> None:
    campaign = campaign_with(players=1)
    stranger = logged_in(UserFactory())
    response = stranger.get(reverse("campaigns:home", args=[campaign.pk]))
    assert response.status_code == 404 and HEADER not in response


def test_a_sheet_names_the_head_its_character_was_read_at_not_the_later_one_of_the_membership(monkeypatch) -> None:  # type: ignore[no-untyped-def]
    """A sheet reads its character before the membership: an event committed between the two reads is not in the
    sheet, so the head read with the membership would make the page skip it. The head comes with the character."""
    from campaigns import access

    campaign = campaign_with(players=1)
    player = players_of(campaign)[0]
    jim = pc(campaign, player)
    before = head(campaign.pk)
    read_membership = access.membership_or_404

    def a_note_commits_meanwhile(user, campaign_id):  # type: ignore[no-untyped-def]
        services.note_write(membership=membership(campaign, narrator_of(campaign)), text="Entre deux lectures")
        return read_membership(user, campaign_id)

    monkeypatch.setattr("characters.access.membership_or_404", a_note_commits_meanwhile)
    response = logged_in(player).get(reverse("characters:detail", args=[jim.pk]))
    assert response.status_code == 200
    assert head(campaign.pk) == before + 1
    assert response[HEADER] == at(campaign.pk, before)
    assert live_after(response.content.decode()) == str(before)


def test_the_header_names_each_stream_and_a_page_reads_only_its_own() -> None:
    holder = AnswerPosition()
    holder.note("tragic:7", 12)
    holder.note("campaign:3", 41)
    holder.note("campaign:3", 40)  # "at least": an older read does not lower it
    assert holder.header() == "campaign:3=41, tragic:7=12"
    assert holder.of("campaign:3") == 41 and holder.of("frag:7") is None


@pytest.mark.django_db(transaction=True)
def test_a_sheet_write_answers_with_the_position_of_the_event_it_appended() -> None:
    campaign = campaign_with(players=1)
    jim = pc(campaign, players_of(campaign)[0])
    client = logged_in(narrator_of(campaign))
    response = client.post(reverse("characters:act", args=[jim.pk, "gain"]), {"amount": 1}, HTTP_HX_REQUEST="true")
    assert response.status_code == 200
    gained = Event.objects.filter(campaign=campaign).latest("position")
    assert gained.kind == "character.atout_gained" and response[HEADER] == at(campaign.pk, gained.position)
