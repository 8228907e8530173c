"""Refusals of the TRAGIC engine, in the reader's language.

The engine refuses in English with a template and its parameters (``IllegalAction.template``, ``.params``);
every template it uses is listed here so that the catalogue translates it (tests/tragic/test_refusals.py
checks the list against the engine's source). Parameters that are words (an attribute letter, a card id,
an equipment slot, a rule profile) are replaced by their names in the reader's language.
"""

from __future__ import annotations

from collections.abc import Callable

from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy

from tragic.engine import IllegalAction
from tragic.engine.cards import ATTRIBUTE_NAMES
from tragic.models import Profile
from tragic.presenters import attribute_name, card_name, library_problem

REFUSALS = {
    "that card is not in your hand": _("that card is not in your hand"),
    "a SPECIAL card is placed after paying a cost": _("a SPECIAL card is placed after paying a cost"),
    "a reaction answers something on the stack": _("a reaction answers something on the stack"),
    "cards are played in the main phase": _("cards are played in the main phase"),
    "your Traits are incompatible with the Confrérie de l'Acier": _(
        "your Traits are incompatible with the Confrérie de l'Acier"
    ),
    "that companion is already on the battlefield": _("that companion is already on the battlefield"),
    "you cannot pay its cost": _("you cannot pay its cost"),
    "it has no legal target": _("it has no legal target"),
    "only reactions answer the stack": _("only reactions answer the stack"),
    "a reaction answers an opponent's act": _("a reaction answers an opponent's act"),
    "this reaction does not answer that": _("this reaction does not answer that"),
    "the attacker cannot be struck": _("the attacker cannot be struck"),
    "that card is not in your equipment zone": _("that card is not in your equipment zone"),
    "equipment changes in the main phase": _("equipment changes in the main phase"),
    "it is already equipped": _("it is already equipped"),
    "it is already unequipped": _("it is already unequipped"),
    "something is already equipped on the {slot}": _("something is already equipped on the {slot}"),
    "an action is a dict with a kind": _("an action is a dict with a kind"),
    "unknown action {kind!r}": _("unknown action {kind!r}"),
    "the game is over": _("the game is over"),
    "the action names no seat at this table": _("the action names no seat at this table"),
    "you are out of the game": _("you are out of the game"),
    "it is not your turn to act": _("it is not your turn to act"),
    "say whether to stop when you can respond": _("say whether to stop when you can respond"),
    "Traits are chosen at setup": _("Traits are chosen at setup"),
    "choose up to two different Traits": _("choose up to two different Traits"),
    "{card} is not one of your Traits": _("{card} is not one of your Traits"),
    "Compétences are chosen at setup": _("Compétences are chosen at setup"),
    "choose 3 different Compétences": _("choose 3 different Compétences"),
    "choose 3 to {slots} different Compétences": _("choose 3 to {slots} different Compétences"),
    "{card} is not one of your Compétences": _("{card} is not one of your Compétences"),
    "mulligans happen before the first turn": _("mulligans happen before the first turn"),
    "your starting hand is already empty": _("your starting hand is already empty"),
    "put exactly {n} card(s) under your library": _("put exactly {n} card(s) under your library"),
    "those cards are not in your hand": _("those cards are not in your hand"),
    "upkeep effects are resolved in the upkeep phase": _("upkeep effects are resolved in the upkeep phase"),
    "no such upkeep effect is waiting": _("no such upkeep effect is waiting"),
    "discard a card from your hand": _("discard a card from your hand"),
    "you are not in your upkeep": _("you are not in your upkeep"),
    "resolve every ENTRETIEN effect first": _("resolve every ENTRETIEN effect first"),
    "cards are played in your main phase, with nothing on the stack": _(
        "cards are played in your main phase, with nothing on the stack"
    ),
    "you are inside the shelter": _("you are inside the shelter"),
    "no such card": _("no such card"),
    "that is not a legal target": _("that is not a legal target"),
    "only CIBLAGE aims at a body part of a player": _("only CIBLAGE aims at a body part of a player"),
    "there is nothing to react to": _("there is nothing to react to"),
    "there is nothing to pass on": _("there is nothing to pass on"),
    "a SPECIAL card is placed right after paying a cost": _("a SPECIAL card is placed right after paying a cost"),
    "place a SPECIAL card from your hand": _("place a SPECIAL card from your hand"),
    "{attribute} already has 10 points, the most an Attribute holds": _(
        "{attribute} already has 10 points, the most an Attribute holds"
    ),
    "that card has no ability you can use": _("that card has no ability you can use"),
    "not now": _("not now"),
    "that ability cannot be used now": _("that ability cannot be used now"),
    "not with something on the stack": _("not with something on the stack"),
    "allies attack in your main phase": _("allies attack in your main phase"),
    "name the attacking allies": _("name the attacking allies"),
    "that ally cannot attack": _("that ally cannot attack"),
    "HORDE allies attack all together": _("HORDE allies attack all together"),
    "nobody is attacking you": _("nobody is attacking you"),
    "name your defenders": _("name your defenders"),
    "that ally cannot defend": _("that ally cannot defend"),
    "one CHARGE DE PROTECTION ally takes the blow": _("one CHARGE DE PROTECTION ally takes the blow"),
    "split the {total} damage among your defenders": _("split the {total} damage among your defenders"),
    "you are not searching": _("you are not searching"),
    "no such card can be found": _("no such card can be found"),
    "you are not discovering": _("you are not discovering"),
    "place every discovered card once": _("place every discovered card once"),
    "each card goes on top, under the library or to the discard": _(
        "each card goes on top, under the library or to the discard"
    ),
    "finish what is on the stack first": _("finish what is on the stack first"),
    "end your turn from the main phase": _("end your turn from the main phase"),
    "it is not your turn": _("it is not your turn"),
    "unknown rule profile {profile!r}": _("unknown rule profile {profile!r}"),
    "unknown copy mode {mode!r}": _("unknown copy mode {mode!r}"),
    "the {profile} rules seat 2 to {n} players": _("the {profile} rules seat 2 to {n} players"),
    "player {seat}: {errors}": _("player {seat}: {errors}"),
    "the payment must name attributes and points": _("the payment must name attributes and points"),
    "{attribute} is not a SPECIAL attribute": _("{attribute} is not a SPECIAL attribute"),
    "points paid are whole numbers": _("points paid are whole numbers"),
    "only {n} {attribute} point(s) are disengaged": _("only {n} {attribute} point(s) are disengaged"),
    "the generic part of the cost is {n} point(s)": _("the generic part of the cost is {n} point(s)"),
    "the cost needs {n} {attribute} point(s)": _("the cost needs {n} {attribute} point(s)"),
    "the cost is {n} point(s), {offered} offered": _("the cost is {n} point(s), {offered} offered"),
}

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


def _slot(value: object) -> object:
    return str(SLOT_LABELS[value]) if isinstance(value, str) and value in SLOT_LABELS else value


def _profile(value: object) -> object:
    return str(Profile(value).label) if isinstance(value, str) and value in Profile.values else value


def _library_errors(value: object) -> object:
    return "; ".join(library_problem(part) for part in value.split("; ")) if isinstance(value, str) else value


WORDS: dict[str, Callable[[object], object]] = {
    "attribute": _attribute,
    "card": _card,
    "slot": _slot,
    "profile": _profile,
    "errors": _library_errors,
}


def refusal_text(refusal: IllegalAction) -> str:
    """The refusal's sentence in the active language (the engine's English when a template is not listed)."""
    template = REFUSALS.get(refusal.template)
    if template is None:
        return refusal.reason
    params = {key: WORDS[key](value) if key in WORDS else value for key, value in refusal.params.items()}
    return str(template).format(**params)
