"""Who a viewer plays, and the hot seat: which hand this device has tapped open."""

from __future__ import annotations

from typing import Any

from django.contrib.auth.models import User

from frag.engine import State
from frag.models import Game, Seat


def seat_for_viewer(game: Game, seats: list[Seat], user: User, state: State) -> int | None:
    """The seat a person plays from: the one whose turn it is if they hold it (hot seat), else their first."""
    mine = [s.number for s in seats if s.user_id == user.pk and not s.is_bot]
    if not mine:
        return None
    current = state.current_players()
    for number in mine:
        if number in current:
            return number
    return mine[0]


REVEALED = "frag_revealed"


def is_hot_seat(seats: list[Seat], user: User) -> bool:
    """Whether ``user`` plays several seats of the game on one device (its hands then stay folded)."""
    return sum(1 for s in seats if s.user_id == user.pk and not s.is_bot) > 1


def hand_key(state: State, seat: int) -> str:
    """What a hot-seat device taps open: one seat's hand for one turn (a new turn folds it again)."""
    return f"{seat}:{state.turn.number}"


def revealed_hand(session: Any, game_id: int) -> str:
    """The hand this device (its session) has tapped open in a game, as a ``hand_key``; "" if none."""
    return str((session.get(REVEALED) or {}).get(str(game_id), ""))


def reveal_hand(session: Any, game_id: int, key: str) -> None:
    revealed = dict(session.get(REVEALED) or {})
    revealed[str(game_id)] = key
    session[REVEALED] = revealed


def fold_after(session: Any, game_id: int, seat: int) -> None:
    """After ``seat`` acted on this device, fold any other seat's open hand: the device is in ``seat``'s hands. (A
    dying fighter accepting the frag mid-turn gives the turn back to the attacker, in the same turn: its hand,
    opened before, must not show to the person still holding the device.)"""
    key = revealed_hand(session, game_id)
    if key and key.split(":")[0] != str(seat):
        revealed = dict(session.get(REVEALED) or {})
        del revealed[str(game_id)]
        session[REVEALED] = revealed
