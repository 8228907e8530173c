"""Secoué (Shaken) and the Jetons (tokens) that end it."""

from __future__ import annotations

from django.contrib.auth.models import User
from django.db import transaction

from characters.models import Character
from states.models import SavageState
from states.rules import states as rules
from states.rules.errors import IllegalTransition
from states.selectors import card_state
from states.services.changes import Rng, _change_card, _lock, _log, _refusal, _rng, _roll, _store, _translated_refusals


@transaction.atomic
def savage_shaken_set(*, character: Character, actor: User, shaken: bool, expected_version: int | None) -> SavageState:
    return _change_card(
        character, actor=actor, expected_version=expected_version,
        transition=lambda card: rules.shaken_set(card, shaken), kind="savage.shaken_set", payload={"shaken": shaken},
    )  # fmt: skip


@transaction.atomic
def savage_shaken_roll(
    *, character: Character, actor: User, expected_version: int | None, rng: Rng | None = None
) -> SavageState:
    """The Âme roll at the start of the Shaken character's round."""
    state = _lock(character, expected_version)
    card = card_state(state)
    if not card.shaken:
        raise _refusal(IllegalTransition("not_shaken", ""))
    roll = _roll(state, "spirit", _rng(rng), card=card)
    with _translated_refusals():
        card, result = rules.shaken_recovery(card, roll)
    state.free_actions_only = result is not rules.ShakenResult.ENDS_ACTS
    _store(state, card)
    _log(state, kind="savage.shaken_roll", actor=actor, payload={"roll": roll.to_json(), "result": result.value})
    return state


@transaction.atomic
def savage_token_award(
    *, character: Character, actor: User, count: int = 1, expected_version: int | None
) -> SavageState:
    return _change_card(
        character, actor=actor, expected_version=expected_version,
        transition=lambda card: rules.token_award(card, count), kind="savage.token_awarded", payload={"count": count},
    )  # fmt: skip


@transaction.atomic
def savage_token_unshake(*, character: Character, actor: User, expected_version: int | None) -> SavageState:
    """Spend a Jeton to end Shaken at any moment; the character then acts normally."""
    state = _lock(character, expected_version)
    with _translated_refusals():
        card = rules.token_unshake(card_state(state))
    state.free_actions_only = False
    _store(state, card)
    _log(state, kind="savage.token_spent", actor=actor, payload={"use": "unshake"})
    return state
