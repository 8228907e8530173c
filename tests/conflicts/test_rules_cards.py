"""The table's decks: methods 1 and 2, dealing, running out, the dealer's reshuffle, conservation."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from conflicts.rules.cards import Card, DeckKind, SuccessRule, Suit, composition, successes
from conflicts.rules.deck import deal, discard_cards, draw_pool, new_deck, reshuffle
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
