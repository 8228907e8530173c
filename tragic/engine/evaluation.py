"""A position's worth for the search bot's truncated rollouts: a logistic model over public board features.

The search bot plays each candidate for a short horizon, then asks how likely the position is to be won. The
old answer was the life race alone (my share of life left minus the opponent's). This one reads what a player
at the table sees (« Points de Vie », the irradiation track, allies' power and life, SPECIAL points placed,
cards in hand, objects in play and equipment, whose turn it is) and weighs each by how much it predicted the
winner of heuristic-bot games (``WEIGHTS``: a logistic regression fitted on positions of 2-player games, both
rule profiles; ``docs/benchmarks.md``, session 7, gives the fit). Only public facts are read: hand and library
*sizes*, never their cards, so the search stays blind to what its player cannot see.
"""

from __future__ import annotations

import math

from .cards import ATTRIBUTES
from .game import State

# Feature names, in the order of :func:`features` and of ``WEIGHTS``: each is mine minus the opponent's (with
# several opponents, the strongest one's by the same model).
FEATURES = (
    "life",  # life left, in base lives (50 wiki, 100 booklet)
    "radiation",  # the irradiation track, in base lives
    "allies",  # allies and companions on the battlefield
    "ally_power",  # their power, in tenths of a base life
    "ally_life",  # their life left, in tenths of a base life
    "special",  # SPECIAL points above the seven base points
    "hand",  # cards in hand
    "objects",  # items and buildings in play, and pieces equipped
    "armour",  # the armour against generic damage
    "turn",  # +1 when it is my turn (I act next), -1 when it is the opponent's
)
# Fitted per rule profile (the booklet's life is 100, its SPECIAL window wider). The fit's intercept (the first
# library's edge, +0.4 wiki, +1.1 booklet) is left out: a position's worth must not depend on the seat.
WEIGHTS: dict[str, tuple[float, ...]] = {
    "wiki": (3.166, 0.0, -0.087, 0.731, 0.037, 0.29, 0.325, 0.515, 0.078, -0.31),
    "booklet": (2.921, 0.0, 0.049, 0.135, 0.286, 0.18, 0.212, 0.131, 0.357, -0.21),
}


def side(state: State, player: int) -> list[float]:
    """One player's raw features (all but ``turn``)."""
    p = state.players[player]
    base = state.profile.base_life
    allies = state.allies(player)
    zones = p.zones
    table, cards = state.pool, state.cards
    objects = sum(1 for u in zones["play"] if not table[cards[u].cid].is_ally) + len(zones["equipment"])
    return [
        max(0, p.life) / base,
        p.radiation / base,
        float(len(allies)),
        10 * sum(state.ally_power(u) for u in allies) / base,
        10 * sum(max(0, state.ally_life(u)) for u in allies) / base,
        float(sum(state.points(player, a) for a in ATTRIBUTES) - len(ATTRIBUTES)),
        float(len(zones["hand"])),
        float(objects),
        float(state.armour(player).get("generic", 0)),
    ]


def features(state: State, player: int, opponent: int) -> list[float]:
    mine, theirs = side(state, player), side(state, opponent)
    turn = 1.0 if state.active == player else -1.0
    return [a - b for a, b in zip(mine, theirs, strict=True)] + [turn]


def linear(values: list[float], weights: tuple[float, ...]) -> float:
    return sum(w * x for w, x in zip(weights, values, strict=True))


def evaluate(state: State, player: int) -> float:
    """In [-1, 1]: +1 won, -1 lost, 0 a draw; otherwise 2·P(win) - 1 against the strongest opponent."""
    if state.is_over():
        winner = state.winner()
        return 0.0 if winner is None else (1.0 if winner == player else -1.0)
    if state.players[player].eliminated:
        return -1.0
    weights = WEIGHTS.get(state.profile.name, WEIGHTS["wiki"])
    score = min(linear(features(state, player, o), weights) for o in state.opponents(player))
    score = max(-30.0, min(30.0, score))
    return 2.0 / (1.0 + math.exp(-score)) - 1.0
