"""The bots a table can seat, by name: the lobby's difficulty levels and ``tragic_sim --bots``."""

from __future__ import annotations

from typing import Any

from .bots import Bot, HeuristicBot, RandomBot
from .search import SearchBot

# From the easiest to the hardest.
BOTS: dict[str, type[Bot]] = {"random": RandomBot, "heuristic": HeuristicBot, "search": SearchBot}


# The search bot as the lobby and ``tragic_sim`` seat it (issue 15: under 1 s a move on the shared machine). Its
# work is counted in rounds, so a seeded game is the same whatever the load; the CPU budget is only a cap.
SEARCH_SEATED: dict[str, Any] = {
    "rounds": 16,
    "budget": 0.9,
    "candidates": 4,
    "horizon": 60,
    "paired": True,
    "halving": (6,),
    "openings": True,
}


def make_bot(
    name: str,
    seed: int = 0,
    *,
    budget: float | None = None,
    rounds: int | None = None,
    wall_cap: float | None = None,
    evaluation: str | None = None,
) -> Bot:
    """The search bot's settings are :data:`SEARCH_SEATED`'s, but for ``budget`` (its cap in seconds of CPU per
    decision), ``rounds`` (its work per decision), ``wall_cap`` (seconds of wall-clock per decision, for a
    table where a person waits) and ``evaluation`` (how a rollout's last position is scored: ``search.EVALUATIONS``)."""
    if name == "search":
        given = {"budget": budget, "rounds": rounds, "wall_cap": wall_cap, "evaluation": evaluation}
        settings = {**SEARCH_SEATED, **{key: value for key, value in given.items() if value is not None}}
        return SearchBot(seed, **settings)
    return BOTS[name](seed)
