"""Atouts that act on a Test already rolled: re-roll the Fudge dice, or change one die (appendix 4).

« Un Atout peut ainsi être dépensé pour relancer les dés *Fudge* ou retirer les cartes pendant un Test ou un
Conflit. De même, un Atout peut être utilisé pour changer le résultat de l'un des dés ou de l'une des cartes
(ce qui permet, selon les besoins, d'obtenir un succès ou un échec supplémentaire, d'augmenter ou réduire un
Rang final). »

The services for the roll dialogs: ``fudge_test_reroll`` and ``fudge_test_change_die``, each paying one Atout
through the characters' ledger (uses ``reroll`` and ``change_result``, on the Test's ``roll`` id) and writing
one ``test.atout`` event with the new dice. The Test's latest state is its ``test.rolled`` event followed by
its ``test.atout`` events. A hazardous Test that already wrote its Revers is refused (the Revers is on the
sheet: « Sauver sa peau » or the narrator deal with it); one that did not and now fails writes them.
"""

from __future__ import annotations

import random
from typing import Any

from django.contrib.auth.models import User
from django.db import transaction
from django.utils.translation import gettext as _

from campaigns.models import Event, Membership, Visibility
from campaigns.services import event_append
from characters.models import Character
from conflicts import sheets
from conflicts.messages import refuse
from conflicts.rules.errors import RuleError
from conflicts.rules.fudge import FudgeTestResult, FudgeTestSetup, Modifier, TechnicalPolicy, change_die, reroll
from conflicts.rules.ranks import Difficulty
from conflicts.rules.relatedness import Relatedness
from core.errors import PermissionRefused, ServiceError


def _latest(character: Character, roll: str) -> tuple[dict[str, Any], dict[str, Any]]:
    """(the Test's ``test.rolled`` payload, its current state: the last ``test.atout`` or the roll itself)."""
    events = list(
        Event.objects.filter(
            campaign_id=character.campaign_id,
            kind__in=("test.rolled", "test.atout"),
            payload__roll=roll,
            characters=character,
        ).order_by("pk")  # fmt: skip
    )
    rolled = next((e.payload for e in events if e.kind == "test.rolled"), None)
    if rolled is None:
        raise ServiceError(_("There is no such Test of this character."))
    return rolled, events[-1].payload


def _setup(payload: dict[str, Any]) -> FudgeTestSetup:
    technical = payload.get("technical") or [False, "none", 1]
    hazard = payload.get("hazard") or [None, False]
    return FudgeTestSetup(
        trait_rank=int(payload["trait_rank"]), difficulty=Difficulty[payload["difficulty"]],
        relatedness=Relatedness(payload.get("relatedness") or "close"),
        modifiers=tuple(Modifier(c, int(a), n) for c, a, n in payload.get("modifiers", [])),
        highly_technical=bool(technical[0]), technical_policy=TechnicalPolicy(technical[1]),
        technical_steps=int(technical[2]), allow_automatic=bool(payload.get("allow_automatic")),
        hazard_fixed_revers=hazard[0], hazard_per_rank=bool(hazard[1]),
    )  # fmt: skip


def _apply(*, character: Character, actor: User, roll: str, use: str, change: Any) -> dict[str, Any]:
    membership = Membership.objects.filter(campaign_id=character.campaign_id, user=actor).first()
    if membership is None or not (membership.is_narrator or character.owner_id == actor.pk):
        raise PermissionRefused(_("You can only roll for your own characters."))
    rolled, state = _latest(character, roll)
    if not state.get("rolled"):
        raise ServiceError(_("No dice were rolled in this Test."))
    if rolled.get("revers"):
        raise ServiceError(_("This Test's Revers is already on the sheet: an Atout can no longer change its dice."))
    setup = _setup(rolled)
    current = FudgeTestResult(setup=setup, dice=tuple(state["dice"]), final_rank=int(state["final"]),
                              success=bool(state["success"]), rolled=True)  # fmt: skip
    try:
        result: FudgeTestResult = change(current)
    except RuleError as error:
        raise refuse(error) from error
    sheets.atout_spend(character=character, actor=actor, use=use, context={"roll": roll})
    payload = {"character": character.name, "roll": roll, "use": use, "old_dice": list(current.dice),
               "dice": list(result.dice), "final": result.final_rank, "success": result.success, "rolled": True,
               "required": setup.required_rank, "revers": result.revers}  # fmt: skip
    if result.revers:
        sheets.revers_inflict(character=character, actor=actor, domain=rolled.get("revers_domain") or "physical",
                              severity=result.revers, source=_("Hazardous test"), payload={"roll": roll},
                              nature=rolled.get("nature") or "blunt")  # fmt: skip
    visibility = Visibility.NARRATORS if character.kind == "npc" and membership.is_narrator else Visibility.EVERYONE
    event_append(campaign=character.campaign, kind="test.atout", actor=actor, payload=payload,
                 characters=[character], visibility=visibility)  # fmt: skip
    return payload


@transaction.atomic
def fudge_test_reroll(
    *, character: Character, actor: User, roll: str, rng: random.Random | None = None
) -> dict[str, Any]:
    """« Un Atout peut ainsi être dépensé pour relancer les dés Fudge »: one Atout, four new dice."""
    dice_rng = rng or random.SystemRandom()
    return _apply(character=character, actor=actor, roll=roll, use="reroll", change=lambda r: reroll(r, dice_rng))


@transaction.atomic
def fudge_test_change_die(*, character: Character, actor: User, roll: str, index: int, face: int) -> dict[str, Any]:
    """« un Atout peut être utilisé pour changer le résultat de l'un des dés »: die ``index`` (0–3) shows
    ``face`` (−1, 0 or +1) instead."""
    return _apply(
        character=character, actor=actor, roll=roll, use="change_result", change=lambda r: change_die(r, index, face)
    )
