"""TRAGIC engine figures: random playouts per second and engine steps per second (`make bench`).

Rates are given per wall-clock second and per CPU second of this process: on a shared machine the
second one is the engine's own speed.

Beside OpenSpiel's ``python_block_dominoes`` (issue 15), the two random playouts are run in the same shape
and interleaved, one CPU second each, three rounds, so both see the same load:

- block dominoes: ``state.legal_actions()`` (integers), a uniform choice, ``state.apply_action(a)``; chance
  nodes (the deal) are steps too;
- TRAGIC: ``state.legal_codes(player)`` (integers; conceding left out, as the random bot does),
  a uniform choice, ``state.apply_code(c)``. A step is one decision of a player: draws, shuffles and dice
  are inside it, as no chance node is apart.

The playout through the action dicts (``legal_actions`` then the checked ``apply``, as the web table plays)
is measured too: the same games, with every action checked again.

The engine measured is the one the site runs: the compiled build (``make native``, tragic/engine/native.py)
when it is current, else the pure-Python modules; the figure "tragic engine compiled" says which (1 or 0).
``TABLEE_ENGINE=python python -m bench tragic`` measures the pure modules, for an A/B of the two.
"""

from __future__ import annotations

import json
import random
import time

from bench.figures import Figure
from bench.openspiel_ref import interleaved, ratio_figure
from tragic.engine import State, native, new_game
from tragic.simulation import SimulationReport, default_config, simulate


def _timed(games: int, bots: tuple[str, str]) -> tuple[SimulationReport, float]:
    start = time.process_time()
    report = simulate(games, bots, seed=1)
    return report, time.process_time() - start


def coded_playouts(seconds: float, rng: random.Random, first_seed: int = 0) -> tuple[int, float]:
    """Random playouts by codes for about ``seconds`` of CPU: (steps, CPU seconds)."""
    config = default_config()
    steps, seed, start = 0, first_seed, time.process_time()
    while time.process_time() - start < seconds:
        state = new_game(config, seed)
        seed += 1
        while not state.is_over():
            player = state.current_players()[0]
            codes = state.legal_codes(player, concede=False) or state.legal_codes(player)
            state.apply_code(rng.choice(codes))
            steps += 1
    return steps, time.process_time() - start


def dict_playouts(seconds: float, rng: random.Random, first_seed: int = 0) -> tuple[int, float]:
    """The same playouts through ``legal_actions`` and the checked ``apply``."""
    config = default_config()
    steps, seed, start = 0, first_seed, time.process_time()
    while time.process_time() - start < seconds:
        state = new_game(config, seed)
        seed += 1
        while not state.is_over():
            player = state.current_players()[0]
            legal = state.legal_actions(player)
            state.apply(rng.choice([a for a in legal if a["kind"] != "concede"] or legal))
            steps += 1
    return steps, time.process_time() - start


def versus_openspiel() -> list[Figure]:
    """Interleaved rounds: block dominoes, then TRAGIC by codes and by dicts, one CPU second each, five rounds;
    the ratios per round with their spread."""
    return interleaved(
        "tragic",
        {
            "random playouts by codes": lambda seconds, rng, round_: coded_playouts(seconds, rng, 1000 * round_),
            "random playouts by dicts": lambda seconds, rng, round_: dict_playouts(seconds, rng, 1000 * round_),
        },
    )


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
        Figure("tragic engine compiled (1: the mypyc build, 0: pure Python)", float(native.loaded()), ""),
        Figure("tragic random playouts", random_games.games_per_second, "games/s"),
        Figure("tragic random playouts per CPU second", random_games.games / random_cpu, "games/cpu-s"),
        Figure("tragic engine steps (random bots)", random_games.steps_per_second, "steps/s"),
        Figure("tragic engine steps per CPU second", random_games.steps / random_cpu, "steps/cpu-s"),
        Figure("tragic heuristic vs random games", heuristic_games.games_per_second, "games/s"),
        Figure("tragic heuristic vs random games per CPU second", heuristic_games.games / heuristic_cpu, "games/cpu-s"),
        Figure("tragic state JSON round trips", copy_rate, "copies/s"),
        # Issue 15: the engine's step loop beside OpenSpiel's python_block_dominoes, same run, same load.
        *ratio_figure("tragic random-playout steps per CPU second", random_games.steps / random_cpu),
        *versus_openspiel(),
    ]
