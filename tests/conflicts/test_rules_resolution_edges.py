"""A draw's resolution field by field: pooled attacks, a protected teammate, armour, costs, the upper hand, sides.

V-2: « 1 succès = l'adversaire essuie un Revers … 3 succès = … un Revers Décisif … et perd la Séquence »; « Si
personne n'enregistre de succès, la Séquence se conclue par une égalité »; collective Sequences: « un individu peut
utiliser ses succès défensifs pour aider les membres de son camp » and « Le camp qui enregistre le plus grand nombre
de succès est considéré comme le vainqueur du Tirage »; « prendre l'ascendant »: « le nombre de Revers infligés est
doublé. Le résultat donne le nombre de cartes supplémentaires »; VII: « Chaque succès d'une armure du futur annule
deux succès d'une arme moderne ou d'une ère antérieure » (mutation tests)."""

from __future__ import annotations

from conflicts.rules.cards import Card, SuccessRule, Suit
from conflicts.rules.resolution import WOUNDS, DrawVerdict, Hand, Played, Severity, resolve_draw

EVEN = SuccessRule.EVEN
HIT, MISS = Played(Card(4, Suit.SPADES)), Played(Card(3, Suit.SPADES))


def hits(n: int) -> tuple[Played, ...]:
    return (HIT,) * n


def test_every_field_of_a_target_two_attackers_pool_and_the_defence_parries_the_biggest_first() -> None:
    """Two thugs aim 3 and 1 successes at Jim, who defends with 2: the biggest threat loses two, 1 + 1 get through."""
    hands = [
        Hand("jim", "pcs", defence={"jim": hits(2) + (MISS,)}),
        Hand("t1", "npcs", attack={"jim": hits(3) + (MISS,)}),
        Hand("t2", "npcs", attack={"jim": hits(1)}),
    ]
    target = resolve_draw(hands, EVEN).targets["jim"]
    assert target.target == "jim"
    assert target.attack_successes == {"t1": 3, "t2": 1} and target.attacked == 4
    assert target.defence_successes == 2 and target.defence_weight == 1 and target.cost == 1
    assert target.credited == {"t1": 1, "t2": 1} and target.net == 2
    assert target.severity is Severity.SERIOUS and target.upper_hand_cards == {}


def test_equal_threats_are_parried_in_the_attackers_order() -> None:
    hands = [
        Hand("jim", "pcs", defence={"jim": hits(1)}),
        Hand("zed", "npcs", attack={"jim": hits(1)}),
        Hand("abe", "npcs", attack={"jim": hits(1)}),
    ]
    assert resolve_draw(hands, EVEN).targets["jim"].credited == {"abe": 0, "zed": 1}


def test_a_teammates_defence_counts_for_the_protected_but_closes_no_range_for_them() -> None:
    """Collective: the medic's 2 defence successes cover the scout; the scout, out of range, defends with 1 of
    his own: only his own surplus closes the distance (« les succès défensifs supplémentaires »)."""
    hands = [
        Hand("medic", "pcs", defence={"scout": hits(2), "medic": hits(1)}),
        Hand("scout", "pcs", defence={"scout": hits(1)}, out_of_range=True),
        Hand("guard", "npcs", attack={"scout": hits(3)}),
    ]
    outcome = resolve_draw(hands, EVEN, collective=True)
    assert outcome.targets["scout"].defence_successes == 3
    assert outcome.targets["scout"].severity is Severity.NONE
    assert outcome.range_closed == {"scout": 0}
    # Defended only, never attacked: still listed, nothing credited.
    assert outcome.targets["medic"].credited == {} and outcome.targets["medic"].defence_successes == 1
    alone = [Hand("scout", "pcs", defence={"scout": hits(3)}, out_of_range=True), Hand("guard", "npcs")]
    assert resolve_draw(alone, EVEN).range_closed == {"scout": 3}


def test_future_armour_weighs_its_own_cards_only_beyond_the_narrators_weight() -> None:
    """Armour (weight 3, its 1 card) over a narrator's weight of 2: its success cancels one more than the others."""
    hands = [Hand("a", "1", attack={"b": hits(6)}), Hand("b", "2", defence={"b": hits(2)})]
    plain = resolve_draw(hands, EVEN, defence_weights={"b": 2}).targets["b"]
    assert plain.credited == {"a": 2} and plain.defence_weight == 2
    armoured = resolve_draw(hands, EVEN, defence_weights={"b": 2}, armour={"b": (3, 1)}).targets["b"]
    assert armoured.credited == {"a": 1} and armoured.defence_weight == 3
    # An armour no heavier than the narrator's weight adds nothing, and neither does one with no card.
    assert resolve_draw(hands, EVEN, defence_weights={"b": 2}, armour={"b": (2, 1)}).targets["b"].credited == {"a": 2}
    assert resolve_draw(hands, EVEN, armour={"b": (2, 0)}).targets["b"].credited == {"a": 4}
    weighed = resolve_draw(hands, EVEN, armour={"b": (2, 2)}).targets["b"]
    assert weighed.credited == {"a": 2} and weighed.defence_weight == 2
    # A weight below one counts as one.
    assert resolve_draw(hands, EVEN, defence_weights={"b": 0}).targets["b"].credited == {"a": 4}


