"""Cards read from their codes, both success methods, when a Sequence is over and friendly Revers (mutation tests).

V-2: « Chaque carte arborant un nombre pair est un succès » (method 1) and the red cards of method 2 (appendix 5);
a Sequence ends when fewer than two sides still have someone standing; V-3: « Les effets des divers Revers ne
sont pas cumulatifs, seul le Revers entraînant la pénalité la plus importante est pris en compte »."""

from __future__ import annotations

import pytest

from conflicts.rules.cards import Card, SuccessRule, Suit, parse_all, successes
from conflicts.rules.errors import RuleError
from conflicts.rules.resolution import DrawVerdict
from conflicts.rules.sequence import CutChoice, cut_short, friendly_penalty, over


def test_card_codes_read_value_then_suit_faces_included() -> None:
    assert Card.parse("10H") == Card(10, Suit.HEARTS)
    assert Card.parse("5D") == Card(5, Suit.DIAMONDS)
    assert Card.parse("12S") == Card(12, Suit.SPADES)


@pytest.mark.parametrize("code", ["0H", "14C", "10X", "H", ""])
def test_a_card_that_is_not_in_the_deck_is_refused(code: str) -> None:
    with pytest.raises(RuleError) as refused:
        Card.parse(code)
    assert refused.value.code == "bad_card" and refused.value.values == {"code": code}


def test_even_cards_succeed_by_method_one_and_red_cards_by_method_two() -> None:
    cards = [Card(3, Suit.HEARTS), Card(4, Suit.SPADES), Card(5, Suit.DIAMONDS), Card(7, Suit.CLUBS)]
    assert successes(cards, SuccessRule.EVEN) == 1
    assert successes(cards, SuccessRule.RED) == 2


def test_a_sequence_goes_on_while_two_sides_stand() -> None:
    side_of = {"a": "pcs", "b": "pcs", "c": "npcs", "d": "third"}
    assert not over({"a": True, "b": False, "c": True, "d": False}, side_of)
    assert not over({"a": True, "b": True, "c": True, "d": True}, side_of)
    assert over({"a": True, "b": True, "c": False, "d": False}, side_of)
    assert over({"a": False, "b": False, "c": False, "d": False}, side_of)


def test_friendly_revers_weigh_by_the_worst_and_nothing_when_none() -> None:
    assert friendly_penalty([]) == 0
    assert friendly_penalty([1, 3, 2]) == 3


def test_stored_card_codes_read_back_in_order() -> None:
    assert parse_all(["10H", "1S", "12D"]) == (Card(10, Suit.HEARTS), Card(1, Suit.SPADES), Card(12, Suit.DIAMONDS))
    assert parse_all([]) == ()
    with pytest.raises(RuleError) as refused:
        parse_all(["10H", "0S"])
    assert refused.value.values == {"code": "0S"}


def test_cutting_short_is_refused_by_its_exact_reason_and_waiting_is_not_ending() -> None:
    """« Le vainqueur du tirage peut annoncer à tout moment qu'il met un terme à la Séquence … la Séquence ne s'arrête
    que si l'autre camp souhaite également mettre un terme à la Séquence »."""
    for verdict in (None, DrawVerdict.TIE):
        with pytest.raises(RuleError) as tie:
            cut_short(verdict=verdict, winner=None, side="pcs", choices={}, sides=["pcs", "npcs"])
        assert tie.value.code == "cut_needs_revers" and str(tie.value) == "cut_needs_revers"
    with pytest.raises(RuleError) as loser:
        cut_short(verdict=DrawVerdict.WINNER, winner="pcs", side="npcs", choices={}, sides=["pcs", "npcs"])
    assert loser.value.code == "cut_not_winner"
    waiting = cut_short(
        verdict=DrawVerdict.EQUAL, winner=None, side="pcs", choices={"pcs": CutChoice.CUT}, sides=["pcs", "npcs"]
    )
    assert waiting.ended is False and waiting.winner is None and waiting.waiting_for == ("npcs",)
    kept = cut_short(verdict=DrawVerdict.WINNER, winner="pcs", side="pcs", choices={}, sides=["pcs", "npcs"])
    assert kept.ended is False and kept.winner == "pcs"
    refused_on = cut_short(
        verdict=DrawVerdict.EQUAL,
        winner=None,
        side="npcs",
        choices={"pcs": CutChoice.CUT, "npcs": CutChoice.GO_ON},
        sides=["pcs", "npcs"],
    )
    assert refused_on.ended is False and refused_on.waiting_for == ()


def test_a_rule_error_reads_its_code_and_its_figures() -> None:
    assert str(RuleError("too_many_cards", used=5, have=4)) == "too_many_cards: {'used': 5, 'have': 4}"
    assert str(RuleError("negative_cards")) == "negative_cards"
