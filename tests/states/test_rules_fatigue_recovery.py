"""Fatigue's recovery actions, exactly what they start and what they refuse (found by mutation testing).

Faim: « 500 g de nourriture décente permet à un personnage de récupérer d'un niveau de fatigue par heure, ou toutes
les 12 heures s'il était dans un État critique. Effet d'État critique : […] meurt dans les 3d6 heures. »
Maladie: « les symptômes de la victime disparaissent en 2d6 jours moins la moitié de son dé de Vigueur, avec un
minimum d'un jour ». Irradiations: « 1 niveau par période de 24 heures, ou de 12 heures si la victime peut
bénéficier d'une procédure de décontamination »."""

from __future__ import annotations

import datetime as dt
from dataclasses import replace

import pytest

from states.rules.dice import trait_roll
from states.rules.errors import IllegalTransition
from states.rules.fatigue import (
    ActionEffect,
    ElapseReport,
    FatigueGain,
    FatigueTrack,
    SourceDataError,
    fatigue_action,
    fatigue_lose,
    load_sources,
    total_levels,
)
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
    tracks, report = elapse(tracks, T0, h(1))
    assert report == ElapseReport(recovered={"hunger": 1})


def test_a_treatment_reports_its_dice_its_whole_days_and_the_day_it_heals() -> None:
    tracks, _ = gain({}, "disease")
    _, effects = act(tracks, "treatment", 5, 4)
    # 9 − half the d8: whole days, as the log shows them.
    assert effects == [
        ActionEffect("disease", started=True, faces=(5, 4), days=5, recovers_at=T0 + dt.timedelta(days=5))
    ]
    assert type(effects[0].days) is int
    healed, report = elapse(tracks | {"disease": replace(tracks["disease"], recovers_at=h(24))}, T0, h(24))
    assert report == ElapseReport(recovered={"disease": 1})
    assert healed["disease"] == FatigueTrack("disease") and total_levels(healed) == 0


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


def test_the_critical_level_reports_its_source_its_dice_and_its_deadline() -> None:
    tracks, _ = gain({}, "hunger")
    tracks, _ = gain(tracks, "hunger")
    tracks, g = gain(tracks, "hunger", 1, 1, 2)
    assert g == FatigueGain("hunger", 3, True, "death_within", faces=(1, 1, 2), hours=4, deadline=h(4))
    assert tracks["hunger"].critical and tracks["hunger"].deadline == h(4)


def test_drowning_kills_in_half_the_vigor_die_in_six_second_rounds() -> None:
    """Noyade: « meurt en un nombre de Rounds égal à la moitié de sa Vigueur »: d8, four rounds of six seconds."""
    tracks, _ = gain({}, "drowning")
    tracks, _ = gain(tracks, "drowning")
    tracks, g = gain(tracks, "drowning")
    deadline = T0 + dt.timedelta(seconds=24)
    assert g == FatigueGain("drowning", 3, True, "death_in_rounds", rounds=4, deadline=deadline)
    assert type(g.rounds) is int and tracks["drowning"].deadline == deadline
    _, report = elapse(tracks, T0, T0 + dt.timedelta(seconds=23))
    assert report == ElapseReport()
    _, report = elapse(tracks, T0, deadline)
    assert report == ElapseReport(died_of="drowning")


def test_a_critical_level_lost_leaves_a_plain_track_and_a_third_level_unhealed_stays_critical() -> None:
    tracks, _ = gain({}, "cold")
    tracks, _ = gain(tracks, "cold")
    tracks, _ = gain(tracks, "cold")
    assert fatigue_lose(tracks, "cold")["cold"] == FatigueTrack("cold", levels=2)
    disease, _ = gain({}, "disease")
    disease, _ = gain(disease, "disease")
    disease, _ = gain(disease, "disease")
    disease, report = elapse(disease, T0, h(24 * 30))
    assert report == ElapseReport() and disease["disease"].critical


