"""Integer-coded actions (issue 15's speed work): the engine lists legal actions as codes and decodes them at its
boundary; the codes must stand for exactly the actions ``legal_actions`` offers, in the same order."""

from __future__ import annotations

import pytest

from frag.engine import IllegalAction, new_game
from frag.engine.board import load_board
from frag.engine.bots import heuristic_bot, random_code
from frag.engine.codes import KIND_NAMES, MOVE, encode, field_a, field_b, group_key, kind_of
from frag.engine.decoding import decode
from frag.engine.rng import Dice

FIGHTERS = [
    {"name": f"P{i}", "health": h, "speed": s, "accuracy": a}
    for i, (h, s, a) in enumerate([(2, 3, 2), (3, 2, 2), (1, 3, 3)])
]


@pytest.mark.parametrize("map_name", ["entrepot", "raffinerie"])
def test_every_legal_code_decodes_to_the_legal_action_at_the_same_rank(map_name: str) -> None:
    """Random and heuristic games to their end, every seat asked at every step (out-of-turn healing included)."""
    checked = 0
    for seed, bot in ((1, "random"), (2, "heuristic"), (3, "random")):
        state, dice = new_game({"map": map_name, "players": FIGHTERS, "turn_limit": 60}, seed), Dice(seed)
        while not state.is_over():
            for seat in range(len(FIGHTERS)):
                codes = state.legal_codes(seat)
                assert [decode(state, seat, c) for c in codes] == state.legal_actions(seat)
                checked += len(codes)
            seat = state.current_players()[0]
            if bot == "random":
                state.apply_code(seat, random_code(state, seat, dice))
            else:
                state.apply(heuristic_bot(state, seat, dice))
    assert checked > 1000


def test_the_groups_are_the_random_bots_kinds_each_once() -> None:
    state = new_game({"map": "entrepot", "players": FIGHTERS[:2]}, 5)
    dice = Dice(5)
    for _ in range(200):
        if state.is_over():
            break
        seat = state.current_players()[0]
        groups = state.legal_groups(seat)
        keys = [group_key(g[0]) for g in groups]
        assert len(keys) == len(set(keys))
        assert all(group_key(c) == key for g, key in zip(groups, keys, strict=True) for c in g)
        state.apply_code(seat, random_code(state, seat, dice))


def test_a_code_packs_its_kind_and_fields() -> None:
    code = encode(KIND_NAMES.index("attack"), a=3, b=41)
    assert (KIND_NAMES[kind_of(code)], field_a(code), field_b(code)) == ("attack", 3, 41)
    assert kind_of(encode(MOVE, b=0xFFFF)) == MOVE


def test_an_illegal_code_is_refused_and_changes_nothing() -> None:
    state = new_game({"map": "entrepot", "players": FIGHTERS[:2]}, 7)
    while state.phase == "placement":
        seat = state.current_players()[0]
        state.apply_code(seat, state.legal_codes(seat)[0])
    seat = state.current_players()[0]
    before = state.to_json()
    far = encode(MOVE, b=len(state.board.places) - 1)
    with pytest.raises(IllegalAction):
        state.apply_code(seat, encode(KIND_NAMES.index("end_turn")))  # rolling comes first
    state.apply_code(seat, state.legal_codes(seat)[0])  # the roll
    before = state.to_json()
    with pytest.raises(IllegalAction):
        state.apply_code(seat, far)
    assert state.to_json() == before


def test_move_codes_are_the_walk_within_places_and_paths_read_back_alike() -> None:
    board = load_board("raffinerie")
    for start in range(0, len(board.places), 7):
        for budget in (1, 4, 9, 18):
            within = board.walk_within(start, budget)
            assert board.move_codes(start, budget) == [MOVE | place << 4 for place, _ in within]
            assert all(board.path_to(start, place) == path for place, path in within)
