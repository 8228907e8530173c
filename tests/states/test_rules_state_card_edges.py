"""The state cards at their edges, each refusal by the code the shell translates (found by mutation testing).

Ruse: « Succès : l'adversaire est distrait et subit un malus de -2 en Parade […] Relance : […] et est en outre
Secoué. » État critique: « 1 ou moins : il meurt. Échec : il est affecté par une blessure permanente et est
victime d'une Hémorragie. » Secoué: « utiliser un jeton à tout moment pour éliminer un état Secoué »."""

from __future__ import annotations

import pytest

from states.rules.dice import Modifier, TraitDie, trait_roll
from states.rules.errors import IllegalTransition
from states.rules.initiative import card_order
from states.rules.odds import trait_odds
from states.rules.situations import Situation, parry
from states.rules.states import (
    BleedingOutcome,
    BleedingResult,
    CardState,
    IncapacitationResult,
    ShakenResult,
    TrickResult,
    bleeding_roll,
    bleeding_set,
    ensure_can_act,
    incapacitation_roll,
    shaken_recovery,
    shaken_set,
    soak_check,
    token_award,
    token_spend,
    token_unshake,
    trick_resolve,
    wounds_heal,
    wounds_set,
    wounds_take,
)
from tests.states.dice import ScriptedDice


def rolled(total: int) -> object:
    """A plain d12 roll showing ``total`` (no Wild Die, no modifier)."""
    return trait_roll(ScriptedDice(total), TraitDie(12), wild_card=False)


@pytest.mark.parametrize(
    ("attacker", "defender", "result"),
    [
        (5, 5, TrickResult.FAILS),  # a tie is no opposed success
        (6, 5, TrickResult.DISTRACTED),  # beating the defender by one is a success
        (7, 4, TrickResult.DISTRACTED),
        (8, 4, TrickResult.DISTRACTED_AND_SHAKEN),  # four more is a raise
        (3, 1, TrickResult.FAILS),  # above the defender but no success
    ],
)
def test_a_trick_is_an_opposed_roll_whose_raise_also_shakes(attacker: int, defender: int, result: TrickResult) -> None:
    target, got = trick_resolve(CardState(), rolled(attacker), rolled(defender))  # type: ignore[arg-type]
    assert got is result
    assert target.tricked == (result is not TrickResult.FAILS)
    assert target.shaken == (result is TrickResult.DISTRACTED_AND_SHAKEN)


def test_tokens_are_awarded_one_by_default_and_never_zero() -> None:
    assert token_award(CardState()).tokens == 1
    assert token_award(CardState(tokens=2), 1).tokens == 3
    with pytest.raises(IllegalTransition) as refused:
        token_award(CardState(), 0)
    assert refused.value.code == "token_count"


def test_setting_shaken_or_bleeding_twice_is_refused_by_its_own_code() -> None:
    for state, shaken, code in ((CardState(shaken=True), True, "already_shaken"), (CardState(), False, "not_shaken")):
        with pytest.raises(IllegalTransition) as refused:
            shaken_set(state, shaken)
        assert refused.value.code == code
    cases = ((CardState(bleeding_out=True), True, "already_bleeding"), (CardState(), False, "not_bleeding"))
    for state, bleeding, code in cases:
        with pytest.raises(IllegalTransition) as refused:
            bleeding_set(state, bleeding)
        assert refused.value.code == code


def test_the_incapacitation_roll_is_made_once_and_death_ends_the_bleeding() -> None:
    due = CardState(wounds=3, incapacitated=True, incapacitation_roll_due=True, bleeding_out=True)
    dead, result = incapacitation_roll(due, rolled(1))  # type: ignore[arg-type]
    assert result is IncapacitationResult.DIES
    assert dead.dead and dead.bleeding_out is False and dead.incapacitation_roll_due is False
    wounded, result = incapacitation_roll(replace_due(due), rolled(5))  # type: ignore[arg-type]
    assert result is IncapacitationResult.WOUNDED_UNTIL_HEALED and wounded.incapacitation_roll_due is False
    with pytest.raises(IllegalTransition) as refused:
        incapacitation_roll(wounded, rolled(5))  # type: ignore[arg-type]
    assert refused.value.code == "no_incapacitation_roll"


def replace_due(state: CardState) -> CardState:
    return CardState(wounds=state.wounds, incapacitated=True, incapacitation_roll_due=True)


