"""Golden games: the same seed plays the same game, step for step, before and after any speed work.

Each case plays a seeded game between bots and hashes every action taken and the final state's JSON. The
hashes were taken from the engine before the hot path was optimised (issue 15), so an optimisation that
changes the order of the legal actions, a die roll, a shuffle or any rule's outcome fails here, even if
the replay tests (which only compare a game with itself) still pass.
"""

from __future__ import annotations

import hashlib
import json

import pytest

from tragic.engine import State, new_game
from tragic.engine.roster import make_bot
from tragic.engine.search import SearchBot
from tragic.simulation import default_config


def fingerprint(state, actions, offered) -> str:
    text = json.dumps({"actions": actions, "offered": offered, "state": state.to_json()}, sort_keys=True)
    return hashlib.sha256(text.encode()).hexdigest()[:16]


def play(bots, *, seed: int, profile: str = "wiki", players: int = 2, max_steps: int = 5000):
    """The game, and on the way every list of legal actions offered (in order: bots choose by position) and
    every list of events produced."""
    state = new_game(default_config(profile=profile, players=players), seed)
    actions, offered = [], []
    while not state.is_over() and len(actions) < max_steps:
        player = state.current_players()[0]
        offered.append(state.legal_actions(player))
        action = bots[player].choose(state, player)
        offered.append(state.apply(action))  # and the events it produced
        actions.append(action)
    return state, actions, offered


GOLDEN = {
    # (bot, profile, players, seed): fingerprint, taken before the speed work of issue 15
    ("random", "wiki", 2, 1): "cba0b15c3b6c791d",  # 145 steps, turn 29, winner 1
    ("random", "wiki", 2, 2): "6cfcb813a1392aa5",  # 125 steps, turn 21, winner 0
    ("random", "wiki", 2, 3): "fb23f43b6f80765b",  # 104 steps, turn 14, winner 1
    ("random", "booklet", 2, 1): "a558edac5dd985d9",  # 197 steps, turn 35, winner 1
    ("random", "booklet", 2, 2): "4becb73cd74ac981",  # 161 steps, turn 29, winner 0
    ("random", "booklet", 2, 3): "a0a5bab2104a81f1",  # 143 steps, turn 18, winner 1
    ("random", "wiki", 3, 4): "4ca4a36850e3d342",  # 162 steps, turn 21, winner 1
    ("random", "wiki", 4, 5): "f713412fbd956bc8",  # 177 steps, turn 32, winner 3
    ("heuristic", "wiki", 2, 1): "d7e58238f55a937e",  # 81 steps, turn 12, winner 0
    ("heuristic", "wiki", 2, 2): "911145a70a9c9fc7",  # 63 steps, turn 9, winner 0
    ("heuristic", "wiki", 2, 3): "4fedd8d76c932b26",  # 71 steps, turn 9, winner 0
    ("heuristic", "booklet", 2, 1): "14194cede7281278",  # 124 steps, turn 18, winner 0
    ("heuristic", "booklet", 2, 2): "29c37970900741a3",  # 123 steps, turn 17, winner 0
    ("heuristic", "booklet", 2, 3): "d9ffcddfd1e3f18f",  # 153 steps, turn 25, winner 0
    ("heuristic", "wiki", 3, 4): "fe138ce6d61180ab",  # 122 steps, turn 15, winner 1
    ("heuristic", "wiki", 4, 5): "a74feb3b89326899",  # 190 steps, turn 27, winner 3
}


@pytest.mark.parametrize(("bot", "profile", "players", "seed"), sorted(GOLDEN))
def test_a_seeded_bot_game_plays_exactly_as_before(bot, profile, players, seed):
    bots = [make_bot(bot, seed * 10 + i) for i in range(players)]
    state, actions, offered = play(bots, seed=seed, profile=profile, players=players)
    assert state.is_over()
    assert fingerprint(state, actions, offered) == GOLDEN[(bot, profile, players, seed)]


def test_a_seeded_search_bot_game_plays_exactly_as_before():
    """The search bot's determinizations (state copies, redrawn hidden cards) are part of the hot path too."""
    bots = [SearchBot(7, max_rollouts=8, horizon=20), make_bot("heuristic", 8)]
    state, actions, offered = play(bots, seed=7, max_steps=120)
    assert fingerprint(state, actions, offered) == SEARCH_GOLDEN


SEARCH_GOLDEN = "ce2e29e8e4f9cd7e"


def test_a_clone_is_the_json_round_trip_and_independent():
    """The search bot's fast copy gives what ``from_json(to_json())`` gives, and playing on in the copy leaves the
    original as it was (stack, pending decisions, zones, cards and generator included)."""
    bots = [make_bot("random", 3), make_bot("random", 4)]
    state = new_game(default_config(), 3)
    seen = set()
    while not state.is_over():
        copy = state.clone()
        assert copy.to_json() == State.from_json(state.to_json()).to_json()
        before = json.dumps(state.to_json(), sort_keys=True)
        for _ in range(3):
            if copy.is_over():
                break
            acting = copy.current_players()[0]
            copy.apply(bots[acting].choose(copy, acting))
        assert json.dumps(state.to_json(), sort_keys=True) == before
        seen.add("stack" if state.stack else "pending" if state.pending else state.phase)
        player = state.current_players()[0]
        state.apply(bots[player].choose(state, player))
    assert {"stack", "main", "upkeep"} <= seen
