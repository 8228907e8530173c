"""The bots a table can seat, by name: the lobby's difficulty levels and ``tragic_sim --bots``."""

from __future__ import annotations

from typing import Any

from .bots import Bot, HeuristicBot, RandomBot
from .search import SearchBot

# From the easiest to the hardest.
BOTS: dict[str, type[Bot]] = {"random": RandomBot, "heuristic": HeuristicBot, "search": SearchBot}


# The search bot as the lobby and ``tragic_sim`` seat it (issue 15: under 1 s a move on the shared machine).
SEARCH_SEATED = {"budget": 0.5, "candidates": 4, "horizon": 60, "paired": True}


def make_bot(name: str, seed: int = 0, *, budget: float | None = None) -> Bot:
    """``budget``: the search bot's seconds of CPU per decision (:data:`SEARCH_SEATED`'s otherwise)."""
    if name == "search":
        settings: dict[str, Any] = {**SEARCH_SEATED, **({"budget": budget} if budget is not None else {})}
        return SearchBot(seed, **settings)
    return BOTS[name](seed)
