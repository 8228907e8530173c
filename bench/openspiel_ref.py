"""The reference for engine speed: OpenSpiel's ``python_block_dominoes`` (a pure-Python game of OpenSpiel's own
API), random playouts measured in steps per CPU-second (``time.process_time``: the machine is shared, so wall
time would count the others' work).

Shared by the engines' benchmarks (``bench/frag.py``, ``bench/tragic.py``): each divides its own steps per
CPU-second by this figure, measured once per ``make bench`` run (the same run, the same load). ``open_spiel``
is a development-only dependency; without it the reference is missing and the ratios are not printed.
"""

from __future__ import annotations

import random
import statistics
import time
from collections.abc import Callable
from functools import cache

from bench.figures import Figure

SECONDS = 3.0


@cache
def steps_per_cpu_second(seconds: float = SECONDS) -> float | None:
    """Random playouts of block dominoes: every ``apply_action`` is a step (chance outcomes, the deal, included)."""
    try:
        import pyspiel
        from open_spiel.python.games import block_dominoes  # noqa: F401  (registers python_block_dominoes)
    except ImportError:
        return None
    game = pyspiel.load_game("python_block_dominoes")
    rng = random.Random(1)
    steps, start = 0, time.process_time()
    while time.process_time() - start < seconds:
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes, weights = zip(*state.chance_outcomes(), strict=True)
                state.apply_action(rng.choices(outcomes, weights)[0])
            else:
                state.apply_action(rng.choice(state.legal_actions()))
            steps += 1
    return steps / (time.process_time() - start)


def ratio_figure(name: str, steps: float) -> list[Figure]:
    """``name``'s steps per CPU-second over the reference's, when OpenSpiel is installed."""
    reference = steps_per_cpu_second()
    if reference is None:
        return []
    return [Figure(name, steps / reference, "× block dominoes")]


def run() -> list[Figure]:
    reference = steps_per_cpu_second()
    if reference is None:
        return []
    return [Figure("openspiel.block_dominoes.random_playout", reference, "steps/cpu-s")]


def playouts(seconds: float, rng: random.Random) -> tuple[int, int, float] | None:
    """Random playouts of block dominoes for about ``seconds`` of CPU, as in :func:`steps_per_cpu_second`:
    (steps, of which players' decisions, CPU seconds), for benchmarks that interleave the reference with their
    own rounds. About 14 of a game's 24 steps are chance nodes (the deal, 7 tiles each), cheaper than a move."""
    try:
        import pyspiel
        from open_spiel.python.games import block_dominoes  # noqa: F401  (registers python_block_dominoes)
    except ImportError:
        return None
    game = pyspiel.load_game("python_block_dominoes")
    steps, decisions, start = 0, 0, time.process_time()
    while time.process_time() - start < seconds:
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes, weights = zip(*state.chance_outcomes(), strict=True)
                state.apply_action(rng.choices(outcomes, weights)[0])
            else:
                state.apply_action(rng.choice(state.legal_actions()))
                decisions += 1
            steps += 1
    return steps, decisions, time.process_time() - start


Contender = Callable[[float, random.Random, int], tuple[int, float]]


def interleaved(prefix: str, contenders: dict[str, Contender], rounds: int = 5, seconds: float = 1.0) -> list[Figure]:
    """Each round plays the reference, then every contender, ``seconds`` of CPU each, so all see the same load;
    the ratio to the reference is taken round by round and printed as its spread (min, median, max). On a
    shared 2-core machine a single ratio moves by a third from one run to the next: only the spread of
    interleaved rounds is worth quoting. ``contenders[name](seconds, rng, round)`` returns (steps, CPU seconds)."""
    rng = random.Random(1)
    ratios: dict[str, list[float]] = {name: [] for name in contenders}
    totals: dict[str, list[float]] = {name: [0, 0.0] for name in ["dominoes", *contenders]}
    for round_ in range(rounds):
        reference = playouts(seconds, rng)
        if reference is None:
            return []
        ref_steps, _decisions, ref_cpu = reference
        totals["dominoes"][0] += ref_steps
        totals["dominoes"][1] += ref_cpu
        for name, play in contenders.items():
            steps, cpu = play(seconds, rng, round_)
            totals[name][0] += steps
            totals[name][1] += cpu
            ratios[name].append((steps / cpu) / (ref_steps / ref_cpu))
    figures = [
        Figure(
            f"{prefix} openspiel block dominoes, {rounds} interleaved rounds", _rate(totals["dominoes"]), "steps/cpu-s"
        )
    ]
    for name, values in ratios.items():
        values.sort()
        figures += [
            Figure(f"{prefix} {name}, {rounds} interleaved rounds", _rate(totals[name]), "steps/cpu-s"),
            Figure(f"{prefix} {name} / block dominoes, round min", values[0], "×"),
            Figure(f"{prefix} {name} / block dominoes, round median", statistics.median(values), "×"),
            Figure(f"{prefix} {name} / block dominoes, round max", values[-1], "×"),
        ]
    return figures


def _rate(total: list[float]) -> float:
    return total[0] / total[1] if total[1] else 0.0
