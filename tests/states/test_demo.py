"""The demo campaign loads with a fight under way: states, Jetons and the round tracker."""

from __future__ import annotations

import datetime as dt

from campaigns.demo import demo_campaign_load
from states.models import SavageRound, SavageState


def test_the_demo_campaign_has_a_fight_under_way(db):
    campaign, created = demo_campaign_load(password="demo-pass-123", today=dt.date(2026, 11, 22))
    assert created
    garnier = SavageState.objects.get(character__campaign=campaign, character__name="Inspecteur Garnier")
    assert garnier.wounds == 1 and "cover_medium" in garnier.situations
    assert SavageState.objects.get(character__campaign=campaign, character__name="Jim Bones").tokens == 1
    tracker = SavageRound.objects.get(campaign=campaign)
    assert tracker.active and tracker.number == 1 and len(tracker.order) == 3
