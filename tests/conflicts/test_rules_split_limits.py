"""How a participant may split their cards, limit by limit, with the figures each refusal reports (mutation tests).

V-2: « Lorsqu'un personnage affronte plusieurs adversaires, il doit répartir ses cartes (pas nécessairement
équitablement) entre ses opposants »; VII: armours « ne s'appliquent qu'en Défense », a weapon « en Attaque OU en
Défense »; « le personnage hors de portée ne peut pas infliger de Revers … il doit adopter un Jeu défensif »;
collective defence: « Le personnage doit avoir une explication logique justifiant un tel usage »; Secoué (state
cards): « ne peut faire que des actions gratuites »."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from conflicts.rules.budget import Budget, CardItem, ParticipantSetup, Split, Use, card_budget, validate_split
from conflicts.rules.errors import RuleError
from conflicts.rules.fudge import Modifier

# Trait 3, a weapon (+1, attack only) and a medium armour (+2, defence only): 3 free, 1 attack-only, 2 defence-only.
ARMED = card_budget(ParticipantSetup(trait_value=3, weapon=1, armour=2), first_draw=False)


def _refusal(call: Callable[[], None]) -> RuleError:
    with pytest.raises(RuleError) as refused:
        call()
    return refused.value


def _split(budget: Budget, split: Split, **kwargs: object) -> None:
    options: dict = {"me": "a", "opponents": {"b", "c"}, "teammates": {"d"}} | kwargs
    validate_split(budget, split, **options)


def test_the_budget_counts_free_attack_only_and_defence_only_cards_apart() -> None:
    assert (ARMED.free, ARMED.attack_only, ARMED.defence_only, ARMED.total) == (3, 1, 2, 6)
    assert ARMED.to_place() == 6 and ARMED.to_place(can_attack=True) == 6
    # One who may not attack places the cards that can defend; the weapon's attack card goes nowhere.
    assert ARMED.to_place(can_attack=False) == 5


def test_penalties_bigger_than_the_cards_leave_none_never_a_negative_count() -> None:
    budget = card_budget(ParticipantSetup(trait_value=1, revers_penalty=3, weapon=-2, armour=-1), first_draw=False)
    assert (budget.free, budget.attack_only, budget.defence_only) == (0, 0, 0)


def test_every_card_placed_exactly_is_accepted_whatever_the_split_between_opponents() -> None:
    _split(ARMED, Split(attack={"b": 3, "c": 1}, defence={"a": 2}))
    _split(ARMED, Split(attack={"b": 1}, defence={"a": 5}))
    # An opponent given no card and a teammate given none need nothing.
    _split(ARMED, Split(attack={"b": 4, "c": 0, "x": 0}, defence={"a": 2, "d": 0, "y": 0}))


def test_a_negative_number_of_cards_is_refused_in_attack_and_in_defence() -> None:
    for split in (Split(attack={"b": -1}, defence={"a": 7}), Split(attack={"b": 7}, defence={"a": -1})):
        assert _refusal(lambda split=split: _split(ARMED, split)).code == "negative_cards"


def test_attack_cards_go_only_to_an_opponent() -> None:
    refused = _refusal(lambda: _split(ARMED, Split(attack={"d": 1, "b": 3}, defence={"a": 2})))
    assert refused.code == "not_an_opponent" and refused.values == {"target": "d"}


def test_attack_cards_beyond_the_free_and_attack_only_ones_are_refused_with_both_figures() -> None:
    """Armour cards « ne s'appliquent qu'en Défense »: 5 attack cards when 4 can attack."""
    refused = _refusal(lambda: _split(ARMED, Split(attack={"b": 5}, defence={"a": 1})))
    assert refused.code == "too_many_attack" and refused.values == {"used": 5, "have": 4}


def test_defence_cards_beyond_the_free_and_defence_only_ones_are_refused_with_both_figures() -> None:
    """A weapon set to attack gives no defence card: 6 defence cards when 5 can defend."""
    refused = _refusal(lambda: _split(ARMED, Split(defence={"a": 6})))
    assert refused.code == "too_many_defence" and refused.values == {"used": 6, "have": 5}


def test_more_cards_than_one_has_and_cards_left_over_are_refused_with_their_figures() -> None:
    refused = _refusal(lambda: _split(ARMED, Split(attack={"b": 4}, defence={"a": 3})))
    assert refused.code == "too_many_cards" and refused.values == {"used": 7, "have": 6}
    left = _refusal(lambda: _split(ARMED, Split(attack={"b": 2}, defence={"a": 2})))
    assert left.code == "cards_left" and left.values == {"left": 2}
    one_left = _refusal(lambda: _split(ARMED, Split(attack={"b": 3}, defence={"a": 2})))
    assert one_left.values == {"left": 1}


def test_a_shaken_participant_defends_with_every_card_that_can_and_no_attack_card() -> None:
    """Secoué: « ne peut faire que des actions gratuites »: the five cards that can defend, the weapon's out."""
    _split(ARMED, Split(defence={"a": 5}), shaken=True)
    refused = _refusal(lambda: _split(ARMED, Split(attack={"b": 1}, defence={"a": 4}), shaken=True))
    assert refused.code == "shaken_attack"
    assert _refusal(lambda: _split(ARMED, Split(defence={"a": 4}), shaken=True)).values == {"left": 1}
    # Not shaken, the same five defence cards leave the weapon's card to place.
    assert _refusal(lambda: _split(ARMED, Split(defence={"a": 5}))).values == {"left": 1}


def test_out_of_range_or_without_an_opponent_the_attack_only_cards_stay_out() -> None:
    """« il doit adopter un Jeu défensif »; with nobody to attack, the weapon's card has nowhere to go either."""
    _split(ARMED, Split(defence={"a": 5}), out_of_range=True)
    _split(ARMED, Split(defence={"a": 5}), opponents=set())
    refused = _refusal(lambda: _split(ARMED, Split(attack={"b": 1}, defence={"a": 5}), out_of_range=True))
    assert refused.code == "out_of_range_attack"


def test_a_teammate_is_protected_only_in_a_collective_conflict_and_with_a_reason() -> None:
    """« Le personnage doit avoir une explication logique justifiant un tel usage »."""
    split = Split(attack={"b": 1}, defence={"a": 3, "d": 2})
    stranger = _refusal(lambda: _split(ARMED, Split(attack={"b": 1}, defence={"c": 5}), collective=True))
    assert stranger.code == "protect_not_teammate" and stranger.values == {"target": "c"}
    assert _refusal(lambda: _split(ARMED, split, cover_reasons={"d": "couvre"})).code == "protect_needs_collective"
    blank = _refusal(lambda: _split(ARMED, split, collective=True, cover_reasons={"d": "  "}))
    assert blank.code == "protect_needs_reason" and blank.values == {"target": "d"}
    assert _refusal(lambda: _split(ARMED, split, collective=True)).code == "protect_needs_reason"
    _split(ARMED, split, collective=True, cover_reasons={"d": "tir de couverture"})


def test_defence_only_lines_from_elsewhere_count_in_defence() -> None:
    """A line another part of the game adds (``extra``) keeps its use; a line of 0 cards is not shown."""
    setup = ParticipantSetup(
        trait_value=2,
        extra=(CardItem(Modifier("bridge", 1), Use.DEFENCE), CardItem(Modifier("boost", 0))),
    )
    budget = card_budget(setup, first_draw=False)
    assert [i.modifier.code for i in budget.items] == ["trait", "bridge"]
    assert (budget.free, budget.attack_only, budget.defence_only) == (2, 0, 1)
