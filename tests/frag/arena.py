"""Small boards and scripted dice for rule tests: place fighters, script the dice, act, assert."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from frag.engine.base import ACTION
from frag.engine.board import parse_board
from frag.engine.fighters import Fighter, Turn
from frag.engine.setup import new_game
from frag.engine.state import State

OPEN = """
#########
#1.....2#
#.......#
#3.....4#
#.......#
#5.....6#
#########
"""


class ScriptedDice:
    """Dice that roll what the test says, in order, and fail loudly when the script runs out."""

    def __init__(self, faces: Iterable[int] = ()) -> None:
        self.faces = list(faces)
        self.position = 0

    def d6(self) -> int:
        if not self.faces:
            raise AssertionError("the test did not script enough dice")
        return self.faces.pop(0)

    def roll(self, count: int) -> list[int]:
        return [self.d6() for _ in range(max(0, count))]

    def below(self, n: int) -> int:
        return 0

    def shuffle(self, items: list[Any]) -> None:
        return None


def board_from(grid: str, name: str = "test"):  # type: ignore[no-untyped-def]
    quotes = "'''"
    text = f'title = {{ fr = "T", en = "T" }}\ndescription = {{ fr = "T", en = "T" }}\ngrid = {quotes}{grid}{quotes}\n'
    return parse_board(text, source=f"{name}.toml", name=name)


def arena(grid: str = OPEN, *, fighters: list[dict[str, Any]], dice: Iterable[int] = (), mp: int = 10) -> State:
    """A game in its action phase, seat 0 to play, fighters at the given (row, col) squares.

    Each fighter: ``at`` (row, col[, half]) or None for off the board, Santé/Vitesse/Précision
    (``health``, ``speed``, ``accuracy``), optional ``hp``, ``hand`` (card ids), ``weapons``.
    """
    players = [{"name": f"P{i}", "health": 2, "speed": 3, "accuracy": 2} for i in range(len(fighters))]
    state = new_game({"map": "entrepot", "players": players}, seed=1)
    state.board = board_from(grid)
    # Take every card back into its deck so tests can hand out exactly what they need.
    for f in state.fighters:
        for uid in f.hand:
            state.decks[state.card(uid).deck].append(uid)
    state.fighters = []
    for seat, spec in enumerate(fighters):
        health = spec.get("health", 2)
        at = spec.get("at")
        fighter = Fighter(
            name=f"P{seat}",
            health=health,
            speed=spec.get("speed", 3),
            accuracy=spec.get("accuracy", 2),
            hp=spec.get("hp", health),
        )
        if at is not None:
            row, col, *half = at
            fighter.place = state.board.place_at[(row, col, half[0] if half else 0)]
            fighter.out = False
        fighter.hand = [take_card(state, cid) for cid in spec.get("hand", [])]
        fighter.weapons = [
            [uid, state.card(uid).ammo] for uid in (take_card(state, cid) for cid in spec.get("weapons", []))
        ]
        armour = spec.get("armour")
        if armour:
            uid = take_card(state, armour)
            fighter.armour = [uid, state.card(uid).value]
            fighter.hp += state.card(uid).value
        state.fighters.append(fighter)
    state.phase = ACTION
    state.placement_order = []
    state.turn = Turn(player=0, number=1, mp=mp, rolled=True)
    state.dice = ScriptedDice(dice)  # type: ignore[assignment]
    return state


def take_card(state: State, card_id: str) -> int:
    """Pull one copy of a card out of whatever deck holds it."""
    for deck in state.decks.values():
        for uid in deck:
            if state.card_ids[uid] == card_id:
                deck.remove(uid)
                return uid
    raise AssertionError(f"no copy of {card_id} left")


def place(state: State, row: int, col: int, half: int = 0) -> int:
    return state.board.place_at[(row, col, half)]


def snapshot(state: State) -> dict[str, Any]:
    """Everything the state holds, dice position included: equal snapshots mean nothing changed."""
    data = state.to_json()
    data["scripted_dice"] = list(getattr(state.dice, "faces", []))
    return data


def seat_at(state: State, row: int, col: int) -> int | None:
    return state.occupant(place(state, row, col))


__all__ = ["OPEN", "Fighter", "ScriptedDice", "arena", "board_from", "place", "seat_at", "snapshot", "take_card"]
