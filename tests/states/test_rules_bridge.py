"""The bridge as pure rules, without the database (the services' side is tests/states/test_bridge.py).

Seed 004: « Chaque Blessure inflige un malus de -1 à tous les jets de Trait » (at most −3) and « Chaque niveau de
Fatigue inflige un malus de -1 à tous les jets de Trait » (at most −2); État critique: « Il ne peut plus agir ».
CECJ V-3: « Les effets des divers Revers ne sont pas cumulatifs, seul le Revers entraînant la pénalité la plus
importante est pris en compte »; « une Blessure peut ainsi n'avoir aucun effet sur un jet de nature sociale »."""

from __future__ import annotations

import pytest

from states.rules.bridge import NO_EFFECT, CecjEffect, cecj_effect
from states.rules.states import CardState


@pytest.mark.parametrize("domain", ["physical", ""])
def test_each_wound_and_each_fatigue_level_weigh_one_on_the_bodys_rolls_capped_as_the_cards_say(domain: str) -> None:
    assert cecj_effect(CardState(wounds=2, fatigue=1), domain=domain) == CecjEffect(wounds=2, fatigue=1)
    # « jusqu'à un maximum de -3 » for wounds, −2 for fatigue: the cards' own caps.
    assert cecj_effect(CardState(wounds=5, fatigue=4), domain=domain) == CecjEffect(wounds=3, fatigue=2)


def test_a_social_roll_is_spared_unless_the_table_reads_every_trait_roll() -> None:
    hurt = CardState(wounds=2, fatigue=1)
    assert cecj_effect(hurt, domain="social") == NO_EFFECT
    assert cecj_effect(hurt, domain="mental", everywhere=True) == CecjEffect(wounds=2, fatigue=1)


def test_without_penalties_only_who_may_act_is_kept() -> None:
    state = CardState(wounds=2, fatigue=1, shaken=True)
    assert cecj_effect(state, domain="physical", penalties=False) == CecjEffect(shaken=True)
    assert cecj_effect(state, domain="physical", penalties=False, everywhere=True) == CecjEffect(shaken=True)


@pytest.mark.parametrize(
    ("state", "out"),
    [
        (CardState(dead=True, incapacitated=True, unconscious=True), "dead"),
        (CardState(incapacitated=True, unconscious=True), "incapacitated"),
        (CardState(unconscious=True), "unconscious"),
        (CardState(wounds=3, fatigue=2, shaken=True), ""),
    ],
)
def test_who_cannot_act_is_named_worst_first(state: CardState, out: str) -> None:
    """« Il ne peut plus agir »: the dead before the incapacitated before the unconscious, whatever the domain."""
    assert cecj_effect(state, domain="social").out == out
    assert cecj_effect(state, domain="social", penalties=False).out == out


def test_wounds_and_a_physical_revers_count_once_the_worse_of_the_two_and_fatigue_adds() -> None:
    effect = CecjEffect(wounds=2, fatigue=1)
    assert effect.lines() == (("wounds", -2), ("fatigue", -1))
    assert effect.lines(revers_penalty=1) == (("wounds", -2), ("fatigue", -1))
    assert not effect.keeps_revers(1)
    # A Revers as bad as the wounds keeps its own line: the wounds' line goes, never both.
    assert effect.lines(revers_penalty=2) == (("fatigue", -1),)
    assert effect.keeps_revers(2)
    assert effect.keeps_revers(3)
    assert CecjEffect(wounds=1).lines() == (("wounds", -1),)
    assert CecjEffect(fatigue=2).lines(revers_penalty=3) == (("fatigue", -2),)
    assert NO_EFFECT.lines() == ()
    assert NO_EFFECT.keeps_revers(0)
