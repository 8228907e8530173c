"""TRAGIC engine figures: random playouts per second and engine steps per second (`make bench`).

Rates are given per wall-clock second and per CPU second of this process: on a shared machine the
second one is the engine's own speed.
"""

from __future__ import annotations

import json
import time

from bench.figures import Figure
from bench.openspiel_ref import ratio_figure
from tragic.engine import State, new_game
from tragic.simulation import SimulationReport, default_config, simulate


def _timed(games: int, bots: tuple[str, str]) -> tuple[SimulationReport, float]:
    start = time.process_time()
    report = simulate(games, bots, seed=1)
    return report, time.process_time() - start


def run() -> list[Figure]:
    random_games, random_cpu = _timed(200, ("random", "random"))
    heuristic_games, heuristic_cpu = _timed(200, ("heuristic", "random"))
    # A full state copy is the slow path (design.md rule 7): measured, never used by the bots.
    state = new_game(default_config(), 3)
    copies, start = 0, time.perf_counter()
    while time.perf_counter() - start < 1.0:
        State.from_json(json.loads(json.dumps(state.to_json())))
        copies += 1
    copy_rate = copies / (time.perf_counter() - start)
    return [
        Figure("tragic random playouts", random_games.games_per_second, "games/s"),
        Figure("tragic random playouts per CPU second", random_games.games / random_cpu, "games/cpu-s"),
        Figure("tragic engine steps (random bots)", random_games.steps_per_second, "steps/s"),
        Figure("tragic engine steps per CPU second", random_games.steps / random_cpu, "steps/cpu-s"),
        Figure("tragic heuristic vs random games", heuristic_games.games_per_second, "games/s"),
        Figure("tragic heuristic vs random games per CPU second", heuristic_games.games / heuristic_cpu, "games/cpu-s"),
        Figure("tragic state JSON round trips", copy_rate, "copies/s"),
        # Issue 15: the engine's step loop beside OpenSpiel's python_block_dominoes, same run, same load.
        *ratio_figure("tragic random-playout steps per CPU second", random_games.steps / random_cpu),
    ]
