from __future__ import annotations

from types import SimpleNamespace

import pytest

from characters.models import Character, CharacterKind
from tests.campaigns.factories import UserFactory, campaign_with, narrator_of, players_of


@pytest.fixture(autouse=True)
def _fast_passwords(settings):  # type: ignore[no-untyped-def]
    """The table's accounts need no strong hashing: the suite stays fast on a shared machine."""
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


@pytest.fixture
def table(db):  # type: ignore[no-untyped-def]
    """A campaign with a narrator, two players, each player's PC and a narrator-run NPC."""
    campaign = campaign_with(players=2)
    narrator = narrator_of(campaign)
    alice, bob = players_of(campaign)
    pc = Character.objects.create(campaign=campaign, owner=alice, kind=CharacterKind.PC, name="Jim")
    other_pc = Character.objects.create(campaign=campaign, owner=bob, kind=CharacterKind.PC, name="Harvey")
    npc = Character.objects.create(campaign=campaign, kind=CharacterKind.NPC, name="Le Borgne")

    return SimpleNamespace(
        campaign=campaign,
        narrator=narrator,
        alice=alice,
        bob=bob,
        pc=pc,
        other_pc=other_pc,
        npc=npc,
        stranger=UserFactory(),
    )
