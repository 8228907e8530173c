"""Guérison accélérée (Conscience, Médiocre) and Régénération (Bon) as data run by one code path.

« Les blessures réclamant habituellement une semaine de soins/repos par carte de pénalité (ou par point
de Revers) n'exigent plus qu'une journée de repos et de méditation (12 heures). (…) Le Psy ne peut
prolonger sa méditation au delà d'un nombre de jours égal à la valeur du Domaine de pouvoir. Chaque
"jour" d'utilisation de ce pouvoir entraîne la dépense d'un point de Potentiel psychique. » (appendix 1)
"""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from characters.rules import psychic
from characters.rules.errors import DataError, RuleViolation
from characters.rules.ladder import Rank
from characters.rules.psychic import DAY, HOUR, Wound

FAST = psychic.healing_power(psychic.FAST_HEALING)
REGEN = psychic.healing_power(psychic.REGENERATION)


def test_both_healing_powers_are_described_as_data() -> None:
    assert (FAST.domain, FAST.rank, FAST.ordinary_cycle, FAST.monthly_cycle) == (
        "conscience",
        Rank.MEDIOCRE,
        12 * HOUR,
        0,
    )
    assert (FAST.cost_per_cycle, FAST.cycle_limit(Rank.MEDIOCRE), FAST.cycle_limit(Rank.BON)) == (1, 3, 5)
    assert (REGEN.rank, REGEN.ordinary_cycle, REGEN.monthly_cycle, REGEN.cycle_limit(Rank.BON)) == (
        Rank.BON, HOUR, DAY, None,
    )  # fmt: skip


def test_fast_healing_needs_mediocre_a_weekly_wound_and_a_point() -> None:
    """« une journée de repos et de méditation (12 heures) »: the cycle is 12 hours; the power is Médiocre."""
    wound = [Wound(1, 2)]
    assert psychic.healing_start(FAST, domain_rank=Rank.MEDIOCRE, potential_left=3, wounds=wound) == 12 * HOUR
    with pytest.raises(RuleViolation, match="psychic.rank_too_low"):
        psychic.healing_start(FAST, domain_rank=Rank.FAIBLE, potential_left=2, wounds=wound)
    with pytest.raises(RuleViolation, match="psychic.latent"):
        psychic.healing_start(FAST, domain_rank=Rank.LAMENTABLE, potential_left=2, wounds=wound)
    with pytest.raises(RuleViolation, match="psychic.no_potential"):
        psychic.healing_start(FAST, domain_rank=Rank.MEDIOCRE, potential_left=0, wounds=wound)
    # « une semaine de soins […] par carte »: a month-long wound is not this power's.
    with pytest.raises(RuleViolation, match="psychic.nothing_to_heal"):
        psychic.healing_start(FAST, domain_rank=Rank.BON, potential_left=5, wounds=[Wound(1, 3, True)])
    assert [p.code for p in psychic.healing_powers_at(Rank.MEDIOCRE)] == ["fast_healing"]
    assert {p.code for p in psychic.healing_powers_at(Rank.BON)} == {"fast_healing", "regeneration"}


def test_a_day_of_meditation_takes_a_step_off_every_weekly_wound_for_a_point() -> None:
    """« n'exigent plus qu'une journée de repos et de méditation (12 heures) » ; « Chaque "jour" d'utilisation
    de ce pouvoir entraîne la dépense d'un point de Potentiel psychique »: the first day was paid at the start."""
    half = psychic.heal(FAST, wounds=[Wound(1, 2), Wound(2, 1)], carried_seconds=0, elapsed_seconds=6 * HOUR,
                        potential_left=2, domain_rank=Rank.MEDIOCRE)  # fmt: skip
    assert (half.severities, half.points, half.cycles, half.carried_seconds, half.stopped) == (
        {1: 2, 2: 1}, 0, 0, 6 * HOUR, "",
    )  # fmt: skip
    day = psychic.heal(FAST, wounds=[Wound(1, 2), Wound(2, 1)], carried_seconds=6 * HOUR, elapsed_seconds=6 * HOUR,
                       potential_left=2, domain_rank=Rank.MEDIOCRE)  # fmt: skip
    assert (day.severities, day.points, day.cycles, day.stopped) == ({1: 1, 2: 0}, 1, 1, "")
    done = psychic.heal(FAST, wounds=[Wound(1, 1)], carried_seconds=0, elapsed_seconds=2 * DAY, potential_left=1,
                        cycles_paid=2, domain_rank=Rank.MEDIOCRE)  # fmt: skip
    assert (done.severities, done.points, done.stopped, done.seconds_after_stop) == ({1: 0}, 0, "healed", 36 * HOUR)


