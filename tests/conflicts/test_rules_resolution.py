"""A draw turns into Revers (V, 2), defence cancels, upper hand, out of range, collective, size rules."""

from __future__ import annotations

import pytest

from conflicts.rules.budget import ParticipantSetup, Split, Use, card_budget, validate_split
from conflicts.rules.cards import Card, SuccessRule, Suit
from conflicts.rules.errors import RuleError
from conflicts.rules.resolution import DrawVerdict, Hand, Played, Severity, resolve_draw, severity_from_successes
from conflicts.rules.sequence import CutChoice, cut_short, friendly_penalty, is_out, over

EVEN = SuccessRule.EVEN


def hits(n: int) -> tuple[Played, ...]:
    """n successes (even cards)."""
    return tuple(Played(Card(2 * (i % 5) + 2, Suit.HEARTS)) for i in range(n))


def misses(n: int) -> tuple[Played, ...]:
    return tuple(Played(Card(2 * (i % 5) + 1, Suit.CLUBS)) for i in range(n))


@pytest.mark.parametrize(
    ("successes", "severity", "penalty"),
    [
        (0, Severity.NONE, 0),
        (1, Severity.REVERS, -1),
        (2, Severity.SERIOUS, -2),
        (3, Severity.DECISIVE, -3),
        (5, Severity.DECISIVE, -3),
    ],
)
def test_the_reversal_table(successes: int, severity: Severity, penalty: int) -> None:
    """« 1 succès = Revers (-1 carte); 2 succès = Revers Sérieux (-2); 3 succès = Revers Décisif (-3) et perd »."""
    assert severity_from_successes(successes) is severity
    assert severity.penalty == penalty


def test_defence_successes_cancel_successes_aimed_at_their_owner() -> None:
    hands = [
        Hand("jim", "pcs", attack={"thug": hits(3)}, defence={"jim": hits(1)}),
        Hand("thug", "npcs", attack={"jim": hits(2) + misses(1)}, defence={"thug": hits(1) + misses(1)}),
    ]
    outcome = resolve_draw(hands, EVEN)
    assert outcome.targets["thug"].severity is Severity.SERIOUS
    assert outcome.targets["jim"].severity is Severity.REVERS
    assert outcome.verdict is DrawVerdict.WINNER and outcome.winner == "pcs"


def test_both_sides_can_lose_the_sequence() -> None:
    hands = [Hand("a", "1", attack={"b": hits(3)}), Hand("b", "2", attack={"a": hits(4)})]
    outcome = resolve_draw(hands, EVEN)
    assert sorted(outcome.decisive) == ["a", "b"]
    assert outcome.verdict is DrawVerdict.EQUAL


def test_no_success_anywhere_is_a_tie_and_the_sequence_goes_on() -> None:
    hands = [Hand("a", "1", attack={"b": misses(3)}), Hand("b", "2", attack={"a": hits(1)}, defence={"b": misses(1)})]
    hands[0] = Hand("a", "1", attack={"b": misses(3)}, defence={"a": hits(1)})
    outcome = resolve_draw(hands, EVEN)
    assert outcome.verdict is DrawVerdict.TIE and outcome.winner is None


def test_taking_the_upper_hand_doubles_the_revers_into_extra_cards() -> None:
    """« le nombre de Revers infligés est doublé. Le résultat donne le nombre de cartes supplémentaires »."""
    hands = [Hand("a", "1", attack={"b": hits(2)}, upper_hand=True), Hand("b", "2", defence={"b": misses(2)})]
    outcome = resolve_draw(hands, EVEN)
    assert outcome.targets["b"].severity is Severity.NONE
    assert outcome.upper_hand_cards == {"a": 4}


def test_out_of_range_extra_defence_successes_close_range_bands() -> None:
    hands = [
        Hand("gunman", "1", attack={"knife": hits(1)}),
        Hand("knife", "2", defence={"knife": hits(3)}, out_of_range=True),
    ]
    outcome = resolve_draw(hands, EVEN)
    assert outcome.targets["knife"].severity is Severity.NONE
    assert outcome.range_closed == {"knife": 2}


def test_collective_defence_may_protect_a_teammate_and_most_successes_win() -> None:
    hands = [
        Hand("gunner", "pcs", attack={"guard": hits(1)}, defence={"medic": hits(2)}),
        Hand("medic", "pcs", attack={"guard": hits(1)}),
        Hand("guard", "npcs", attack={"medic": hits(2)}),
    ]
    outcome = resolve_draw(hands, EVEN, collective=True)
    assert outcome.targets["medic"].severity is Severity.NONE
    assert outcome.targets["guard"].severity is Severity.SERIOUS
    assert outcome.by_side == {"npcs": 0, "pcs": 2} and outcome.winner == "pcs"


def test_future_armour_cancels_two_successes_of_older_weapons() -> None:
    hands = [Hand("a", "1", attack={"b": hits(3)}), Hand("b", "2", defence={"b": hits(1)})]
    assert resolve_draw(hands, EVEN, defence_weights={"b": 2}).targets["b"].severity is Severity.REVERS


def test_a_small_vehicle_needs_three_successes_per_revers_on_a_huge_one() -> None:
    hands = [Hand("car", "1", attack={"ship": hits(7)}), Hand("ship", "2")]
    assert resolve_draw(hands, EVEN, costs={("car", "ship"): 3}).targets["ship"].severity is Severity.SERIOUS


