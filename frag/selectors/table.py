"""The whole table for one person: what the game page and the live socket render."""

from __future__ import annotations

from typing import Any

from frag.engine import State
from frag.models import Game, Seat, Step
from frag.selectors.board import board_view
from frag.selectors.choices import choices, hand
from frag.selectors.fighters import fighters_panel
from frag.selectors.log import log_lines
from frag.selectors.naming import fighter_name, language
from frag.selectors.seats import hand_key, is_hot_seat, seat_for_viewer


def game_context(
    game: Game,
    seats: list[Seat],
    user: Any,
    mode: str = "",
    *,
    frame: tuple[State, list[Step]] | None = None,
    revealed: str = "",
) -> dict[str, Any]:
    """The table for one person. ``frame``: a past moment (a replayed state and the steps up to it),
    shown read-only while the bots' turns play out live. ``revealed``: the ``hand_key`` this device
    tapped open; in a hot-seat game every other hand stays folded: no card of it reaches the page
    (hand, card buttons, draws in the log) until the seat to act taps « show my hand »."""
    if frame is None:
        state = State.from_json(game.snapshot)
        steps = list(game.steps.order_by("-number")[:40])[::-1]
    else:
        state, steps = frame[0], frame[1][-40:]
    seat = seat_for_viewer(game, seats, user, state)
    legal = state.legal_actions(seat) if seat is not None and frame is None else []
    hot_seat = is_hot_seat(seats, user)
    my_turn = frame is None and seat is not None and seat in state.current_players()
    folded = hot_seat and seat is not None and not (my_turn and revealed == hand_key(state, seat))
    if folded and mode.startswith("teleport"):
        mode = ""
    log = log_lines(state, steps, None if folded else seat)
    acting = state.current_players()
    return {
        "game": game,
        "seats": seats,
        "seat": seat,
        "hot_seat": hot_seat,
        "folded": folded,
        # The pass-the-device screen: the hand to tap open is that of the seat to act.
        "pass_to": fighter_name(state, seat) if folded and my_turn and seat is not None else "",
        "hand_size": len(state.fighters[seat].hand) if seat is not None else 0,
        "state": state,
        "board": board_view(state, seat, legal, mode),
        "choices": choices(state, legal, cards=not folded),
        "hand": [] if folded else hand(state, seat),
        "fighters": fighters_panel(state, seat),
        "log": log,
        # What the last step did, shown beside the actions: the feedback of a tap on a phone.
        "just_now": next((line for line in log if line["texts"]), None),
        # Who acts now: the turn's fighter, or a dying one choosing to heal in someone else's turn.
        "acting_name": fighter_name(state, acting[0]) if acting else "",
        "dying": state.pending is not None,
        "my_turn": my_turn,
        "playing_out": frame is not None,
        "mode": mode,
        "turn": state.turn,
        "turn_attacks": state.attacks_allowed(state.turn.player),
        "phase": state.phase,
        "winner": state.winner(),
        "map_title": state.board.title[language()],
    }