def test_month_long_wounds_are_left_to_ordinary_care() -> None:
    result = psychic.heal(FAST, wounds=[Wound(1, 1), Wound(2, 3, True)], carried_seconds=0,
                          elapsed_seconds=3 * DAY, potential_left=3, domain_rank=Rank.BON)  # fmt: skip
    assert (result.severities, result.cycles, result.stopped) == ({1: 0, 2: 3}, 1, "healed")


def test_meditation_never_goes_beyond_the_domains_value_in_days() -> None:
    """« Le Psy ne peut prolonger sa méditation au delà d'un nombre de jours égal à la valeur du Domaine de
    pouvoir »: Médiocre (3) — the third day, already paid, is the last one even with wounds and points left."""
    result = psychic.heal(FAST, wounds=[Wound(1, 3)], carried_seconds=0, elapsed_seconds=5 * DAY,
                          potential_left=5, cycles_paid=3, domain_rank=Rank.MEDIOCRE)  # fmt: skip
    assert (result.severities, result.points, result.cycles, result.stopped) == ({1: 2}, 0, 1, "limit")
    assert result.seconds_after_stop == 5 * DAY - 12 * HOUR
    # Régénération has no such limit: it goes on while there are wounds and points.
    regen = psychic.heal(REGEN, wounds=[Wound(1, 3)], carried_seconds=0, elapsed_seconds=2 * HOUR,
                         potential_left=5, cycles_paid=9, domain_rank=Rank.BON)  # fmt: skip
    assert (regen.severities, regen.points, regen.stopped) == ({1: 1}, 2, "")


def test_fast_healing_stops_when_potential_runs_out() -> None:
    result = psychic.heal(FAST, wounds=[Wound(1, 3)], carried_seconds=0, elapsed_seconds=3 * DAY,
                          potential_left=0, cycles_paid=1, domain_rank=Rank.BON)  # fmt: skip
    assert (result.severities, result.points, result.cycles, result.stopped) == ({1: 2}, 0, 1, "no_potential")


@given(
    severities=st.lists(st.integers(min_value=0, max_value=3), max_size=4),
    elapsed=st.integers(min_value=0, max_value=10 * DAY),
    potential=st.integers(min_value=0, max_value=8),
    paid=st.integers(min_value=1, max_value=8),
    rank=st.integers(min_value=Rank.MEDIOCRE, max_value=Rank.EXCEPTIONNEL),
)
def test_fast_healing_never_worsens_a_wound_nor_overspends(severities, elapsed, potential, paid, rank) -> None:  # type: ignore[no-untyped-def]
    wounds = [Wound(i, s) for i, s in enumerate(severities)]
    result = psychic.heal(FAST, wounds=wounds, carried_seconds=0, elapsed_seconds=elapsed, potential_left=potential,
                          cycles_paid=paid, domain_rank=rank)  # fmt: skip
    assert all(0 <= result.severities[w.key] <= w.severity for w in wounds)
    assert 0 <= result.points <= max(0, potential)
    assert paid + result.points <= max(paid, rank)


