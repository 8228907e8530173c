"""Bots play whole games: they always end (a winner or the turn cap), and replaying the actions rebuilds the game."""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from frag.engine import IllegalAction, State, new_game
from frag.engine.bots import play_out
from frag.engine.levels import BOTS
from frag.engine.rng import Dice

ATTRIBUTES = st.sampled_from([(h, s, 7 - h - s) for h in range(1, 5) for s in range(1, 5) if 1 <= 7 - h - s <= 4])


def config(map_name: str, fighters: list[tuple[int, int, int]], turn_limit: int) -> dict:
    return {
        "map": map_name,
        "players": [{"name": f"P{i}", "health": h, "speed": s, "accuracy": a} for i, (h, s, a) in enumerate(fighters)],
        "turn_limit": turn_limit,
    }


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    seed=st.integers(0, 2**32),
    map_name=st.sampled_from(["entrepot", "raffinerie"]),
    fighters=st.lists(ATTRIBUTES, min_size=2, max_size=6),
    bot=st.sampled_from(["random", "heuristic"]),
)
def test_bot_games_end_without_error_and_replay_exactly(seed: int, map_name: str, fighters: list, bot: str) -> None:
    setup = config(map_name, fighters, turn_limit=40)
    state = new_game(setup, seed)
    actions = play_out(state, [BOTS[bot]] * len(fighters), Dice(seed ^ 0xF7A6))
    assert state.is_over()
    assert state.winner() is not None or state.turn.number >= 40
    if state.winner() is not None and state.turn.number < 40:
        assert state.fighters[state.winner()].frags >= 3
    replay = new_game(setup, seed)
    for action in actions:
        replay.apply(action)
    assert replay.to_json() == state.to_json()
    assert State.from_json(state.to_json()).to_json() == state.to_json()


def test_heuristic_bots_reach_a_winner_on_both_maps() -> None:
    for map_name in ("entrepot", "raffinerie"):
        state = new_game(config(map_name, [(2, 3, 2)] * 4, turn_limit=400), seed=11)
        play_out(state, [BOTS["heuristic"]] * 4, Dice(11))
        assert state.is_over() and state.winner() is not None


def test_a_game_stopped_midway_resumes_from_its_json_and_ends_like_the_original() -> None:
    setup = config("raffinerie", [(2, 3, 2), (3, 2, 2), (1, 3, 3)], turn_limit=60)
    original = new_game(setup, seed=5)
    actions = play_out(original, [BOTS["random"]] * 3, Dice(5))
    resumed = new_game(setup, seed=5)
    half = len(actions) // 2
    for action in actions[:half]:
        resumed.apply(action)
    resumed = State.from_json(resumed.to_json())
    for action in actions[half:]:
        resumed.apply(action)
    assert resumed.to_json() == original.to_json()


@settings(max_examples=15, deadline=None)
@given(
    seed=st.integers(0, 2**32),
    steps=st.integers(0, 150),
    junk=st.sampled_from(
        [
            {"type": "move", "path": [9999]},
            {"type": "move", "path": []},
            {"type": "jump", "to": -1},
            {"type": "attack", "target": 0, "weapon": "laser"},
            {"type": "take_weapon", "pile": 99, "card": 0},
            {"type": "fly"},
            {"type": "play", "card": 10_000},
        ]
    ),
)
def test_any_refused_action_leaves_the_game_exactly_as_it_was(seed: int, steps: int, junk: dict) -> None:
    state = new_game(config("entrepot", [(2, 3, 2)] * 3, turn_limit=100), seed)
    play_out(state, [BOTS["random"]] * 3, Dice(seed), max_actions=steps)
    if state.is_over():
        return
    before = state.to_json()
    for seat in range(3):
        try:
            state.apply({**junk, "player": seat})
        except IllegalAction as refusal:
            assert refusal.reason
            assert state.to_json() == before
        else:
            raise AssertionError(f"{junk} was accepted")


def test_a_clone_is_an_exact_and_independent_copy() -> None:
    """Search bots copy the state at every rollout: the copy must be the same game and share nothing that changes."""
    players = [{"name": f"P{i}", "health": 2, "speed": 3, "accuracy": 2} for i in range(3)]
    state = new_game({"map": "raffinerie", "players": players, "turn_limit": 30}, 5)
    dice = Dice(5)
    for _ in range(120):
        if state.is_over():
            break
        seat = state.current_players()[0]
        state.apply(BOTS["random"](state, seat, dice))
        copy = state.clone()
        assert copy.to_json() == state.to_json()
    before = state.to_json()
    play_out(copy, [BOTS["random"]] * 3, Dice(9))
    assert state.to_json() == before
