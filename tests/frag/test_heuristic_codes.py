"""The heuristic bot reads integer codes now (``frag.engine.heuristic``): it must choose exactly what the dict-reading
bot of main chose (``heuristic_reference``), at every step of many seeded games, on both maps, with 2 to 4 fighters,
against itself and against the random bot (which brings it the odd positions: full hands, teleport cards kept,
markers to loot, dying fighters)."""

from __future__ import annotations

import pytest

from frag.engine import new_game
from frag.engine.bots import heuristic_bot, random_bot
from frag.engine.rng import Dice

from .heuristic_reference import heuristic_bot as reference_bot

FIGHTERS = [(2, 3, 2), (3, 2, 2), (1, 3, 3), (2, 2, 3), (4, 1, 2), (1, 4, 2)]


def _setup(map_name: str, players: int, seed: int) -> dict:
    return {
        "map": map_name,
        "players": [
            {"name": f"P{i}", "health": h, "speed": s, "accuracy": a}
            for i, (h, s, a) in enumerate((FIGHTERS[seed % 6 :] + FIGHTERS[: seed % 6])[:players])
        ],
        "turn_limit": 150,
    }


# Both maps' games are alike for this comparison; the larger map's 24 games run under `make test-slow`.
@pytest.mark.parametrize("map_name", ["entrepot", pytest.param("raffinerie", marks=pytest.mark.slow)])
def test_the_code_reading_heuristic_makes_the_dict_reading_bots_choices(map_name: str) -> None:
    kinds: dict[str, int] = {}
    teleport_turns = 0
    for seed in range(24):
        players = 2 + seed % 3
        state = new_game(_setup(map_name, players, seed), seed)
        dice, twin, other = Dice(seed), Dice(seed), Dice(seed ^ 0xBEEF)
        randoms = {0} if seed % 4 == 3 else set()
        steps = 0
        while not state.is_over() and steps < 1500:
            seat = state.current_players()[0]
            if seat in randoms:
                action = random_bot(state, seat, other)
            else:
                expected = reference_bot(state, seat, twin)
                action = heuristic_bot(state, seat, dice)
                assert action == expected, (seed, steps)
                assert dice.position == twin.position
                kinds[action["type"]] = kinds.get(action["type"], 0) + 1
                if state.phase == "movement" and any(
                    state.card(u).effect == "teleport" for u in state.fighters[seat].hand
                ):
                    teleport_turns += 1
            state.apply(action)
            steps += 1
    # The games went through every kind of decision the bot makes, teleport cards in hand included.
    assert {"place", "roll", "move", "attack", "play", "end_turn", "discard", "take_weapon"} <= set(kinds)
    assert teleport_turns > 0
