"""Atouts that act on a Test already rolled (appendix 4): re-roll, change one die, a teammate's help, a counter.

« Un Atout peut ainsi être dépensé pour relancer les dés *Fudge* ou retirer les cartes pendant un Test ou un
Conflit. De même, un Atout peut être utilisé pour changer le résultat de l'un des dés ou de l'une des cartes
(ce qui permet, selon les besoins, d'obtenir un succès ou un échec supplémentaire, d'augmenter ou réduire un
Rang final). »

« Deux Atouts permettent de donner un bonus de +1 Carte ou de +1 Rang à un autre personnage. Ce bonus est
accordé pour un tirage de cartes ou un lancer de dés […] Un joueur ne peut dépenser des Atouts pour apporter de
l'aide qu'une fois par jet de dé ou tirage de cartes. »

« Les Atouts peuvent également être utilisés pour contrer la dépense d'un Atout par une autre personne et ainsi
l'annuler. Dans ce cas, les deux opposants perdent chacun un Atout, mais le personnage qui a dépensé l'Atout
originel peut décider de dépenser un second Atout pour gagner à nouveau le bonus espéré. Le processus peut être
répété tant que les protagonistes sont désireux de dépenser des Atouts. »

Each service pays through the characters' ledger (uses ``reroll``, ``change_result``, ``help_other``,
``counter``, ``temporary_bonus`` on the Test's ``roll`` id, which also enforces « une fois par jet ») and writes
one ``test.atout`` event carrying the Test as it now stands (dice, modifiers, final rank) and, under ``atout``,
the spending as the ledger's own ``character.atout_spent`` told it (one Event per follow-up; events written
before carry no ``atout`` and sit next to their ``character.atout_spent``, both still read). The Test's latest
state is its ``test.rolled`` event followed by its ``test.atout`` events; ``step`` counts the latter, and a form
that names the step it was shown (``expected_step``) is refused once someone acted first, so a double tap never
spends twice. On a hazardous Test the Revers follows the new result (written, changed or removed) in that same
Event; one the campaign turned into wounds is left to the narrator (the wound track and État critique are not
undone by dice).
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from django.contrib.auth.models import User
from django.db import transaction
from django.utils.translation import gettext as _

from campaigns.models import Event, Membership, Visibility
from campaigns.services import event_append
from characters.models import Character, CharacterKind
from conflicts import sheets
from conflicts.messages import refuse
from conflicts.rules.errors import RuleError
from conflicts.rules.fudge import (
    FudgeTestResult,
    FudgeTestSetup,
    Modifier,
    TechnicalPolicy,
    add_modifier,
    change_die,
    remove_modifier,
    reroll,
)
from conflicts.rules.ranks import Difficulty
from conflicts.rules.relatedness import Relatedness
from core.errors import PermissionRefused, ServiceError, StaleState

HELP_COST = 2  # « Deux Atouts permettent de donner un bonus de +1 […] à un autre personnage »


@dataclass(frozen=True)
class FudgeTestState:
    """One Test as it stands: its ``test.rolled`` event, the payload of its latest state, its follow-ups."""

    rolled: Event
    state: dict[str, Any]
    follow_ups: list[dict[str, Any]]

    @property
    def step(self) -> int:
        return len(self.follow_ups)

    @property
    def counters(self) -> int:
        return sum(1 for p in self.follow_ups if p.get("use") == "counter")

    @property
    def bonuses(self) -> int:
        """Atouts the Test's character spent for +1 rank: at the roll, then again after each counter."""
        at_roll = any(code == "atout" for code, *_rest in self.rolled.payload.get("modifiers", []))
        return int(at_roll) + sum(1 for p in self.follow_ups if p.get("use") == "temporary_bonus")

    @property
    def countered(self) -> bool:
        """The +1 rank was countered and not bought again: its spender may spend a second Atout."""
        return self.counters > 0 and self.bonuses <= self.counters

    def card(self) -> dict[str, Any]:
        """The Test as the result card shows it: the roll, its latest dice and modifiers, the step reached."""
        atout_use = self.state.get("use") if self.follow_ups else None
        return {**self.rolled.payload, **self.state, "step": self.step, "atout_use": atout_use,
                "countered": self.countered}  # fmt: skip


