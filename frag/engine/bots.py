"""Bots: one picks any legal action, the other goes for pick-ups and weak targets.

Both read only what their seat may know (positions, cards in play, their own hand) and choose
among ``legal_actions``; neither clones the state.
"""

from __future__ import annotations

from collections.abc import Callable

from .base import Action
from .cards import PISTOL
from .codes import group_key
from .decoding import decode
from .heuristic import heuristic_code, weapon_strength
from .rng import Dice
from .state import State

Bot = Callable[[State, int, Dice], Action]


def random_code(state: State, player: int, dice: Dice) -> int:
    """A uniformly random legal action, as its code, chosen by kind first so that long lists (moves, the squares a
    teleport card reaches) do not drown the rest. Each card in the hand is a kind of its own: a teleport card weighs
    as much as the movement roll, a Déconnexion as much as any other play."""
    groups = state.legal_groups(player)
    if len(groups) > 1:
        groups = sorted(groups, key=_first_key)
    choices = groups[dice.below(len(groups))]
    return choices[dice.below(len(choices))]


def _first_key(group: list[int]) -> str:
    return group_key(group[0])


def random_bot(state: State, player: int, dice: Dice) -> Action:
    """``random_code``'s choice as an action."""
    return decode(state, player, random_code(state, player, dice))


def _weapon_strength(state: State, action: Action) -> float:
    weapon = action["weapon"]
    return weapon_strength(PISTOL if weapon == PISTOL.id else state.card(weapon))


def heuristic_bot(state: State, player: int, dice: Dice) -> Action:
    """Heals when dying, shoots when the odds are good, loots, then walks towards pick-ups and weak targets
    (``heuristic.heuristic_code``'s choice, decoded)."""
    return decode(state, player, heuristic_code(state, player, dice))


def play_out(state: State, bots: list[Bot], dice: Dice, *, max_actions: int = 20_000) -> list[Action]:
    """Let the bots play until the game ends; return the actions they took, in order."""
    taken: list[Action] = []
    while not state.is_over() and len(taken) < max_actions:
        player = state.current_players()[0]
        action = bots[player](state, player, dice)
        state.apply(action)
        taken.append(action)
    return taken
