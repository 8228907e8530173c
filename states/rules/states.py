"""The state cards Secoué, Blessure (with Encaissement), État critique, Hémorragie, and Jetons.

Every transition takes a frozen ``CardState`` and returns a new one with what happened; an illegal
move raises ``IllegalTransition`` and the caller keeps its state untouched.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, replace
from enum import StrEnum

from .dice import Modifier, Outcome, TraitRoll, roll_plain
from .errors import IllegalTransition

MAX_WOUNDS = 3
INCAPACITATING_WOUND = MAX_WOUNDS + 1
MAX_FATIGUE = 2


class Injury(StrEnum):
    NONE = ""
    PERMANENT = "permanent"
    UNTIL_HEALED = "until_healed"
    DAY = "24h"


@dataclass(frozen=True)
class CardState:
    """What the cards track on one character. ``wounds`` runs 0–4; 4 is État critique."""

    shaken: bool = False
    wounds: int = 0
    incapacitated: bool = False
    incapacitation_roll_due: bool = False
    bleeding_out: bool = False
    unconscious: bool = False
    dead: bool = False
    injury: Injury = Injury.NONE
    tokens: int = 0
    fatigue: int = 0
    tricked: bool = False


def wound_penalty(state: CardState) -> int:
    """« Chaque Blessure inflige un malus de -1 à tous les jets de Trait et à l'Allure » (at most −3)."""
    return -min(state.wounds, MAX_WOUNDS)


def fatigue_penalty(state: CardState) -> int:
    """« Chaque niveau de Fatigue inflige un malus de -1 à tous les jets de Trait » (at most −2)."""
    return -min(state.fatigue, MAX_FATIGUE)


def roll_penalties(state: CardState) -> tuple[Modifier, ...]:
    """The state's penalties to every trait roll, each named so the roll can show it."""
    penalties = []
    if wound_penalty(state):
        penalties.append(Modifier("wounds", wound_penalty(state)))
    if fatigue_penalty(state):
        penalties.append(Modifier("fatigue", fatigue_penalty(state)))
    return tuple(penalties)


def pace(base_pace: int, state: CardState) -> int:
    return max(0, base_pace + wound_penalty(state))


def ensure_can_act(state: CardState) -> None:
    """« Il ne peut plus agir » in État critique; the dead and the unconscious do not act either."""
    if state.dead:
        raise IllegalTransition("dead", "A dead character cannot act.")
    if state.incapacitated:
        raise IllegalTransition("incapacitated", "A character in État critique cannot act.")
    if state.unconscious:
        raise IllegalTransition("unconscious", "An unconscious character cannot act.")


def _ensure_alive(state: CardState) -> None:
    if state.dead:
        raise IllegalTransition("dead", "A dead character cannot act.")


# --- Secoué -----------------------------------------------------------------------------------


class ShakenResult(StrEnum):
    STAYS_FREE_ACTIONS = "stays_free_actions"
    ENDS_FREE_ACTIONS = "ends_free_actions"
    ENDS_ACTS = "ends_acts"


def shaken_set(state: CardState, shaken: bool) -> CardState:
    _ensure_alive(state)
    if state.shaken == shaken:
        code = "already_shaken" if shaken else "not_shaken"
        raise IllegalTransition(code, "Already Shaken." if shaken else "The character is not Shaken.")
    return replace(state, shaken=shaken)


def shaken_recovery(state: CardState, spirit_roll: TraitRoll) -> tuple[CardState, ShakenResult]:
    """Secoué: « Au début de son round, le personnage fait un jet d'Âme :
    Échec : il demeure Secoué et ne peut faire que des actions gratuites durant ce round.
    Succès : il n'est plus Secoué mais ne peut faire que des actions gratuites durant ce round.
    Relance : il n'est plus Secoué et peut agir normalement durant ce round. »
    """
    if not state.shaken:
        raise IllegalTransition("not_shaken", "The character is not Shaken.")
    _ensure_alive(state)
    if spirit_roll.outcome is Outcome.RAISE:
        return replace(state, shaken=False), ShakenResult.ENDS_ACTS
    if spirit_roll.outcome is Outcome.SUCCESS:
        return replace(state, shaken=False), ShakenResult.ENDS_FREE_ACTIONS
    return state, ShakenResult.STAYS_FREE_ACTIONS


def token_unshake(state: CardState) -> CardState:
    """« Il est possible d'utiliser un jeton à tout moment pour éliminer un état Secoué, y compris après
    avoir fait son jet d'Âme. Dans ce cas, le personnage peut agir normalement. »"""
    if not state.shaken:
        raise IllegalTransition("not_shaken", "The character is not Shaken.")
    state = token_spend(state)
    return replace(state, shaken=False)


# --- Jetons -----------------------------------------------------------------------------------


