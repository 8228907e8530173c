"""Fatigue by source: two levels, the third by source, and recovery on the game clock."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

import pytest

from states.rules.dice import TraitDie, trait_roll
from states.rules.errors import IllegalTransition
from states.rules.fatigue import (
    FatigueTrack,
    SourceDataError,
    fatigue_action,
    fatigue_elapse,
    fatigue_gain,
    fatigue_lose,
    load_sources,
    total_levels,
)
from tests.states.dice import ScriptedDice

SOURCES = load_sources()
T0 = dt.datetime(2000, 1, 1, 8, 0, tzinfo=dt.UTC)
D8 = TraitDie(8)


def h(hours: float) -> dt.datetime:
    return T0 + dt.timedelta(hours=hours)


def gain(tracks, key, *faces, now=T0):
    return fatigue_gain(tracks, SOURCES[key], now=now, rng=ScriptedDice(*faces), vigor=D8)


def no_rolls():
    raise AssertionError("no Vigueur roll expected")


def elapse(tracks, old, new, roll_vigor=no_rolls):
    return fatigue_elapse(tracks, SOURCES, old=old, new=new, roll_vigor=roll_vigor)


def test_all_nine_sources_are_data():
    assert set(SOURCES) == {
        "bumps_and_bruises",
        "hunger",
        "thirst",
        "cold",
        "drowning",
        "disease",
        "radiation",
        "sleep",
        "poison",
    }


def test_a_broken_source_file_names_file_entry_and_field(tmp_path: Path):
    bad = tmp_path / "bad.toml"
    bad.write_text(
        '[x]\nname_fr="x"\nname_en="x"\ncard="x"\nrecovery={trigger="later", interval_minutes=5}\ncritical={kind="none"}\n'
    )
    with pytest.raises(SourceDataError, match=r"bad.toml: \[x\] recovery.trigger"):
        load_sources(bad)


def test_two_levels_then_the_third_is_critical():
    tracks, g1 = gain({}, "hunger")
    tracks, g2 = gain(tracks, "thirst")
    assert total_levels(tracks) == 2 and not g2.critical_now
    tracks, g3 = gain(tracks, "hunger", 4, 5, 6)
    assert g3.critical_now and g3.effect == "death_within" and g3.hours == 15
    with pytest.raises(IllegalTransition) as exc:
        gain(tracks, "cold")
    assert exc.value.code == "fatigue_full"


def test_bumps_and_bruises_cannot_bring_etat_critique():
    tracks, _ = gain({}, "cold")
    tracks, _ = gain(tracks, "cold")
    with pytest.raises(IllegalTransition) as exc:
        gain(tracks, "bumps_and_bruises")
    assert exc.value.code == "no_critical_from_source"


def test_bumps_and_bruises_heal_one_level_after_24_hours():
    tracks, _ = gain({}, "bumps_and_bruises")
    tracks, _ = gain(tracks, "bumps_and_bruises")
    tracks, report = elapse(tracks, T0, h(23))
    assert not report.recovered
    tracks, report = elapse(tracks, h(23), h(25))
    assert report.recovered == {"bumps_and_bruises": 1} and total_levels(tracks) == 1
    tracks, _ = elapse(tracks, h(25), h(48))
    assert total_levels(tracks) == 0


def test_hunger_food_one_level_per_hour():
    tracks, _ = gain({}, "hunger")
    tracks, _ = gain(tracks, "hunger")
    tracks, _ = elapse(tracks, T0, h(5))
    assert total_levels(tracks) == 2  # nothing heals hunger but food
    tracks, effects = fatigue_action(tracks, SOURCES, "food", now=h(5), rng=ScriptedDice(), vigor=D8)
    assert effects[0].started
    tracks, report = elapse(tracks, h(5), h(6))
    assert report.recovered == {"hunger": 1}


def test_hunger_critical_dies_within_3d6_hours_unless_fed_in_time():
    tracks, _ = gain({}, "hunger")
    tracks, _ = gain(tracks, "hunger")
    tracks, g = gain(tracks, "hunger", 1, 1, 2)  # dies within 4 hours
    assert g.deadline == h(4)
    _, report = elapse(tracks, T0, h(5))
    assert report.died_of == "hunger"


def test_hunger_recovery_from_critical_is_one_level_per_12_hours():
    tracks, _ = gain({}, "hunger")
    tracks, _ = gain(tracks, "hunger")
    tracks, _ = gain(tracks, "hunger", 6, 6, 6)  # 18 hours to live
    tracks, _ = fatigue_action(tracks, SOURCES, "food", now=T0, rng=ScriptedDice(), vigor=D8)
    tracks, report = elapse(tracks, T0, h(11))
    assert not report.recovered and not report.died_of
    tracks, report = elapse(tracks, h(11), h(12))
    assert report.recovered == {"hunger": 1} and not tracks["hunger"].critical


def test_thirst_critical_dies_within_2d6_hours_and_water_heals_one_level_per_hour():
    tracks, _ = gain({}, "thirst")
    tracks, _ = gain(tracks, "thirst")
    tracks, g = gain(tracks, "thirst", 3, 4)
    assert g.hours == 7
    _, report = elapse(tracks, T0, h(8))
    assert report.died_of == "thirst"
    saved, _ = fatigue_action(tracks, SOURCES, "water", now=T0, rng=ScriptedDice(), vigor=D8)
    saved, report = elapse(saved, T0, h(8))
    assert not report.died_of and total_levels(saved) == 0


def test_cold_critical_a_vigor_roll_every_hour_failure_dies():
    tracks, _ = gain({}, "cold")
    tracks, _ = gain(tracks, "cold")
    tracks, g = gain(tracks, "cold")
    assert g.effect == "vigor_roll_every" and g.deadline == h(1)
    dice = ScriptedDice(5, 2, 2, 3)

    def roll_vigor():
        return trait_roll(dice, D8, wild_card=True)

    tracks, report = elapse(tracks, T0, h(3), roll_vigor)
    assert [r.total for r in report.vigor_rolls] == [5, 3]
    assert report.died_of == "cold"


def test_cold_warmth_and_shelter_heal_a_level_in_30_minutes():
    tracks, _ = gain({}, "cold")
    tracks, _ = fatigue_action(tracks, SOURCES, "warmth", now=T0, rng=ScriptedDice(), vigor=D8)
    tracks, report = elapse(tracks, T0, h(0.5))
    assert report.recovered == {"cold": 1}


def test_drowning_critical_dies_in_half_the_vigor_die_in_rounds_and_heals_out_of_water():
    tracks, _ = gain({}, "drowning")
    tracks, _ = gain(tracks, "drowning")
    tracks, g = gain(tracks, "drowning")
    assert g.rounds == 4  # d8 → 4 rounds
    _, report = elapse(tracks, T0, h(0.1))
    assert report.died_of == "drowning"
    calm, _ = gain({}, "drowning")
    calm, _ = fatigue_action(calm, SOURCES, "out_of_water", now=T0, rng=ScriptedDice(), vigor=D8)
    calm, report = elapse(calm, T0, T0 + dt.timedelta(minutes=5))
    assert report.recovered == {"drowning": 1}


def test_disease_treatment_2d6_days_minus_half_the_vigor_die_at_least_one():
    tracks, _ = gain({}, "disease")
    tracks, _ = gain(tracks, "disease")
    tracks, effects = fatigue_action(tracks, SOURCES, "treatment", now=T0, rng=ScriptedDice(5, 4), vigor=D8)
    assert effects[0].days == 5  # 9 − 4
    tracks, report = elapse(tracks, T0, h(24 * 5))
    assert report.recovered == {"disease": 2}
    short, _ = gain({}, "disease")
    _, effects = fatigue_action(short, SOURCES, "treatment", now=T0, rng=ScriptedDice(1, 2), vigor=TraitDie(12))
    assert effects[0].days == 1


def test_disease_without_treatment_never_heals_and_its_critical_is_usually_death():
    tracks, _ = gain({}, "disease")
    tracks, _ = gain(tracks, "disease")
    tracks, g = gain(tracks, "disease")
    assert g.effect == "death_unless_described"
    tracks, report = elapse(tracks, T0, h(24 * 30))
    assert total_levels(tracks) == 3 and not report.recovered


def test_radiation_one_level_per_24_hours_or_12_with_decontamination():
    tracks, _ = gain({}, "radiation")
    tracks, _ = gain(tracks, "radiation")
    tracks, report = elapse(tracks, T0, h(24))
    assert report.recovered == {"radiation": 1}
    tracks, _ = fatigue_action(tracks, SOURCES, "decontamination", now=h(24), rng=ScriptedDice(), vigor=D8)
    tracks, report = elapse(tracks, h(24), h(36))
    assert report.recovered == {"radiation": 1}
    _, g = gain({"radiation": FatigueTrack("radiation", levels=2, recovering_since=T0)}, "radiation")
    assert g.effect == "chronic"


def test_sleep_four_hours_heal_a_level_and_critical_is_unconscious_4d10_hours():
    tracks, _ = gain({}, "sleep")
    tracks, _ = fatigue_action(tracks, SOURCES, "sleep", now=T0, rng=ScriptedDice(), vigor=D8)
    tracks, report = elapse(tracks, T0, h(4))
    assert report.recovered == {"sleep": 1}
    tracks, _ = gain({}, "sleep")
    tracks, _ = gain(tracks, "sleep")
    tracks, g = gain(tracks, "sleep", 1, 2, 3, 4)
    assert g.effect == "unconscious_for" and g.hours == 10
    tracks, report = elapse(tracks, T0, h(10))
    assert report.woke_up and not report.died_of
    assert report.recovered == {"sleep": 2}  # slept 10 hours


def test_poison_levels_disappear_after_24_hours_and_critical_depends_on_the_poison():
    tracks, _ = gain({}, "poison")
    tracks, _ = gain(tracks, "poison", now=h(2))
    tracks, report = elapse(tracks, T0, h(25))
    assert not report.recovered  # 24 hours from the latest dose
    tracks, report = elapse(tracks, h(25), h(26))
    assert report.recovered == {"poison": 2}
    tracks, _ = gain({}, "poison")
    tracks, _ = gain(tracks, "poison")
    _, g = gain(tracks, "poison")
    assert g.effect == "by_poison"


def test_an_action_that_heals_nothing_is_refused_and_a_level_can_be_removed():
    with pytest.raises(IllegalTransition):
        fatigue_action({}, SOURCES, "food", now=T0, rng=ScriptedDice(), vigor=D8)
    tracks, _ = gain({}, "cold")
    assert total_levels(fatigue_lose(tracks, "cold")) == 0
    with pytest.raises(IllegalTransition):
        fatigue_lose(tracks, "hunger")


def test_thirst_two_litres_of_water_heal_one_level_per_hour_not_faster():
    """Soif: « Récupération : deux litres d'eau permettent à un personnage de récupérer d'un niveau de fatigue par
    heure. » No water, no recovery; with water, one level at the first hour, the second at the second, none
    before."""
    tracks, _ = gain({}, "thirst")
    tracks, _ = gain(tracks, "thirst")
    dry, report = elapse(tracks, T0, h(6))
    assert not report.recovered and total_levels(dry) == 2
    tracks, effects = fatigue_action(tracks, SOURCES, "water", now=T0, rng=ScriptedDice(), vigor=D8)
    assert effects[0].started
    tracks, report = elapse(tracks, T0, T0 + dt.timedelta(minutes=59))
    assert not report.recovered and total_levels(tracks) == 2
    tracks, report = elapse(tracks, T0 + dt.timedelta(minutes=59), h(1))
    assert report.recovered == {"thirst": 1} and total_levels(tracks) == 1
    tracks, report = elapse(tracks, h(1), T0 + dt.timedelta(minutes=119))
    assert not report.recovered and total_levels(tracks) == 1
    tracks, report = elapse(tracks, T0 + dt.timedelta(minutes=119), h(2))
    assert report.recovered == {"thirst": 1} and total_levels(tracks) == 0
