"""The odds a player sees for a split count every card that lands on the opponent this draw.

« Lorsqu'un personnage affronte plusieurs adversaires, il doit répartir ses cartes … Chaque participant tire
alors le nombre de cartes approprié » (V): all come from the table's deck, without replacement; successes
aimed at one target are pooled and its defence cancels the pool (docs/rules-decisions.md).
"""

from __future__ import annotations

import random

import pytest

from conflicts import selectors
from conflicts.models import Deck
from conflicts.rules import deck as deck_rules
from conflicts.rules.budget import Split
from conflicts.rules.cards import Card, SuccessRule
from conflicts.rules.odds import bucket, hypergeometric
from conflicts.services.drawing import participant_declare_split
from conflicts.services.sequences import participant_add, scene_create, sequence_create
from tests.campaigns.factories import membership
from tests.characters.factories import pc, table
from tests.conflicts.factories import draw, npc

pytestmark = pytest.mark.django_db


def two_pcs_and_a_thug():
    campaign, narrator, players = table(players=2)
    jim = pc(campaign, players[0], ranks={"combat": 5})
    lisa = pc(campaign, players[1], ranks={"combat": 5}, name="Lisa Benny")
    thug = npc(campaign, narrator, "Truand", combat=5)
    scene = scene_create(campaign=campaign, actor=narrator, title="Les docks")
    seq = sequence_create(scene=scene, actor=narrator, data={"title": "Bagarre"})
    me = participant_add(sequence=seq, actor=narrator, character=jim, side="PJ", trait_code="combat")
    mate = participant_add(sequence=seq, actor=narrator, character=lisa, side="PJ", trait_code="combat")
    them = participant_add(sequence=seq, actor=narrator, character=thug, side="Truands", trait_code="combat")
    return campaign, narrator, players, seq, me, mate, them


def chances(campaign, seq, me, viewer, split):
    seq.refresh_from_db()
    me.refresh_from_db()
    (odds,) = selectors.split_odds(seq, me, split, membership(campaign, viewer))
    return odds


def test_a_teammates_declared_cards_against_the_same_opponent_are_counted_with_mine() -> None:
    """Jim puts 3 cards on the thug, Lisa declared 4 on it, the thug drew its defence: 7 cards from the 35
    left, exactly, and the same figures come out of 40,000 deals in the order the table would deal them."""
    campaign, narrator, players, seq, me, mate, them = two_pcs_and_a_thug()
    draw(them, narrator, Split(attack={me.key: 2}, defence={them.key: 3}), seed=5)
    deck = Deck.objects.get(campaign=campaign)
    state = selectors.deck_states(campaign)[(deck.kind, deck.holder, deck.player_id)]
    size, successes = len(state.pile), sum(c.is_success(SuccessRule.EVEN) for c in state.pile)
    them.refresh_from_db()
    known_defence = sum(c.is_success(SuccessRule.EVEN) for c in (Card.parse(x) for x in them.hand["defence"][them.key]))
    mine = Split(attack={them.key: 3}, defence={me.key: 2})

    alone = chances(campaign, seq, me, players[0], mine)
    expected_alone = bucket(dict(enumerate(hypergeometric(size, successes, 3))), offset=-known_defence)
    assert alone.teammates_pending == 0
    assert alone.chances == pytest.approx(expected_alone.chances, abs=1e-12)

    participant_declare_split(participant=mate, actor=players[1], split=Split(attack={them.key: 4},
                                       defence={mate.key: 1}))  # fmt: skip
    together = chances(campaign, seq, me, players[0], mine)
    expected = bucket(dict(enumerate(hypergeometric(size, successes, 7))), offset=-known_defence)
    assert together.teammates_pending == 4
    assert together.chances == pytest.approx(expected.chances, abs=1e-12)

    rng, runs, seen = random.Random(11), 40_000, [0, 0, 0, 0]
    for _ in range(runs):
        shuffled = deck_rules.DeckState(state.kind, tuple(rng.sample(state.pile, len(state.pile))))
        lisa_deal = deck_rules.deal(shuffled, 5, rng)  # Lisa draws first: 4 on the thug, 1 in defence
        jim_deal = deck_rules.deal(lisa_deal.state, 5, rng)  # then Jim: 3 on the thug, 2 in defence
        hits = sum(c.is_success(SuccessRule.EVEN) for c in lisa_deal.cards[:4] + jim_deal.cards[:3])
        seen[min(3, max(0, hits - known_defence))] += 1
    assert [n / runs for n in seen] == pytest.approx(together.chances, abs=0.01)


def test_cards_aimed_elsewhere_or_not_yet_declared_leave_my_odds_alone() -> None:
    """A card nobody has seen is as likely to be any card left, whoever draws first: a teammate's cards
    aimed at nobody here (defence) change nothing, and an undeclared split cannot be counted."""
    campaign, narrator, players, seq, me, mate, them = two_pcs_and_a_thug()
    mine = Split(attack={them.key: 4}, defence={me.key: 1})
    before = chances(campaign, seq, me, players[0], mine)
    participant_declare_split(participant=mate, actor=players[1], split=Split(defence={mate.key: 5}))
    after = chances(campaign, seq, me, players[0], mine)
    assert after.teammates_pending == 0 and after.chances == pytest.approx(before.chances, abs=1e-12)
    assert before.chances == pytest.approx(bucket(dict(enumerate(hypergeometric(40, 20, 4)))).chances, abs=1e-12)


def test_an_npcs_declared_split_stays_out_of_a_players_odds_but_counts_for_the_narrator() -> None:
    """The narrator's NPCs keep their split secret from the players (« defence not known yet »)."""
    campaign, narrator, players, seq, me, mate, them = two_pcs_and_a_thug()
    participant_declare_split(participant=them, actor=narrator, split=Split(defence={them.key: 5}))
    mine = Split(attack={them.key: 5})
    player_view = chances(campaign, seq, me, players[0], mine)
    narrator_view = chances(campaign, seq, me, narrator, mine)
    assert player_view.defence_note == "unknown" and narrator_view.defence_note == "declared"
    assert player_view.chances[0] < narrator_view.chances[0]
