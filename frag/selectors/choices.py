"""The action buttons and the hand of one seat, from its legal actions."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from frag.engine import State
from frag.selectors.naming import card_name, fighter_name, language, weapon_label


@dataclass
class Choice:
    index: int
    label: str
    kind: str
    style: str = ""


def names_a_hand_card(state: State, action: dict[str, Any]) -> bool:
    """Whether the button for ``action`` would name a card of the acting fighter's hand."""
    hand = state.fighters[action["player"]].hand
    if action["type"] in ("play", "drop", "discard"):
        return True
    return action["type"] == "attack" and action["weapon"] in hand


def choices(state: State, legal: list[dict[str, Any]], *, cards: bool = True) -> list[Choice]:
    """Buttons for every legal action that is not a tap on the board. ``cards=False`` (a folded hot-seat
    hand) leaves out every button that would name a card of the hand."""
    found: list[Choice] = []
    teleport_cards: set[int] = set()
    for index, action in enumerate(legal):
        kind = action["type"]
        player = action["player"]
        if not cards and names_a_hand_card(state, action):
            continue
        if kind == "roll":
            found.append(
                Choice(
                    index,
                    ngettext(
                        "Roll %(count)s die for movement",
                        "Roll %(count)s dice for movement",
                        state.stat(player, "speed"),
                    )
                    % {"count": state.stat(player, "speed")},
                    kind,
                    "primary",
                )
            )
        elif kind == "end_turn":
            found.append(Choice(index, _("End the turn"), kind))
        elif kind == "take_blood":
            found.append(Choice(index, _("Take the blood marker"), kind))
        elif kind == "take_weapon":
            found.append(
                Choice(
                    index,
                    _("Take %(card)s from the weapon marker") % {"card": card_name(state.card(action["card"]))},
                    kind,
                )
            )
        elif kind == "spend_blood":
            found.append(Choice(index, _("Spend a blood marker: +1 Health"), kind))
        elif kind == "accept_frag":
            found.append(Choice(index, _("Accept the frag"), kind, "danger"))
        elif kind == "attack":
            distance = state.board.distance(state.fighters[player].place, state.fighters[action["target"]].place)
            label = _("Attack %(name)s with %(weapon)s (distance %(distance)s)") % {
                "name": fighter_name(state, action["target"]),
                "weapon": weapon_label(state, action["weapon"]),
                "distance": distance,
            }
            found.append(Choice(index, label, kind, "danger"))
        elif kind == "play":
            card = state.card(action["card"])
            if "to" in action:
                teleport_cards.add(action["card"])
                continue
            if "target" in action:
                label = _("Play %(card)s on %(name)s") % {
                    "card": card_name(card),
                    "name": fighter_name(state, action["target"]),
                }
            elif "weapon" in action:
                label = _("Play %(card)s on %(weapon)s") % {
                    "card": card_name(card),
                    "weapon": card_name(state.card(action["weapon"])),
                }
            else:
                label = _("Play %(card)s") % {"card": card_name(card)}
            found.append(Choice(index, label, kind))
        elif kind == "drop":
            found.append(Choice(index, _("Drop %(card)s") % {"card": card_name(state.card(action["card"]))}, kind))
        elif kind == "discard":
            found.append(Choice(index, _("Discard %(card)s") % {"card": card_name(state.card(action["card"]))}, kind))
    for uid in sorted(teleport_cards):
        found.append(
            Choice(-1, _("Play %(card)s: choose a square") % {"card": card_name(state.card(uid))}, f"teleport-{uid}")
        )
    return found


def hand(state: State, seat: int | None) -> list[dict[str, Any]]:
    if seat is None:
        return []
    cards = []
    for uid in state.fighters[seat].hand:
        card = state.card(uid)
        cards.append(
            {
                "uid": uid,
                "name": card_name(card),
                "text": card.text[language()],
                "deck": card.deck,
                "letter": card.letter,
            }
        )
    return cards
