"""Past moments of a game: the replay, and the bot turns the live table plays out."""

from __future__ import annotations

from typing import Any

from django.conf import settings

from frag.engine import State, new_game
from frag.models import Game, Seat, Step
from frag.selectors.table import game_context


def replay_frame(game: Game, upto: int) -> tuple[State, list[Step]]:
    """The game as it stood after its first ``upto`` actions, with the steps that led there (setup included)."""
    state = new_game(game.config, game.seed)
    steps = list(game.steps.filter(number__lte=upto).order_by("number"))
    for step in steps:
        if step.number >= 1:
            state.apply(step.action)
    return state, steps


def bot_turn_ends(steps: list[Step], seats: list[Seat], after: int) -> list[int]:
    """Step numbers, after ``after``, that end a bot's turn: the moments the live table pauses on."""
    bots = {s.number for s in seats if s.is_bot}
    return [
        step.number
        for step in steps
        if step.number > after and step.seat in bots and any(e["type"] == "turn_ended" for e in step.events)
    ]


def live_pace() -> float:
    """Seconds between two bot turns on the live table (0: show only the outcome)."""
    return float(getattr(settings, "FRAG_LIVE_PACE", 0.6))


def playing_out_frames(game: Game, seats: list[Seat], user: Any, after: int) -> list[dict[str, Any]]:
    """Read-only tables at the end of each bot turn after step ``after`` (the last one excluded: it is now)."""
    steps = list(game.steps.order_by("number"))
    if not steps:
        return []
    ends = [n for n in bot_turn_ends(steps, seats, after) if n < steps[-1].number]
    if not ends:
        return []
    frames, state = [], new_game(game.config, game.seed)
    for index, step in enumerate(steps):
        if step.number >= 1:
            state.apply(step.action)
        if step.number in ends:
            frames.append(game_context(game, seats, user, frame=(state, steps[: index + 1])))
    return frames


def last_person_step(steps: list[Step], seats: list[Seat]) -> int:
    people = {s.number for s in seats if not s.is_bot}
    return max((s.number for s in steps if s.seat in people and s.number >= 1), default=0)
