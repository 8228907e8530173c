"""The bots a table can seat, by name: the lobby's difficulty levels and ``tragic_sim --bots``."""

from __future__ import annotations

from .bots import Bot, HeuristicBot, RandomBot
from .search import SearchBot

# From the easiest to the hardest.
BOTS: dict[str, type[Bot]] = {"random": RandomBot, "heuristic": HeuristicBot, "search": SearchBot}


def make_bot(name: str, seed: int = 0, *, budget: float | None = None) -> Bot:
    """``budget``: the search bot's seconds of CPU per decision (its own default otherwise)."""
    if name == "search" and budget is not None:
        return SearchBot(seed, budget=budget)
    return BOTS[name](seed)
