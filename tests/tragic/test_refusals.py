"""A refused move is explained in the reader's language: every template of the engine is in the catalogue
(tragic/refusals.py), translated into French, and the words it names (attributes, cards, slots) read as names."""

from __future__ import annotations

import ast
import html
import json
import re
from pathlib import Path

import pytest
from django.urls import reverse
from django.utils import translation

from tests.campaigns.factories import PASSWORD, UserFactory
from tests.tragic.test_web import GANG, STEEL, duel
from tragic import services
from tragic.engine import IllegalAction
from tragic.engine.card_files import default_pool
from tragic.refusals import REFUSALS, SLOT_LABELS, refusal_text
from tragic.services import load_state

ENGINE = Path(__file__).resolve().parents[2] / "tragic" / "engine"
# The callables that take a refusal's template, and the position of the template among their arguments.
TEMPLATE_ARGUMENT = {"refuse": 1, "IllegalAction": 1, "Problem": 0}
# Names through which a template already checked elsewhere is passed on (a check's Problem, refuse's own).
FORWARDED = {"problem", "template"}


def engine_templates() -> tuple[set[str], list[str]]:
    """Every template the engine refuses with, and the places that build one some other way (an f-string…)."""
    templates: set[str] = set()
    unreadable: list[str] = []
    for source in sorted(ENGINE.glob("*.py")):
        for node in ast.walk(ast.parse(source.read_text())):
            if not isinstance(node, ast.Call) or getattr(node.func, "id", None) not in TEMPLATE_ARGUMENT:
                continue
            argument = node.args[TEMPLATE_ARGUMENT[node.func.id]]
            choices = [argument.body, argument.orelse] if isinstance(argument, ast.IfExp) else [argument]
            for choice in choices:
                if isinstance(choice, ast.Constant) and isinstance(choice.value, str):
                    templates.add(choice.value)
                elif not (
                    isinstance(choice, ast.Name | ast.Attribute) and ast.unparse(choice).split(".")[0] in FORWARDED
                ):
                    unreadable.append(f"{source.name}:{node.lineno}: {ast.unparse(choice)}")
    return templates, unreadable


def test_every_refusal_of_the_engine_is_in_the_catalogue() -> None:
    templates, unreadable = engine_templates()
    assert len(templates) > 70
    assert not unreadable, "a refusal's template must be a literal string with {named} blanks"
    assert not templates - REFUSALS.templates, "add these templates to tragic/refusals.py"
    assert not REFUSALS.templates - templates, "the engine no longer refuses with these"


def blanks(text: str) -> set[str]:
    return set(re.findall(r"\{[^}]*\}", text))


def test_every_refusal_has_a_french_translation_with_the_same_blanks() -> None:
    with translation.override("fr"):
        for template in REFUSALS.templates:
            french = REFUSALS.translated(template)
            assert french != template, f"no French for {template!r}"
            assert blanks(french) == blanks(template), template
            assert not re.search(r"[^\s\u00a0\u202f][:;!?»]|«[^\s\u00a0\u202f]", re.sub(r"\{[^}]*\}", "", french)), (
                f"French typography: {french!r}"
            )
        for slot, label in SLOT_LABELS.items():
            assert str(label) != slot


def test_words_in_a_refusal_are_named_in_the_reader_language() -> None:
    pool = default_pool()
    trait = next(cid for cid, card in pool.cards.items() if card.type == "trait")
    cost = IllegalAction("unpaid_cost", "the cost needs {n} {attribute} point(s)", n=1, attribute="L")
    not_yours = IllegalAction("bad_choice", "{card} is not one of your Traits", card=trait)
    slot = IllegalAction("not_allowed", "something is already equipped on the {slot}", slot="head")
    assert cost.reason == "the cost needs 1 L point(s)" and not_yours.reason == f"{trait} is not one of your Traits"
    with translation.override("fr"):
        assert refusal_text(cost) == "le coût demande 1 point d'Attribut Chance"
        assert refusal_text(not_yours) == f"{pool[trait].name} – {pool[trait].level} n'est pas un de vos Traits"
        assert refusal_text(slot) == "un objet est déjà équipé à l'emplacement tête"
    with translation.override("en"):
        assert refusal_text(cost) == "the cost needs 1 Luck point"
        assert refusal_text(not_yours) == f"{pool[trait].name_en} – {pool[trait].level} is not one of your Traits"
        assert refusal_text(slot) == "something is already equipped on the head"


def test_a_rule_profile_is_named_by_its_label() -> None:
    seats = IllegalAction("bad_config", "the {profile} rules seat 2 to {n} players", profile="booklet", n=2)
    assert seats.reason == "the booklet rules seat 2 to 2 players"
    with translation.override("fr"):
        assert refusal_text(seats) == "les règles « Livret, seconde édition » accueillent 2 à 2 joueurs"