def fudge_test_state(character: Character, roll: str) -> FudgeTestState:
    events = list(
        Event.objects.filter(
            campaign_id=character.campaign_id,
            kind__in=("test.rolled", "test.atout"),
            payload__roll=roll,
            characters=character,
        ).order_by("pk")  # fmt: skip
    )
    rolled = next((e for e in events if e.kind == "test.rolled"), None)
    if rolled is None:
        raise ServiceError(_("There is no such Test of this character."))
    follow_ups = [e.payload for e in events if e.kind == "test.atout"]
    return FudgeTestState(rolled=rolled, state=follow_ups[-1] if follow_ups else rolled.payload, follow_ups=follow_ups)


def _setup(payload: dict[str, Any], modifiers: list[list[Any]]) -> FudgeTestSetup:
    technical = payload.get("technical") or [False, "none", 1]
    hazard = payload.get("hazard") or [None, False]
    return FudgeTestSetup(
        trait_rank=int(payload["trait_rank"]), difficulty=Difficulty[payload["difficulty"]],
        relatedness=Relatedness(payload.get("relatedness") or "close"),
        modifiers=tuple(Modifier(c, int(a), n) for c, a, n in modifiers),
        highly_technical=bool(technical[0]), technical_policy=TechnicalPolicy(technical[1]),
        technical_steps=int(technical[2]), allow_automatic=bool(payload.get("allow_automatic")),
        hazard_fixed_revers=hazard[0], hazard_per_rank=bool(hazard[1]),
    )  # fmt: skip


def _current(test: FudgeTestState) -> FudgeTestResult:
    rolled, state = test.rolled.payload, test.state
    # Events written before help and counters existed carry no modifiers of their own: the roll's are theirs.
    setup = _setup(rolled, state.get("modifiers", rolled.get("modifiers", [])))
    return FudgeTestResult(setup=setup, dice=tuple(state["dice"]), final_rank=int(state["final"]),
                           success=bool(state["success"]), rolled=True)  # fmt: skip


def _membership(character: Character, actor: User) -> Membership:
    membership = Membership.objects.filter(campaign_id=character.campaign_id, user=actor).first()
    if membership is None:
        raise PermissionRefused(_("You are not a member of this campaign."))
    return membership


