"""The demo campaign opens with a conflict already one draw in."""

from __future__ import annotations

import datetime as dt

import pytest

from campaigns.demo import demo_campaign_load
from campaigns.models import Event
from conflicts.models import Phase, Sequence

pytestmark = pytest.mark.django_db


def test_the_demo_has_a_sequence_with_one_draw_recorded() -> None:
    campaign, created = demo_campaign_load(password="demo-pass-123", today=dt.date(2026, 11, 22))
    assert created
    sequence = Sequence.objects.get(campaign=campaign, title="Coincer le chauffeur")
    assert sequence.participants.count() == 3
    assert Event.objects.filter(campaign=campaign, kind="sequence.drew").count() == 3
    assert Event.objects.filter(campaign=campaign, kind="sequence.settled").count() == 1
    assert sequence.phase in (Phase.DRAWING, Phase.ENDED)
