"""Words as a table reads them (issue 12): plurals through ngettext, names in the reader's language.

Each case was a line seen in a played evening: « 1 cartes placées sur 1 », « Atout(s) », « Blessure(s) »,
"1 net successes", « 0 points de dégâts », « Jim et Lisa l'emporte », "Bot (heuristic)" on a French page,
"Average Médecine test" and "Tir (Good)" on English pages, « Santé, Vitesse, Précision » in English.
"""

from __future__ import annotations

import random

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import translation

from campaigns.chronicle import describe
from campaigns.models import Event
from conflicts.services.fudge_tests import fudge_test_roll
from tests.campaigns.factories import UserFactory
from tests.conflicts.factories import fight
from tragic.presenters import describe_event

pytestmark = pytest.mark.django_db


def _text(kind: str, payload: dict, language: str) -> str:  # type: ignore[type-arg]
    with translation.override(language):
        return describe(Event(kind=kind, payload=payload))


def test_one_atout_is_singular_in_both_languages() -> None:
    payload = {"character": "Jim", "amount": 1, "use": "help_other"}
    assert "dépense 1 Atout :" in _text("character.atout_spent", payload, "fr")
    assert "spends 1 Atout:" in _text("character.atout_spent", payload, "en")
    assert "(s)" not in _text("character.atout_spent", payload, "fr")
    assert "gagne 2 Atouts" in _text("character.atout_gained", {"character": "Jim", "amount": 2}, "fr")


def test_net_successes_agree_with_their_number() -> None:
    outcome = {"targets": {"t": {"name": "Lisa", "severity": 1, "credited": {"a": 1}}}, "verdict": "tie"}
    resolved = {"title": "Rixe", "outcome": outcome}
    assert "1 net success)" in _text("sequence.resolved", resolved, "en")
    assert "1 succès net)" in _text("sequence.resolved", resolved, "fr")
    # The last draw carries the result in its own Event; older logs keep their ``sequence.resolved``.
    drew = {**resolved, "draw": 1, "name": "Jim", "cards": {"attack": {}, "defence": {}}}
    assert "Jim draws" in _text("sequence.drew", drew, "en") and "1 net success)" in _text("sequence.drew", drew, "en")
    assert "1 succès net)" in _text("sequence.drew", drew, "fr")
    assert "net success" not in _text("sequence.drew", {k: v for k, v in drew.items() if k != "outcome"}, "en")


def test_a_side_named_after_two_people_reads_as_a_side() -> None:
    settled = {"title": "Rixe", "revers": [], "ended": True, "sequence_winner": "Jim et Lisa"}
    text = _text("sequence.settled", settled, "fr")
    assert "le camp « Jim et Lisa » l'emporte" in text
    assert "the side “Jim et Lisa” wins" in _text("sequence.settled", settled, "en")


def test_cards_placed_agree_with_their_number() -> None:
    from conflicts.odds_html import odds_html

    # A label, no plural to get wrong in either language (« 1 of 1 cards placed », issue 28).
    with translation.override("fr"):
        assert "Cartes placées : 1 sur 1<" in odds_html(1, 1, 1, 1, [])
        assert "Cartes placées : 2 sur 3 <" in odds_html(1, 1, 2, 3, [])
    with translation.override("en"):
        assert "Cards placed: 1 of 1<" in odds_html(1, 1, 1, 1, [])


def test_zero_or_one_point_of_damage_is_singular_in_french() -> None:
    with translation.override("fr"):
        text = describe_event({"t": "counter_attack", "card": None, "amount": 0}, ["A", "B"])
    assert text is not None and "0 point de dégâts" in text


def test_the_tragic_bots_are_named_in_french() -> None:
    client = Client()
    client.force_login(UserFactory())
    client.cookies["django_language"] = "fr"
    html = client.get(reverse("tragic:home"), HTTP_ACCEPT_LANGUAGE="fr").content.decode()
    assert "Bot (heuristic)" not in html
    assert "Bot (tacticien)" in html


def test_a_test_in_the_log_names_its_trait_in_the_readers_language() -> None:
    f = fight(npcs=1)
    with translation.override("fr"):
        fudge_test_roll(
            character=f.hero, actor=f.player, rng=random.Random(2), data={"trait_code": "esprit", "difficulty": 4}
        )
    event = Event.objects.get(kind="test.rolled")
    with translation.override("en"):
        english = describe(event)
    with translation.override("fr"):
        french = describe(event)
    assert "tests Mind (" in english
    assert "Esprit (" in french


