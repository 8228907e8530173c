"""Blessures (wounds), Encaissement (soak), État critique (incapacitation) and Hémorragie (bleeding out)."""

from __future__ import annotations

import datetime as dt

from django.contrib.auth.models import User
from django.db import transaction

from characters.models import Character
from states.models import SavageState
from states.rules import states as rules
from states.rules.errors import IllegalTransition
from states.selectors import card_state
from states.services.changes import Rng, _change_card, _lock, _log, _refusal, _rng, _roll, _store, _translated_refusals


@transaction.atomic
def savage_wounds_take(
    *,
    character: Character,
    actor: User,
    count: int,
    soak: bool = False,
    lethal: bool = True,
    expected_version: int | None,
    rng: Rng | None = None,
    cause: str = "",
) -> SavageState:
    """Wounds arrive; with ``soak`` a Jeton pays a Vigueur roll that may cancel some of them."""
    state = _lock(character, expected_version)
    card = card_state(state)
    soak_roll = None
    with _translated_refusals():
        if soak:
            rules.soak_check(card, count)
            soak_roll = _roll(state, "vigor", _rng(rng), card=card)
        card, result = rules.wounds_take(card, count, soak_roll=soak_roll)
    if result.taken:
        state.bleeding_lethal = lethal
    _store(state, card)
    _log(
        state,
        kind="savage.wounds_taken",
        actor=actor,
        payload={
            "incoming": result.incoming,
            "soaked": result.soaked,
            "taken": result.taken,
            "soak_roll": soak_roll.to_json() if soak_roll else None,
            "incapacitated_now": result.incapacitated_now,
            "cause": cause,
        },
    )
    return state


@transaction.atomic
def savage_wounds_set(*, character: Character, actor: User, count: int, expected_version: int | None) -> SavageState:
    """The one-tap wound track: set the count 0–4 (4 is État critique)."""
    state = _lock(character, expected_version)
    before = state.wounds
    with _translated_refusals():
        card, result = rules.wounds_set(card_state(state), count)
    _store(state, card)
    _log(
        state,
        kind="savage.wounds_set",
        actor=actor,
        payload={"from": before, "to": count, "incapacitated_now": bool(result and result.incapacitated_now)},
    )
    return state


@transaction.atomic
def savage_incapacitation_roll(
    *, character: Character, actor: User, expected_version: int | None, rng: Rng | None = None
) -> SavageState:
    """The immediate Vigueur roll of État critique, with the wound penalties."""
    state = _lock(character, expected_version)
    card = card_state(state)
    if not card.incapacitation_roll_due:
        raise _refusal(IllegalTransition("no_incapacitation_roll", ""))
    roll = _roll(state, "vigor", _rng(rng), card=card)
    card, result = rules.incapacitation_roll(card, roll)
    _store(state, card)
    if card.injury == rules.Injury.DAY:
        state.injury_until = state.character.campaign.game_clock + dt.timedelta(hours=24)
        state.save(update_fields=["injury_until"])
    _log(
        state, kind="savage.incapacitation_roll", actor=actor, payload={"roll": roll.to_json(), "result": result.value}
    )
    return state


@transaction.atomic
def savage_bleeding_set(
    *, character: Character, actor: User, bleeding: bool, expected_version: int | None
) -> SavageState:
    return _change_card(
        character, actor=actor, expected_version=expected_version,
        transition=lambda card: rules.bleeding_set(card, bleeding), kind="savage.bleeding_set",
        payload={"bleeding_out": bleeding},
    )  # fmt: skip


@transaction.atomic
def savage_bleeding_roll(
    *, character: Character, actor: User, expected_version: int | None, rng: Rng | None = None
) -> SavageState:
    """Hémorragie: the Vigueur roll at the start of every round (every minute out of combat)."""
    state = _lock(character, expected_version)
    card = card_state(state)
    if not card.bleeding_out:
        raise _refusal(IllegalTransition("not_bleeding", ""))
    rng = _rng(rng)
    roll = _roll(state, "vigor", rng, card=card)
    with _translated_refusals():
        card, outcome = rules.bleeding_roll(card, roll, lethal=state.bleeding_lethal, rng=rng)
    _store(state, card)
    if outcome.result is rules.BleedingResult.UNCONSCIOUS:
        state.unconscious_until = state.character.campaign.game_clock + dt.timedelta(hours=outcome.unconscious_hours)
        state.save(update_fields=["unconscious_until"])
    _log(
        state,
        kind="savage.bleeding_roll",
        actor=actor,
        payload={
            "roll": roll.to_json(),
            "result": outcome.result.value,
            "unconscious_faces": list(outcome.unconscious_faces),
            "lethal": state.bleeding_lethal,
        },
    )
    return state
