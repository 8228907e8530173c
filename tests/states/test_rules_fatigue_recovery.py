"""Fatigue's recovery actions, exactly what they start and what they refuse (found by mutation testing).

Faim: « 500 g de nourriture décente permet à un personnage de récupérer d'un niveau de fatigue par heure, ou toutes
les 12 heures s'il était dans un État critique. Effet d'État critique : […] meurt dans les 3d6 heures. »
Maladie: « les symptômes de la victime disparaissent en 2d6 jours moins la moitié de son dé de Vigueur, avec un
minimum d'un jour ». Irradiations: « 1 niveau par période de 24 heures, ou de 12 heures si la victime peut
bénéficier d'une procédure de décontamination »."""

from __future__ import annotations

import datetime as dt

import pytest

from states.rules.errors import IllegalTransition
from states.rules.fatigue import ActionEffect, fatigue_action, fatigue_lose, total_levels
from states.rules.initiative import is_red
from states.rules.states import CardState, pace
from tests.states.dice import ScriptedDice
from tests.states.test_fatigue import D8, SOURCES, T0, elapse, gain, h


def act(tracks, action, *faces, now=T0):  # type: ignore[no-untyped-def]
    return fatigue_action(tracks, SOURCES, action, now=now, rng=ScriptedDice(*faces), vigor=D8)


def test_food_comes_too_late_when_the_first_level_would_return_after_the_deadline() -> None:
    """In État critique food heals a level only after 12 hours: with 4 hours to live, it saves nobody."""
    tracks, _ = gain({}, "hunger")
    tracks, _ = gain(tracks, "hunger")
    tracks, g = gain(tracks, "hunger", 1, 1, 2)
    assert g.deadline == h(4)
    fed, _ = act(tracks, "food")
    _, report = elapse(fed, T0, h(5))
    assert report.died_of == "hunger"


def test_the_narrator_removes_exactly_one_level_and_nothing_from_a_source_without_fatigue() -> None:
    tracks, _ = gain({}, "cold")
    tracks, _ = gain(tracks, "cold")
    assert total_levels(fatigue_lose(tracks, "cold")) == 1
    with pytest.raises(IllegalTransition) as refused:
        fatigue_lose(tracks, "hunger")
    assert refused.value.code == "no_fatigue_from_source"


def test_refused_actions_name_their_reason_for_the_translation() -> None:
    tracks, _ = gain({}, "hunger")
    with pytest.raises(IllegalTransition) as unknown:
        act(tracks, "prayer")
    assert unknown.value.code == "unknown_action"
    with pytest.raises(IllegalTransition) as nothing:
        act(tracks, "water")
    assert nothing.value.code == "nothing_to_recover"


def test_a_source_already_healed_does_not_hide_the_others() -> None:
    tracks, _ = gain({}, "cold")
    tracks = fatigue_lose(tracks, "cold")  # cold's track stays, at no level, before hunger's
    tracks, _ = gain(tracks, "hunger")
    assert list(tracks) == ["cold", "hunger"]
    tracks, effects = act(tracks, "food")
    assert effects == [ActionEffect("hunger", started=True)]
    assert tracks["hunger"].recovering_since == T0


def test_a_treatment_reports_its_dice_its_whole_days_and_the_day_it_heals() -> None:
    tracks, _ = gain({}, "disease")
    _, effects = act(tracks, "treatment", 5, 4)
    # 9 − half the d8: whole days, as the log shows them.
    assert effects == [
        ActionEffect("disease", started=True, faces=(5, 4), days=5, recovers_at=T0 + dt.timedelta(days=5))
    ]
    assert type(effects[0].days) is int


def test_decontamination_speeds_radiation_up_once() -> None:
    tracks, _ = gain({}, "radiation")
    tracks, effects = act(tracks, "decontamination", now=h(1))
    assert effects == [ActionEffect("radiation", accelerated=True)]
    assert tracks["radiation"].accelerated
    with pytest.raises(IllegalTransition) as again:
        act(tracks, "decontamination", now=h(2))
    assert again.value.code == "nothing_to_recover"


def test_red_cards_are_hearts_diamonds_and_the_red_joker() -> None:
    assert all(is_red(card) for card in ("10d", "10h", "Qd", "2h", "RJ"))
    assert not any(is_red(card) for card in ("10s", "10c", "Ac", "BJ"))


def test_wounds_slow_the_pace_down_to_a_standstill_never_below() -> None:
    """Seed 004: each wound « inflige un malus de -1 à tous les jets de Trait et à l'Allure »."""
    assert pace(6, CardState(wounds=2)) == 4
    assert pace(3, CardState(wounds=3)) == 0
    assert pace(2, CardState(wounds=3)) == 0
