"""The table's decks: methods 1 and 2, dealing, running out, the dealer's reshuffle, conservation."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from conflicts.rules.cards import Card, DeckKind, SuccessRule, Suit, codes, composition, successes
from conflicts.rules.deck import DeckState, deal, discard_cards, draw_pool, from_codes, new_deck, reshuffle
from conflicts.rules.errors import RuleError


def test_table_deck_is_forty_cards_one_to_ten_in_four_suits() -> None:
    cards = composition(DeckKind.TABLE)
    assert len(cards) == len(set(cards)) == 40
    assert {c.value for c in cards} == set(range(1, 11))


def test_method_one_even_cards_succeed_method_two_red_cards_succeed() -> None:
    assert Card(4, Suit.SPADES).is_success(SuccessRule.EVEN)
    assert not Card(7, Suit.HEARTS).is_success(SuccessRule.EVEN)
    assert Card(7, Suit.HEARTS).is_success(SuccessRule.RED)
    assert not Card(4, Suit.SPADES).is_success(SuccessRule.RED)
    assert successes(composition(DeckKind.TABLE), SuccessRule.EVEN) == 20
    assert successes(composition(DeckKind.TABLE), SuccessRule.RED) == 20


def test_method_one_pair_has_two_twenty_card_decks_of_opposite_colours() -> None:
    """Appendix 5, method 1: the attack deck keeps the red numbers, the defence deck the black ones."""
    attack, defence = composition(DeckKind.ATTACK), composition(DeckKind.DEFENCE)
    assert len(attack) == len(defence) == 20
    assert all(c.suit.red for c in attack) and not any(c.suit.red for c in defence)
    assert successes(attack, SuccessRule.EVEN) == 10


def test_dealing_moves_cards_into_play_and_discarding_ends_the_draw() -> None:
    rng = random.Random(1)
    state = new_deck(DeckKind.TABLE, rng)
    dealt = deal(state, 5, rng)
    assert len(dealt.cards) == 5 and len(dealt.state.pile) == 35 and dealt.state.in_play == dealt.cards
    after = discard_cards(dealt.state, dealt.cards)
    assert after.in_play == () and len(after.discard) == 5 and after.is_whole()


def test_a_deck_that_runs_out_takes_its_discard_back() -> None:
    rng = random.Random(2)
    state = new_deck(DeckKind.ATTACK, rng)
    first = deal(state, 18, rng)
    state = discard_cards(first.state, first.cards)
    assert len(draw_pool(state, 5)) == 20
    second = deal(state, 5, rng)
    assert second.reshuffles == ("discard",)
    assert second.state.is_whole()


def test_cards_on_the_table_go_back_only_when_nothing_else_is_left() -> None:
    rng = random.Random(3)
    state = new_deck(DeckKind.ATTACK, rng)
    first = deal(state, 15, rng)
    second = deal(first.state, 10, rng)
    assert second.reshuffles == ("discard", "in_play")
    assert second.state.is_whole()


def test_a_draw_larger_than_the_deck_is_refused() -> None:
    with pytest.raises(RuleError) as err:
        deal(new_deck(DeckKind.DEFENCE, random.Random(0)), 21, random.Random(0))
    assert err.value.code == "deck_too_small"


def test_dealer_reshuffles_played_cards_but_leaves_the_table() -> None:
    rng = random.Random(5)
    dealt = deal(new_deck(DeckKind.TABLE, rng), 6, rng)
    state = discard_cards(dealt.state, dealt.cards[:3])
    shuffled = reshuffle(state, rng)
    assert shuffled.discard == () and len(shuffled.pile) == 37 and len(shuffled.in_play) == 3
    assert shuffled.is_whole()


operation = st.one_of(
    st.tuples(st.just("deal"), st.integers(0, 12)),
    st.tuples(st.just("discard"), st.integers(0, 12)),
    st.tuples(st.just("reshuffle"), st.just(0)),
)


@settings(max_examples=150, deadline=None)
@given(kind=st.sampled_from(list(DeckKind)), seed=st.integers(0, 2**16), ops=st.lists(operation, max_size=25))
def test_deck_hands_and_discard_always_make_the_whole_deck(
    kind: DeckKind, seed: int, ops: list[tuple[str, int]]
) -> None:
    """Conservation: whatever is dealt, discarded or reshuffled, pile + in play + discard = the deck (40 or 20)."""
    rng = random.Random(seed)
    state = new_deck(kind, rng)
    size = state.size
    for name, n in ops:
        if name == "deal":
            state = deal(state, min(n, size), rng).state
        elif name == "discard":
            state = discard_cards(state, state.in_play[:n])
        else:
            state = reshuffle(state, rng)
        assert state.is_whole()
        assert len(state.pile) + len(state.in_play) + len(state.discard) == size


@pytest.mark.parametrize("code", ["zz", "", "14H", "5X"])
def test_an_unknown_card_code_is_a_rule_error_naming_it(code: str) -> None:
    """A stored card that does not parse is refused with its code (it was a TypeError: ``code`` twice)."""
    with pytest.raises(RuleError) as refused:
        Card.parse(code)
    assert refused.value.code == "bad_card" and refused.value.values == {"code": code}


# ------------------------------------------------------------------ the piles card by card (mutation tests)
# Appendix 5: « Le donneur a un privilège, celui de pouvoir à tout moment, remettre les cartes déjà jouées avec celles
# qui n'ont pas encore été jouées et mélanger »; a deck that runs out is shuffled again before the draw goes on.

RED = [f"{v}{s}" for s in "HD" for v in range(1, 11)]  # the attack deck's twenty cards


def _state(pile: list[str], in_play: list[str], discard: list[str]) -> DeckState:
    return from_codes(DeckKind.ATTACK, pile, in_play, discard)


class _NoShuffle(random.Random):
    """A generator that leaves the cards in their order, so that every move can be read card by card."""

    def shuffle(self, x: list) -> None:  # type: ignore[override]
        return None


def test_a_deal_takes_the_top_cards_one_by_one_and_leaves_the_other_piles_alone() -> None:
    state = _state(RED[:12], RED[12:15], RED[15:])
    dealt = deal(state, 3, _NoShuffle())
    assert codes(dealt.cards) == ["10H", "1D", "2D"][::-1] and dealt.reshuffles == ()
    assert codes(dealt.state.pile) == RED[:9]
    assert codes(dealt.state.in_play) == [*RED[12:15], "2D", "1D", "10H"]
    assert codes(dealt.state.discard) == RED[15:] and dealt.state.kind is DeckKind.ATTACK
    # Exactly the pile: no reshuffle; nothing: nothing moves.
    assert deal(state, 12, _NoShuffle()).reshuffles == ()
    assert deal(state, 0, _NoShuffle()).state == state


def test_a_deal_one_card_beyond_the_pile_takes_the_discard_back_and_shuffles_the_pool() -> None:
    state = _state(RED[:5], RED[5:10], RED[10:])
    dealt = deal(state, 6, _NoShuffle())
    assert dealt.reshuffles == ("discard",) and codes(dealt.cards) == RED[:20][::-1][:6]
    assert codes(dealt.state.pile) == RED[:5] + RED[10:14] and codes(dealt.state.discard) == []
    assert codes(dealt.state.in_play) == RED[5:10] + RED[14:20][::-1]
    # The pool is shuffled: a real generator deals another order from the same pool.
    shuffled = deal(state, 15, random.Random(4))
    assert sorted(shuffled.cards) == sorted(state.pile + state.discard)
    assert shuffled.cards != tuple(reversed(state.pile + state.discard)) and shuffled.reshuffles == ("discard",)


def test_the_cards_on_the_table_go_back_only_for_the_card_the_pile_and_discard_lack() -> None:
    state = _state(RED[:5], RED[5:10], RED[10:])
    assert deal(state, 15, _NoShuffle()).reshuffles == ("discard",)
    everything = deal(state, 16, _NoShuffle())
    assert everything.reshuffles == ("discard", "in_play")
    assert codes(everything.state.in_play) == codes(everything.cards) and len(everything.state.pile) == 4
    assert deal(state, 20, _NoShuffle()).state.pile == ()


def test_a_draw_of_no_card_or_more_than_the_deck_is_refused_with_the_figures() -> None:
    state = _state(RED[:5], RED[5:10], RED[10:])
    with pytest.raises(RuleError) as negative:
        deal(state, -1, random.Random(0))
    assert negative.value.code == "negative_draw"
    with pytest.raises(RuleError) as small:
        deal(state, 21, random.Random(0))
    assert small.value.code == "deck_too_small" and small.value.values == {"count": 21, "size": 20}


def test_the_pool_a_draw_comes_from_grows_only_as_far_as_the_draw_needs() -> None:
    state = _state(RED[:5], RED[5:10], RED[10:])
    assert draw_pool(state, 5) == state.pile
    assert draw_pool(state, 6) == state.pile + state.discard and draw_pool(state, 15) == state.pile + state.discard
    assert draw_pool(state, 16) == state.pile + state.discard + state.in_play


def test_discarding_moves_only_cards_in_play_once_each_in_their_order() -> None:
    state = _state(RED[:5], RED[5:10], RED[10:])
    after = discard_cards(state, [Card.parse("8H"), Card.parse("1H"), Card.parse("6H"), Card.parse("8H")])
    assert codes(after.in_play) == ["7H", "9H", "10H"]
    assert codes(after.discard) == [*RED[10:], "8H", "6H"] and after.pile == state.pile and after.is_whole()


def test_the_dealers_reshuffle_puts_the_played_cards_back_under_the_unplayed_ones() -> None:
    state = _state(RED[:5], RED[5:10], RED[10:])
    kept = reshuffle(state, _NoShuffle())
    assert codes(kept.pile) == RED[:5] + RED[10:] and kept.in_play == state.in_play and kept.discard == ()
    mixed = reshuffle(state, random.Random(1))
    assert sorted(mixed.pile) == sorted(kept.pile) and mixed.pile != kept.pile and mixed.kind is DeckKind.ATTACK


def test_a_new_deck_is_its_cards_shuffled_and_a_stored_deck_must_be_whole() -> None:
    fresh = new_deck(DeckKind.DEFENCE, random.Random(9))
    expected = list(composition(DeckKind.DEFENCE))
    random.Random(9).shuffle(expected)
    assert fresh == DeckState(DeckKind.DEFENCE, tuple(expected)) and fresh.size == 20
    assert _state(RED, [], []).is_whole() and _state(RED, [], []).size == 20
    assert not DeckState(DeckKind.ATTACK, tuple(composition(DeckKind.ATTACK))[1:]).is_whole()
    for pile in (RED[1:], [*RED, "1H"], [*RED[1:], "1C"]):
        with pytest.raises(RuleError) as refused:
            _state(pile, [], [])
        assert refused.value.code == "deck_not_whole" and refused.value.values == {"kind": "attack"}
    # A card's code written otherwise (« 01H ») is the same card, and the deck it completes is whole; parsed twice, a
    # code gives the one card (they are frozen).
    assert Card.parse("01H") == Card.parse("1H") and Card.parse("1H") is Card.parse("1H")
    padded = _state([f"0{RED[0]}", *RED[1:]], [], [])
    assert padded == _state(RED, [], []) and padded.is_whole()