def test_healing_below_four_wounds_ends_etat_critique_and_its_pending_roll() -> None:
    """Blessure: « Une quatrième le fait passer en Etat Critique »: healed back to three, it is over."""
    critical = CardState(wounds=4, incapacitated=True, incapacitation_roll_due=True)
    healed = wounds_heal(critical, 1)
    assert healed.wounds == 3
    assert healed.incapacitated is False and healed.incapacitation_roll_due is False


def test_wound_counts_and_soaking_are_refused_by_their_own_codes() -> None:
    refusals = (
        (lambda: wounds_heal(CardState(wounds=2), 0), "wound_count"),
        (lambda: wounds_heal(CardState(wounds=2), 3), "heal_too_many"),
        (lambda: soak_check(CardState(tokens=1), 0), "wound_count"),
        (lambda: soak_check(CardState(), 1), "no_token"),
    )
    for refused_call, code in refusals:
        with pytest.raises(IllegalTransition) as refused:
            refused_call()
        assert refused.value.code == code


def test_the_narrator_sets_the_wound_count_up_down_and_to_four_never_beyond() -> None:
    """The one-tap track: « jusqu'à 3 Blessures. Une quatrième le fait passer en Etat Critique »."""
    up, result = wounds_set(CardState(wounds=1), 3)
    assert up.wounds == 3 and result is not None and result.taken == 2 and not up.incapacitated
    down, result = wounds_set(CardState(wounds=3), 1)
    assert down.wounds == 1 and result is None
    fourth, result = wounds_set(CardState(wounds=2), 4)
    assert fourth.wounds == 4 and fourth.incapacitated and result is not None and result.incapacitated_now
    for count in (5, -1):
        with pytest.raises(IllegalTransition) as refused:
            wounds_set(CardState(wounds=2), count)
        assert refused.value.code == "fifth_wound"
    with pytest.raises(IllegalTransition) as unchanged:
        wounds_set(CardState(wounds=2), 2)
    assert unchanged.value.code == "no_change" and unchanged.value.params == {"count": 2}


class _OneDie(ScriptedDice):
    """Scripted faces that also keep the die each face was asked of."""

    def __init__(self, *faces: int) -> None:
        super().__init__(*faces)
        self.asked: list[tuple[int, int]] = []

    def randint(self, a: int, b: int) -> int:
        self.asked.append((a, b))
        return super().randint(a, b)


def test_bleeding_stops_kills_or_knocks_out_for_one_d6_hours_and_always_ends() -> None:
    """Hémorragie: « Échec : il meurt. Si les dégâts […] n'étaient pas létaux, il tombe dans l'inconscience pour
    1d6 heures. Succès : […] un nouveau jet lors du prochain round. Relance : l'hémorragie cesse. »"""
    bleeding = CardState(wounds=4, incapacitated=True, bleeding_out=True)
    stopped, outcome = bleeding_roll(bleeding, rolled(8), lethal=True, rng=_OneDie())  # type: ignore[arg-type]
    assert outcome.result is BleedingResult.STOPS and stopped.bleeding_out is False
    again, outcome = bleeding_roll(bleeding, rolled(5), lethal=True, rng=_OneDie())  # type: ignore[arg-type]
    assert outcome.result is BleedingResult.ROLLS_AGAIN and again.bleeding_out is True
    dead, outcome = bleeding_roll(bleeding, rolled(2), lethal=True, rng=_OneDie())  # type: ignore[arg-type]
    assert outcome.result is BleedingResult.DIES and dead.dead and dead.bleeding_out is False
    d6 = _OneDie(5)
    out, outcome = bleeding_roll(bleeding, rolled(2), lethal=False, rng=d6)  # type: ignore[arg-type]
    assert outcome == BleedingOutcome(BleedingResult.UNCONSCIOUS, unconscious_faces=(5,)) and d6.asked == [(1, 6)]
    assert out.unconscious and out.bleeding_out is False and not out.dead
    with pytest.raises(IllegalTransition) as refused:
        bleeding_roll(CardState(), rolled(8), lethal=True, rng=_OneDie())  # type: ignore[arg-type]
    assert refused.value.code == "not_bleeding"


