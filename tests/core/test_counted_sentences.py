"""Counted words agree with their count (issue 28: « dépense 1 Atouts »): the sentences the catalogue lint once let
through as « never 1 » now say one thing or the other, in both languages."""

from __future__ import annotations

import pytest
from django.utils import translation

import tragic.chronicle_kinds  # noqa: F401 - registers the describers
from campaigns.chronicle import describe
from campaigns.models import Event
from characters.rule_messages import rule_message as sheet_rule
from characters.rules.errors import RuleViolation
from conflicts.messages import rule_message as split_rule
from conflicts.rules.errors import RuleError
from states.chronicle import _critical_effect, outcome_label


@pytest.mark.parametrize(
    ("language", "one", "two"),
    [
        ("fr", "coûte 1 Atout pour +1", "coûte 2 Atouts pour +1"),
        ("en", "costs 1 Atout for +1", "costs 2 Atouts for +1"),
    ],
)
def test_an_atout_cost_agrees_with_its_count(language: str, one: str, two: str) -> None:
    with translation.override(language):
        assert one in sheet_rule(RuleViolation("atout.help_other.two_atouts", cost=1))
        assert two in sheet_rule(RuleViolation("atout.help_other.two_atouts", cost=2))


def test_a_split_refusal_agrees_with_its_count() -> None:
    with translation.override("fr"):
        assert split_rule(RuleError("too_many_cards", used=1, have=0)).startswith("Cette répartition utilise 1 carte ")
        assert "Seule 1 de vos cartes peut aller en attaque" in split_rule(RuleError("too_many_attack", have=1, used=2))
        assert "Seules 2 de vos cartes peuvent" in split_rule(RuleError("too_many_attack", have=2, used=3))
    with translation.override("en"):
        assert split_rule(RuleError("deck_too_small", count=1, size=0)) == "1 card cannot come from a deck of 0."


def test_a_game_of_one_turn_says_turn() -> None:
    finished = Event(kind="tragic.game_finished", payload={"game": 1, "winner": "Lisa", "turns": 1})
    with translation.override("fr"):
        assert describe(finished) == "Lisa remporte le duel de TRAGIC en 1 tour."
    with translation.override("en"):
        assert describe(finished) == "Lisa wins the TRAGIC duel after 1 turn."


def test_a_critical_state_and_raises_agree_with_their_count() -> None:
    with translation.override("fr"):
        assert _critical_effect({"effect": "unconscious_for", "hours": 1}) == "s’effondre, inconscient pour 1 heure"
        assert _critical_effect({"effect": "unconscious_for", "hours": 7}) == "s’effondre, inconscient pour 7 heures"
        assert outcome_label("raise", 3) == "3 relances"
    with translation.override("en"):
        assert _critical_effect({"effect": "death_in_rounds", "rounds": 1}).startswith("dies in 1 round unless")


def test_a_creation_in_the_log_counts_each_part() -> None:
    created = Event(kind="character.created", payload={"character": "Jim", "spent": 1, "kept": 2, "mode": "free"})
    with translation.override("fr"):
        assert describe(created).endswith("(1 Atout dépensé, 2 gardés pour le jeu).")
    with translation.override("en"):
        assert describe(created).endswith("(1 Atout spent, 2 kept for play).")
