"""Refusals of the Frag engine, in the reader's language (the mechanism is core/refusals.py).

Every template the engine refuses with is listed here once, so that the catalogue translates it
(tests/frag/test_services.py checks the list against the engine's source).
"""

from __future__ import annotations

from django.utils.translation import gettext_lazy as _
from django.utils.translation import gettext_noop

from core.refusals import RefusalCatalogue, labelled
from frag.engine import IllegalAction

TEMPLATES = (
    gettext_noop("unknown attribute {name}"),
    gettext_noop("an attribute cannot go above 4"),
    gettext_noop("fighters start on a numbered respawn square"),
    gettext_noop("that respawn square is taken"),
    gettext_noop("a jump never goes over a wall or through a closed door"),
    gettext_noop("teleporters lead from one teleporter to another"),
    gettext_noop("too far: teleporting costs 1 movement point"),
    gettext_noop("one marker per square: “prendre un des Marqueur mais pas les 2”"),
    gettext_noop("there is no blood marker here"),
    gettext_noop("there is no such weapon marker here"),
    gettext_noop("you cannot pick up what you dropped this turn"),
    gettext_noop("one card per pile per turn"),
    gettext_noop("that card is not under this marker"),
    gettext_noop("you have no blood marker"),
    gettext_noop("choose another fighter to attack"),
    gettext_noop("that fighter is not on the board"),
    gettext_noop("the target is not in line of sight"),
    gettext_noop("a fighter cannot end its turn on an occupied square"),
    gettext_noop("a game needs 2 to 6 players"),
    gettext_noop("frags to win must be a positive number"),
    gettext_noop("an action is a mapping with a type and a player"),
    gettext_noop("the game is over"),
    gettext_noop("unknown player"),
    gettext_noop("it is not your turn"),
    gettext_noop("in another's turn, only healing can be played"),
    gettext_noop("unknown action {name}"),
    gettext_noop("{action} is not allowed now ({phase})"),
    gettext_noop("a fighter may pass through an occupied square but not stop on it"),
    gettext_noop("a move needs a path of squares"),
    gettext_noop("too far: {needed} movement points needed, {left} left"),
    gettext_noop("no such square"),
    gettext_noop("your fighter is not on the board"),
    gettext_noop("that card is not in your hand"),
    gettext_noop("only healing can be played while dying"),
    gettext_noop("a teleport card is played instead of rolling for movement"),
    gettext_noop("play this card after rolling for movement"),
    gettext_noop("a jump goes in a straight line"),
    gettext_noop("a jump needs a direction"),
    gettext_noop("too far: the jump costs {needed} movement points, {left} left"),
    gettext_noop("that card is not in play in front of you"),
    gettext_noop("moves are orthogonal, one square at a time, never through a wall or a closed door"),
    gettext_noop("a fighter cannot wear more than one armour"),
    gettext_noop("that weapon is out of ammunition"),
    gettext_noop("attack with the base pistol, a weapon in play or a weapon from your hand"),
    gettext_noop("choose a weapon in play to reload"),
    gettext_noop("choose a fighter to disconnect"),
)

# The engine names the attributes as the rules do; the English page calls them Health, Speed and Accuracy.
REWORDED = {
    "Santé, Vitesse and Précision must be whole numbers": gettext_noop(
        "Health, Speed and Accuracy must be whole numbers"
    ),
    "each of Santé, Vitesse and Précision must be between 1 and 4": gettext_noop(
        "each of Health, Speed and Accuracy must be between 1 and 4"
    ),
    "Santé, Vitesse and Précision must add up to {total}": gettext_noop(
        "Health, Speed and Accuracy must add up to {total}"
    ),
    "healing never goes above the starting Santé": gettext_noop("healing never goes above the starting Health"),
    "no attack left this turn ({allowed} per turn: half the Précision, rounded up)": gettext_noop(
        "no attack left this turn ({allowed} per turn: half the Accuracy, rounded up)"
    ),
    "at most {limit} weapons in play (Santé + 1)": gettext_noop("at most {limit} weapons in play (Health + 1)"),
    "too far: a jump is at most {limit} squares (Vitesse)": gettext_noop(
        "too far: a jump is at most {limit} squares (Speed)"
    ),
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

REFUSALS = RefusalCatalogue(
    TEMPLATES, reworded=REWORDED, words={"action": labelled(ACTION_LABELS), "phase": labelled(PHASE_LABELS)}
)


def refusal_text(refusal: IllegalAction) -> str:
    """The refusal's sentence in the active language (English when a template is not listed).

    Parameters that are code words (an action kind, a phase) are replaced by their translated labels."""
    return REFUSALS.text(refusal)
