"""A deck on the table: its draw pile, the cards in play and the discard pile.

Cards only ever move between the three piles, so pile + in play + discard is always the whole deck.
« Le donneur a un privilège, celui de pouvoir à tout moment, remettre les cartes déjà jouées avec celles
qui n'ont pas encore été jouées et mélanger » (appendix 5, « Proposition d'étiquette »).
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from functools import cache

from .cards import Card, DeckKind, composition
from .errors import RuleError


@dataclass(frozen=True)
class DeckState:
    """``pile`` is drawn from its end (the top)."""

    kind: DeckKind
    pile: tuple[Card, ...]
    in_play: tuple[Card, ...] = ()
    discard: tuple[Card, ...] = ()

    @property
    def size(self) -> int:
        return len(self.pile) + len(self.in_play) + len(self.discard)

    def is_whole(self) -> bool:
        """Conservation: the three piles together are exactly the deck's cards."""
        return Counter(self.pile + self.in_play + self.discard) == Counter(composition(self.kind))


def new_deck(kind: DeckKind, rng: random.Random) -> DeckState:
    cards = list(composition(kind))
    rng.shuffle(cards)
    return DeckState(kind=kind, pile=tuple(cards))


@dataclass(frozen=True)
class Deal:
    cards: tuple[Card, ...]
    state: DeckState
    reshuffles: tuple[str, ...] = field(default_factory=tuple)
    """``"discard"`` when the discard pile went back under the pile, ``"in_play"`` when even the cards on
    the table had to (their results are already recorded)."""


def draw_pool(state: DeckState, count: int) -> tuple[Card, ...]:
    """The cards a draw of ``count`` will come from, reshuffles included: what exact odds count over."""
    if count <= len(state.pile):
        return state.pile
    if count <= len(state.pile) + len(state.discard):
        return state.pile + state.discard
    return state.pile + state.discard + state.in_play


def deal(state: DeckState, count: int, rng: random.Random) -> Deal:
    """Draw ``count`` cards into play.

    « reshuffle when a deck runs out »: when the pile holds fewer cards than one participant's draw, the
    discard is shuffled back into it first, so that every draw comes from one well-mixed pool (and its
    odds are exact). If the cards on the table are needed too, they go back as well.
    """
    if count < 0:
        raise RuleError("negative_draw")
    if count > state.size:
        raise RuleError("deck_too_small", count=count, size=state.size)
    pile, in_play, discard = list(state.pile), list(state.in_play), list(state.discard)
    reshuffles: list[str] = []
    if count > len(pile):
        pile += discard
        discard = []
        reshuffles.append("discard")
        if count > len(pile):
            pile += in_play
            in_play = []
            reshuffles.append("in_play")
        rng.shuffle(pile)
    drawn = [pile.pop() for _ in range(count)]
    return Deal(
        cards=tuple(drawn),
        state=DeckState(state.kind, tuple(pile), tuple(in_play + drawn), tuple(discard)),
        reshuffles=tuple(reshuffles),
    )


def discard_cards(state: DeckState, cards: Iterable[Card]) -> DeckState:
    """Put a finished draw's cards on the discard pile. Cards already shuffled back are skipped."""
    in_play = list(state.in_play)
    moved: list[Card] = []
    for card in cards:
        if card in in_play:
            in_play.remove(card)
            moved.append(card)
    return DeckState(state.kind, state.pile, tuple(in_play), state.discard + tuple(moved))


def reshuffle(state: DeckState, rng: random.Random) -> DeckState:
    """The dealer's reshuffle: played cards go back with the unplayed ones; the cards on the table stay."""
    pile = list(state.pile + state.discard)
    rng.shuffle(pile)
    return DeckState(state.kind, tuple(pile), state.in_play, ())


def from_codes(kind: DeckKind, pile: Sequence[str], in_play: Sequence[str], discard: Sequence[str]) -> DeckState:
    state = DeckState(
        DeckKind(kind),
        tuple(Card.parse(c) for c in pile),
        tuple(Card.parse(c) for c in in_play),
        tuple(Card.parse(c) for c in discard),
    )
    # Whole when the codes are the deck's own, counted as strings (a card's hash is computed in Python); codes written
    # otherwise (« 07H ») are counted as cards.
    if Counter([*pile, *in_play, *discard]) != _codes(state.kind) and not state.is_whole():
        raise RuleError("deck_not_whole", kind=str(kind))
    return state


@cache
def _codes(kind: DeckKind) -> Counter[str]:
    return Counter(card.code for card in composition(kind))