def test_a_template_missing_from_the_catalogue_still_reads_in_english() -> None:
    with translation.override("fr"):
        assert refusal_text(IllegalAction("bad_action", "a new {thing}", thing="rule")) == "a new rule"


def _barter_page(client, language: str, pay: dict[str, int]):  # type: ignore[no-untyped-def]
    """Pay the Troc Compétence (1 L + 1 of any) with ``pay`` through the board, read in ``language``."""
    game, alice, bob = duel()
    state = load_state(game)
    seat = state.active
    barter = next(
        a for a in state.legal_actions(seat) if a.get("card") is not None and state.cards[a["card"]].cid == "troc-1"
    )
    client.login(username=(alice if seat == 0 else bob).username, password=PASSWORD)
    client.cookies["django_language"] = language
    before = (game.version, list(game.actions), game.snapshot)
    fields = {f"pay_{a}": str(pay.get(a, 0)) for a in "SPECIAL"}
    response = client.post(
        reverse("tragic:game_act", args=[game.pk]),
        {"action": json.dumps(barter), "version": game.version, **fields},
        HTTP_HX_REQUEST="true",
    )
    game.refresh_from_db()
    assert (game.version, game.actions, game.snapshot) == before
    page = html.unescape(response.content.decode())
    return response.status_code, page[page.index('class="tragic-error"') :].split("</p>")[0]


@pytest.mark.django_db
def test_a_refused_payment_reads_fully_in_french_on_a_french_page(client) -> None:  # type: ignore[no-untyped-def]
    status, error = _barter_page(client, "fr", {"S": 1, "A": 1})
    assert status == 400
    assert "Les ressources choisies ne paient pas le coût. (le coût demande 1 point d'Attribut Chance)" in error
    assert "needs" not in error and "L point" not in error
    status, error = _barter_page(client, "fr", {"L": 1, "A": 2})
    assert "(1 point d'Attribut Agilité dégagé seulement)" in error and "disengaged" not in error


@pytest.mark.django_db
def test_a_refused_payment_reads_in_english_on_an_english_page(client) -> None:  # type: ignore[no-untyped-def]
    status, error = _barter_page(client, "en", {"S": 1, "A": 1})
    assert status == 400
    assert "The cost is not paid with the resources chosen. (the cost needs 1 Luck point)" in error
    status, error = _barter_page(client, "en", {"L": 1})
    assert "(the cost is 2 points, 1 offered)" in error


@pytest.mark.django_db
def test_a_refused_trait_names_the_card_in_french(client) -> None:  # type: ignore[no-untyped-def]
    alice, bob = UserFactory(), UserFactory()
    game = services.game_create(user=alice, deck_ref=STEEL, opponent="invite", seed=11)
    game = services.game_join(token=game.invite_token, user=bob, deck_ref=GANG)
    pool = default_pool()
    stranger = load_state(game).players[0].skill_pool[0]  # a Compétence offered as a Trait
    client.login(username=alice.username, password=PASSWORD)
    client.cookies["django_language"] = "fr"
    before = (game.version, list(game.actions), game.snapshot)
    response = client.post(
        reverse("tragic:game_act", args=[game.pk]),
        {"action": json.dumps({"kind": "choose_traits", "traits": [stranger]}), "version": game.version},
        HTTP_HX_REQUEST="true",
    )
    game.refresh_from_db()
    assert response.status_code == 400 and (game.version, game.actions, game.snapshot) == before
    page = html.unescape(response.content.decode())
    name = f"{pool[stranger].name} – {pool[stranger].level}"
    assert f"Ce choix n'est pas permis. ({name} n'est pas un de vos Traits)" in page
    assert stranger not in page.split('class="tragic-error"')[1].split("</p>")[0]


def test_a_counted_refusal_agrees_with_its_number() -> None:
    """No « point(s) » on the page (issue 12, Words): a refusal counting with {n} reads in the form its number
    takes in the reader's language (French: 0 and 1 singular)."""
    three = IllegalAction("unpaid_cost", "the cost needs {n} {attribute} point(s)", n=3, attribute="L")
    one = IllegalAction("bad_choice", "put exactly {n} card(s) under your library", n=1)
    with translation.override("fr"):
        assert refusal_text(three) == "le coût demande 3 points d'Attribut Chance"
        assert refusal_text(one) == "placez exactement 1 carte sous votre bibliothèque"
    with translation.override("en"):
        assert refusal_text(three) == "the cost needs 3 Luck points"
        assert refusal_text(one) == "put exactly 1 card under your library"
