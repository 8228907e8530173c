"""Editing a sheet: its words, a trait's rank, the narrator's veto on a player-named trait."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.contrib.auth.models import User
from django.db import transaction
from django.utils.translation import gettext as _

from characters.models import (
    Character,
    CharacterTrait,
)
from characters.rules.atouts import (
    GainReason,
    Pool,
)
from characters.rules.errors import RuleViolation
from characters.rules.ladder import Rank
from characters.rules.traits import TraitKind, custom_trait
from characters.selectors import character_rules, trait_def_map

# ---------------------------------------------------------------- helpers
from characters.services.changes import (
    _append,
    _bump,
    _lock,
    _refuse,
    _require_editor,
    _require_narrator,
    _write_entries,
)
from core.errors import ServiceError, StaleState

OWNER_FIELDS = ("name", "concept", "goal")
NARRATOR_FIELDS = ("narrator_notes", "award_adjustment", "out_after_revers", "scales")


@transaction.atomic
def character_update(*, character: Character, actor: User, data: Mapping[str, Any], expected_version: int) -> Character:
    """Edit the words of a sheet; narrator-only fields (notes, award, NPC threshold, scales) for narrators."""
    membership = _require_editor(character, actor)
    character = _lock(character)
    if character.version != expected_version:
        raise StaleState(_("Someone changed this sheet first. Reload the page and try again."))
    allowed = OWNER_FIELDS + (NARRATOR_FIELDS if membership.is_narrator else ())
    changed = {}
    for field in allowed:
        if field in data and getattr(character, field) != data[field]:
            changed[field] = data[field]
            setattr(character, field, data[field])
    if not changed:
        return character
    character.full_clean()
    _bump(character, *changed)
    # Narrator notes never go into a log entry a player could read.
    public = sorted(f for f in changed if f in OWNER_FIELDS)
    _append(
        character, "character.updated", actor, {"fields": public, "narrator_only": sorted(set(changed) - set(public))}
    )
    return character


@transaction.atomic
def trait_set(
    *, character: Character, actor: User, code: str, rank: int, name: str = "", kind: str = TraitKind.FIELD
) -> CharacterTrait:
    """A narrator's quick edit: set a trait's rank outright (no Atout moves). A new code needs a name."""
    _require_narrator(character.campaign_id, actor)
    character = _lock(character)
    if rank < Rank.ABYSSAL:
        raise _refuse(RuleViolation("rank.below_abyssal", trait=code))
    defs = trait_def_map(character_rules(character.campaign))
    row = CharacterTrait.objects.filter(character=character, code=code).first()
    old = row.rank if row else (defs[code].default if code in defs else Rank.FAIBLE)
    if row is None:
        trait = defs.get(code) or (custom_trait(name, TraitKind(kind)) if name.strip() else None)
        if trait is None:
            raise ServiceError(_("Name the new trait."))
        if CharacterTrait.objects.filter(character=character, code=trait.code).exists():
            # The same new name twice (a double click): the first made the line; the second would break
            # one_trait_per_code (an IntegrityError, a 500). Refused: the line is there to be chosen.
            raise ServiceError(
                _("The sheet already has the trait %(name)s: choose it in the list to change its rank.")
                % {"name": name.strip()}
            )
        row = CharacterTrait(
            character=character, code=trait.code, kind=trait.kind, name_fr=trait.name_fr, name_en=trait.name_en,
            rank=rank, custom=trait.code not in defs,
        )  # fmt: skip
    row.rank = rank
    row.save()
    _bump(character)
    _append(
        character,
        "character.trait_set",
        actor,
        {"trait": row.code, "trait_name": row.name_fr, "trait_name_en": row.name_en, "from": old, "to": rank},
    )
    return row


@transaction.atomic
def trait_veto(*, character: Character, actor: User, code: str) -> int:
    """Free style: « tant que le Narrateur ne met pas son veto ». The narrator strikes a player-named
    trait; the ranks bought in it return to the creation pool. Returns the Atouts refunded."""
    _require_narrator(character.campaign_id, actor)
    character = _lock(character)
    row = CharacterTrait.objects.filter(character=character, code=code, custom=True).first()
    if row is None:
        raise ServiceError(_("Only a player-named trait can be vetoed."))
    refund = max(0, row.rank - Rank.FAIBLE)
    row.delete()
    if refund:
        _write_entries(
            character, {Pool.CREATION: refund}, sign=1, actor=actor, game_session=None, reason=GainReason.REFUND,
            justification=_("Trait vetoed by the narrator"),
        )  # fmt: skip
    _bump(character, "atouts_creation")
    _append(
        character,
        "character.trait_vetoed",
        actor,
        {"trait_name": row.name_fr, "trait_name_en": row.name_en, "refund": refund},
    )
    return refund
