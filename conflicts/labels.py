"""Display labels for the conflict rules' codes, in the reader's language."""

from __future__ import annotations

from django.utils.translation import gettext as _

from characters.labels import rank_display
from core.per_language import PerLanguage

SUITS = {"H": "♥", "D": "♦", "C": "♣", "S": "♠"}


def _figures() -> dict[str, str]:
    return {"1": _("A"), "11": _("J"), "12": _("Q"), "13": _("K")}


class _Faces(dict[str, str]):
    """The faces read in one language, each written the first time it is asked for (a Sequence's story names a
    dozen cards a draw: four ``gettext`` per card were half the cost of telling it)."""

    def __init__(self) -> None:
        super().__init__()
        self.figures = _figures()

    def __missing__(self, code: str) -> str:
        value = self.figures.get(code[:-1], code[:-1])
        face = self[code] = f"{value}{SUITS.get(code[-1], code[-1])}"
        return face


_faces = PerLanguage(_Faces)


def card_face(code: str) -> str:
    """A card as players read it: « 10♣ » rather than its code « 10C »; the ace as drawn (« A♠ », not « 1♠ »), figures
    (method 2) as V, D, R in French."""
    return _faces()[code]


def modifier_label(code: str) -> str:
    return {
        "trait": _("trait"),
        "revers": _("Revers"),
        "surprise": _("caught by surprise"),
        "conditions": _("adverse conditions"),
        "scale": _("scale"),
        "vehicle": _("vehicle"),
        "atout": _("Atout"),
        "help": _("help"),
        "upper_hand": _("upper hand"),
        "other": _("other"),
        "weapon": _("weapon"),
        "two_weapons": _("two weapons"),
        "armour": _("armour"),
        "shield": _("shield"),
        "range": _("range"),
        "cover": _("cover"),
        "equipment": _("equipment"),
        "behaviour": _("behaviour"),
        "relatedness": _("trait and concept"),
        "telekinesis_mind": _("Esprit (Télékinésie)"),
        "fed": _("fed a power"),
        "power": _("Conscience boost (Présence)"),
        "natural_armour": _("natural armour (Endurance accrue)"),
        "wounds": _("wounds"),
        "fatigue": _("fatigue"),
    }.get(code, code)


def use_label(use: str) -> str:
    return {"any": _("attack or defence"), "attack": _("attack only"), "defence": _("defence only")}.get(use, use)


def severity_label(severity: int, kind: str = "standard") -> str:
    if kind == "chase":
        return {1: _("lost ground"), 2: _("lost much ground"), 3: _("caught, forced off the road or escaped")}.get(
            severity, ""
        )
    if kind == "demolition":
        return {1: _("damage"), 2: _("serious damage"), 3: _("wreck")}.get(severity, "")
    return {1: _("Revers"), 2: _("Serious Revers"), 3: _("Decisive Revers")}.get(severity, "")


def difficulty_label(name: str) -> str:
    return {
        "NA": _("n.a."),
        "FACILE": _("Easy"),
        "SIMPLE": _("Simple"),
        "MOYENNE": _("Average"),
        "DIFFICILE": _("Hard"),
        "TRES_DIFFICILE": _("Very hard"),
        "EXTREME": _("Extreme"),
        "IMPOSSIBLE": _("Impossible"),
    }.get(name, name)


def atout_label(use: str) -> str:
    return {
        "card": _("+1 card"),
        "help": _("helps (+1 card)"),
        "redraw": _("redraws the cards"),
        "change": _("changes one card"),
        "take_revers": _("takes the Revers instead"),
    }.get(use, use)


def verdict_label(verdict: str, winner: str | None) -> str:
    if verdict == "winner" and winner:
        return _("%(side)s wins the draw.") % {"side": winner}
    if verdict == "equal":
        return _("Equal Revers: both sides must agree to cut the sequence short.")
    return _("Nobody scored: a tie, the sequence goes on.")


def dice_text(dice: list[int]) -> str:
    return " ".join({1: "+", 0: "▢", -1: "−"}[d] for d in dice)


def rank(value: int) -> str:
    return rank_display(value)
