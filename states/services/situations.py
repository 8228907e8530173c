"""Situations (cover, Défense totale, Ruse…) and the Parry they leave."""

from __future__ import annotations

from django.contrib.auth.models import User
from django.db import transaction
from django.utils.translation import gettext as _

from characters.models import Character
from core.errors import ServiceError
from states.models import SavageState
from states.rules import states as rules
from states.rules.dice import TraitDie, TraitRoll
from states.rules.situations import (
    ParryBreakdown,
    Situation,
    parry,
    total_defence_modifiers,
)
from states.selectors import card_state
from states.services.changes import Rng, _lock, _log, _rng, _roll, _translated_refusals


@transaction.atomic
def savage_situation_toggle(
    *, character: Character, actor: User, situation: str, expected_version: int | None
) -> SavageState:
    state = _lock(character, expected_version)
    try:
        key = Situation(situation).value
    except ValueError as exc:
        raise ServiceError(_("Unknown combat situation.")) from exc
    situations = list(state.situations)
    on = key not in situations
    if on:
        if key.startswith("cover_"):
            # One cover at a time: the new one replaces the old.
            situations = [s for s in situations if not s.startswith("cover_")]
        situations.append(key)
    else:
        situations.remove(key)
        if key == Situation.TOTAL_DEFENCE.value:
            state.total_defence_total = None
    state.situations = situations
    state.version += 1
    state.save(update_fields=["situations", "total_defence_total", "version"])
    _log(state, kind="savage.situation_set", actor=actor, payload={"situation": key, "on": on})
    return state


@transaction.atomic
def savage_total_defence(
    *, character: Character, actor: User, die: str, expected_version: int | None, rng: Rng | None = None
) -> TraitRoll:
    """Défense totale: « un jet de Combat avec un bonus de +2 … à la place de sa Parade jusqu'à son
    action suivante »; a lower roll keeps the Parade. No movement while it lasts."""
    state = _lock(character, expected_version)
    card = card_state(state)
    with _translated_refusals():
        rules.ensure_can_act(card)
    try:
        fighting = TraitDie.parse(die)
    except ValueError as exc:
        raise ServiceError(_("“%(die)s” is not a trait die (d4 … d12, d12+1).") % {"die": die}) from exc
    roll = _roll(state, "fighting", _rng(rng), card=card, extra=total_defence_modifiers(), die=fighting)
    if Situation.TOTAL_DEFENCE.value not in state.situations:
        state.situations = [*state.situations, Situation.TOTAL_DEFENCE.value]
    state.total_defence_total = roll.total
    state.version += 1
    state.save(update_fields=["situations", "total_defence_total", "version"])
    breakdown = parry_of(state)
    _log(
        state,
        kind="savage.total_defence",
        actor=actor,
        payload={"roll": roll.to_json(), "base_parry": state.base_parry, "parry": breakdown.value},
    )
    return roll


def parry_of(state: SavageState, *, melee_attack: bool = True) -> ParryBreakdown:
    return parry(
        state.base_parry,
        [Situation(s) for s in state.situations],
        tricked=state.tricked,
        melee_attack=melee_attack,
        total_defence_total=state.total_defence_total,
    )


@transaction.atomic
def savage_tricked_clear(*, character: Character, actor: User, expected_version: int | None) -> SavageState:
    """The trick's −2 Parade lasts « jusqu'à sa prochaine action »: cleared when the target acts."""
    state = _lock(character, expected_version)
    if not state.tricked:
        raise ServiceError(_("Nothing to change."))
    state.tricked = False
    state.version += 1
    state.save(update_fields=["tricked", "version"])
    _log(state, kind="savage.trick_ended", actor=actor, payload={})
    return state
