"""Headless games between bots, for ``manage.py tragic_sim`` and ``bench/tragic.py``."""

from __future__ import annotations

import time
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from tragic.engine import new_game
from tragic.engine.bots import make_bot
from tragic.engine.cards import load_decklists


@dataclass
class SimulationReport:
    games: int
    seconds: float
    steps: int
    turns: int
    wins: Counter[str] = field(default_factory=Counter)
    draws: int = 0

    @property
    def games_per_second(self) -> float:
        return self.games / self.seconds if self.seconds else 0.0

    @property
    def steps_per_second(self) -> float:
        return self.steps / self.seconds if self.seconds else 0.0

    @property
    def average_turns(self) -> float:
        return self.turns / self.games if self.games else 0.0


def default_config(*, profile: str = "wiki", max_turns: int | None = 40) -> dict[str, Any]:
    decks = list(load_decklists().values())
    return {
        "profile": profile,
        "max_turns": max_turns,
        "players": [{"name": deck.name, "deck": list(deck.cards)} for deck in decks[:2]],
    }


def simulate(
    games: int, bots: tuple[str, str], *, seed: int = 0, profile: str = "wiki", max_turns: int | None = 40
) -> SimulationReport:
    """Seats alternate every game so that neither bot keeps the same deck or seat."""
    config = default_config(profile=profile, max_turns=max_turns)
    report = SimulationReport(games=games, seconds=0.0, steps=0, turns=0)
    start = time.perf_counter()
    for number in range(games):
        seating = bots if number % 2 == 0 else (bots[1], bots[0])
        players = [make_bot(name, seed + number * 2 + i) for i, name in enumerate(seating)]
        state = new_game(config, seed + number)
        while not state.is_over():
            player = state.current_players()[0]
            state.apply(players[player].choose(state, player))
            report.steps += 1
        report.turns += state.turn
        winner = state.winner()
        if winner is None:
            report.draws += 1
        else:
            report.wins[f"{seating[winner]} (seat {winner + 1})" if seating[0] == seating[1] else seating[winner]] += 1
    report.seconds = time.perf_counter() - start
    return report
