"""The help form lists the current session's Tests only (issue 12; docs/rules-decisions.md, « Help lists the
current session's Tests »): « Ce bonus est accordé pour un tirage de cartes ou un lancer de dés »."""

from __future__ import annotations

import datetime as dt

import pytest

from campaigns import services as campaign_services
from campaigns.models import GameSession, Membership, SessionStatus
from conflicts import open_tests
from tests.conflicts.test_roll_atouts import _roll, _table

pytestmark = pytest.mark.django_db


def _listed(campaign, teammate, jim) -> list[str]:  # type: ignore[no-untyped-def]
    mine = Membership.objects.get(campaign=campaign, user=teammate)
    return [t.roll for t in open_tests.tests_open_to_others(mine, jim)]


def test_a_test_of_a_closed_session_is_no_longer_offered_for_help() -> None:
    campaign, narrator, player, teammate, janey, jim = _table()
    last_week = _roll(janey, player)
    assert _listed(campaign, teammate, jim) == [last_week]
    first = GameSession.objects.get(campaign=campaign, status=SessionStatus.OPEN)
    campaign_services.game_session_close(game_session=first, actor=narrator)
    # Between sessions: nothing rolled since the close, nothing to help.
    assert _listed(campaign, teammate, jim) == []
    between = _roll(janey, player, seed=2)
    assert _listed(campaign, teammate, jim) == [between]
    second = campaign_services.game_session_create(campaign=campaign, actor=narrator, date=dt.date(2026, 11, 29))
    campaign_services.game_session_open(game_session=second, actor=narrator)
    assert _listed(campaign, teammate, jim) == []  # the new session has no Test yet
    tonight = _roll(janey, player, seed=3)
    assert _listed(campaign, teammate, jim) == [tonight]