def test_the_dearest_attacker_sets_the_cost_and_the_revers_count_on_the_side_score() -> None:
    """A small vehicle needs 3 successes per Revers on a huge one; a crew member beside it needs one."""
    hands = [
        Hand("car", "1", attack={"ship": hits(3)}),
        Hand("gunner", "1", attack={"ship": hits(3)}),
        Hand("ship", "2", attack={"car": hits(1)}),
    ]
    outcome = resolve_draw(hands, EVEN, costs={("car", "ship"): 3})
    assert outcome.targets["ship"].cost == 3 and outcome.targets["ship"].severity is Severity.SERIOUS
    assert outcome.targets["car"].cost == 1
    assert outcome.by_side == {"1": 2, "2": 1} and outcome.winner == "1" and outcome.verdict is DrawVerdict.WINNER
    # The dear attacker stopped: the cheap one's cost is back to one.
    hands[0] = Hand("car", "1", attack={"ship": (MISS,)})
    assert resolve_draw(hands, EVEN, costs={("car", "ship"): 3}).targets["ship"].cost == 1


def test_a_side_scores_at_most_three_revers_per_target() -> None:
    hands = [Hand("a", "1", attack={"b": hits(5), "c": hits(2)}), Hand("b", "2"), Hand("c", "2")]
    outcome = resolve_draw(hands, EVEN)
    assert outcome.by_side == {"1": 5, "2": 0} and outcome.decisive == ["b"]


def test_the_upper_hand_gives_cards_per_target_and_scores_nothing_outside_a_collective() -> None:
    """« le nombre de Revers infligés est doublé »: 2 successes on b, 1 on c give 4 + 2 cards; at most 3 Revers."""
    hands = [Hand("a", "1", attack={"b": hits(2), "c": hits(1)}, upper_hand=True), Hand("b", "2"), Hand("c", "2")]
    outcome = resolve_draw(hands, EVEN)
    assert outcome.upper_hand_cards == {"a": 6}
    assert outcome.targets["b"].upper_hand_cards == {"a": 4} and outcome.targets["b"].severity is Severity.NONE
    assert outcome.by_side == {"1": 0, "2": 0} and outcome.verdict is DrawVerdict.TIE
    # Collective: the side with the most successes wins the draw, the upper hand's included.
    collective = resolve_draw(hands, EVEN, collective=True)
    assert collective.by_side == {"1": 3, "2": 0} and collective.winner == "1"
    many = [Hand("a", "1", attack={"b": hits(5)}, upper_hand=True), Hand("b", "2")]
    assert resolve_draw(many, EVEN).upper_hand_cards == {"a": 6}
    dear = resolve_draw(many, EVEN, costs={("a", "b"): 2})
    assert dear.upper_hand_cards == {"a": 4}


def test_a_draw_with_revers_on_both_sides_equal_is_equal_and_unequal_has_a_winner() -> None:
    equal = [Hand("a", "1", attack={"b": hits(1)}), Hand("b", "2", attack={"a": hits(1)})]
    outcome = resolve_draw(equal, EVEN)
    assert outcome.verdict is DrawVerdict.EQUAL and outcome.winner is None and outcome.by_side == {"1": 1, "2": 1}
    three = [*equal, Hand("c", "3")]
    assert resolve_draw(three, EVEN).by_side == {"1": 1, "2": 1, "3": 0}
    nothing = resolve_draw([Hand("a", "1"), Hand("b", "2")], EVEN)
    assert nothing.verdict is DrawVerdict.TIE and nothing.by_side == {"1": 0, "2": 0} and nothing.targets == {}


def test_each_severity_names_its_wound() -> None:
    """« un Revers est considéré comme une Blessure, un Revers Majeur … une Blessure sérieuse et un Revers Décisif …
    une Blessure grave ou mortelle »."""
    assert WOUNDS == {Severity.REVERS: "wound", Severity.SERIOUS: "serious_wound", Severity.DECISIVE: "grave_wound"}


