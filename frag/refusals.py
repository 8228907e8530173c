"""Refusals of the Frag engine, in the reader's language.

The engine refuses in English with a template and its parameters (``IllegalAction.template``,
``.params``); every template it uses is listed here so that the catalogue translates it.
"""

from __future__ import annotations

from django.utils.translation import gettext_lazy as _

from frag.engine import IllegalAction

REFUSALS = {
    "Santé, Vitesse and Précision must be whole numbers": _("Health, Speed and Accuracy must be whole numbers"),
    "each of Santé, Vitesse and Précision must be between 1 and 4": _(
        "each of Health, Speed and Accuracy must be between 1 and 4"
    ),
    "Santé, Vitesse and Précision must add up to {total}": _("Health, Speed and Accuracy must add up to {total}"),
    "unknown attribute {name}": _("unknown attribute {name}"),
    "an attribute cannot go above 4": _("an attribute cannot go above 4"),
    "fighters start on a numbered respawn square": _("fighters start on a numbered respawn square"),
    "that respawn square is taken": _("that respawn square is taken"),
    "a jump never goes over a wall or through a closed door": _(
        "a jump never goes over a wall or through a closed door"
    ),
    "teleporters lead from one teleporter to another": _("teleporters lead from one teleporter to another"),
    "too far: teleporting costs 1 movement point": _("too far: teleporting costs 1 movement point"),
    "one marker per square: « prendre un des Marqueur mais pas les 2 »": _(
        "one marker per square: « prendre un des Marqueur mais pas les 2 »"
    ),
    "there is no blood marker here": _("there is no blood marker here"),
    "there is no such weapon marker here": _("there is no such weapon marker here"),
    "you cannot pick up what you dropped this turn": _("you cannot pick up what you dropped this turn"),
    "one card per pile per turn": _("one card per pile per turn"),
    "that card is not under this marker": _("that card is not under this marker"),
    "you have no blood marker": _("you have no blood marker"),
    "healing never goes above the starting Santé": _("healing never goes above the starting Health"),
    "no attack left this turn ({allowed} per turn: half the Précision, rounded up)": _(
        "no attack left this turn ({allowed} per turn: half the Accuracy, rounded up)"
    ),
    "choose another fighter to attack": _("choose another fighter to attack"),
    "that fighter is not on the board": _("that fighter is not on the board"),
    "the target is not in line of sight": _("the target is not in line of sight"),
    "a fighter cannot end its turn on an occupied square": _("a fighter cannot end its turn on an occupied square"),
    "a game needs 2 to 6 players": _("a game needs 2 to 6 players"),
    "frags to win must be a positive number": _("frags to win must be a positive number"),
    "an action is a mapping with a type and a player": _("an action is a mapping with a type and a player"),
    "the game is over": _("the game is over"),
    "unknown player": _("unknown player"),
    "it is not your turn": _("it is not your turn"),
    "in another's turn, only healing can be played": _("in another's turn, only healing can be played"),
    "unknown action {name}": _("unknown action {name}"),
    "{action} is not allowed now ({phase})": _("{action} is not allowed now ({phase})"),
    "a fighter may pass through an occupied square but not stop on it": _(
        "a fighter may pass through an occupied square but not stop on it"
    ),
    "a move needs a path of squares": _("a move needs a path of squares"),
    "too far: {needed} movement points needed, {left} left": _("too far: {needed} movement points needed, {left} left"),
    "no such square": _("no such square"),
    "your fighter is not on the board": _("your fighter is not on the board"),
    "that card is not in your hand": _("that card is not in your hand"),
    "at most {limit} weapons in play (Santé + 1)": _("at most {limit} weapons in play (Health + 1)"),
    "only healing can be played while dying": _("only healing can be played while dying"),
    "a teleport card is played instead of rolling for movement": _(
        "a teleport card is played instead of rolling for movement"
    ),
    "play this card after rolling for movement": _("play this card after rolling for movement"),
    "a jump goes in a straight line": _("a jump goes in a straight line"),
    "a jump needs a direction": _("a jump needs a direction"),
    "too far: a jump is at most {limit} squares (Vitesse)": _("too far: a jump is at most {limit} squares (Speed)"),
    "too far: the jump costs {needed} movement points, {left} left": _(
        "too far: the jump costs {needed} movement points, {left} left"
    ),
    "that card is not in play in front of you": _("that card is not in play in front of you"),
    "moves are orthogonal, one square at a time, never through a wall or a closed door": _(
        "moves are orthogonal, one square at a time, never through a wall or a closed door"
    ),
    "a fighter cannot wear more than one armour": _("a fighter cannot wear more than one armour"),
    "that weapon is out of ammunition": _("that weapon is out of ammunition"),
    "attack with the base pistol, a weapon in play or a weapon from your hand": _(
        "attack with the base pistol, a weapon in play or a weapon from your hand"
    ),
    "choose a weapon in play to reload": _("choose a weapon in play to reload"),
    "choose a fighter to disconnect": _("choose a fighter to disconnect"),
}


# « {action} is not allowed now ({phase}) » names an action kind and a phase by their code words: each has a label.
ACTION_LABELS = {
    "place": _("placing your fighter"),
    "roll": _("rolling for movement"),
    "move": _("moving"),
    "jump": _("jumping"),
    "teleport": _("using a teleporter"),
    "take_blood": _("taking a blood marker"),
    "take_weapon": _("taking a weapon from a weapon marker"),
    "spend_blood": _("spending a blood marker"),
    "accept_frag": _("accepting the frag"),
    "attack": _("attacking"),
    "play": _("playing a card"),
    "drop": _("dropping a card in play"),
    "discard": _("discarding a card"),
    "end_turn": _("ending the turn"),
}
PHASE_LABELS = {
    "placement": _("the fighters are being placed"),
    "movement": _("phase 2, movement points: roll the dice or play a teleport card"),
    "action": _("phase 3: moving, picking up and attacking"),
    "discard": _("end of the turn: down to the hand limit first"),
    "pending": _("a fighter is down and may heal at once"),
    "over": _("the game is over"),
}
LABELLED = {"action": ACTION_LABELS, "phase": PHASE_LABELS}


def refusal_text(refusal: IllegalAction) -> str:
    """The refusal's sentence in the active language (English when a template is not listed).

    Parameters that are code words (an action kind, a phase) are replaced by their translated labels."""
    template = REFUSALS.get(refusal.template)
    if template is None:
        return refusal.reason
    params = {
        key: str(LABELLED[key].get(value, value)) if key in LABELLED and isinstance(value, str) else value
        for key, value in refusal.params.items()
    }
    return str(template).format(**params)
