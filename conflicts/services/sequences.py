"""Scenes and Sequences: creating them, adding participants and changing what they declared."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.contrib.auth.models import User
from django.db import transaction
from django.utils import translation
from django.utils.translation import gettext as _

from campaigns.models import Campaign
from campaigns.services import event_append
from characters.models import Character
from conflicts import sheets
from conflicts.models import (
    Participant,
    Scene,
    Sequence,
)
from conflicts.rules.healing import weapon_nature
from conflicts.services.changes import (
    NARRATOR_PARTICIPANT_FIELDS,
    PLAYER_PARTICIPANT_FIELDS,
    SEQUENCE_FIELDS,
    _append,
    _bump,
    _lock_sequence,
    _member,
    _narrator,
    controls,
)
from conflicts.setup import (
    telekinesis_mind,
)
from core.errors import PermissionRefused, ServiceError


@transaction.atomic
def scene_create(*, campaign: Campaign, actor: User, title: str, description: str = "") -> Scene:
    _narrator(campaign.pk, actor)
    scene = Scene(campaign=campaign, title=title.strip(), description=description.strip())
    scene.full_clean()
    scene.save()
    event_append(
        campaign=campaign, kind="scene.created", actor=actor, payload={"scene": scene.pk, "title": scene.title}
    )
    return scene


@transaction.atomic
def sequence_create(*, scene: Scene, actor: User, data: Mapping[str, Any]) -> Sequence:
    _narrator(scene.campaign_id, actor)
    sequence = Sequence(
        scene=scene, campaign_id=scene.campaign_id, **{k: v for k, v in data.items() if k in SEQUENCE_FIELDS}
    )
    sequence.full_clean()
    sequence.save()
    _append(sequence, "sequence.created", actor, {"kind": sequence.kind, "friendly": sequence.friendly,
                                                  "collective": sequence.collective}, [])  # fmt: skip
    return sequence


@transaction.atomic
def participant_add(
    *, sequence: Sequence, actor: User, character: Character, side: str, goal: str = "", trait_code: str = "",
    trait_value: int | None = None, out_after: int | None = None, equip: bool = True,
) -> Participant:  # fmt: skip
    """Bring a PC or NPC into the sequence, with its trait read from its sheet and its combat gear."""
    _narrator(sequence.campaign_id, actor)
    sequence = _lock_sequence(sequence, None)
    if character.campaign_id != sequence.campaign_id:
        raise ServiceError(_("This character is not in this campaign."))
    if not sequence.is_open:
        raise ServiceError(_("This sequence is over."))
    if sequence.participants.filter(character=character).exists():
        raise ServiceError(_("%(name)s is already in this sequence.") % {"name": character.name})
    if not side.strip():
        raise ServiceError(_("Say which side %(name)s is on.") % {"name": character.name})
    participant = Participant(
        sequence=sequence, character=character, side=side.strip(), goal=goal.strip(), trait_code=trait_code,
        position=sequence.participants.count(),
        out_after=out_after if out_after is not None else getattr(character, "out_after_revers", None),
    )  # fmt: skip
    if character.kind != "npc":
        participant.out_after = None
    if trait_code:
        participant.trait_value = trait_value if trait_value is not None else sheets.sheet_rank(character, trait_code)
        participant.trait_name = _trait_name(character, trait_code)
        participant.telekinesis_mind = telekinesis_mind(character, trait_code)
    elif trait_value is not None:
        participant.trait_value = trait_value
    if equip:
        gear = sheets.combat_equipment(character)
        participant.weapon = min(3, max(0, gear.weapon_bonus))
        participant.armour = min(3, max(0, gear.armour))
        participant.shield = bool(gear.shield)
        participant.two_weapons = bool(gear.two_weapons)
        participant.weapon_era, participant.weapon_firearm = int(gear.weapon_era), bool(gear.weapon_firearm)
        participant.inflicts = weapon_nature(carries_weapon=bool(gear.weapon_name), firearm=bool(gear.weapon_firearm))
        participant.armour_era, participant.armour_bulletproof = int(gear.armour_era), bool(gear.armour_bulletproof)
    participant.full_clean(exclude=["sequence", "character"])
    participant.save()
    _bump(sequence)
    _append(sequence, "sequence.joined", actor, {"participant": participant.pk, "name": character.name,
                                                 "side": participant.side, "goal": participant.goal}, [character])  # fmt: skip
    return participant


def _trait_name(character: Character, trait_code: str) -> str:
    """The trait's name in the reader's language (``_trait_names``)."""
    names = _trait_names(character, trait_code)
    english = (translation.get_language() or "fr")[:2] == "en"
    return (names.get("trait_name_en") if english else names["trait_name"]) or names["trait_name"] or trait_code


def _trait_names(character: Character, trait_code: str | None, facts: Any = None) -> dict[str, str]:
    """The trait's name in both languages, so the log reads « Tir » in French and "Shooting" in English: from the
    sheet's row or the campaign's list (``facts``: read already with the rank), never from a rendered sheet."""
    if not trait_code:
        return {"trait_name": ""}
    facts = facts if facts is not None else sheets.trait_facts(character, trait_code)
    return {"trait_name": facts.name_fr, "trait_name_en": facts.name_en}


@transaction.atomic
def participant_update(
    *, participant: Participant, actor: User, data: Mapping[str, Any], expected_version: int
) -> Participant:
    """Goal and trait (the participant's controller) and every modifier (the narrator), before drawing."""
    membership = _member(participant.sequence.campaign_id, actor)
    sequence = _lock_sequence(participant.sequence, expected_version)
    participant = Participant.objects.select_for_update(of=("self",)).select_related("character").get(pk=participant.pk)
    if not controls(membership, participant):
        raise PermissionRefused(_("You can only act for your own characters."))
    if not sequence.is_open:
        raise ServiceError(_("This sequence is over."))
    if participant.drawn:
        raise ServiceError(
            _("%(name)s already drew: change this before the next draw.") % {"name": participant.character.name}
        )
    allowed = PLAYER_PARTICIPANT_FIELDS + (NARRATOR_PARTICIPANT_FIELDS if membership.is_narrator else ())
    changed = {}
    for field in allowed:
        if field in data and getattr(participant, field) != data[field]:
            changed[field] = data[field]
            setattr(participant, field, data[field])
    if "trait_code" in changed and participant.trait_code:
        participant.trait_name = _trait_name(participant.character, participant.trait_code)
        if not (membership.is_narrator and "trait_value" in changed):
            participant.trait_value = sheets.sheet_rank(participant.character, participant.trait_code)
        if not (membership.is_narrator and "telekinesis_mind" in changed):
            participant.telekinesis_mind = telekinesis_mind(participant.character, participant.trait_code)
    if not changed:
        return participant
    participant.full_clean(exclude=["sequence", "character"])
    participant.version += 1
    participant.save()
    _bump(sequence)
    public = {k: v for k, v in changed.items() if k in ("goal", "trait_code", "side")}
    _append(sequence, "sequence.declared", actor, {"participant": participant.pk, "name": participant.character.name,
            "goal": participant.goal, "trait": participant.trait_name, "changed": sorted(public)}, [participant.character])  # fmt: skip
    return participant