def test_english_frag_pages_name_the_attributes_in_english() -> None:
    client = Client()
    client.force_login(UserFactory())
    client.cookies["django_language"] = "en"
    html = client.get(reverse("frag:home"), HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "Santé" not in html and "Vitesse" not in html
    assert "Health" in html


def test_the_first_aid_line_names_medicine_in_english() -> None:
    from characters.forms import FirstAidForm

    with translation.override("en"):
        assert "Médecine" not in str(FirstAidForm().fields["success"].label)


@pytest.mark.parametrize(
    ("left", "french"),
    [(1, "1 carte n'est pas encore placée"), (3, "3 cartes ne sont pas encore placées")],
)
def test_cards_left_to_place_agree_with_their_number(left: int, french: str) -> None:
    """« %(left)s carte(s) ne sont pas encore placées » read « 1 carte(s) ne sont »."""
    from conflicts.messages import rule_message
    from conflicts.rules.errors import RuleError

    with translation.override("fr"):
        assert rule_message(RuleError("cards_left", left=left)).startswith(french)
    with translation.override("en"):
        assert rule_message(RuleError("cards_left", left=1)).startswith("1 card is not placed yet")


def test_a_healing_cycle_and_its_hours_agree_with_their_numbers() -> None:
    """« 1 cycle(s), 1 cran(s) de Revers soigné(s), 0 point(s) de Potentiel dépensé(s) », « 1 heure(s) »."""
    cycle = {"character": "Jim", "power": "regeneration", "cycles": 1, "points": 0,
             "healed": [{"from": 2, "to": 1}], "potential_left": 4}  # fmt: skip
    assert _text("character.regeneration_cycle", cycle, "fr") == (
        "Régénération : Jim accomplit 1 cycle, 1 cran de Revers soigné, 0 point de Potentiel dépensé (reste 4)."
    )
    two = {**cycle, "cycles": 2, "points": 2, "healed": [{"from": 3, "to": 1}]}
    assert "2 cycles, 2 crans de Revers soignés, 2 points de Potentiel dépensés" in _text(
        "character.regeneration_cycle", two, "fr"
    )
    started = {"character": "Jim", "power": "regeneration", "cycle_hours": 1, "potential_left": 4}
    assert "cycle de 1 heure (reste 4)" in _text("character.regeneration_started", started, "fr")
    assert "cycle de 2 heures" in _text("character.regeneration_started", {**started, "cycle_hours": 2}, "fr")


def test_an_ace_is_narrated_as_drawn() -> None:
    """Issue 28: « A card drawn as A♠ is narrated as 1♠ »."""
    from conflicts.labels import card_face

    for language in ("fr", "en"):
        with translation.override(language):
            assert card_face("1S") == "A♠" and card_face("10C") == "10♣"


def test_a_revers_serieux_counts_as_two_steps_not_two_revers() -> None:
    """« 2 Revers reçus » under a participant who took one Revers sérieux; « → Revers sérieux » under his own
    attack cards read as the damage he dealt."""
    from types import SimpleNamespace

    from django.template.loader import render_to_string

    p = SimpleNamespace(out_of_range_bands=0, upper_hand_cards=1, revers_taken=2, active=True, drawn=True)
    with translation.override("fr"):
        text = render_to_string("conflicts/partials/participant_status.html", {"p": p, "board": SimpleNamespace()})
    assert "2 crans de Revers reçus" in text and "+1 carte" in text and "cartes" not in text


def test_the_revers_under_a_participants_cards_says_it_is_theirs_to_take() -> None:
    from types import SimpleNamespace

    from django.template.loader import render_to_string

    board = SimpleNamespace(sequence=SimpleNamespace(kind="standard"))
    view = SimpleNamespace(attack_cards=[], defence_cards=[], received={"severity": 2})
    context = {"board": board, "v": view}
    with translation.override("fr"):
        assert "Subit : Revers sérieux" in render_to_string("conflicts/partials/hands.html", context)
    with translation.override("en"):
        assert "Takes: Serious Revers" in render_to_string("conflicts/partials/hands.html", context)
