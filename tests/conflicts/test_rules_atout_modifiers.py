"""Atouts on a Test already rolled and the card budget's penalty lines, as pure rules (found by mutation testing).

Appendix 4: « Deux Atouts permettent de donner un bonus de +1 Carte ou de +1 Rang à un autre personnage […] Ce
bonus est accordé pour un tirage de cartes ou un lancer de dés » ; « contrer la dépense d'un Atout par une autre
personne et ainsi l'annuler ». V-1: « Liés mais pas central » −1, « Distants » −2; V-4: « Etre pris au dépourvu :
de -1 à -2 cartes, pour le premier tirage de la Séquence seulement »."""

from __future__ import annotations

import random

import pytest

from characters.rules.ladder import Rank
from conflicts.rules.budget import ParticipantSetup, Use, card_items
from conflicts.rules.errors import RuleError
from conflicts.rules.fudge import FudgeTestSetup, Modifier, add_modifier, fudge_test, remove_modifier, with_modifiers
from conflicts.rules.ranks import Difficulty

RNG = random.Random(7)


def test_a_teammates_plus_one_reads_the_same_dice_again_and_a_counter_takes_the_last_one_off() -> None:
    setup = FudgeTestSetup(Rank.MOYEN, Difficulty.DIFFICILE, modifiers=(Modifier("atout", 1),))
    first = fudge_test(setup, RNG, dice=(0, 0, 0, 0))
    assert first.final_rank == Rank.BON and first.success
    helped = add_modifier(first, Modifier("help", 1))
    assert helped.dice == first.dice and helped.final_rank == Rank.EXCELLENT
    assert helped.setup.modifiers == (Modifier("atout", 1), Modifier("help", 1))
    assert helped.atout_changes == ("help",)
    countered = remove_modifier(helped, "atout")
    assert countered.setup.modifiers == (Modifier("help", 1),) and countered.final_rank == Rank.BON
    assert countered.dice == first.dice and countered.atout_changes == ("help", "-atout")
    twice = add_modifier(add_modifier(first, Modifier("help", 1)), Modifier("help", 2))
    assert remove_modifier(twice, "help").setup.modifiers == (Modifier("atout", 1), Modifier("help", 1))


def test_nothing_is_added_to_or_taken_off_a_test_not_rolled_or_a_modifier_it_does_not_have() -> None:
    setup = FudgeTestSetup(Rank.MOYEN, Difficulty.DIFFICILE)
    automatic = fudge_test(FudgeTestSetup(Rank.MOYEN, Difficulty.FACILE, allow_automatic=True), RNG)
    assert not automatic.rolled
    for call in (lambda: add_modifier(automatic, Modifier("help", 1)), lambda: remove_modifier(automatic, "help")):
        with pytest.raises(RuleError) as refused:
            call()
        assert refused.value.code == "nothing_rolled"
    with pytest.raises(RuleError) as missing:
        remove_modifier(fudge_test(setup, RNG, dice=(0, 0, 0, 0)), "help")
    assert missing.value.code == "no_such_modifier" and missing.value.values == {"code": "help"}
    assert with_modifiers(setup, Modifier("a", 1), Modifier("b", -1)).modifiers == (Modifier("a", 1), Modifier("b", -1))


def test_penalty_lines_are_negative_and_surprise_and_conditions_stop_at_two_cards() -> None:
    setup = ParticipantSetup(trait_value=5, relatedness=2, fed=1, surprise=3, conditions=4)
    lines = [(i.modifier.code, i.modifier.amount) for i in card_items(setup, first_draw=True)]
    assert lines == [("trait", 5), ("relatedness", -2), ("fed", -1), ("surprise", -2), ("conditions", -2)]
    later = [(i.modifier.code, i.modifier.amount) for i in card_items(setup, first_draw=False)]
    assert later == [("trait", 5), ("relatedness", -2), ("fed", -1), ("conditions", -2)]


def _lines(setup: ParticipantSetup) -> list[tuple[str, int, Use]]:
    return [(i.modifier.code, i.modifier.amount, i.use) for i in card_items(setup, first_draw=False)]


def test_every_other_line_of_the_card_budget_with_the_use_its_cards_are_for() -> None:
    """V-4 and the narrator's section: scale, a vehicle's Robustesse, two weapons (+1), range and cover (at most
    two cards of defence), Atouts, help and the upper hand, each one line the table can read."""
    setup = ParticipantSetup(
        trait_value=4,
        scale=1,
        vehicle=2,
        telekinesis_mind=1,
        atout_card=1,
        help_cards=2,
        upper_hand_cards=1,
        other=-1,
        two_weapons=True,
        two_weapons_use=Use.DEFENCE,
        range_defence=1,
        cover_defence=3,
    )
    assert _lines(setup) == [
        ("trait", 4, Use.ANY),
        ("scale", 1, Use.ANY),
        ("vehicle", 2, Use.ANY),
        ("telekinesis_mind", 1, Use.ANY),
        ("atout", 1, Use.ANY),
        ("help", 2, Use.ANY),
        ("upper_hand", 1, Use.ANY),
        ("other", -1, Use.ANY),
        ("two_weapons", 1, Use.DEFENCE),
        ("range", 1, Use.DEFENCE),
        ("cover", 2, Use.DEFENCE),
    ]
    # « le modificateur de Robustesse soit utilisé comme une Armure »: defence cards only, and only once.
    armoured = ParticipantSetup(trait_value=4, vehicle=2, vehicle_as_armour=True)
    assert _lines(armoured) == [("trait", 4, Use.ANY), ("vehicle", 2, Use.DEFENCE)]
    assert _lines(ParticipantSetup(trait_value=4, vehicle_as_armour=True)) == [("trait", 4, Use.ANY)]
