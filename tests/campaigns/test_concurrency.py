"""Simultaneous requests never duplicate or corrupt: row locks serialise them (PostgreSQL)."""

from __future__ import annotations

import datetime as dt
import threading

import pytest
from django.db import connection

from campaigns import services
from campaigns.models import Event, GameSession, Membership
from core.errors import ServiceError
from tests.campaigns.factories import UserFactory, campaign_with, narrator_of

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.postgres]


def run_together(count: int, action) -> list[object]:  # type: ignore[no-untyped-def]
    barrier = threading.Barrier(count)
    results: list[object] = [None] * count

    def worker(index: int) -> None:
        barrier.wait(timeout=60)  # a thread that died before it must fail the test, not hang it
        try:
            results[index] = action(index)
        except ServiceError as exc:
            results[index] = exc
        finally:
            connection.close()

    threads = [threading.Thread(target=worker, args=(i,)) for i in range(count)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return results


def test_one_invitation_accepted_by_ten_people_at_once_admits_exactly_one() -> None:
    campaign = campaign_with()
    invitation = services.invitation_create(campaign=campaign, actor=narrator_of(campaign), role="player")
    people = [UserFactory() for _ in range(10)]
    results = run_together(10, lambda i: services.invitation_accept(token=invitation.token, user=people[i]))
    admitted = [r for r in results if isinstance(r, Membership)]
    assert len(admitted) == 1
    assert Membership.objects.filter(campaign=campaign, role="player").count() == 1
    assert Event.objects.filter(campaign=campaign, kind="member.joined").count() == 1


def test_sessions_planned_at_the_same_instant_get_distinct_numbers() -> None:
    campaign = campaign_with()
    narrator = narrator_of(campaign)
    run_together(8, lambda i: services.game_session_create(campaign=campaign, actor=narrator, date=dt.date(2026, 1, 1)))
    numbers = sorted(GameSession.objects.filter(campaign=campaign).values_list("number", flat=True))
    assert numbers == list(range(1, 9))


def test_two_narrators_opening_sessions_at_once_leave_one_open() -> None:
    campaign = campaign_with()
    narrator = narrator_of(campaign)
    sessions = [
        services.game_session_create(campaign=campaign, actor=narrator, date=dt.date(2026, 1, 1)) for _ in range(4)
    ]
    run_together(4, lambda i: services.game_session_open(game_session=sessions[i], actor=narrator))
    assert GameSession.objects.filter(campaign=campaign, status="open").count() == 1