def test_red_cards_succeed_by_method_two() -> None:
    """Appendix 5, method 2: the red cards are the successes; an even black card is a failure."""
    red, black = Played(Card(3, Suit.HEARTS)), Played(Card(4, Suit.CLUBS))
    hands = [Hand("a", "1", attack={"b": (red, red, black)}), Hand("b", "2", defence={"b": (black,)})]
    assert resolve_draw(hands, SuccessRule.RED).targets["b"].credited == {"a": 2}
    assert resolve_draw(hands, EVEN).targets["b"].credited == {"a": 0}


def test_armour_that_cannot_weigh_changes_nothing_and_needs_no_defence_card_of_its_wearer() -> None:
    """An armour with no card left, or no heavier than the narrator's weight, neither adds nor takes a cancel and
    leaves the weight shown; a wearer defended only by a teammate has no armour card among those."""
    hands = [Hand("a", "1", attack={"b": hits(4)}), Hand("b", "2", defence={"b": hits(2)})]
    for armour in ({"b": (3, 0)}, {"b": (1, 2)}):
        target = resolve_draw(hands, EVEN, defence_weights={"b": 2}, armour=armour).targets["b"]
        assert (target.credited, target.defence_weight) == ({"a": 0}, 2)
    covered = [
        Hand("a", "1", attack={"b": hits(3)}),
        Hand("b", "2"),
        Hand("c", "2", defence={"b": hits(1)}),
    ]
    target = resolve_draw(covered, EVEN, collective=True, armour={"b": (2, 1)}).targets["b"]
    assert target.credited == {"a": 2} and target.defence_successes == 1


def test_the_biggest_threat_is_parried_first_whatever_the_attackers_names() -> None:
    """Defence 2 against 1 success from « abe » and 3 from « zed »: zed's 3 lose two, abe's one gets through."""
    hands = [
        Hand("jim", "pcs", defence={"jim": hits(2)}),
        Hand("abe", "npcs", attack={"jim": hits(1)}),
        Hand("zed", "npcs", attack={"jim": hits(3)}),
    ]
    assert resolve_draw(hands, EVEN).targets["jim"].credited == {"zed": 1, "abe": 1}


def test_an_undefended_target_shows_no_defence_and_a_parried_one_costs_one() -> None:
    hands = [Hand("a", "1", attack={"b": hits(1)}, defence={"a": hits(1)}), Hand("b", "2", attack={"a": hits(1)})]
    outcome = resolve_draw(hands, EVEN, costs={("b", "a"): 3})
    assert outcome.targets["b"].defence_successes == 0 and outcome.targets["b"].credited == {"a": 1}
    # Everything parried: no attacker left to set a price, the cost shown is one success per Revers.
    assert outcome.targets["a"].credited == {"b": 0} and outcome.targets["a"].cost == 1


def test_successes_short_of_a_dear_revers_score_nothing() -> None:
    """A small vehicle's one success on a huge one (3 successes per Revers) inflicts nothing: the draw is a tie."""
    hands = [Hand("car", "1", attack={"ship": hits(1)}), Hand("ship", "2")]
    outcome = resolve_draw(hands, EVEN, costs={("car", "ship"): 3})
    assert outcome.by_side == {"1": 0, "2": 0} and outcome.verdict is DrawVerdict.TIE
    assert outcome.targets["ship"].severity is Severity.NONE


def test_out_of_range_without_a_defence_card_closes_nothing() -> None:
    hands = [Hand("gunman", "1"), Hand("knife", "2", out_of_range=True)]
    assert resolve_draw(hands, EVEN).range_closed == {"knife": 0}


def test_a_draw_with_nobody_is_a_tie() -> None:
    outcome = resolve_draw([], EVEN)
    assert outcome.verdict is DrawVerdict.TIE and outcome.by_side == {} and outcome.winner is None


def test_armour_lighter_than_the_narrators_weight_takes_nothing_off_and_reads_its_own_cards_by_the_method() -> None:
    """Narrator's weight 3, armour 2: the armour's success still cancels 3, like every defence success. Method 2:
    the armour's red cards are the successes that cancel two each."""
    hands = [Hand("a", "1", attack={"b": hits(4)}), Hand("b", "2", defence={"b": hits(1)})]
    assert resolve_draw(hands, EVEN, defence_weights={"b": 3}, armour={"b": (2, 1)}).targets["b"].credited == {"a": 1}
    red = Played(Card(3, Suit.HEARTS))
    hands = [Hand("a", "1", attack={"b": (red,) * 5}), Hand("b", "2", defence={"b": (red, red)})]
    assert resolve_draw(hands, SuccessRule.RED, armour={"b": (2, 2)}).targets["b"].credited == {"a": 1}
