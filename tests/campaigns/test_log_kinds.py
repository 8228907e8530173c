"""The log's kind filter offers the kinds a reader may see, from the kinds the database keeps per campaign
(campaigns.models.LoggedKind, filled by a trigger on every insert into the log), never a secret one."""

from __future__ import annotations

import re

import pytest
from django.db import connection
from django.test import Client
from django.urls import reverse

from campaigns import selectors, services
from campaigns.models import Event, LoggedKind, Visibility
from tests.campaigns.factories import campaign_with, membership, narrator_of, players_of

pytestmark = pytest.mark.django_db


def _offered(user, campaign) -> set[str]:  # type: ignore[no-untyped-def]
    client = Client()
    client.force_login(user)
    page = client.get(reverse("campaigns:log", args=[campaign.pk])).content.decode()
    select = re.search(r'<select name="kind".*?</select>', page, re.S)
    assert select is not None
    return set(re.findall(r'<option value="([^"]+)"', select.group(0)))


def test_each_reader_is_offered_the_kinds_they_may_read_and_no_other() -> None:
    campaign = campaign_with(players=2)
    narrator, (lisa, jim) = narrator_of(campaign), players_of(campaign)
    services.invitation_create(campaign=campaign, actor=narrator, role="player")  # narrators only
    lisa_m = membership(campaign, lisa)
    services.note_write(membership=lisa_m, text="Pour moi seule.", private=True)  # lisa's own: a note
    services.event_append(campaign=campaign, kind="secret.omen", visibility=Visibility.PLAYER, recipient=lisa)
    assert {"campaign.created", "invitation.created", "note", "secret.omen"} <= _offered(narrator, campaign)
    assert {"note", "secret.omen"} <= _offered(lisa, campaign)
    assert "invitation.created" not in _offered(lisa, campaign)
    jims = _offered(jim, campaign)
    assert "campaign.created" in jims
    assert not {"invitation.created", "note", "secret.omen"} & jims


def test_the_kinds_are_kept_by_the_database_whatever_writes_the_event(on_postgres: bool) -> None:
    campaign = campaign_with(players=1)
    (player,) = players_of(campaign)
    before = LoggedKind.objects.filter(campaign=campaign).count()
    # A bulk load skips Event.save() and the services: the trigger still records the kinds.
    Event.objects.bulk_create(
        [
            Event(campaign=campaign, kind="bulk.loaded", game_time=campaign.game_clock),
            Event(campaign=campaign, kind="bulk.loaded", game_time=campaign.game_clock),
            Event(campaign=campaign, kind="bulk.private", visibility=Visibility.PLAYER, recipient=player,
                  game_time=campaign.game_clock),
        ]
    )  # fmt: skip
    rows = set(LoggedKind.objects.filter(campaign=campaign).values_list("kind", "visibility", "reader"))
    assert ("bulk.loaded", "everyone", 0) in rows and ("bulk.private", "player", player.pk) in rows
    assert LoggedKind.objects.filter(campaign=campaign).count() == before + 2  # once each
    assert "bulk.private" in selectors.log_kinds(membership(campaign, player), head=-1)
    if not on_postgres:
        with connection.cursor() as cursor:
            cursor.execute(
                "SELECT 1 FROM sqlite_master WHERE type = 'trigger' AND name = 'campaigns_event_logged_kind'"
            )
            assert cursor.fetchone() is not None, "a migration rebuilt campaigns_event: create the trigger again (0006)"


def test_the_kinds_filter_reads_no_event(django_assert_max_num_queries) -> None:  # type: ignore[no-untyped-def]
    campaign = campaign_with()
    n = membership(campaign, narrator_of(campaign))
    services.note_write(membership=n, text="Un.")
    with django_assert_max_num_queries(1) as captured:
        selectors.log_kinds(n, head=-2)
    assert '"campaigns_event"' not in captured.captured_queries[0]["sql"]