def token_award(state: CardState, count: int = 1) -> CardState:
    if count < 1:
        raise IllegalTransition("token_count", "Award at least one Jeton.")
    return replace(state, tokens=state.tokens + count)


def token_spend(state: CardState) -> CardState:
    if state.tokens < 1:
        raise IllegalTransition("no_token", "No Jeton left to spend.")
    return replace(state, tokens=state.tokens - 1)


# --- Blessure and Encaissement ----------------------------------------------------------------


@dataclass(frozen=True)
class WoundResult:
    incoming: int
    soaked: int
    taken: int
    incapacitated_now: bool


def soaked_wounds(incoming: int, vigor_roll: TraitRoll) -> int:
    """Encaissement: « Échec : aucun effet. Succès : il subit une Blessure de moins.
    Relance : il subit autant de Blessures de moins que le nombre de Relances + 1. »"""
    if vigor_roll.outcome is Outcome.RAISE:
        return min(incoming, vigor_roll.raises + 1)
    if vigor_roll.outcome is Outcome.SUCCESS:
        return min(incoming, 1)
    return 0


def soak_check(state: CardState, incoming: int) -> None:
    """Soaking costs a Jeton and needs wounds to soak: check before rolling, so nothing is paid in vain."""
    if incoming < 1:
        raise IllegalTransition("wound_count", "Take at least one wound.")
    _ensure_alive(state)
    if state.tokens < 1:
        raise IllegalTransition("no_token", "Soaking needs a Jeton and none is left.")


def wounds_take(
    state: CardState, incoming: int, *, soak_roll: TraitRoll | None = None
) -> tuple[CardState, WoundResult]:
    """Blessure: « Un personnage peut avoir jusqu'à 3 Blessures. Une quatrième le fait passer en État Critique. »

    Wounds beyond the fourth are not counted; a character who already has four cannot take a fifth.
    ``soak_roll`` is the Vigueur roll of an Encaissement, paid with one Jeton.
    """
    if incoming < 1:
        raise IllegalTransition("wound_count", "Take at least one wound.")
    _ensure_alive(state)
    if state.wounds >= INCAPACITATING_WOUND:
        raise IllegalTransition(
            "fifth_wound", "The character already has four wounds (État critique): there is no fifth wound."
        )
    soaked = 0
    if soak_roll is not None:
        soak_check(state, incoming)
        state = token_spend(state)
        soaked = soaked_wounds(incoming, soak_roll)
    taken = incoming - soaked
    wounds = min(state.wounds + taken, INCAPACITATING_WOUND)
    incapacitated_now = wounds == INCAPACITATING_WOUND and taken > 0
    state = replace(state, wounds=wounds)
    if incapacitated_now:
        # État critique: no action, no initiative card, and an immediate Vigueur roll.
        state = replace(state, incapacitated=True, incapacitation_roll_due=True)
    return state, WoundResult(incoming=incoming, soaked=soaked, taken=taken, incapacitated_now=incapacitated_now)


def wounds_heal(state: CardState, count: int) -> CardState:
    """Healing lowers the count; below four the État critique ends, at zero so does a healing injury."""
    if count < 1:
        raise IllegalTransition("wound_count", "Heal at least one wound.")
    _ensure_alive(state)
    if count > state.wounds:
        raise IllegalTransition("heal_too_many", "The character does not have that many wounds.")
    wounds = state.wounds - count
    injury = state.injury
    if wounds == 0 and injury in (Injury.UNTIL_HEALED, Injury.DAY):
        injury = Injury.NONE
    incapacitated = state.incapacitated and wounds >= INCAPACITATING_WOUND
    return replace(
        state,
        wounds=wounds,
        injury=injury,
        incapacitated=incapacitated,
        incapacitation_roll_due=state.incapacitation_roll_due and incapacitated,
    )


def wounds_set(state: CardState, count: int) -> tuple[CardState, WoundResult | None]:
    """The one-tap wound track: set the count directly (0–4); more than four is refused."""
    if count < 0 or count > INCAPACITATING_WOUND:
        raise IllegalTransition(
            "fifth_wound", "A character has at most three wounds, and a fourth means État critique: there is no fifth."
        )
    if count > state.wounds:
        return wounds_take(state, count - state.wounds)
    if count < state.wounds:
        return wounds_heal(state, state.wounds - count), None
    raise IllegalTransition("no_change", "The wound count is already %(count)s.", count=count)


# --- État critique ----------------------------------------------------------------------------


class IncapacitationResult(StrEnum):
    DIES = "dies"
    PERMANENT_INJURY_AND_BLEEDING = "permanent_injury_and_bleeding"
    WOUNDED_UNTIL_HEALED = "wounded_until_healed"
    WOUNDED_24_HOURS = "wounded_24_hours"