def test_flipping_a_card_with_an_atout_changes_its_result() -> None:
    card = Played(Card(3, Suit.SPADES), flipped=True)
    assert card.success(EVEN)


def test_card_budget_lists_every_modifier_and_limits_defence_only_cards() -> None:
    setup = ParticipantSetup(trait_value=4, revers_penalty=1, weapon=1, armour=2, shield=True, surprise=2, conditions=1)
    budget = card_budget(setup, first_draw=True)
    assert [(i.modifier.code, i.modifier.amount) for i in budget.items] == [
        ("trait", 4),
        ("revers", -1),
        ("surprise", -2),
        ("conditions", -1),
        ("weapon", 1),
        ("armour", 2),
        ("shield", 1),
    ]
    assert (budget.free, budget.attack_only, budget.defence_only) == (0, 1, 3)
    assert card_budget(setup, first_draw=False).free == 2
    with pytest.raises(RuleError) as err:
        validate_split(budget, Split(attack={"b": 2}, defence={"a": 2}), me="a", opponents={"b"}, teammates=set())
    assert err.value.code == "too_many_attack"


def test_a_split_using_more_cards_than_one_has_is_refused() -> None:
    budget = card_budget(ParticipantSetup(trait_value=3, weapon=1, weapon_use=Use.DEFENCE), first_draw=False)
    with pytest.raises(RuleError) as err:
        validate_split(budget, Split(attack={"b": 3}, defence={"a": 2}), me="a", opponents={"b"}, teammates=set())
    assert err.value.code == "too_many_cards" and err.value.values == {"used": 5, "have": 4}
    validate_split(budget, Split(attack={"b": 2}, defence={"a": 2}), me="a", opponents={"b"}, teammates=set())


def test_out_of_range_participants_may_only_defend_and_teammates_need_a_reason() -> None:
    budget = card_budget(ParticipantSetup(trait_value=3), first_draw=False)
    with pytest.raises(RuleError, match="out_of_range_attack"):
        validate_split(
            budget,
            Split(attack={"b": 1}, defence={"a": 2}),
            me="a",
            opponents={"b"},
            teammates=set(),
            out_of_range=True,
        )
    with pytest.raises(RuleError, match="protect_needs_reason"):
        validate_split(budget, Split(defence={"c": 3}), me="a", opponents={"b"}, teammates={"c"}, collective=True)
    validate_split(
        budget,
        Split(defence={"c": 3}),
        me="a",
        opponents={"b"},
        teammates={"c"},
        collective=True,
        cover_reasons={"c": "tir de couverture"},
    )


def test_cutting_short_by_the_winner_or_by_both_sides_on_equal_revers() -> None:
    won = cut_short(
        verdict=DrawVerdict.WINNER, winner="pcs", side="pcs", choices={"pcs": CutChoice.CUT}, sides=["pcs", "npcs"]
    )
    assert won.ended and won.winner == "pcs"
    with pytest.raises(RuleError, match="cut_not_winner"):
        cut_short(
            verdict=DrawVerdict.WINNER,
            winner="pcs",
            side="npcs",
            choices={"npcs": CutChoice.CUT},
            sides=["pcs", "npcs"],
        )
    waiting = cut_short(
        verdict=DrawVerdict.EQUAL, winner=None, side="pcs", choices={"pcs": CutChoice.CUT}, sides=["pcs", "npcs"]
    )
    assert not waiting.ended and waiting.waiting_for == ("npcs",)
    both = cut_short(
        verdict=DrawVerdict.EQUAL,
        winner=None,
        side="npcs",
        choices={"pcs": CutChoice.CUT, "npcs": CutChoice.CUT},
        sides=["pcs", "npcs"],
    )
    assert both.ended and both.winner is None
    with pytest.raises(RuleError, match="cut_needs_revers"):
        cut_short(verdict=DrawVerdict.TIE, winner=None, side="pcs", choices={}, sides=["pcs", "npcs"])


def test_npcs_may_be_out_after_one_or_two_revers_and_a_decisive_revers_ends_it() -> None:
    assert is_out(severity=Severity.REVERS, revers_taken=1, out_after=1)
    assert not is_out(severity=Severity.REVERS, revers_taken=1, out_after=2)
    assert is_out(severity=Severity.DECISIVE, revers_taken=3, out_after=None)
    assert over({"a": True, "b": False}, {"a": "1", "b": "2"})
    assert friendly_penalty([1, 2, 1]) == 2


def test_future_armour_doubles_only_the_successes_of_its_own_cards() -> None:
    """« Chaque succès d'une armure du futur annule deux succès d'une arme moderne ou d'une ère antérieure »:
    the successes of the armour's cards, not every defence success of its wearer. Here the wearer defends with
    3 cards, the first (its armour's single card) a failure, the other two successes: they cancel 2, not 4."""
    miss, hit = Played(Card(3, Suit.SPADES)), Played(Card(4, Suit.SPADES))
    hands = [Hand("a", "1", attack={"b": hits(3)}), Hand("b", "2", defence={"b": (miss, hit, hit)})]
    assert resolve_draw(hands, EVEN, armour={"b": (2, 1)}).targets["b"].severity is Severity.REVERS
    # The armour's card a success: it cancels two, the other success one: nothing gets through.
    hands = [Hand("a", "1", attack={"b": hits(3)}), Hand("b", "2", defence={"b": (hit, hit, miss)})]
    assert resolve_draw(hands, EVEN, armour={"b": (2, 1)}).targets["b"].severity is Severity.NONE