def test_a_new_bruise_heals_24_hours_after_it_is_taken_not_after_the_last_one_healed() -> None:
    tracks, _ = gain({}, "bumps_and_bruises")
    tracks, report = elapse(tracks, T0, h(24))
    assert report == ElapseReport(recovered={"bumps_and_bruises": 1})
    assert tracks["bumps_and_bruises"] == FatigueTrack("bumps_and_bruises")
    tracks, _ = gain(tracks, "bumps_and_bruises", now=h(30))
    tracks, report = elapse(tracks, h(30), h(53))
    assert report == ElapseReport()
    tracks, report = elapse(tracks, h(53), h(54))
    assert report == ElapseReport(recovered={"bumps_and_bruises": 1})


def _cold_critical(tracks=None):  # type: ignore[no-untyped-def]
    tracks, _ = gain(tracks or {}, "cold")
    tracks, _ = gain(tracks, "cold")
    return gain(tracks, "cold")[0]


def test_cold_rolls_vigor_on_the_hour_every_hour_and_keeps_the_next_roll() -> None:
    """Froid: « un jet de Vigueur par heure. En cas d'échec, le personnage meurt. »"""
    dice = ScriptedDice(5, 2, 6, 3)
    rolls = []

    def roll_vigor():  # type: ignore[no-untyped-def]
        rolls.append(trait_roll(dice, D8, wild_card=True))
        return rolls[-1]

    # Another source's track first: the cold is still rolled for.
    bruised, _ = gain({}, "bumps_and_bruises")
    tracks, _ = gain(bruised, "cold")
    tracks, _ = gain(tracks, "cold")
    assert list(tracks) == ["bumps_and_bruises", "cold"] and tracks["cold"].critical
    tracks, report = elapse(tracks, T0, h(1), roll_vigor)
    assert len(report.vigor_rolls) == 1 and not report.died_of
    tracks, report = elapse(tracks, h(1), h(2.5), roll_vigor)
    assert len(report.vigor_rolls) == 1 and not report.died_of
    assert tracks["cold"].next_vigor_roll_at == h(3)


def test_warmth_that_heals_a_level_by_the_next_roll_spares_that_roll() -> None:
    tracks = _cold_critical()
    warm, _ = act(tracks, "warmth", now=h(0.5))
    warm, report = elapse(warm, T0, h(2))  # no Vigueur roll: the level returns at the hour itself
    assert report == ElapseReport(recovered={"cold": 3})


def test_a_level_back_at_the_very_hour_of_the_deadline_saves_and_nobody_wakes_up() -> None:
    tracks, _ = gain({}, "thirst")
    tracks, _ = gain(tracks, "thirst")
    tracks, g = gain(tracks, "thirst", 3, 4)
    assert g.deadline == h(7)
    _, report = elapse(tracks, T0, h(7))
    assert report == ElapseReport(died_of="thirst")
    saved, _ = act(tracks, "water", now=h(6))
    saved, report = elapse(saved, T0, h(7))
    assert report == ElapseReport(recovered={"thirst": 1})


def test_a_critical_level_lost_clears_its_deadline_and_sources_read_in_both_languages() -> None:
    tracks, _ = gain({}, "hunger")
    tracks, _ = gain(tracks, "hunger")
    tracks, _ = gain(tracks, "hunger", 1, 1, 2)
    assert tracks["hunger"].deadline == h(4)
    assert fatigue_lose(tracks, "hunger")["hunger"] == FatigueTrack("hunger", levels=2)
    assert (SOURCES["hunger"].name("fr"), SOURCES["hunger"].name("fr-ca"), SOURCES["hunger"].name("en")) == (
        "Faim",
        "Faim",
        "Hunger",
    )


def test_a_level_gained_reports_its_source_and_the_new_total_without_a_critical_state() -> None:
    """« Fatigue » gains one level at a time; only the third brings the source's critical effect."""
    tracks, first = gain({}, "hunger")
    assert first == FatigueGain(source="hunger", total=1, critical_now=False)
    _, second = gain(tracks, "thirst")
    assert second == FatigueGain(source="thirst", total=2, critical_now=False)
    assert second.critical_now is False
    with pytest.raises(IllegalTransition) as bruises:
        gain(gain(tracks, "hunger")[0], "bumps_and_bruises")
    assert bruises.value.code == "no_critical_from_source"


