"""Initiative cards from a 54-card deck; dice derived from MicroFudge ranks."""

from __future__ import annotations

import random

import pytest

from states.rules.dice import TraitDie
from states.rules.initiative import card_order, deal_round, full_deck, is_joker, is_red
from states.rules.ranks import DEFAULT_RANK_DICE, die_for_rank, validated_mapping


def test_the_deck_has_54_cards_jokers_included():
    deck = full_deck()
    assert len(deck) == 54 and len(set(deck)) == 54
    assert sum(is_joker(c) for c in deck) == 2


def test_jokers_act_first_then_ace_down_to_two_with_suits_breaking_ties():
    order = sorted(["2c", "As", "RJ", "Kh", "Ks", "BJ"], key=card_order, reverse=True)
    assert order == ["RJ", "BJ", "As", "Ks", "Kh", "2c"]
    # The 10, the one rank written with two characters, sits between the 9 and the Jack, suits breaking ties.
    assert sorted(["9s", "10c", "Jc", "10h"], key=card_order, reverse=True) == ["Jc", "10h", "10c", "9s"]
    assert is_red("Kh") and not is_red("Ks") and is_red("RJ")


def test_each_participant_gets_one_card_and_the_order_follows_the_cards():
    deal = deal_round(random.Random(3), [], [10, 20, 30], joker_last_round=False)
    assert deal.reshuffled and len(deal.draw_pile) == 51
    assert set(deal.cards) == {10, 20, 30}
    ranks = [card_order(deal.cards[p]) for p in deal.order]
    assert ranks == sorted(ranks, reverse=True)


def test_the_deck_is_reshuffled_after_a_joker_and_kept_otherwise():
    pile = ["2c", "3c", "4c", "5c"]
    kept = deal_round(random.Random(1), pile, [1, 2], joker_last_round=False)
    # a boolean either way: the round's event stores it (``false``, not ``null``)
    assert kept.reshuffled is False and kept.draw_pile == ("4c", "5c")
    fresh = deal_round(random.Random(1), pile, [1, 2], joker_last_round=True)
    assert fresh.reshuffled and len(fresh.draw_pile) == 52


def test_proposed_rank_mapping_lamentable_d4_minus_2_to_legendaire_d12_plus_2():
    assert die_for_rank(0) == TraitDie(4, -3) == die_for_rank(-2)  # below Lamentable: the lowest rank, 0
    assert die_for_rank(1) == TraitDie(4, -2)
    assert die_for_rank(2) == TraitDie(4)
    assert die_for_rank(4) == TraitDie(8)
    assert die_for_rank(8) == TraitDie(12, 2)
    assert die_for_rank(11) == TraitDie(12, 2)
    assert len(DEFAULT_RANK_DICE) == 9


def test_a_campaign_can_edit_the_mapping():
    assert die_for_rank(4, {"4": "d6"}) == TraitDie(6)
    with pytest.raises(ValueError):
        validated_mapping({4: "d7"})
    with pytest.raises(ValueError):
        validated_mapping({12: "d6"})


def test_a_pile_with_just_enough_cards_is_dealt_without_reshuffling() -> None:
    """The deck is shuffled again only when it cannot give every participant a card (or after a Joker)."""
    deal = deal_round(random.Random(2), ["5h", "Qs"], [1, 2], joker_last_round=False)
    assert not deal.reshuffled and deal.draw_pile == () and deal.cards == {1: "5h", 2: "Qs"}
