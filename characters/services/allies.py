"""Allies: an NPC handed to a player to run."""

from __future__ import annotations

from django.contrib.auth.models import User
from django.db import transaction
from django.utils.translation import gettext as _

from campaigns.models import Visibility
from campaigns.services import event_append
from characters.models import (
    Character,
    CharacterKind,
)

# ---------------------------------------------------------------- helpers
from characters.services.changes import _bump, _lock, _membership, _require_narrator
from core.errors import ServiceError


@transaction.atomic
def ally_hand(*, character: Character, actor: User, player: User | None) -> Character:
    """Appendix 7: « confier la gestion de certains PNJs, les alliés et serviteurs, aux joueurs »."""
    _require_narrator(character.campaign_id, actor)
    character = _lock(character)
    if character.kind != CharacterKind.NPC:
        raise ServiceError(_("Only an NPC can be handed to a player as an ally."))
    if player is not None:
        membership = _membership(character.campaign_id, player)
        if membership is None or membership.is_narrator:
            raise ServiceError(_("Hand the ally to a player of this campaign."))
    previous = character.owner
    character.owner = player
    _bump(character, "owner")
    event_append(
        campaign=character.campaign, kind="character.ally_handed", actor=actor,
        payload={"character": character.name, "character_id": character.pk, "player": player.username if player else "",
                 "previous": previous.username if previous else ""},
        characters=[character], visibility=Visibility.NARRATORS,
    )  # fmt: skip
    return character