def test_the_sources_file_reads_each_source_under_its_key_with_its_card() -> None:
    """Faim: « 500 g de nourriture décente permet à un personnage de récupérer d'un niveau de fatigue par heure »."""
    sources = load_sources()
    hunger = sources["hunger"]
    assert (hunger.key, hunger.name_fr, hunger.name_en) == ("hunger", "Faim", "Hunger")
    assert hunger.card.startswith("500 g de nourriture décente") and hunger.recovery.action == "food"
    assert (hunger.critical.kind, hunger.critical.dice) == ("death_within", "3d6")
    assert all(source.key == key for key, source in sources.items()) and len(sources) == 9


@pytest.mark.parametrize(
    ("fields", "message"),
    [
        (
            'name_fr="x"\nname_en="x"\nrecovery={trigger="auto", interval_minutes=5}\ncritical={kind="none"}',
            "card: missing",
        ),
        (
            'name_fr="x"\nname_en="x"\ncard="x"\nrecovery={trigger="action", action="nap", interval_minutes=5}\n'
            'critical={kind="none"}',
            "recovery.action: 'nap' is not one of ",
        ),
        (
            'name_fr="x"\nname_en="x"\ncard="x"\nrecovery={trigger="auto", treatment_dice="2x6"}\ncritical={kind="none"}',
            "recovery.treatment_dice: '2x6' is not NdS",
        ),
        (
            'name_fr="x"\nname_en="x"\ncard="x"\nrecovery={trigger="auto", interval_minutes=5}\n'
            'critical={kind="vigor_roll_every"}',
            "critical.every_minutes: needed for this kind",
        ),
        (
            'name_fr="x"\nname_en="x"\ncard="x"\nrecovery={trigger="auto"}\ncritical={kind="none"}',
            "recovery.interval_minutes: needed unless a treatment_dice is given",
        ),
        (
            'name_fr="x"\nname_en="x"\ncard="x"\nrecovery={trigger="auto", interval_minutes=5}\n'
            'critical={kind="death_within"}',
            "critical.dice: needed for this kind",
        ),
        (
            'name_fr="x"\nname_en="x"\ncard="x"\nrecovery={trigger="auto", interval_minutes=5, pace=2}\n'
            'critical={kind="none"}',
            "recovery: ",
        ),
        (
            'name_fr="x"\nname_en="x"\ncard="x"\nrecovery={trigger="auto", interval_minutes=5}\n'
            'critical={kind="none", hours=2}',
            "critical: ",
        ),
        (
            'name_fr="x"\nname_en="x"\ncard="x"\nrecovery={trigger="later", interval_minutes=5}\ncritical={kind="none"}',
            "recovery.trigger: 'later' is not one of ",
        ),
        (
            'name_fr="x"\nname_en="x"\ncard="x"\nrecovery={trigger="auto", interval_minutes=5, accelerated_action="nap"}\n'
            'critical={kind="none"}',
            "recovery.accelerated_action: 'nap' is not one of ",
        ),
        (
            'name_fr="x"\nname_en="x"\ncard="x"\nrecovery={trigger="auto", interval_minutes=5}\ncritical={kind="coma"}',
            "critical.kind: 'coma' is not one of ",
        ),
        (
            'name_fr="x"\nname_en="x"\ncard="x"\nrecovery={trigger="auto", interval_minutes=5}\n'
            'critical={kind="death_within", dice="3x6"}',
            "critical.dice: '3x6' is not NdS",
        ),
        (
            'name_fr="x"\nname_en="x"\ncard="x"\nrecovery={trigger="auto", interval_minutes=5}\n'
            'critical={kind="unconscious_for"}',
            "critical.dice: needed for this kind",
        ),
    ],
)
def test_a_broken_source_names_the_file_the_entry_the_field_and_the_problem(
    tmp_path, fields: str, message: str
) -> None:  # type: ignore[no-untyped-def]
    bad = tmp_path / "bad.toml"
    bad.write_text(f"[x]\n{fields}\n", encoding="utf-8")
    with pytest.raises(SourceDataError) as refused:
        load_sources(bad)
    assert str(refused.value).startswith(f"bad.toml: [x] {message}")
    # A field the file has and the rules do not know is named too (« pace », « hours »), not only the table.
    if message in ("recovery: ", "critical: "):
        assert "unexpected keyword argument" in str(refused.value)
