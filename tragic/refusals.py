"""Refusals of the TRAGIC engine, in the reader's language (the mechanism is core/refusals.py).

Every template the engine refuses with is listed here once, so that the catalogue translates it
(tests/tragic/test_refusals.py checks the list against the engine's source). Parameters that are words (an
attribute letter, a card id, an equipment slot, a rule profile) are replaced by their names in the reader's
language.
"""

from __future__ import annotations

from django.utils.translation import gettext_noop, ngettext_lazy, pgettext_lazy

from core.refusals import RefusalCatalogue, Word, labelled
from tragic.engine import IllegalAction
from tragic.engine.cards import ATTRIBUTE_NAMES
from tragic.models import Profile
from tragic.presenters import attribute_name, card_name, library_problem

TEMPLATES = (
    gettext_noop("that card is not in your hand"),
    gettext_noop("a SPECIAL card is placed after paying a cost"),
    gettext_noop("a reaction answers something on the stack"),
    gettext_noop("cards are played in the main phase"),
    gettext_noop("your Traits are incompatible with the Confrérie de l'Acier"),
    gettext_noop("that companion is already on the battlefield"),
    gettext_noop("you cannot pay its cost"),
    gettext_noop("it has no legal target"),
    gettext_noop("only reactions answer the stack"),
    gettext_noop("a reaction answers an opponent's act"),
    gettext_noop("this reaction does not answer that"),
    gettext_noop("the attacker cannot be struck"),
    gettext_noop("that card is not in your equipment zone"),
    gettext_noop("equipment changes in the main phase"),
    gettext_noop("it is already equipped"),
    gettext_noop("it is already unequipped"),
    gettext_noop("something is already equipped on the {slot}"),
    gettext_noop("an action is a dict with a kind"),
    gettext_noop("unknown action {kind!r}"),
    gettext_noop("that action code is not one of this step's legal actions"),
    gettext_noop("the game is over"),
    gettext_noop("the action names no seat at this table"),
    gettext_noop("you are out of the game"),
    gettext_noop("it is not your turn to act"),
    gettext_noop("say whether to stop when you can respond"),
    gettext_noop("Traits are chosen at setup"),
    gettext_noop("choose up to two different Traits"),
    gettext_noop("{card} is not one of your Traits"),
    gettext_noop("Compétences are chosen at setup"),
    gettext_noop("choose 3 different Compétences"),
    gettext_noop("choose 3 to {slots} different Compétences"),
    gettext_noop("{card} is not one of your Compétences"),
    gettext_noop("mulligans happen before the first turn"),
    gettext_noop("your starting hand is already empty"),
    gettext_noop("those cards are not in your hand"),
    gettext_noop("upkeep effects are resolved in the upkeep phase"),
    gettext_noop("no such upkeep effect is waiting"),
    gettext_noop("discard a card from your hand"),
    gettext_noop("you are not in your upkeep"),
    gettext_noop("resolve every ENTRETIEN effect first"),
    gettext_noop("cards are played in your main phase, with nothing on the stack"),
    gettext_noop("you are inside the shelter"),
    gettext_noop("no such card"),
    gettext_noop("that is not a legal target"),
    gettext_noop("only CIBLAGE aims at a body part of a player"),
    gettext_noop("there is nothing to react to"),
    gettext_noop("there is nothing to pass on"),
    gettext_noop("a SPECIAL card is placed right after paying a cost"),
    gettext_noop("place a SPECIAL card from your hand"),
    gettext_noop("{attribute} already has 10 points, the most an Attribute holds"),
    gettext_noop("that card has no ability you can use"),
    gettext_noop("not now"),
    gettext_noop("that ability cannot be used now"),
    gettext_noop("not with something on the stack"),
    gettext_noop("allies attack in your main phase"),
    gettext_noop("name the attacking allies"),
    gettext_noop("that ally cannot attack"),
    gettext_noop("HORDE allies attack all together"),
    gettext_noop("nobody is attacking you"),
    gettext_noop("name your defenders"),
    gettext_noop("that ally cannot defend"),
    gettext_noop("one CHARGE DE PROTECTION ally takes the blow"),
    gettext_noop("split the {total} damage among your defenders"),
    gettext_noop("you are not searching"),
    gettext_noop("no such card can be found"),
    gettext_noop("you are not discovering"),
    gettext_noop("place every discovered card once"),
    gettext_noop("each card goes on top, under the library or to the discard"),
    gettext_noop("finish what is on the stack first"),
    gettext_noop("end your turn from the main phase"),
    gettext_noop("it is not your turn"),
    gettext_noop("unknown rule profile {profile!r}"),
    gettext_noop("unknown copy mode {mode!r}"),
    gettext_noop("the {profile} rules seat 2 to {n} players"),
    gettext_noop("player {seat}: {errors}"),
    gettext_noop("the payment must name attributes and points"),
    gettext_noop("{attribute} is not a SPECIAL attribute"),
    gettext_noop("points paid are whole numbers"),
)

# « something is already equipped on the {slot} »: the equipment slots of docs/tragic.md.
SLOT_LABELS = {
    "head": pgettext_lazy("equipment slot", "head"),
    "torso": pgettext_lazy("equipment slot", "torso"),
    "arms": pgettext_lazy("equipment slot", "arms"),
    "legs": pgettext_lazy("equipment slot", "legs"),
    "weapon": pgettext_lazy("equipment slot", "weapon"),
}


def _attribute(value: object) -> object:
    return attribute_name(value) if isinstance(value, str) and value in ATTRIBUTE_NAMES else value


def _card(value: object) -> object:
    return card_name(value) if isinstance(value, str) else value


def _library_errors(value: object) -> object:
    return "; ".join(library_problem(part) for part in value.split("; ")) if isinstance(value, str) else value


WORDS: dict[str, Word] = {
    "attribute": _attribute,
    "card": _card,
    "slot": labelled(SLOT_LABELS),
    "profile": labelled(dict(Profile.choices)),
    "errors": _library_errors,
}

# The refusals that count with {n}: the engine's English says "point(s)", the reader reads "1 point", "3 points".
COUNTED = {
    "put exactly {n} card(s) under your library": ngettext_lazy(
        "put exactly {n} card under your library", "put exactly {n} cards under your library", "n"
    ),
    "only {n} {attribute} point(s) are disengaged": ngettext_lazy(
        "only {n} {attribute} point is disengaged", "only {n} {attribute} points are disengaged", "n"
    ),
    "the generic part of the cost is {n} point(s)": ngettext_lazy(
        "the generic part of the cost is {n} point", "the generic part of the cost is {n} points", "n"
    ),
    "the cost needs {n} {attribute} point(s)": ngettext_lazy(
        "the cost needs {n} {attribute} point", "the cost needs {n} {attribute} points", "n"
    ),
    "the cost is {n} point(s), {offered} offered": ngettext_lazy(
        "the cost is {n} point, {offered} offered", "the cost is {n} points, {offered} offered", "n"
    ),
}

REFUSALS = RefusalCatalogue(TEMPLATES, counted=COUNTED, words=WORDS)


def refusal_text(refusal: IllegalAction) -> str:
    """The refusal's sentence in the active language (the engine's English when a template is not listed)."""
    return REFUSALS.text(refusal)
