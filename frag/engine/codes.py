"""Actions as integers inside the engine, as dicts at its boundary.

The engine lists legal actions as integer codes (as OpenSpiel does): a code is cheap to make, compare and
cache, where a dict with a path is not. ``State.legal_actions`` and the bots' answers are the same dicts as
ever, decoded here at the boundary, so pages, stored games and replays never see a code.

``decoding.decode`` turns a code back into its action (the board imports this module, so it imports nothing
of the state). A code packs the kind of action in its low 4 bits, a small field ``b`` (a place, a card, a weapon) in the next
16 bits and a field ``a`` (a pile, a target, the card played) above them:

    code = kind | b << 4 | a << 20
"""

from __future__ import annotations

KIND_NAMES = (
    "place",
    "roll",
    "move",
    "jump",
    "teleport",
    "take_blood",
    "take_weapon",
    "spend_blood",
    "accept_frag",
    "attack",
    "play",
    "drop",
    "discard",
    "end_turn",
)
(
    PLACE,
    ROLL,
    MOVE,
    JUMP,
    TELEPORT,
    TAKE_BLOOD,
    TAKE_WEAPON,
    SPEND_BLOOD,
    ACCEPT_FRAG,
    ATTACK,
    PLAY,
    DROP,
    DISCARD,
    END_TURN,
) = range(len(KIND_NAMES))
KIND_MASK, B_SHIFT, B_MASK, A_SHIFT = 0xF, 4, 0xFFFF, 20


def encode(kind: int, a: int = 0, b: int = 0) -> int:
    return kind | b << B_SHIFT | a << A_SHIFT


def kind_of(code: int) -> int:
    return code & KIND_MASK


def field_a(code: int) -> int:
    return code >> A_SHIFT


def field_b(code: int) -> int:
    return code >> B_SHIFT & B_MASK


def group_key(code: int) -> str:
    """The random bot's kind of an action: its type, and for a card played the card too (each card weighs as much
    as the movement roll)."""
    kind = code & KIND_MASK
    return f"play:{code >> A_SHIFT}" if kind == PLAY else KIND_NAMES[kind]


def weapon_field(weapon: int | None) -> int:
    """An attack's weapon as field b: 0 the base pistol, a card's uid + 1 otherwise."""
    return 0 if weapon is None else weapon + 1
