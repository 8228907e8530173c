"""Frag engine figures: bot playouts, line-of-sight queries on the larger map, the slow paths."""

from __future__ import annotations

import subprocess
import sys
import time
from pathlib import Path

from bench.figures import Figure, median_ms, per_second
from bench.openspiel_ref import interleaved, ratio_figure
from frag.engine import State, new_game
from frag.engine.board import load_board
from frag.engine.bots import play_out, random_code
from frag.engine.fighters import STANDARD_SHEET
from frag.engine.levels import BOTS
from frag.engine.rng import Dice
from frag.engine.sight import trace

ROOT = Path(__file__).resolve().parent.parent

FOUR = [{"name": f"P{i}", **STANDARD_SHEET} for i in range(4)]
TWO = FOUR[:2]


def _random_playouts(map_name: str, seconds: float, first_seed: int) -> tuple[int, float]:
    """Random playouts, 2 fighters, for ``seconds`` of CPU: (steps, CPU seconds). A step is what OpenSpiel's
    reference does per ``apply_action``: list every legal action as integers (``legal_groups``, the random bot's
    kinds), choose one, apply it with every check (``apply_code``, which decodes it into the action dict)."""
    steps, seed, start = 0, first_seed, time.process_time()
    while time.process_time() - start < seconds:
        state, dice = new_game({"map": map_name, "players": TWO, "turn_limit": 400}, seed), Dice(seed)
        while not state.is_over():
            seat = state.current_players()[0]
            state.apply_code(seat, random_code(state, seat, dice))
            steps += 1
        seed += 1
    return steps, time.process_time() - start


def _cold_playouts(map_name: str, seconds: float) -> tuple[int, float]:
    """``_random_playouts`` in a new interpreter: a new process's first games (a server just started, a worker of a
    tournament). The games load the map (its sight lines read from the shipped table), its cards, and fill the board's
    caches of walks, moves and jump landings as they ask; the interpreter's start and the imports are not counted."""
    script = f"from bench.frag import _random_playouts; print(*_random_playouts({map_name!r}, {seconds!r}, 0))"
    done = subprocess.run([sys.executable, "-c", script], cwd=ROOT, capture_output=True, text=True, check=True)
    steps, cpu = done.stdout.split()
    return int(steps), float(cpu)


def _fill_board_caches(map_name: str) -> None:
    """What a long-lived server reaches after enough games: the walk from every square and the sight line of every
    pair of places computed and kept (the board never changes)."""
    board = load_board(map_name)
    places = len(board.places)
    for start in range(places):
        board.walk_order(start)
    for a in range(places):
        for b in range(a + 1, places):
            board.sight_line(a, b)


def _random_steps(map_name: str, seconds: float = 3.0) -> list[Figure]:
    """Steps per CPU-second of random playouts, cold (the first ``seconds`` of CPU of a new process, see
    ``_cold_playouts``) and warm (in this process, every walk and sight line kept, then the same games played once
    more, so every cache they read is filled: a server that has played enough games). Both are compared to
    OpenSpiel's reference, measured once in this process."""
    cold_steps, cold_cpu = _cold_playouts(map_name, seconds)
    _fill_board_caches(map_name)
    _random_playouts(map_name, seconds, 0)
    steps, cpu = _random_playouts(map_name, seconds, 0)
    rate, cold_rate = steps / cpu, cold_steps / cold_cpu
    return [
        Figure(f"frag.random_playout.{map_name}.cold", cold_rate, "steps/cpu-s"),
        *ratio_figure(f"frag.random_playout.{map_name}.cold.vs_openspiel", cold_rate),
        Figure(f"frag.random_playout.{map_name}", rate, "steps/cpu-s"),
        *ratio_figure(f"frag.random_playout.{map_name}.vs_openspiel", rate),
    ]


def _playouts(map_name: str, bot: str, seconds: float = 3.0) -> Figure:
    games, seed, start = 0, 0, time.perf_counter()
    while time.perf_counter() - start < seconds:
        state = new_game({"map": map_name, "players": FOUR, "turn_limit": 400}, seed)
        play_out(state, [BOTS[bot]] * 4, Dice(seed))
        games += 1
        seed += 1
    return Figure(f"frag.playouts.{bot}.{map_name}", games / (time.perf_counter() - start), "games/s")


def _line_of_sight() -> list[Figure]:
    board = load_board("raffinerie")
    state = new_game({"map": "raffinerie", "players": FOUR}, 1)
    while state.phase == "placement":
        seat = state.current_players()[0]
        state.apply(state.legal_actions(seat)[0])
    places = len(board.places)
    pairs = [((i * 7919) % places, (i * 104729 + 13) % places) for i in range(5000)]

    def traced() -> None:
        for a, b in pairs[:500]:
            trace(board, min(a, b), max(a, b))

    def cold() -> None:
        board._los_cache.clear()
        for a, b in pairs[:500]:
            state.line_of_sight(a, b)

    def warm() -> None:
        for a, b in pairs:
            state.line_of_sight(a, b)

    traced_rate = per_second("x", traced, seconds=2.0).value * 500
    cold_rate = per_second("x", cold, seconds=2.0).value * 500
    warm()
    warm_rate = per_second("x", warm, seconds=2.0).value * len(pairs)
    return [
        Figure("frag.line_of_sight.raffinerie.traced", traced_rate, "traces/s"),
        Figure("frag.line_of_sight.raffinerie.uncached", cold_rate, "queries/s"),
        Figure("frag.line_of_sight.raffinerie.cached", warm_rate, "queries/s"),
    ]


def _slow_paths() -> list[Figure]:
    state = new_game({"map": "raffinerie", "players": FOUR, "turn_limit": 60}, 3)
    actions = play_out(state, [BOTS["random"]] * 4, Dice(3))

    def replay() -> None:
        rebuilt = new_game({"map": "raffinerie", "players": FOUR, "turn_limit": 60}, 3)
        for action in actions:
            rebuilt.apply(action)

    return [
        per_second("frag.state_clone", lambda: State.from_json(state.to_json()), seconds=1.5, unit="clones/s"),
        median_ms(f"frag.replay_{len(actions)}_actions", replay, repeat=10),
    ]


def _versus_openspiel() -> list[Figure]:
    """Warm random playouts on both maps interleaved with block dominoes, one CPU second each, five rounds: the
    ratio per round and its spread (a single ratio on a shared machine moves too much to quote)."""
    for name in ("entrepot", "raffinerie"):
        _fill_board_caches(name)
        _random_playouts(name, 1.0, 0)
    return interleaved(
        "frag",
        {
            f"random playouts {name}": lambda seconds, rng, round_, name=name: _random_playouts(
                name, seconds, 100 * round_
            )
            for name in ("entrepot", "raffinerie")
        },
    )


def run() -> list[Figure]:
    return [
        *_random_steps("entrepot"),
        *_random_steps("raffinerie"),
        *_versus_openspiel(),
        _playouts("entrepot", "heuristic"),
        _playouts("raffinerie", "heuristic"),
        _playouts("entrepot", "random"),
        *_line_of_sight(),
        *_slow_paths(),
    ]