def _apply(
    *, character: Character, actor: User, roll: str, use: str, change: Callable[[FudgeTestResult], FudgeTestResult],
    spender: Character | None = None, amount: int = 1, justification: str = "", expected_step: int | None = None,
    check: Callable[[FudgeTestState], None] | None = None,
) -> dict[str, Any]:  # fmt: skip
    """Pay ``amount`` Atouts from ``spender`` (the Test's character by default) and apply ``change`` to the Test."""
    spender = spender or character
    membership = _membership(character, actor)
    if not (membership.is_narrator or spender.owner_id == actor.pk):
        raise PermissionRefused(_("You can only roll for your own characters."))
    if spender.campaign_id != character.campaign_id:
        raise ServiceError(_("Choose another character of this campaign."))
    # Both sheets locked in one order, so two Atouts on one Test (or two teammates helping each other) queue.
    list(Character.objects.select_for_update().filter(pk__in={character.pk, spender.pk}).order_by("pk"))
    test = fudge_test_state(character, roll)
    if test.rolled.visibility != Visibility.EVERYONE and not membership.is_narrator:
        raise ServiceError(_("There is no such Test of this character."))
    if expected_step is not None and expected_step != test.step:
        raise StaleState(_("Someone spent an Atout on this Test first: here it is as it stands now."))
    rolled = test.rolled.payload
    if not test.state.get("rolled"):
        raise ServiceError(_("No dice were rolled in this Test."))
    # The Revers the Test as it stands wrote (at the roll, or after an earlier Atout): it follows the new result.
    written = int(test.state.get("revers") or 0)
    if written and test.state.get("revers_wounds"):
        raise ServiceError(
            _("This Test's Revers became wounds: the narrator changes the wound track; an Atout can no longer move it.")
        )
    if check is not None:
        check(test)
    current = _current(test)
    try:
        result = change(current)
    except RuleError as error:
        raise refuse(error) from error
    context: dict[str, Any] = {"roll": roll}
    if spender.pk != character.pk:
        context["target_character"] = character.pk
    ledger = sheets.atout_pay(character=spender, actor=actor, use=use, amount=amount, justification=justification,
                              context=context)  # fmt: skip
    payload = {"character": character.name, "character_id": character.pk, "roll": roll, "use": use, "old_dice": list(current.dice),
               "dice": list(result.dice), "final": result.final_rank, "success": result.success, "rolled": True,
               "required": result.setup.required_rank, "revers": result.revers, "step": test.step + 1,
               "modifiers": [[m.code, m.amount, m.note] for m in result.setup.modifiers],
               "effective": result.setup.effective_rank, "amount": amount}  # fmt: skip
    payload["atout"] = _ledger_line(ledger, spender, test.rolled)
    if spender.pk != character.pk:
        payload["spender"] = spender.name
    _revers_follows(character, actor, rolled, roll, written, int(result.revers or 0), payload)
    characters = [character] if spender.pk == character.pk else [character, spender]
    event_append(campaign=character.campaign, kind="test.atout", actor=actor, payload=payload,
                 characters=characters, visibility=test.rolled.visibility)  # fmt: skip
    return payload


def _revers_follows(
    character: Character, actor: User, rolled: dict[str, Any], roll: str, written: int, new: int,
    payload: dict[str, Any],
) -> None:  # fmt: skip
    """« relancer les dés Fudge … pendant un Test »: the new result replaces the old one, and so does its Revers.

    Written (a success became a failure), changed (a worse or milder failure) or removed (a failure became a
    success), carried by the follow-up's one Event (``revers_change``). A Revers the campaign turns into wounds
    goes through the state cards, which log the wounds themselves."""
    if new == written:
        return
    domain, nature = rolled.get("revers_domain") or "physical", rolled.get("nature") or "blunt"
    if not written and sheets.revers_become_wounds(character, domain):
        sheets.revers_inflict(character=character, actor=actor, domain=domain, severity=new,
                              source=_("Hazardous test"), payload={"roll": roll}, nature=nature)  # fmt: skip
        payload["revers_wounds"] = True
        return
    payload["revers_change"] = sheets.revers_follow_roll(
        character=character, roll=roll, written=written, severity=new, domain=domain, nature=nature,
        source=_("Hazardous test"),
    )  # fmt: skip


def _ledger_line(ledger: dict[str, Any], spender: Character, rolled: Event) -> dict[str, Any]:
    return ledger_line(ledger, spender, visibility=rolled.visibility, recipient_id=rolled.recipient_id)


def ledger_line(
    ledger: dict[str, Any], spender: Character, *, visibility: str, recipient_id: int | None
) -> dict[str, Any]:
    """The Atout spending as ``character.atout_spent`` told it, carried by the Test's own Event (``test.rolled``
    for the +1 bought with the roll, ``test.atout`` for a follow-up) under ``atout``.

    The Event is read by whoever may read the Test (``visibility``); the spender's balance and reason were read by
    whoever may read the spender's sheet. Where that is fewer people (an NPC's Atouts on a player's Test), they are
    kept under ``narrator_`` keys, which the exports give only to narrators and the log's sentence does not read."""
    line = {k: v for k, v in ledger.items() if k not in ("balance", "justification")}
    same_readers = (
        spender.kind == CharacterKind.PC
        or visibility == Visibility.NARRATORS
        or (visibility == Visibility.PLAYER and spender.owner_id == recipient_id)
    )
    prefix = "" if same_readers else "narrator_"
    line[f"{prefix}balance"] = ledger.get("balance")
    if ledger.get("justification"):
        line[f"{prefix}justification"] = ledger["justification"]
    return line


