"""Build TRAGIC positions the way XMage's rule tests do: place cards in zones, act, assert."""

from __future__ import annotations

import random
from collections.abc import Iterable
from typing import Any

from tragic.engine import State, new_game
from tragic.engine.card_files import load_decklists

DECKS = load_decklists()
STEEL = DECKS["acier-et-plomb"]
GANG = DECKS["la-bande-des-terres-desolees"]
APTITUDE = {
    "S": "aptitude-force-1",
    "P": "aptitude-perception-1",
    "E": "aptitude-endurance-1",
    "C": "aptitude-charisme-1",
    "I": "aptitude-intelligence-1",
    "A": "aptitude-agilite-1",
    "L": "aptitude-chance-1",
}
QUIET_SKILLS = ["medecine-1", "troc-1", "science-1"]


class Dice(random.Random):
    """A generator whose d6 and d4 rolls are written in the test; shuffles still work."""

    def __init__(self, faces: Iterable[int]) -> None:
        super().__init__(0)
        self.faces = list(faces)

    def randint(self, a: int, b: int) -> int:
        return self.faces.pop(0) if self.faces else 6


def config(
    *, players: int = 2, profile: str = "wiki", extra_cards: list[dict[str, Any]] | None = None, **more: Any
) -> dict[str, Any]:
    decks = [STEEL, GANG, STEEL, GANG]
    cfg: dict[str, Any] = {
        "profile": profile,
        "players": [{"name": f"P{i + 1}", "deck": list(decks[i].cards)} for i in range(players)],
        **more,
    }
    if extra_cards:
        cfg["extra_cards"] = extra_cards
    return cfg


def started(
    traits: list[list[str]] | None = None,
    skills: list[list[str]] | None = None,
    *,
    seed: int = 7,
    **cfg: Any,
) -> State:
    """A game past Phase 0, in the first player's main phase."""
    state = new_game(config(**cfg), seed)
    n = len(state.players)
    traits = traits or [[] for _ in range(n)]
    skills = skills or [QUIET_SKILLS for _ in range(n)]
    for i in range(n):
        state.apply({"kind": "choose_traits", "player": i, "traits": traits[i]})
    for i in range(n):
        state.apply({"kind": "choose_skills", "player": i, "skills": skills[i]})
    while state.phase == "mulligan":
        player = state.current_players()[0]
        state.apply({"kind": "keep", "player": player, "bottom": []})
    return state


def at_mulligan(seed: int = 2) -> State:
    """A duel at its mulligan: seat 0 took « Vous êtes magique » (the London mulligan), both the same
    Compétences."""
    state = new_game(config(), seed)
    for i in (0, 1):
        state.apply({"kind": "choose_traits", "player": i, "traits": ["vous-etes-magique-1"] if i == 0 else []})
    for i in (0, 1):
        state.apply({"kind": "choose_skills", "player": i, "skills": ["medecine-1", "troc-1", "science-1"]})
    return state


def turn_of(state: State, player: int) -> State:
    """Hand the main phase to ``player`` with nothing pending (a test position, not a rule)."""
    state.active = player
    state.phase = "main"
    state.stack, state.priority, state.pending = [], [], None
    state.window, state.ending, state.upkeep_todo = "", False, []
    return state


def give(state: State, player: int, card_id: str, zone: str = "hand", *, engaged: bool = False) -> int:
    uid = state.new_instance(card_id, player, "library")
    attribute = state.pool[card_id].attribute if zone == "special" else None
    state.move(uid, zone, attribute=attribute)
    state.cards[uid].engaged = engaged
    state.invalidate()
    return uid


def equip(state: State, player: int, card_id: str) -> int:
    uid = give(state, player, card_id, "equipment")
    state.cards[uid].engaged = False
    state.invalidate()
    return uid


def set_points(state: State, player: int, attribute: str, points: int, *, card_id: str | None = None) -> None:
    while state.points(player, attribute) < points:
        give(state, player, card_id or APTITUDE[attribute], "special")


def clear_hands(state: State) -> None:
    for p in state.players:
        for uid in list(p.zones["hand"]):
            state.move(uid, "library")


def events_of(events: list[dict[str, Any]], kind: str) -> list[dict[str, Any]]:
    return [e for e in events if e["t"] == kind]


def snapshot(state: State) -> dict[str, Any]:
    return state.to_json()


def pass_all(state: State) -> list[dict[str, Any]]:
    """Everyone asked lets the stack resolve. A player with no legal response is never asked (the engine's
    automatic passing), so there may be nobody to ask: the events of the act then came with the act."""
    events: list[dict[str, Any]] = []
    while state.priority and state.pending is None and not state.over:
        events += state.apply({"kind": "pass", "player": state.priority[0]})
    return events
