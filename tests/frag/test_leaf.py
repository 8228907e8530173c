"""The search bot's leaf: a fitted chance to win, read from what the position shows at the start of a turn."""

from __future__ import annotations

import importlib.util
from pathlib import Path

from frag.engine import new_game
from frag.engine.bots import heuristic_bot
from frag.engine.leaf import FEATURES, WEIGHTS, features, opponent, win_chance
from frag.engine.rng import Dice
from frag.engine.search import _value

TWO = [{"name": f"P{i}", "health": 2, "speed": 3, "accuracy": 2} for i in range(2)]
WEIGHT = dict(zip(FEATURES, WEIGHTS, strict=True))


def a_turn_start(map_name: str = "raffinerie", seed: int = 3, players: list | None = None):  # type: ignore[no-untyped-def]
    state = new_game({"map": map_name, "players": players or TWO}, seed)
    dice = Dice(seed)
    while state.phase != "movement":
        seat = state.current_players()[0]
        state.apply(heuristic_bot(state, seat, dice))
    return state


def test_one_weight_per_feature_and_the_signs_a_duel_expects() -> None:
    """What the fit must say for the leaf to be believed: each side's frags, Santé, weapons and blood markers count
    for it and against its opponent, and one frag from the win counts more than another frag."""
    state = a_turn_start()
    assert len(features(state, 0)) == len(FEATURES) == len(WEIGHTS)
    for mine, theirs in (("frags", "frags"), ("hp", "hp"), ("weapons", "weapons"), ("blood", "blood")):
        assert WEIGHT[f"{mine}_me"] > 0 > WEIGHT[f"{theirs}_opp"]
    assert WEIGHT["match_point_me"] > 0 > WEIGHT["match_point_opp"]


def test_a_point_of_sante_outweighs_a_weapon_in_play_and_a_card() -> None:
    """The hand-set leaf it replaces priced a weapon in play at a point of Santé (of two) and a card at 1.2 of 6, and
    the bot played worse with more rollouts: the fit of 8,000 duels says a point of Santé weighs several weapons."""
    state = a_turn_start()
    me = state.turn.player
    mine = state.fighters[me]
    assert not mine.out and mine.hp == mine.health == 2 and not mine.weapons
    plain = _value(state, me)
    mine.hp = 1
    sante_point = plain - _value(state, me)
    mine.hp = 2
    mine.weapons.append([state.decks["weapon"][0], 3])
    weapon = _value(state, me) - plain
    mine.weapons.clear()
    mine.hand.append(state.decks["gadget"][0])
    card = _value(state, me) - plain
    assert sante_point > 2 * weapon > 0
    assert weapon > card > 0


def test_the_leaf_is_a_chance_and_the_end_of_the_game_is_certain() -> None:
    state = a_turn_start()
    me = state.turn.player
    chance = win_chance(state, me)
    assert 0.0 < chance < 1.0
    # Against the opponent the two chances are read from each side's features, each with the mover's weights; only
    # the order matters: the fighter one frag from winning is the likelier winner.
    state.fighters[me].frags = 2
    assert win_chance(state, me) > chance
    state.phase, state.winner_seat = "over", me
    assert win_chance(state, me) == 1.0 and win_chance(state, 1 - me) == 0.0
    assert _value(state, me) == 100.0
    state.winner_seat = None
    assert win_chance(state, me) == 0.5


def test_with_more_fighters_the_opponent_is_the_leader_then_the_nearest() -> None:
    four = [{"name": f"P{i}", "health": 2, "speed": 3, "accuracy": 2} for i in range(4)]
    state = a_turn_start("entrepot", 5, four)
    me = state.turn.player
    others = [s for s in range(4) if s != me]
    state.fighters[others[2]].frags = 1
    assert opponent(state, me) == others[2]
    state.fighters[others[2]].frags = 0
    placed = [s for s in others if not state.fighters[s].out and state.fighters[s].place is not None]
    here = state.fighters[me].place
    nearest = min(placed, key=lambda s: (state.board.distance(here, state.fighters[s].place), s))
    assert opponent(state, me) == nearest


def test_the_fitting_script_labels_every_turn_s_start_with_its_mover_s_result() -> None:
    path = Path(__file__).resolve().parents[2] / "scripts" / "fit_frag_leaf.py"
    spec = importlib.util.spec_from_file_location("fit_frag_leaf", path)
    assert spec is not None and spec.loader is not None
    script = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(script)
    rows, labels = script.play("entrepot", 7)
    assert rows and len(rows) == len(labels)
    assert all(len(row) == len(FEATURES) for row in rows)
    # Two fighters take turns: consecutive rows belong to the two sides, so their labels are opposite.
    assert set(labels) == {0.0, 1.0}
    assert all(a + b == 1.0 for a, b in zip(labels, labels[1:], strict=False))