@transaction.atomic
def fudge_test_reroll(
    *, character: Character, actor: User, roll: str, rng: random.Random | None = None, expected_step: int | None = None
) -> dict[str, Any]:
    """« Un Atout peut ainsi être dépensé pour relancer les dés Fudge »: one Atout, four new dice."""
    dice_rng = rng or random.SystemRandom()
    return _apply(character=character, actor=actor, roll=roll, use="reroll", change=lambda r: reroll(r, dice_rng),
                  expected_step=expected_step)  # fmt: skip


@transaction.atomic
def fudge_test_change_die(
    *, character: Character, actor: User, roll: str, index: int, face: int, expected_step: int | None = None
) -> dict[str, Any]:
    """« un Atout peut être utilisé pour changer le résultat de l'un des dés »: die ``index`` (0–3) shows
    ``face`` (−1, 0 or +1) instead."""
    return _apply(
        character=character, actor=actor, roll=roll, use="change_result", change=lambda r: change_die(r, index, face),
        expected_step=expected_step,
    )  # fmt: skip


@transaction.atomic
def fudge_test_help(
    *, character: Character, helper: Character, actor: User, roll: str, justification: str, amount: int = HELP_COST,
    expected_step: int | None = None,
) -> dict[str, Any]:  # fmt: skip
    """A teammate's help: ``helper`` pays two Atouts (one where the campaign lets two helpers pay one each) and
    ``character``'s Test gains +1 rank, the same dice read again; once per helper per Test (the ledger refuses
    a second help). It counts « même si le bénéficiaire a déjà dépensé un Atout pour se donner un bonus »."""
    if helper.pk == character.pk:
        raise ServiceError(_("Help another character: your own Test takes an Atout for +1 rank."))
    return _apply(
        character=character, spender=helper, actor=actor, roll=roll, use="help_other", amount=amount,
        justification=justification, expected_step=expected_step,
        change=lambda r: add_modifier(r, Modifier("help", 1, helper.name)),
    )  # fmt: skip


@transaction.atomic
def fudge_test_counter(
    *, character: Character, counterer: Character, actor: User, roll: str, expected_step: int | None = None
) -> dict[str, Any]:
    """« contrer la dépense d'un Atout par une autre personne et ainsi l'annuler. Dans ce cas, les deux opposants
    perdent chacun un Atout »: ``counterer`` pays one Atout and the +1 rank ``character`` bought goes."""
    if counterer.pk == character.pk:
        raise ServiceError(_("Counter another character's Atout."))

    def check(test: FudgeTestState) -> None:
        if test.bonuses <= test.counters:
            raise ServiceError(_("Counter an Atout spent for +1 rank on this Test: there is none left to counter."))

    return _apply(
        character=character, spender=counterer, actor=actor, roll=roll, use="counter", expected_step=expected_step,
        check=check, change=lambda r: remove_modifier(r, "atout"),
    )  # fmt: skip


@transaction.atomic
def fudge_test_bonus_again(
    *, character: Character, actor: User, roll: str, expected_step: int | None = None
) -> dict[str, Any]:
    """« le personnage qui a dépensé l'Atout originel peut décider de dépenser un second Atout pour gagner à
    nouveau le bonus espéré. Le processus peut être répété »: after a counter, one more Atout for +1 rank."""

    def check(test: FudgeTestState) -> None:
        if not test.countered:
            raise ServiceError(_("An Atout for +1 rank is bought again only after it was countered."))

    return _apply(
        character=character, actor=actor, roll=roll, use="temporary_bonus", expected_step=expected_step, check=check,
        change=lambda r: add_modifier(r, Modifier("atout", 1)),
    )  # fmt: skip
