"""Names as the reader's language writes them: cards, fighters, weapons."""

from __future__ import annotations

from typing import Any

from django.utils.translation import get_language

from frag.engine import State
from frag.engine.cards import PISTOL, Card


def language() -> str:
    return "en" if (get_language() or "fr").startswith("en") else "fr"


def card_name(card: Card) -> str:
    return card.name[language()]


def fighter_name(state: State, seat: int) -> str:
    return state.fighters[seat].name


def weapon_label(state: State, weapon: Any) -> str:
    return card_name(PISTOL) if weapon == PISTOL.id else card_name(state.card(weapon))
