"""The demo campaign's fight, written through the services."""

from __future__ import annotations

import random

from campaigns.models import Campaign
from characters.models import Character, CharacterKind
from states.services.rounds import savage_round_deal, savage_round_set_participants
from states.services.shaken import savage_token_award
from states.services.situations import savage_situation_toggle
from states.services.wounds import savage_wounds_take


def savage_demo_step(campaign: Campaign) -> None:
    """``campaigns.demo`` step: a fight under way in the demo campaign, written through the services."""
    if not campaign.savage_states:
        return
    narrator = campaign.memberships.filter(role="narrator").select_related("user").first()
    if narrator is None:
        return
    actor = narrator.user
    by_name = {c.name: c for c in Character.objects.filter(campaign=campaign)}
    fighters = [by_name[name] for name in ("Jim Bones", "Lisa Benny", "Inspecteur Garnier") if name in by_name]
    if not fighters:
        return
    rng = random.Random(1925)  # the demo reads the same every time it is loaded
    for character in fighters:
        if character.kind == CharacterKind.PC:
            savage_token_award(character=character, actor=actor, count=1, expected_version=None)
    garnier = by_name.get("Inspecteur Garnier")
    if garnier is not None:
        savage_situation_toggle(character=garnier, actor=actor, situation="cover_medium", expected_version=None)
        savage_wounds_take(character=garnier, actor=actor, count=1, expected_version=None, rng=rng, cause="Bagarre")
    savage_round_set_participants(campaign=campaign, actor=actor, characters=fighters, expected_version=None)
    savage_round_deal(campaign=campaign, actor=actor, expected_version=None, rng=rng)
