"""The bots a game may seat, by name: the lobby's difficulty levels and ``frag_sim --bot``."""

from __future__ import annotations

from .bots import Bot, heuristic_bot, random_bot
from .search import search_bot

BOTS: dict[str, Bot] = {"random": random_bot, "heuristic": heuristic_bot, "search": search_bot}
