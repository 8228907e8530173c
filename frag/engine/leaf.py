"""The search bot's leaf: the chance that the fighter whose turn begins wins, read from the position.

The rollouts of ``search`` stop when the bot's own next turn begins, and the position must then say how good it is.
Hand-set worths (so much a frag, so much a weapon) were tried for two sessions and stayed biased: with twice the
rollouts the bot played worse (docs/benchmarks.md, session 9). These weights are fitted instead: a logistic
regression of who won on what the position shows at the start of each turn, over games between heuristic bots
(the policy the rollouts themselves play) with ``fighters.STANDARD_SHEET``, on both maps. ``scripts/fit_frag_leaf.py`` plays those games and prints
``WEIGHTS``; the fit, its data and its held-out loss are recorded in docs/benchmarks.md.

The features read only what the player to move may know: positions, Santé, the cards in play, the sizes of the
hands (draws are public), blood markers. With more than two fighters the opponent is the leading one (most frags,
then the nearest): the weights were fitted on duels, and the leader is who takes the win from the player.
"""

from __future__ import annotations

import math

from .cards import PISTOL
from .heuristic import distance_to_pickups, weapon_strength
from .state import State

FEATURES = (
    "bias",
    "frags_me",
    "frags_opp",
    "match_point_me",
    "match_point_opp",
    "hp_me",
    "hp_opp",
    "weapons_me",
    "weapons_opp",
    "best_weapon_me",
    "best_weapon_opp",
    "hand_me",
    "hand_opp",
    "blood_me",
    "blood_opp",
    "pickup_steps_me",
    "pickup_steps_opp",
    "in_sight",
    "steps_apart",
)
PICKUP_STEPS_MAX = 10
STEPS_APART_MAX = 20

# Fitted by scripts/fit_frag_leaf.py (see its output in docs/benchmarks.md, session 10); one per FEATURES entry.
WEIGHTS = (
    0.7318,  # bias
    0.4689,  # frags_me
    -0.4455,  # frags_opp
    0.3847,  # match_point_me
    -0.2670,  # match_point_opp
    0.6648,  # hp_me
    -0.7925,  # hp_opp
    0.1404,  # weapons_me
    -0.1470,  # weapons_opp
    0.0808,  # best_weapon_me
    -0.0608,  # best_weapon_opp
    0.1481,  # hand_me
    -0.1556,  # hand_opp
    0.4077,  # blood_me
    -0.5062,  # blood_opp
    0.0004,  # pickup_steps_me
    -0.0099,  # pickup_steps_opp
    0.1829,  # in_sight
    -0.0215,  # steps_apart
)


def _best_weapon(state: State, weapons: list[list[int]]) -> float:
    """The strongest weapon's expected worth in play (the base pistol when none), as the heuristic weighs it."""
    return max([weapon_strength(PISTOL), *(weapon_strength(state.card(uid)) for uid, _ammo in weapons)])


def opponent(state: State, player: int) -> int:
    """The opponent the leaf weighs ``player`` against: the one with most frags, then the nearest on the board."""
    me = state.fighters[player]
    best, best_key = -1, (0, 0)
    for seat, fighter in enumerate(state.fighters):
        if seat == player:
            continue
        near = 0
        if me.place is not None and fighter.place is not None and not me.out and not fighter.out:
            near = -state.board.distance(me.place, fighter.place)
        key = (fighter.frags, near)
        if best < 0 or key > best_key:
            best, best_key = seat, key
    return best


def features(state: State, player: int) -> list[float]:
    """The position as ``player`` sees it, in the order of ``FEATURES``."""
    other = opponent(state, player)
    me, them = state.fighters[player], state.fighters[other]
    pickups = distance_to_pickups(state.board)
    row = [1.0, float(me.frags), float(them.frags)]
    # One frag from the win: the last frag ends the game, so it weighs more than the others.
    last = state.config["frags_to_win"] - 1
    row += [float(me.frags >= last), float(them.frags >= last)]
    row += [0.0 if me.out else float(max(0, me.hp)), 0.0 if them.out else float(max(0, them.hp))]
    row += [float(len(me.weapons)), float(len(them.weapons))]
    row += [_best_weapon(state, me.weapons), _best_weapon(state, them.weapons)]
    row += [float(len(me.hand)), float(len(them.hand)), float(me.blood), float(them.blood)]
    for fighter in (me, them):
        steps = PICKUP_STEPS_MAX
        if not fighter.out and fighter.place is not None:
            steps = min(PICKUP_STEPS_MAX, pickups.get(fighter.place, 0))
        row.append(float(steps))
    sight, apart = 0.0, float(STEPS_APART_MAX)
    if not me.out and not them.out and me.place is not None and them.place is not None:
        sight = 1.0 if state.line_of_sight(me.place, them.place) else 0.0
        apart = float(min(STEPS_APART_MAX, state.board.distance(me.place, them.place)))
    row += [sight, apart]
    return row


def win_chance(state: State, player: int) -> float:
    """The fitted chance, between 0 and 1, that ``player`` wins from here (1, 0 or ½ once the game is over)."""
    if state.is_over():
        winner = state.winner()
        return 1.0 if winner == player else 0.0 if winner is not None else 0.5
    logit = sum(w * x for w, x in zip(WEIGHTS, features(state, player), strict=True))
    if logit < -40:
        return 0.0
    return 1.0 / (1.0 + math.exp(-logit))
