"""Exact odds over the cards actually left, checked by brute force and by 100,000 simulated draws."""

from __future__ import annotations

import itertools
import random

import pytest

from conflicts.rules.errors import RuleError
from conflicts.rules.odds import Group, Pool, bucket, convolve, hypergeometric, one_on_one, target_odds, weighted_sum


def test_hypergeometric_matches_counting() -> None:
    """3 cards from 8 holding 4 successes: counting every hand."""
    deck = [1, 1, 1, 1, 0, 0, 0, 0]
    counts = [0] * 4
    hands = list(itertools.combinations(range(8), 3))
    for hand in hands:
        counts[sum(deck[i] for i in hand)] += 1
    assert [round(p, 12) for p in hypergeometric(8, 4, 3)] == [round(c / len(hands), 12) for c in counts]


def test_odds_match_an_exhaustive_enumeration_of_a_small_deck() -> None:
    """Attack 3 and defence 2 from the same 9 cards (5 successes): every ordered deal counted."""
    deck = [1] * 5 + [0] * 4
    outcomes = [0, 0, 0, 0]
    deals = list(itertools.permutations(range(9), 5))
    for deal in deals:
        attack = sum(deck[i] for i in deal[:3])
        defence = sum(deck[i] for i in deal[3:])
        outcomes[min(3, max(0, attack - defence))] += 1
    odds = target_odds(pools={"d": Pool(9, 5)}, attack=[("d", 3)], defence=[("d", 2)])
    assert [round(p, 12) for p in odds.chances] == [round(c / len(deals), 12) for c in outcomes]


def test_cards_already_drawn_count_as_known_successes() -> None:
    odds = target_odds(pools={"d": Pool(10, 5)}, attack=[("d", 1)], known_attack=2, known_defence=0)
    assert odds.chances[0] == 0 and round(odds.chances[3], 12) == 0.5


