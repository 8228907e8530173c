"""MicroFudge Revers turned into wounds, when the campaign opts in."""

from __future__ import annotations

from typing import Any

from django.contrib.auth.models import User
from django.db import transaction
from django.utils.translation import gettext as _

from characters.models import Character
from core.errors import ServiceError
from states.models import SavageState
from states.rules import states as rules
from states.selectors import card_state, settings_for
from states.services.changes import _lock, _log, _part, _store

REVERS_WOUNDS = {1: 1, 2: 2, 3: 3}


def revers_become_wounds(character: Character, domain: str) -> bool:
    """Whether a Revers of ``domain`` on ``character`` is written as wounds: physical, in a campaign that uses the
    state cards and turns Revers into wounds."""
    campaign = character.campaign
    return bool(domain == "physical" and campaign.savage_states and settings_for(campaign).revers_to_wounds)


@transaction.atomic
def savage_revers_to_wounds(
    *,
    character: Character,
    severity: int,
    actor: User | None,
    domain: str = "physical",
    lethal: bool = True,
    cause: str = "",
) -> SavageState | None:
    """A physical Revers from a conflict becomes wounds, when the campaign uses both.

    Revers 1 wound, Revers sérieux 2, Revers décisif 3 and État critique with its immediate Vigueur
    roll (« Un Revers Décisif lors d'un combat laisse le plus souvent le blessé dans un état critique »).
    Returns None, changing nothing, when the Revers is not physical or the campaign does not turn
    Revers into wounds: the caller then writes the Revers on the sheet as usual. So a conflict does
    ``if savage_revers_to_wounds(...) is None: revers_inflict(...)``.
    """
    written = _wounds_write(character, severity, domain, lethal, cause)
    if written is None:
        return None
    state, told = written
    if told is not None:
        _log(state, kind="savage.revers_wounds", actor=actor, payload=told)
    return state


@transaction.atomic
def savage_revers_wounds_part(
    *, character: Character, severity: int, actor: User | None, domain: str, lethal: bool, cause: str
) -> dict[str, Any] | None:
    """``savage_revers_to_wounds`` without an Event of its own, for a use case whose one Event tells it (a settle):
    None when the Revers is not written as wounds (nothing changed), else the part its Event would have been
    (``campaigns.redaction.event_part``, with that Event's visibility), an empty dict when a character already in
    État critique takes nothing more."""
    written = _wounds_write(character, severity, domain, lethal, cause)
    if written is None:
        return None
    state, told = written
    return {} if told is None else _part(state, kind="savage.revers_wounds", actor=actor, payload=told)


def _wounds_write(
    character: Character, severity: int, domain: str, lethal: bool, cause: str
) -> tuple[SavageState, dict[str, Any] | None] | None:
    """The wounds a Revers becomes, stored: the state and what its Event says (None when the character, already in
    État critique, takes nothing); None when the Revers is not written as wounds."""
    if severity not in REVERS_WOUNDS:
        raise ServiceError(_("A Revers has a severity of 1, 2 or 3."))
    if not revers_become_wounds(character, domain):
        return None
    state = _lock(character, None)
    card = card_state(state)
    if card.wounds >= rules.INCAPACITATING_WOUND:
        # Already in État critique: the Revers adds nothing the cards can count.
        return state, None
    incoming = REVERS_WOUNDS[severity]
    if severity == 3:
        incoming = max(incoming, rules.INCAPACITATING_WOUND - card.wounds)
    card, result = rules.wounds_take(card, incoming)
    state.bleeding_lethal = lethal
    _store(state, card)
    told = {"severity": severity, "wounds": REVERS_WOUNDS[severity], "taken": result.taken,
            "incapacitated_now": result.incapacitated_now, "cause": cause}  # fmt: skip
    return state, told