def test_a_bad_healing_table_names_the_file_the_entry_and_the_field() -> None:
    entry = {"code": "x", "domain": "conscience", "rank": 3,
             "healing": {"ordinary_cycle_hours": 12, "monthly_cycle_hours": 0, "cost_per_cycle": "un", "max_cycles": "domain"}}  # fmt: skip
    with pytest.raises(DataError, match=r"powers.toml, entry 4 \(x\), field 'healing.cost_per_cycle'"):
        psychic._healing("powers.toml", 4, entry)
    entry["healing"] = {
        "ordinary_cycle_hours": 12,
        "monthly_cycle_hours": 0,
        "cost_per_cycle": 1,
        "max_cycles": "toujours",
    }
    with pytest.raises(DataError, match="max_cycles"):
        psychic._healing("powers.toml", 4, entry)


GOOD_HEALING = {"ordinary_cycle_hours": 1, "monthly_cycle_hours": 0, "cost_per_cycle": 1, "max_cycles": "none"}


def _healing_refusal(table: object) -> str:
    with pytest.raises(DataError) as refused:
        psychic._healing("powers.toml", 4, {"code": "x", "domain": "conscience", "rank": 3, "healing": table})
    return str(refused.value)


def test_a_healing_table_reads_back_in_seconds_and_a_power_without_one_heals_nothing() -> None:
    """The smallest legal table: cycles of an hour, a point a cycle, no month-long cycle, no cap."""
    entry = {"code": "x", "domain": "conscience", "rank": 3, "healing": GOOD_HEALING}
    assert psychic._healing("powers.toml", 4, entry) == psychic.HealingPower("x", "conscience", 3, HOUR, 0, 1, "none")
    long = GOOD_HEALING | {
        "ordinary_cycle_hours": 24,
        "monthly_cycle_hours": 24,
        "cost_per_cycle": 2,
        "max_cycles": "domain",
    }
    assert psychic._healing("powers.toml", 4, entry | {"healing": long}) == psychic.HealingPower(
        "x", "conscience", 3, DAY, DAY, 2, "domain"
    )
    assert psychic._healing("powers.toml", 4, {"code": "x", "rank": 3}) is None


@pytest.mark.parametrize(
    ("field", "value", "kind"),
    [
        ("ordinary_cycle_hours", -1, "int"),
        ("ordinary_cycle_hours", "1", "int"),
        ("monthly_cycle_hours", -1, "int"),
        ("monthly_cycle_hours", None, "int"),
        ("cost_per_cycle", -1, "int"),
        ("max_cycles", 3, "str"),
    ],
)
def test_each_healing_field_is_refused_with_its_name_and_type(field: str, value: object, kind: str) -> None:
    message = _healing_refusal(GOOD_HEALING | {field: value})
    assert message == f"powers.toml, entry 4 (x), field 'healing.{field}': {kind}"


@pytest.mark.parametrize("change", [{"ordinary_cycle_hours": 0}, {"cost_per_cycle": 0}, {"max_cycles": "always"}])
def test_a_healing_table_needs_hour_long_cycles_a_cost_and_a_known_cap(change: dict) -> None:
    assert _healing_refusal(GOOD_HEALING | change) == (
        "powers.toml, entry 4 (x), field 'healing': cycles of an hour or more, a cost of 1 or more, "
        'max_cycles "domain" or "none"'
    )
    assert _healing_refusal([1, 2]) == "powers.toml, entry 4 (x), field 'healing': a table is required"


def _start_refused(**kwargs: object) -> RuleViolation:
    with pytest.raises(RuleViolation) as refused:
        psychic.healing_start(REGEN, **kwargs)  # type: ignore[arg-type]
    return refused.value


