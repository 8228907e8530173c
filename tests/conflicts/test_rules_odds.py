"""Exact odds over the cards actually left, checked by brute force and by 100,000 simulated draws."""

from __future__ import annotations

import itertools
import random

from conflicts.rules.odds import Pool, hypergeometric, one_on_one, target_odds


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
