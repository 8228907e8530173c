"""The demo campaign's characters get full sheets through the real services."""

from __future__ import annotations

import datetime as dt

import pytest

from campaigns.demo import demo_campaign_load
from characters import selectors
from characters.models import Character

pytestmark = pytest.mark.django_db


def test_jim_bones_and_lisa_benny_have_full_sheets() -> None:
    campaign, created = demo_campaign_load(password="demo-pass-123", today=dt.date(2026, 11, 22))
    assert created
    jim = Character.objects.get(campaign=campaign, name="Jim Bones")
    lisa = Character.objects.get(campaign=campaign, name="Lisa Benny")
    assert selectors.trait_value(jim, "medecine") == 5
    assert selectors.trait_value(jim, "psychologie") == 3
    assert jim.atouts_creation == 3
    # The first session's close gave each PC the campaign's award before the sheets were written.
    assert jim.atouts_experience == 1
    assert selectors.trait_value(lisa, "telepathie") == 2
    assert selectors.revers_penalty(lisa, "social") == 1
    assert selectors.combat_equipment(jim).weapon_bonus == 1
    garnier = Character.objects.get(campaign=campaign, name="Inspecteur Garnier")
    assert garnier.out_after_revers == 2
    assert garnier.narrator_notes
