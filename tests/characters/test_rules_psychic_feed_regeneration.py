"""Feeding a power domain from another trait (VI) and Régénération (appendix 1, Conscience, Bon)."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from characters.rules import psychic
from characters.rules.errors import RuleViolation
from characters.rules.ladder import Rank
from characters.rules.psychic import DAY, HOUR, Wound

REGENERATION = psychic.healing_power(psychic.REGENERATION)


def test_a_fed_use_costs_no_potential_and_lowers_the_feeding_trait_one_rank() -> None:
    """« Le Narrateur peut également décider qu'une Aptitude […] peut servir à alimenter un Domaine de
    pouvoir donné […]. Le Rang de la Caractéristique concerné est alors réduit d'un cran »."""
    use = psychic.power_use(domain_rank=Rank.MOYEN, power_rank=Rank.FAIBLE, potential_left=0, fed=True)
    assert use.potential_left == 0
    assert psychic.feed(trait_rank=Rank.BON, ranks_lost=0) == 1
    assert psychic.feed(trait_rank=Rank.BON, ranks_lost=1) == 2


def test_without_a_feeding_trait_an_empty_potential_still_refuses() -> None:
    with pytest.raises(RuleViolation, match="psychic.no_potential"):
        psychic.power_use(domain_rank=Rank.MOYEN, power_rank=Rank.FAIBLE, potential_left=0)


def test_a_trait_down_to_abyssal_has_nothing_left_to_feed() -> None:
    assert psychic.feed(trait_rank=Rank.LAMENTABLE, ranks_lost=0) == 1
    with pytest.raises(RuleViolation, match="psychic.feed_exhausted"):
        psychic.feed(trait_rank=Rank.LAMENTABLE, ranks_lost=1)


def test_regeneration_needs_bon_in_conscience_a_wound_and_a_point() -> None:
    wound = [Wound(1, 2)]
    assert psychic.healing_start(REGENERATION, domain_rank=Rank.BON, potential_left=5, wounds=wound) == HOUR
    with pytest.raises(RuleViolation, match="psychic.rank_too_low"):
        psychic.healing_start(REGENERATION, domain_rank=Rank.MOYEN, potential_left=4, wounds=wound)
    with pytest.raises(RuleViolation, match="psychic.nothing_to_heal"):
        psychic.healing_start(REGENERATION, domain_rank=Rank.BON, potential_left=5, wounds=[])
    with pytest.raises(RuleViolation, match="psychic.no_potential"):
        psychic.healing_start(REGENERATION, domain_rank=Rank.BON, potential_left=0, wounds=wound)
    assert (
        psychic.healing_start(REGENERATION, domain_rank=Rank.BON, potential_left=5, wounds=[Wound(1, 3, True)]) == DAY
    )


def test_ordinary_wounds_heal_one_step_an_hour_for_a_point_an_hour() -> None:
    """« Des blessures réclamant habituellement une semaine de soins/repos par carte de pénalité (ou par point
    de Revers) n'exigent plus qu'une heure d'attention » ; « un point par heure pour les blessures
    "classiques" » ; « Il s'arrête lorsque les blessures sont soignées »."""
    # A Revers sérieux (2): the first hour was paid at the start; after it, the second hour costs a point.
    half = psychic.heal(
        REGENERATION, wounds=[Wound(1, 2)], carried_seconds=0, elapsed_seconds=HOUR // 2, potential_left=4
    )
    assert (half.severities, half.points, half.cycles, half.carried_seconds, half.stopped) == ({1: 2}, 0, 0, 1800, "")
    one = psychic.heal(REGENERATION, wounds=[Wound(1, 2)], carried_seconds=1800, elapsed_seconds=HOUR, potential_left=4)
    assert (one.severities, one.points, one.cycles, one.carried_seconds, one.stopped) == ({1: 1}, 1, 1, 1800, "")
    done = psychic.heal(
        REGENERATION, wounds=[Wound(1, 1)], carried_seconds=1800, elapsed_seconds=5 * HOUR, potential_left=3
    )
    assert (done.severities, done.points, done.stopped, done.seconds_after_stop) == (
        {1: 0},
        0,
        "healed",
        4 * HOUR + 1800,
    )


def test_month_long_wounds_go_in_24_hours_for_a_point_a_day_after_the_ordinary_ones() -> None:
    """« les blessures exigeant un mois de soins disparaissent au bout de 24 heures » ; « un point par jour
    pour les blessures réclamant habituellement des mois de soins »."""
    wounds = [Wound(1, 1), Wound(2, 3, monthly=True)]
    result = psychic.heal(REGENERATION, wounds=wounds, carried_seconds=0, elapsed_seconds=HOUR + DAY, potential_left=5)
    assert result.severities == {1: 0, 2: 0}
    assert (result.cycles, result.points, result.stopped, result.seconds_after_stop) == (2, 1, "healed", 0)


def test_regeneration_stops_when_potential_runs_out() -> None:
    """« Un point de potentiel psychique doit être dépensé par cycle de récupération »: no point, no cycle."""
    result = psychic.heal(
        REGENERATION, wounds=[Wound(1, 3)], carried_seconds=0, elapsed_seconds=3 * HOUR, potential_left=1
    )
    assert (result.severities, result.points, result.stopped, result.seconds_after_stop) == (
        {1: 1},
        1,
        "no_potential",
        HOUR,
    )


def test_a_wound_healed_meanwhile_stops_regeneration_at_once() -> None:
    result = psychic.heal(REGENERATION, wounds=[], carried_seconds=600, elapsed_seconds=HOUR, potential_left=3)
    assert (result.stopped, result.points, result.seconds_after_stop) == ("healed", 0, HOUR)


def test_a_month_is_28_days_or_more_per_card() -> None:
    assert psychic.is_monthly(28) and psychic.is_monthly(30) and not psychic.is_monthly(7)


@given(
    wounds=st.lists(st.tuples(st.integers(0, 3), st.booleans()), max_size=4),
    carried=st.integers(0, DAY),
    elapsed=st.integers(0, 5 * DAY),
    potential=st.integers(0, 7),
)
def test_regeneration_never_worsens_a_wound_nor_spends_points_it_does_not_have(
    wounds: list[tuple[int, bool]], carried: int, elapsed: int, potential: int
) -> None:
    """Invariants: severities only go down, at most one point per completed cycle and never more than the
    Potentiel left; once stopped, the rest of the time is handed back."""
    given_wounds = [Wound(i, s, m) for i, (s, m) in enumerate(wounds)]
    result = psychic.heal(
        REGENERATION, wounds=given_wounds, carried_seconds=carried, elapsed_seconds=elapsed, potential_left=potential
    )
    assert all(0 <= result.severities[w.key] <= w.severity for w in given_wounds)
    assert 0 <= result.points <= min(potential, result.cycles)
    assert 0 <= result.seconds_after_stop <= elapsed
    if result.stopped == "healed":
        assert not any(result.severities.values())
    if not result.stopped:
        assert result.seconds_after_stop == 0 and any(result.severities.values())