def test_a_healing_power_starts_with_exactly_one_cycles_cost_left_and_each_refusal_is_exact() -> None:
    """« Un point de potentiel psychique doit être dépensé par cycle de récupération »: one point left is enough."""
    wounds = [Wound(1, 2)]
    assert psychic.healing_start(REGEN, domain_rank=Rank.BON, potential_left=1, wounds=wounds) == HOUR
    low = _start_refused(domain_rank=Rank.MOYEN, potential_left=4, wounds=wounds)
    assert low.code == "psychic.rank_too_low" and low.params == {"required": Rank.BON, "rank": Rank.MOYEN}
    assert _start_refused(domain_rank=Rank.LAMENTABLE, potential_left=4, wounds=wounds).code == "psychic.latent"
    assert _start_refused(domain_rank=Rank.BON, potential_left=4, wounds=[]).code == "psychic.nothing_to_heal"
    assert _start_refused(domain_rank=Rank.BON, potential_left=0, wounds=wounds).code == "psychic.no_potential"


def test_a_cycle_runs_only_for_wounds_still_open_of_the_kind_it_heals() -> None:
    """« une semaine de soins/repos par carte de pénalité »: a healed wound opens no cycle, ordinary or monthly."""
    assert psychic.healing_cycle(REGEN, [Wound(1, 0), Wound(2, 0, True)]) == 0
    assert psychic.healing_cycle(REGEN, [Wound(1, 0), Wound(2, 1, True)]) == DAY
    assert psychic.healing_cycle(FAST, [Wound(2, 1, True)]) == 0
    # « ne peut prolonger sa méditation au delà d'un nombre de jours égal à la valeur du Domaine de pouvoir ».
    assert FAST.cycle_limit(0) == 0 and FAST.cycle_limit(-1) == 0 and REGEN.cycle_limit(0) is None


def test_healing_field_by_field_when_it_ends_healed_out_of_points_or_at_its_limit() -> None:
    """Each completed cycle takes a step off every ordinary wound and starts the next for its cost; what stops it is
    said, with the time left over and nothing carried."""
    nothing = psychic.heal(REGEN, wounds=[Wound(1, 0)], carried_seconds=100, elapsed_seconds=50, potential_left=3)
    assert nothing == psychic.Healing({1: 0}, 0, 0, 0, "healed", 50)
    healed = psychic.heal(REGEN, wounds=[Wound(1, 1)], carried_seconds=0, elapsed_seconds=2 * HOUR, potential_left=5)
    assert healed == psychic.Healing({1: 0}, 0, 1, 0, "healed", HOUR)
    dry = psychic.heal(REGEN, wounds=[Wound(1, 3)], carried_seconds=0, elapsed_seconds=5 * HOUR, potential_left=0)
    assert dry == psychic.Healing({1: 2}, 0, 1, 0, "no_potential", 4 * HOUR)
    # A power of 2 points a cycle, capped at the domain's value 2: the second paid cycle is the last.
    dear = psychic.HealingPower("x", "conscience", 3, HOUR, 0, 2, "domain")
    capped = psychic.heal(dear, wounds=[Wound(1, 3)], carried_seconds=0, elapsed_seconds=10 * HOUR, potential_left=10,
                          domain_rank=2)  # fmt: skip
    assert capped == psychic.Healing({1: 1}, 2, 2, 0, "limit", 8 * HOUR)
    # The first cycle counts as paid by default; with none paid yet and no domain given, one cycle is the limit.
    assert psychic.heal(dear, wounds=[Wound(1, 3)], carried_seconds=0, elapsed_seconds=10 * HOUR, potential_left=10,
                        domain_rank=3).points == 4  # fmt: skip
    unpaid = psychic.heal(dear, wounds=[Wound(1, 3)], carried_seconds=0, elapsed_seconds=10 * HOUR, potential_left=10,
                          cycles_paid=0)  # fmt: skip
    assert (unpaid.stopped, unpaid.points, unpaid.cycles) == ("limit", 0, 1)
    # A cycle already run to its end completes at once.
    done = psychic.heal(REGEN, wounds=[Wound(1, 1)], carried_seconds=HOUR, elapsed_seconds=0, potential_left=0)
    assert (done.cycles, done.stopped) == (1, "healed")