def test_exact_odds_agree_with_100000_simulated_draws_within_one_percent() -> None:
    """The property the issue asks for: several splits, deck states and pools, simulated without replacement."""
    rng = random.Random(20261122)
    cases = [
        # (pools {name: (size, successes)}, attack [(pool, n)], defence [(pool, n)], defence weight, cost)
        ({"t": (40, 20)}, [("t", 10)], [("t", 10)], 1, 1),
        ({"t": (23, 14)}, [("t", 4), ("t", 2)], [("t", 3)], 1, 1),
        ({"a": (20, 10), "d": (17, 6)}, [("a", 5)], [("d", 2)], 2, 1),
        ({"t": (31, 12)}, [("t", 7)], [("t", 1)], 1, 2),
    ]
    runs = 25_000  # 4 cases x 25,000 = 100,000 simulated draws
    for pools, attack, defence, weight, cost in cases:
        exact = target_odds(
            pools={k: Pool(*v) for k, v in pools.items()},
            attack=attack,
            defence=defence,
            defence_weight=weight,
            cost=cost,
        ).chances
        decks = {k: [1] * s + [0] * (n - s) for k, (n, s) in pools.items()}
        counts = [0, 0, 0, 0]
        for _ in range(runs):
            need = {k: sum(n for p, n in attack + defence if p == k) for k in pools}
            hands = {k: rng.sample(decks[k], need[k]) for k in pools}
            net = 0
            for p, n in attack:
                net += sum(hands[p][:n])
                hands[p] = hands[p][n:]
            for p, n in defence:
                net -= weight * sum(hands[p][:n])
                hands[p] = hands[p][n:]
            counts[min(3, max(0, net) // cost)] += 1
        for p_exact, c in zip(exact, counts, strict=True):
            assert abs(p_exact - c / runs) < 0.01, (pools, exact, [c / runs for c in counts])


def test_ten_against_ten_from_forty() -> None:
    odds = one_on_one(40, 20, 10, 10)
    assert abs(sum(odds.chances) - 1) < 1e-12
    assert odds.chances[0] > odds.chances[1] > odds.chances[2]


# ------------------------------------------------------------------ small pools counted by hand (mutation tests)
# « les succès qu'elles [les cartes de défense] engendrent viennent réduire le nombre de succès de l'adversaire »
# (V, « Jeu défensif »); cards drawn from one pile are not put back before the next participant draws.


def _close(got: tuple[float, ...] | list[float], want: list[float]) -> bool:
    return list(got) == pytest.approx(want, abs=1e-12)


def test_hypergeometric_by_hand_and_its_edges() -> None:
    """2 cards from 5 holding 2 successes: 3 of the 10 pairs have none, 6 one, 1 both."""
    assert _close(hypergeometric(5, 2, 2), [0.3, 0.6, 0.1])
    assert hypergeometric(5, 2, 0) == [1.0] and _close(hypergeometric(5, 5, 5), [0, 0, 0, 0, 0, 1])
    assert _close(hypergeometric(5, 0, 5), [1, 0, 0, 0, 0, 0])
    for size, wins, draws in ((5, 2, 6), (5, 2, -1), (5, 6, 2), (5, -1, 2)):
        with pytest.raises(RuleError) as refused:
            hypergeometric(size, wins, draws)
        assert refused.value.code == "bad_pool"
        assert refused.value.values == {"size": size, "successes": wins, "draws": draws}


def test_two_draws_from_one_pile_depend_on_each_other() -> None:
    """One attack card then one defence card from 4 cards holding 2 successes: +1 when the first succeeds and the
    second fails (2/4 × 2/3), −1 the other way round, 0 otherwise (both succeed 1/6, both fail 1/6)."""
    net = weighted_sum({"d": Pool(4, 2)}, [Group("d", 1, 1), Group("d", 0, 5), Group("d", 1, -1)])
    assert net == pytest.approx({1: 1 / 3, 0: 1 / 3, -1: 1 / 3}) and set(net) == {-1, 0, 1}
    # Weighted: the defence card's success cancels two.
    heavy = weighted_sum({"d": Pool(4, 2)}, [Group("d", 2, 1), Group("d", 1, -2)])
    # Two attack cards hold 0, 1 or 2 successes (1/6, 4/6, 1/6); the defence card then succeeds 2/2, 1/2, 0/2 times.
    assert heavy == pytest.approx({-2: 1 / 6, -1: 2 / 6, 1: 2 / 6, 2: 1 / 6}) and set(heavy) == {-2, -1, 1, 2}


def test_a_pile_that_runs_out_or_a_pile_nobody_knows_is_refused() -> None:
    with pytest.raises(RuleError) as exhausted:
        weighted_sum({"d": Pool(4, 2)}, [Group("d", 3, 1), Group("d", 2, -1)])
    assert exhausted.value.code == "pool_exhausted" and exhausted.value.values == {"size": 4, "draws": 5}
    assert sum(weighted_sum({"d": Pool(4, 2)}, [Group("d", 2, 1), Group("d", 2, -1)]).values()) == pytest.approx(1)
    with pytest.raises(RuleError) as unknown:
        weighted_sum({"d": Pool(4, 2)}, [Group("d", 1, 1), Group(2, 1, 1), Group("b", 1, 1)])
    assert unknown.value.code == "unknown_pool" and unknown.value.values == {"pools": ["2", "b"]}


def test_separate_piles_are_independent_and_a_pile_nobody_draws_from_counts_nothing() -> None:
    """One attack card from a pile of 2 holding 1 success, one defence card from another pile of 4 holding 1."""
    net = weighted_sum({"a": Pool(2, 1), "spare": Pool(3, 3), "d": Pool(4, 1)}, [Group("a", 1, 1), Group("d", 1, -1)])
    assert net == pytest.approx({1: 1 / 2 * 3 / 4, 0: 1 / 2 * 3 / 4 + 1 / 2 * 1 / 4, -1: 1 / 2 * 1 / 4})
    assert convolve({0: 0.5, 1: 0.5}, {0: 0.25, 2: 0.75}) == pytest.approx({0: 0.125, 1: 0.125, 2: 0.375, 3: 0.375})


def test_net_successes_fold_into_revers_with_a_floor_a_cost_and_three_or_more() -> None:
    net = {-2: 0.1, 0: 0.1, 1: 0.1, 2: 0.1, 3: 0.1, 4: 0.1, 5: 0.4}
    assert _close(bucket(net).chances, [0.2, 0.1, 0.1, 0.6])
    assert _close(bucket(net, offset=-1).chances, [0.3, 0.1, 0.1, 0.5])
    assert _close(bucket(net, cost=2).chances, [0.3, 0.2, 0.5, 0.0])
    assert _close(bucket(net, offset=2, cost=2).chances, [0.1, 0.2, 0.2, 0.5])
    assert bucket(net).any_revers == pytest.approx(0.8)
    with pytest.raises(RuleError) as refused:
        bucket(net, cost=0)
    assert refused.value.code == "bad_cost" and refused.value.values == {"cost": 0}
    assert bucket(net, cost=1).chances == bucket(net).chances


def test_known_cards_and_armour_shift_the_odds_of_one_target() -> None:
    """Two successes already against the target, one defence success on the table cancelling two (an armour of the
    future), and one armour card (weight 2) still to draw from 2 cards holding 1 success."""
    odds = target_odds(
        pools={"d": Pool(2, 1)},
        attack=[],
        known_attack=3,
        known_defence=1,
        defence_weight=2,
        armour=[("d", 1, 2)],
    )
    # 3 − 2 = 1 known; the armour card cancels 2 more half of the time.
    assert _close(odds.chances, [0.5, 0.5, 0, 0])
    cancels = target_odds(pools={}, attack=[], known_attack=3, known_armour_cancels=1)
    assert _close(cancels.chances, [0, 0, 1, 0])
    dear = target_odds(pools={}, attack=[], known_attack=5, cost=2)
    assert _close(dear.chances, [0, 0, 1, 0])
    defended = target_odds(pools={"d": Pool(2, 2)}, attack=[("d", 1)], defence=[("d", 1)], defence_weight=3)
    assert _close(defended.chances, [1, 0, 0, 0])


def test_one_against_one_reads_a_single_pile() -> None:
    assert one_on_one(4, 2, 1, 1) == target_odds(
        pools={"deck": Pool(4, 2)}, attack=[("deck", 1)], defence=[("deck", 1)]
    )
    assert _close(one_on_one(4, 2, 1, 1).chances, [2 / 3, 1 / 3, 0, 0])
