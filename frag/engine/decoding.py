"""From an integer code back to the action dict the public API speaks (see ``codes``)."""

from __future__ import annotations

from .base import Action, StateBase
from .cards import PISTOL
from .codes import (
    A_SHIFT,
    ATTACK,
    B_MASK,
    B_SHIFT,
    DISCARD,
    DROP,
    JUMP,
    KIND_MASK,
    KIND_NAMES,
    MOVE,
    PLACE,
    PLAY,
    TAKE_WEAPON,
    TELEPORT,
)

# The one extra key a card's play needs, by effect: where a teleport card leads, whom a Déconnexion takes off the
# board, which weapon a reload fills.
PLAY_EXTRA = {"teleport": "to", "disconnect": "target", "reload": "weapon"}


def decode(state: StateBase, player: int, code: int) -> Action:
    """The action dict a code stands for, as ``legal_actions`` lists it (the same keys, the same path)."""
    kind, a, b = code & KIND_MASK, code >> A_SHIFT, code >> B_SHIFT & B_MASK
    name = KIND_NAMES[kind]
    if kind == MOVE:
        start = state.fighters[player].place
        assert start is not None  # a move is offered only to a fighter on the board
        # A place no walk reaches decodes to a one-square path, which ``apply`` refuses with its reason.
        reached = b != start and b in state.board.walk_order(start)[2]
        return {"type": name, "player": player, "path": state.board.path_to(start, b) if reached else [b]}
    if kind in (PLACE, JUMP, TELEPORT):
        return {"type": name, "player": player, "to": b}
    if kind == ATTACK:
        return {"type": name, "player": player, "target": a, "weapon": PISTOL.id if b == 0 else b - 1}
    if kind == TAKE_WEAPON:
        return {"type": name, "player": player, "pile": a, "card": b}
    if kind in (DROP, DISCARD):
        return {"type": name, "player": player, "card": b}
    if kind == PLAY:
        action: Action = {"type": name, "player": player, "card": a}
        extra = PLAY_EXTRA.get(state.card(a).effect)
        if extra is not None:
            action[extra] = b
        return action
    return {"type": name, "player": player}
