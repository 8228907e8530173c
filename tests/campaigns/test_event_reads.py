"""Events read by id for display (campaigns/event_reads.py): the instances ``for_display()`` gives, from SQL compiled
once; a log page or a feed rendered after a note loads its new entry without building a query."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

import pytest
from django.db import connection
from django.db.models.sql.compiler import SQLCompiler
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from campaigns import services
from campaigns.event_reads import events_for_display
from campaigns.models import Event
from characters.models import Character
from tests.campaigns.factories import campaign_with, membership, narrator_of, players_of

pytestmark = pytest.mark.django_db


def _fields(obj: object) -> list[object]:
    return [getattr(obj, f.attname) for f in obj._meta.concrete_fields]  # type: ignore[attr-defined]


@contextmanager
def _compiled() -> Iterator[list[str]]:
    """The SQL Django compiles from a QuerySet meanwhile (a prepared read runs SQL compiled before)."""
    found: list[str] = []
    original = SQLCompiler.as_sql

    def as_sql(self, *args, **kwargs):  # type: ignore[no-untyped-def]
        sql, params = original(self, *args, **kwargs)
        found.append(sql)
        return sql, params

    SQLCompiler.as_sql = as_sql  # type: ignore[method-assign]
    try:
        yield found
    finally:
        SQLCompiler.as_sql = original  # type: ignore[method-assign]


def test_the_events_are_those_for_display_gives() -> None:
    campaign = campaign_with(players=1)
    narrator, (lisa,) = narrator_of(campaign), players_of(campaign)
    zoe = Character.objects.create(campaign=campaign, name="Zoé", owner=lisa)
    abel = Character.objects.create(campaign=campaign, name="Abel", owner=lisa)
    session = services.game_session_create(campaign=campaign, actor=narrator, date=campaign.created_at.date())
    services.game_session_open(game_session=session, actor=narrator)
    n = membership(campaign, narrator)
    both = services.note_write(membership=n, text="Les deux", characters=[zoe, abel])
    alone = services.note_write(membership=n, text="Personne")
    other = campaign_with(players=0)
    elsewhere = services.note_write(membership=membership(other, narrator_of(other)), text="Ailleurs")
    for _ in range(2):  # compiled, then run again
        got = {e.pk: e for e in events_for_display(campaign.pk, [both.pk, alone.pk, elsewhere.pk])}
        expected = {e.pk: e for e in Event.objects.filter(pk__in=[both.pk, alone.pk]).for_display()}
        assert set(got) == set(expected) == {both.pk, alone.pk}  # only the campaign's
        with CaptureQueriesContext(connection) as ctx:
            for pk, event in got.items():
                assert _fields(event) == _fields(expected[pk])
                assert event.actor == expected[pk].actor and event.game_session == expected[pk].game_session
                assert [c.name for c in event.characters.all()] == [c.name for c in expected[pk].characters.all()]
        assert len(ctx.captured_queries) == 0  # loaded with them, as for_display() loads them
    assert [c.name for c in got[both.pk].characters.all()] == ["Abel", "Zoé"]
    assert events_for_display(campaign.pk, []) == []


def test_a_page_after_a_note_builds_no_query_for_its_entries_and_asks() -> None:
    campaign = campaign_with(players=1)
    narrator = narrator_of(campaign)
    n = membership(campaign, narrator)
    hero = Character.objects.create(campaign=campaign, name="Hercule", owner=narrator)
    client = Client()
    client.force_login(narrator)
    pages = [reverse("campaigns:log", args=[campaign.pk]), reverse("campaigns:dashboard", args=[campaign.pk])]
    for number in range(55):  # full pages (a page of 50, a feed of 30): the lists' lengths no longer change
        services.note_write(membership=n, text=f"Note {number}")
    for page in pages:
        for _ in range(2):  # the reads compiled once for a whole page, once for one new entry
            services.note_write(membership=n, text="Avant", characters=[hero])
            assert client.get(page).status_code == 200
        services.note_write(membership=n, text="Une nouvelle note", characters=[hero])
        with _compiled() as compiled:
            answer = client.get(page)
        assert "Une nouvelle note" in answer.content.decode()
        loads = [sql for sql in compiled if "campaigns_event_characters" in sql or '"corrects_id" IN' in sql]
        assert loads == [], page
        # The feed's newest rows and the versions of the subjects the page's regions declare: compiled once too.
        assert [
            sql for sql in compiled if "campaigns_subjectversion" in sql or "LIMIT 30" in sql or "LIMIT 51" in sql
        ] == [], page
        # The dashboard's "now" block reads the Tests waiting to key itself (conflicts.asked_tests): compiled once too.
        assert [sql for sql in compiled if "conflicts_askedtest" in sql] == [], page
