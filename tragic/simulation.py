"""Headless games between bots, for ``manage.py tragic_sim`` and ``bench/tragic.py``."""

from __future__ import annotations

import math
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from tragic.engine import State, new_game
from tragic.engine.card_files import load_decklists
from tragic.engine.roster import make_bot


@dataclass
class SimulationReport:
    games: int
    seconds: float
    steps: int
    turns: int
    wins: Counter[str] = field(default_factory=Counter)
    draws: int = 0
    # bot name -> [decisions, CPU seconds spent choosing, slowest decision in CPU seconds]
    thinking: dict[str, list[float]] = field(default_factory=dict)
    # bot name -> decisions a safety cap (CPU or wall-clock) stopped before their counted work was done: at 0 a
    # seeded run is the same whatever the machine's load
    cuts: Counter[str] = field(default_factory=Counter)

    @property
    def games_per_second(self) -> float:
        return self.games / self.seconds if self.seconds else 0.0

    @property
    def steps_per_second(self) -> float:
        return self.steps / self.seconds if self.seconds else 0.0

    @property
    def average_turns(self) -> float:
        return self.turns / self.games if self.games else 0.0


def wilson_interval(wins: int, games: int, z: float = 1.96) -> tuple[float, float]:
    """The 95 % score (Wilson) interval of a win rate: it stays inside [0, 1] and is honest on few games."""
    if games == 0:
        return 0.0, 1.0
    rate = wins / games
    centre = (rate + z * z / (2 * games)) / (1 + z * z / games)
    half = z * math.sqrt(rate * (1 - rate) / games + z * z / (4 * games * games)) / (1 + z * z / games)
    return max(0.0, centre - half), min(1.0, centre + half)


def default_config(*, profile: str = "wiki", max_turns: int | None = 40, players: int = 2) -> dict[str, Any]:
    """The ready decks, in turn, one per seat."""
    decks = list(load_decklists().values())
    return {
        "profile": profile,
        "max_turns": max_turns,
        "players": [
            {
                "name": f"{decks[i % len(decks)].name} ({i + 1})" if players > len(decks) else decks[i].name,
                "deck": list(decks[i % len(decks)].cards),
            }
            for i in range(players)
        ],
    }


def seating_for(bots: tuple[str, ...], players: int, number: int) -> tuple[str, ...]:
    """Game ``number``'s bots, seat by seat: the names in turn, shifted by one every game so that no bot
    keeps the same deck or seat (with two bots and two seats: (a, b), then (b, a))."""
    return tuple(bots[(number + i) % len(bots)] for i in range(players))


def simulate(
    games: int,
    bots: tuple[str, ...],
    *,
    seed: int = 0,
    profile: str = "wiki",
    max_turns: int | None = 40,
    players: int = 2,
    search_budget: float | None = None,
    search_rounds: int | None = None,
    search_evaluation: str | None = None,
    first_game: int = 0,
    on_game: Callable[[int, tuple[str, ...], int | None, State], None] | None = None,
) -> SimulationReport:
    """``players`` seats (3 or 4 under the wiki rules), filled with ``bots`` in turn.

    Games are numbered from ``first_game``: a game's deal, seats and bots' seeds follow from ``seed`` and its
    number alone, so a long run stopped at game 62 goes on with ``first_game=62`` and plays exactly the games the
    whole run would have played (split a 200-game run across processes the same way)."""
    config = default_config(profile=profile, max_turns=max_turns, players=players)
    report = SimulationReport(games=games, seconds=0.0, steps=0, turns=0)
    start = time.perf_counter()
    for number in range(first_game, first_game + games):
        seating = seating_for(bots, players, number)
        seats = [
            make_bot(
                name,
                seed + number * players + i,
                budget=search_budget,
                rounds=search_rounds,
                evaluation=search_evaluation,
            )
            for i, name in enumerate(seating)
        ]
        state = new_game(config, seed + number)
        while not state.is_over():
            player = state.current_players()[0]
            began = time.process_time()
            action = seats[player].choose(state, player)
            spent = time.process_time() - began
            record = report.thinking.setdefault(seating[player], [0, 0.0, 0.0])
            record[0], record[1], record[2] = record[0] + 1, record[1] + spent, max(record[2], spent)
            state.apply(action)
            report.steps += 1
        report.turns += state.turn
        for name, bot in zip(seating, seats, strict=True):
            if hasattr(bot, "cuts"):
                report.cuts[name] += bot.cuts
        winner = state.winner()
        if on_game is not None:
            on_game(number, seating, winner, state)
        if winner is None:
            report.draws += 1
        else:
            same = len(set(seating)) == 1
            report.wins[f"{seating[winner]} (seat {winner + 1})" if same else seating[winner]] += 1
    report.seconds = time.perf_counter() - start
    return report