def test_shaken_ends_as_false_and_each_refusal_names_its_code() -> None:
    """Secoué: « Succès : il n'est plus Secoué […] Relance : il n'est plus Secoué et peut agir normalement »."""
    shaken = CardState(shaken=True, tokens=1)
    for total, result in ((5, ShakenResult.ENDS_FREE_ACTIONS), (8, ShakenResult.ENDS_ACTS)):
        after, got = shaken_recovery(shaken, rolled(total))  # type: ignore[arg-type]
        assert got is result and after.shaken is False
    assert token_unshake(shaken).shaken is False
    refusals = (
        (lambda: shaken_recovery(CardState(), rolled(8)), "not_shaken"),  # type: ignore[arg-type]
        (lambda: token_unshake(CardState()), "not_shaken"),
        (lambda: token_spend(CardState()), "no_token"),
        (lambda: wounds_take(CardState(), 0), "wound_count"),
        (lambda: wounds_take(CardState(wounds=4, incapacitated=True), 1), "fifth_wound"),
    )
    for refused_call, code in refusals:
        with pytest.raises(IllegalTransition) as refused:
            refused_call()
        assert refused.value.code == code
    _, taken = wounds_take(CardState(), 2)
    assert taken.incoming == 2 and taken.taken == 2 and taken.soaked == 0


def test_total_defence_prone_and_the_jokers_exact_figures() -> None:
    """Défense totale: « un jet de Combat avec un bonus de +2 … à la place de sa Parade », shown as what it adds; À
    terre: « sa Parade est réduite de 2 » against melee; the red Joker acts before the black one, both before an ace."""
    total = parry(5, [Situation.TOTAL_DEFENCE, Situation.PRONE], total_defence_total=8)
    assert total.modifiers == (Modifier("total_defence", 3), Modifier("prone", -2)) and total.value == 6
    assert card_order("RJ") == (13, 1) and card_order("BJ") == (13, 0) and card_order("As") == (12, 3)
    assert sorted(["BJ", "As", "RJ", "2c"], key=card_order, reverse=True) == ["RJ", "BJ", "As", "2c"]


def test_who_cannot_act_is_refused_by_the_exact_reason() -> None:
    """« Il ne peut plus agir » in État critique; the dead and the unconscious do not act either."""
    for state, code in (
        (CardState(dead=True, incapacitated=True), "dead"),
        (CardState(incapacitated=True, unconscious=True), "incapacitated"),
        (CardState(unconscious=True), "unconscious"),
    ):
        with pytest.raises(IllegalTransition) as refused:
            ensure_can_act(state)
        assert refused.value.code == code
    ensure_can_act(CardState(shaken=True, wounds=3))


def test_a_trait_roll_is_stored_with_every_field_named() -> None:
    roll = trait_roll(ScriptedDice(6, 2, 3), TraitDie(6), wild_card=True, target=4)
    stored = roll.to_json()
    assert set(stored) == {
        "die", "trait_faces", "wild_faces", "modifiers", "target", "total", "outcome", "raises", "used_wild_die",
    }  # fmt: skip
    assert stored["trait_faces"] == list(roll.trait_faces) and stored["wild_faces"] == list(roll.wild_faces)
    assert stored["die"] == str(TraitDie(6)) == "d6"  # the log shows which die was rolled


def test_a_trait_odds_says_which_roll_it_is() -> None:
    odds = trait_odds(TraitDie(8), wild_card=True, modifier=-1, target=5)
    assert (odds.die, odds.wild_card, odds.modifier, odds.target) == (TraitDie(8), True, -1, 5)


def test_defending_shows_its_plus_two() -> None:
    """Défense: « +2 à sa Parade jusqu'à son action suivante »."""
    defended = parry(5, [Situation.DEFEND])
    assert defended.modifiers == (Modifier("defend", 2),) and defended.value == 7


def test_a_total_defence_roll_equal_to_the_parade_brings_nothing() -> None:
    """Défense totale: « la Parade ne peut pas être réduite par ce jet. Dans le cas d'un jet inférieur, la Parade
    d'origine est conservée (mais le personnage ne gagne aucun bénéfice de l'action de Défense totale) »: a roll equal
    to the Parade changes nothing either, so the breakdown shows no Défense totale line."""
    equal = parry(5, [Situation.TOTAL_DEFENCE], total_defence_total=5)
    assert equal.modifiers == () and equal.value == 5
    higher = parry(5, [Situation.TOTAL_DEFENCE], total_defence_total=6)
    assert higher.modifiers == (Modifier("total_defence", 1),) and higher.value == 6


def test_a_trait_die_with_a_malus_is_written_back_as_it_was_read() -> None:
    """A die's own modifier is a whole number: « d4-2 » read from the sheet is written back « d4-2 », never
    « d4-2.0 »."""
    for text in ("d4-2", "d4−2", "d12+1"):
        die = TraitDie.parse(text)
        assert type(die.bonus) is int
        assert str(die) == text.replace("−", "-")
