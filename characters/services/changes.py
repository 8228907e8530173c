"""The steps the character use cases share: who may act, locking the sheet, the Event, the Atout ledger."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from django.contrib.auth.models import User
from django.utils.translation import gettext as _

from campaigns.models import GameSession, Membership, Visibility
from campaigns.redaction import event_part
from campaigns.services import event_append
from characters.models import (
    AtoutEntry,
    Character,
    CharacterKind,
)
from characters.rule_messages import rule_message
from characters.rules.atouts import (
    Balances,
    Pool,
)
from characters.rules.errors import RuleViolation
from characters.rules.traits import TraitDef
from core.errors import PermissionRefused, ServiceError

# ---------------------------------------------------------------- helpers


def _refuse(violation: RuleViolation, names: Mapping[str, str] | None = None) -> ServiceError:
    return ServiceError(rule_message(violation, names))


def _membership(campaign_id: int, user: User | None) -> Membership | None:
    if user is None:
        return None
    return Membership.objects.filter(campaign_id=campaign_id, user=user).first()


def _require_member(campaign_id: int, actor: User | None) -> Membership:
    membership = _membership(campaign_id, actor)
    if membership is None:
        raise PermissionRefused(_("You are not a member of this campaign."))
    return membership


def _require_narrator(campaign_id: int, actor: User | None) -> Membership:
    membership = _require_member(campaign_id, actor)
    if not membership.is_narrator:
        raise PermissionRefused(_("Only a narrator can do this."))
    return membership


def _require_editor(character: Character, actor: User | None) -> Membership:
    """« Owner and narrators edit »: the player who runs the character, or a narrator."""
    membership = _require_member(character.campaign_id, actor)
    if not membership.is_narrator and character.owner_id != membership.user_id:
        raise PermissionRefused(_("Only this character's player or a narrator can change this sheet."))
    return membership


def _lock(character: Character) -> Character:
    return Character.objects.select_for_update(of=("self",)).select_related("campaign", "owner").get(pk=character.pk)


def _visibility(character: Character) -> dict[str, Any]:
    """PCs' changes are public; an NPC's are the narrators' (and the player running it as an ally)."""
    if character.kind == CharacterKind.PC:
        return {"visibility": Visibility.EVERYONE}
    if character.owner_id:
        return {"visibility": Visibility.PLAYER, "recipient": character.owner}
    return {"visibility": Visibility.NARRATORS}


def _append(character: Character, kind: str, actor: User | None, payload: Mapping[str, Any]) -> None:
    event_append(
        campaign=character.campaign,
        kind=kind,
        actor=actor,
        payload={"character": character.name, "character_id": character.pk, **payload},
        characters=[character],
        **_visibility(character),
    )


def _part(character: Character, kind: str, payload: Mapping[str, Any]) -> dict[str, Any]:
    """What ``_append`` would append, as a part of another use case's one Event (``campaigns.redaction``), with
    the visibility that Event would have had."""
    seen = _visibility(character)
    recipient = seen.get("recipient")
    return event_part(
        kind, {"character": character.name, "character_id": character.pk, **payload},
        visibility=seen["visibility"], recipient_id=recipient.pk if recipient is not None else None,
    )  # fmt: skip


def _bump(character: Character, *fields: str) -> None:
    character.version += 1
    character.save(update_fields=["version", *fields])


def _names(defs: Iterable[TraitDef]) -> dict[str, str]:
    return {t.code: t.name_fr for t in defs}


def _balances(character: Character) -> Balances:
    return Balances(creation=character.atouts_creation, experience=character.atouts_experience)


def _write_entries(
    character: Character,
    plan: Mapping[Pool, int],
    *,
    sign: int,
    actor: User | None,
    game_session: GameSession | None,
    use: str = "",
    reason: str = "",
    justification: str = "",
    context: Mapping[str, Any] | None = None,
    refunds: AtoutEntry | None = None,
) -> AtoutEntry:
    """Write one ledger entry per pool (a shared ``group``) and move the cached balances."""
    entries = []
    for pool, amount in plan.items():
        entry = AtoutEntry(
            character=character,
            delta=sign * amount,
            pool=pool,
            use=use,
            reason=reason,
            justification=justification,
            context=dict(context or {}),
            game_session=game_session,
            actor=actor,
            refunds=refunds,
        )
        entry.full_clean(exclude=["character", "game_session", "actor", "refunds"])
        entry.save()
        entries.append(entry)
        if pool == Pool.CREATION:
            character.atouts_creation += sign * amount
        else:
            character.atouts_experience += sign * amount
    group = entries[0].pk
    AtoutEntry.objects.filter(pk__in=[e.pk for e in entries]).update(group=group)
    for entry in entries:
        entry.group = group
    if character.atouts_creation < 0 or character.atouts_experience < 0:
        raise ServiceError(_("An Atout balance cannot go below zero."))  # guarded by spend_plan; never partial
    return entries[0]
