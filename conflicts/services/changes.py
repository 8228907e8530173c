"""The steps the conflict use cases share: who may act, locking a Sequence, the Event, the dice."""

from __future__ import annotations

import random
from typing import Any

from django.contrib.auth.models import User
from django.utils.translation import gettext as _

from campaigns.models import Membership
from campaigns.services import event_append
from characters.models import Character
from conflicts.models import (
    Participant,
    Sequence,
)
from conflicts.snapshot import lock_participants, lock_sequence
from core.errors import PermissionRefused

SEQUENCE_FIELDS = ("title", "kind", "collective", "friendly", "secret_cut", "domain", "nature")
NARRATOR_PARTICIPANT_FIELDS = (
    "side", "trait_value", "relatedness", "weapon", "weapon_use", "two_weapons", "two_weapons_use", "armour", "shield", "surprise",
    "weapon_era", "weapon_firearm", "inflicts", "armour_era", "armour_bulletproof",
    "conditions", "cover", "scale", "vehicle", "telekinesis_mind", "robustness_as_armour", "range_defence", "other", "defence_weight", "vehicle_size",
    "vehicle_era", "out_of_range_bands", "out_after",
)  # fmt: skip
PLAYER_PARTICIPANT_FIELDS = ("goal", "trait_code")


def _rng(rng: random.Random | None) -> random.Random:
    return rng or random.SystemRandom()


def _member(campaign_id: int, actor: User) -> Membership:
    membership = Membership.objects.select_related("campaign").filter(campaign_id=campaign_id, user=actor).first()
    if membership is None:
        raise PermissionRefused(_("You are not a member of this campaign."))
    return membership


def _narrator(campaign_id: int, actor: User) -> Membership:
    membership = _member(campaign_id, actor)
    if not membership.is_narrator:
        raise PermissionRefused(_("Only a narrator can do this."))
    return membership


def controls(membership: Membership, participant: Participant) -> bool:
    """Players act only for the characters they run; narrators for everyone."""
    return membership.is_narrator or participant.character.owner_id == membership.user_id


def runs_itself(participant: Participant) -> bool:
    """An NPC nobody else runs: the narrator draws its cards (allies handed to a player are theirs)."""
    return participant.character.kind == "npc" and participant.character.owner_id is None


# Every use case of a Sequence locks in the snapshot's order (conflicts.snapshot): the Sequence, then its participants.
_lock_sequence = lock_sequence
_participants = lock_participants


def _roll_id(sequence: Sequence) -> str:
    return f"sequence-{sequence.pk}-draw-{sequence.draw_number}"


def _bump(sequence: Sequence, *fields: str) -> None:
    sequence.version += 1
    sequence.save(update_fields=["version", *fields])


def _append(
    sequence: Sequence, kind: str, actor: User | None, payload: dict[str, Any], characters: list[Character]
) -> None:
    base = {"sequence": sequence.pk, "scene": sequence.scene_id, "title": sequence.title, "draw": sequence.draw_number}
    event_append(campaign=sequence.campaign, kind=kind, actor=actor, payload={**base, **payload}, characters=characters)