def incapacitation_roll(state: CardState, vigor_roll: TraitRoll) -> tuple[CardState, IncapacitationResult]:
    """État critique: « Le personnage fait immédiatement un jet de Vigueur, en prenant en compte les malus
    de Blessures (en général -3) : 1 ou moins : il meurt. Échec : il est affecté par une blessure permanente
    et est victime d'une Hémorragie. Succès : il est blessé jusqu'à guérison. Relance : il est blessé pour
    24 heures ou jusqu'à guérison. »
    """
    if not state.incapacitation_roll_due:
        raise IllegalTransition("no_incapacitation_roll", "No État critique roll is due.")
    # A character who bled to death before making the roll makes no roll: it would bring them back bleeding.
    _ensure_alive(state)
    state = replace(state, incapacitation_roll_due=False)
    if vigor_roll.total <= 1:
        return replace(state, dead=True, bleeding_out=False), IncapacitationResult.DIES
    if vigor_roll.outcome is Outcome.RAISE:
        return replace(state, injury=Injury.DAY), IncapacitationResult.WOUNDED_24_HOURS
    if vigor_roll.outcome is Outcome.SUCCESS:
        return replace(state, injury=Injury.UNTIL_HEALED), IncapacitationResult.WOUNDED_UNTIL_HEALED
    return replace(
        state, injury=Injury.PERMANENT, bleeding_out=True
    ), IncapacitationResult.PERMANENT_INJURY_AND_BLEEDING


# --- Hémorragie -------------------------------------------------------------------------------


class BleedingResult(StrEnum):
    DIES = "dies"
    UNCONSCIOUS = "unconscious"
    ROLLS_AGAIN = "rolls_again"
    STOPS = "stops"


@dataclass(frozen=True)
class BleedingOutcome:
    result: BleedingResult
    unconscious_faces: tuple[int, ...] = ()

    @property
    def unconscious_hours(self) -> int:
        return sum(self.unconscious_faces)


def bleeding_set(state: CardState, bleeding: bool) -> CardState:
    _ensure_alive(state)
    if state.bleeding_out == bleeding:
        code = "already_bleeding" if bleeding else "not_bleeding"
        raise IllegalTransition(code, "Already bleeding out." if bleeding else "The character is not bleeding out.")
    return replace(state, bleeding_out=bleeding)


def bleeding_roll(
    state: CardState, vigor_roll: TraitRoll, *, lethal: bool, rng: random.Random
) -> tuple[CardState, BleedingOutcome]:
    """Hémorragie: « un jet de Vigueur au début de chaque round (ou toutes les minutes en dehors d'une
    situation de combat) … Échec : il meurt. Si les dégâts qui ont amené à l'hémorragie n'étaient pas
    létaux, il tombe dans l'inconscience pour 1d6 heures. Succès : le personnage devra faire un nouveau
    jet lors du prochain round. Relance : l'hémorragie cesse. »
    """
    if not state.bleeding_out:
        raise IllegalTransition("not_bleeding", "The character is not bleeding out.")
    _ensure_alive(state)
    if vigor_roll.outcome is Outcome.RAISE:
        return replace(state, bleeding_out=False), BleedingOutcome(BleedingResult.STOPS)
    if vigor_roll.outcome is Outcome.SUCCESS:
        return state, BleedingOutcome(BleedingResult.ROLLS_AGAIN)
    if lethal:
        return replace(state, dead=True, bleeding_out=False), BleedingOutcome(BleedingResult.DIES)
    faces = roll_plain(rng, 1, 6)
    return (
        replace(state, bleeding_out=False, unconscious=True),
        BleedingOutcome(BleedingResult.UNCONSCIOUS, unconscious_faces=faces),
    )


# --- Ruse -------------------------------------------------------------------------------------


class TrickResult(StrEnum):
    FAILS = "fails"
    DISTRACTED = "distracted"
    DISTRACTED_AND_SHAKEN = "distracted_and_shaken"


def trick_resolve(
    target: CardState, attacker_roll: TraitRoll, defender_roll: TraitRoll
) -> tuple[CardState, TrickResult]:
    """Ruse: « un jet opposé d'Agilité ou d'Intellect contre son adversaire. Succès : l'adversaire est
    distrait et subit un malus de -2 en Parade jusqu'à sa prochaine action. Relance : … et est en outre
    Secoué. Les pénalités dues aux ruses ne sont pas cumulables. »

    Opposed: the trickster needs a success and a total above the defender's; a raise is 4 more.
    """
    _ensure_alive(target)
    margin = attacker_roll.total - defender_roll.total
    if not attacker_roll.succeeded or margin <= 0:
        return target, TrickResult.FAILS
    if margin >= 4:
        return replace(target, tricked=True, shaken=True), TrickResult.DISTRACTED_AND_SHAKEN
    return replace(target, tricked=True), TrickResult.DISTRACTED


TRICK_PARRY_PENALTY = -2
