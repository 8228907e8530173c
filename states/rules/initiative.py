"""Initiative cards for Savage-style rounds: a 54-card deck, jokers included.

Each round every character able to act gets a card; characters in État critique get none
(« ne reçoit plus de carte d'initiative »). Highest card acts first: jokers, then Ace down to 2,
ties broken by suit (spades, hearts, diamonds, clubs). The deck is shuffled again after a round
in which a joker was dealt, and when it runs out.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass

RANKS = ("2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A")
SUITS = ("c", "d", "h", "s")  # clubs < diamonds < hearts < spades
JOKERS = ("RJ", "BJ")  # red joker above black joker
DECK_SIZE = 54


def full_deck() -> list[str]:
    return [f"{rank}{suit}" for suit in SUITS for rank in RANKS] + list(JOKERS)


def card_order(card: str) -> tuple[int, int]:
    """Sort key: bigger acts first."""
    if card in JOKERS:
        return (len(RANKS), 1 if card == "RJ" else 0)
    return (RANKS.index(card[:-1]), SUITS.index(card[-1]))


def is_red(card: str) -> bool:
    return card == "RJ" or card[-1] in ("d", "h")


def is_joker(card: str) -> bool:
    return card in JOKERS


@dataclass(frozen=True)
class Deal:
    draw_pile: tuple[str, ...]
    cards: dict[int, str]  # participant id → card
    order: tuple[int, ...]  # participants, first to act first
    reshuffled: bool


def shuffled_deck(rng: random.Random) -> list[str]:
    deck = full_deck()
    rng.shuffle(deck)
    return deck


def deal_round(
    rng: random.Random, draw_pile: Sequence[str], participants: Sequence[int], *, joker_last_round: bool
) -> Deal:
    """Deal one card to each participant able to act (the caller leaves out those in État critique)."""
    pile = list(draw_pile)
    reshuffled = False
    if joker_last_round or len(pile) < len(participants):
        pile = shuffled_deck(rng)
        reshuffled = True
    cards: dict[int, str] = {}
    for participant in participants:
        cards[participant] = pile.pop(0)
    order = tuple(sorted(cards, key=lambda p: card_order(cards[p]), reverse=True))
    return Deal(draw_pile=tuple(pile), cards=cards, order=order, reshuffled=reshuffled)
