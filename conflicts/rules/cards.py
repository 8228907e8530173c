"""The table's cards (V « 2 – Résolution des Conflits hasardeux » and appendix 5).

« Les cartes proviennent d'un jeu de 56 cartes duquel les têtes et jokers ont été retirés. Chaque carte
arborant un nombre pair est un succès » (method 1); « les cartes rouges (cœurs et carreaux) comptent pour
un succès alors que les cartes noires (piques et trèfles) comptent pour un échec » (method 2), from « un jeu
de 56 cartes » whose jokers alone go (52 cards, figures kept); « Avec deux jeux de cartes très différents (dont
l'un est de taille plus réduite, par exemple), vous pouvez affecter un jeu aux cartes d'attaque et l'autre jeu
(le plus petit, par exemple) aux cartes de défense ».
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from enum import StrEnum
from functools import cache

from .errors import RuleError


class Suit(StrEnum):
    HEARTS = "H"
    DIAMONDS = "D"
    CLUBS = "C"
    SPADES = "S"

    @property
    def red(self) -> bool:
        return self in (Suit.HEARTS, Suit.DIAMONDS)


RED_SUITS = (Suit.HEARTS, Suit.DIAMONDS)
BLACK_SUITS = (Suit.CLUBS, Suit.SPADES)
VALUES = tuple(range(1, 11))
FACES = (11, 12, 13)
"""Valet, Dame, Roi: method 2 keeps them (« Prenez un jeu de 56 cartes et retirez les jokers »)."""
SMALL_VALUES = (1, 7, 8, 9, 10, *FACES)
"""A 32-card deck (as, 7 to 10, figures): the « jeu … de taille plus réduite » method 2 allows for defence."""


class SuccessRule(StrEnum):
    EVEN = "even"  # method 1
    RED = "red"  # method 2


@dataclass(frozen=True, order=True)
class Card:
    value: int
    suit: Suit

    @property
    def code(self) -> str:
        return f"{self.value}{self.suit.value}"

    @classmethod
    def parse(cls, code: str) -> Card:
        card = _BY_CODE.get(code)
        if card is not None:  # a card's own code, as ``code`` writes it: what the decks store
            return card
        try:
            card = cls(int(code[:-1]), Suit(code[-1]))
        except (ValueError, IndexError) as exc:
            raise RuleError("bad_card", code=code) from exc
        if card.value not in VALUES and card.value not in FACES:
            raise RuleError("bad_card", code=code)
        return card

    def is_success(self, rule: SuccessRule) -> bool:
        if rule is SuccessRule.RED:
            return self.suit.red
        return self.value % 2 == 0

    def __str__(self) -> str:
        return self.code


# Every card by its own code, made once: a deck is stored as its cards' codes, and a live draw's pass reads its decks
# again (52 codes each), where making each card anew was most of the read. Cards are frozen: one serves every deck.
_BY_CODE: dict[str, Card] = {card.code: card for card in (Card(v, s) for s in Suit for v in (*VALUES, *FACES))}


class DeckKind(StrEnum):
    """Which cards a deck holds: the whole table deck, or one half of a method-1 pair.

    « Dans le paquet de cartes à dos rouge, vous retirez les piques et les trèfles … Dans le paquet de
    cartes à dos bleu, vous retirez les cœurs et les carreaux » (appendix 5, method 1, step 4): the attack
    deck keeps the red numbers, the defence deck the black ones, 20 cards each.
    """

    TABLE = "table"
    ATTACK = "attack"
    DEFENCE = "defence"
    FULL = "full"  # method 2: « un jeu de 56 cartes » less the jokers, figures kept: 52 cards
    SMALL = "small"  # method 2's smaller defence deck: 32 cards


@cache  # a fresh deck's cards, the same every time: the odds of a split read them once per deck and target
def composition(kind: DeckKind) -> tuple[Card, ...]:
    kind = DeckKind(kind)
    if kind is DeckKind.FULL:
        return tuple(Card(v, s) for s in Suit for v in (*VALUES, *FACES))
    if kind is DeckKind.SMALL:
        return tuple(Card(v, s) for s in Suit for v in SMALL_VALUES)
    suits = {DeckKind.TABLE: tuple(Suit), DeckKind.ATTACK: RED_SUITS, DeckKind.DEFENCE: BLACK_SUITS}[kind]
    return tuple(Card(v, s) for s in suits for v in VALUES)


def successes(cards: Iterable[Card], rule: SuccessRule) -> int:
    return sum(1 for c in cards if c.is_success(rule))


def codes(cards: Iterable[Card]) -> list[str]:
    return [c.code for c in cards]


def parse_all(values: Iterable[str]) -> tuple[Card, ...]:
    return tuple(Card.parse(v) for v in values)
