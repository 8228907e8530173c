"""Display labels for rule values, in the reader's language (the rules themselves stay text-free)."""

from __future__ import annotations

from django.utils.translation import get_language, gettext_lazy, pgettext
from django.utils.translation import gettext as _

from characters.rules.ladder import rank_label


def rank_display(value: int) -> str:
    """« Bon » in French, "Good" in English, "Légendaire +2" past the top."""
    return rank_label(value, (get_language() or "fr")[:2])


# Each label translated when asked, not the whole table: a sheet's ledger asks for one on each of its 30 lines.
_ATOUT_USES = {
    "raise_in_play": gettext_lazy("permanent raise in play"),
    "raise_between_sessions": gettext_lazy("raise between sessions"),
    "save_your_skin": gettext_lazy("save your skin"),
    "temporary_bonus": gettext_lazy("+1 rank or +1 card on this roll"),
    "counter": gettext_lazy("counter another's Atout"),
    "reroll": gettext_lazy("reroll the dice or redraw the cards"),
    "change_result": gettext_lazy("change one die or one card"),
    "narrative_control": gettext_lazy("narrative control"),
    "monologue": gettext_lazy("monologue"),
    "help_other": gettext_lazy("+1 to another character"),
    "take_revers": gettext_lazy("take a Revers in another's place"),
    "right_moment": gettext_lazy("arrive at the right moment"),
}
_GAIN_REASONS = {
    "creation": gettext_lazy("kept at creation"),
    "session_award": gettext_lazy("end of session"),
    "narrator": gettext_lazy("narrator"),
    "refund": gettext_lazy("refund"),
}


def atout_use_label(use: str) -> str:
    label = _ATOUT_USES.get(use)
    return use if label is None else str(label)


def gain_reason_label(reason: str) -> str:
    label = _GAIN_REASONS.get(reason)
    return reason if label is None else str(label)


def severity_label(severity: int) -> str:
    return {1: _("Revers"), 2: _("Serious Revers"), 3: _("Decisive Revers")}.get(severity, str(severity))


def domain_label(domain: str) -> str:
    return {"physical": _("physical"), "social": _("social"), "mental": _("mental")}.get(domain, domain)


def difficulty_label(code: str) -> str:
    return {
        "facile": _("Easy"),
        "simple": _("Simple"),
        "moyenne": _("Average"),
        "difficile": _("Hard"),
        "tres_difficile": _("Very hard"),
        "extreme": _("Extreme"),
        "impossible": _("Impossible"),
    }.get(code, code)


def scale_domain_label(domain: str) -> str:
    return {
        "size": _("Size"), "combat": _("Combat"), "strength": _("Strength"), "agility": _("Agility"), "mind": _("Mind"),
    }.get(domain, domain)  # fmt: skip


def power_name(code: str) -> str:
    """A psychic power's name in the reader's language (« Guérison accélérée », "Fast healing")."""
    from characters.rules.psychic import powers

    english = (get_language() or "fr")[:2] == "en"
    for power in powers():
        if power.code == code:
            return power.name_en if english else power.name_fr
    return code


def initiative_card_face(code: str) -> str:
    """An initiative card as players read it: « R♣ », « 10♥ », « Joker » (codes « Kc », « 10h », « RJ »)."""
    if code in ("RJ", "BJ"):
        return pgettext("playing card", "Joker")
    ranks = {
        "J": pgettext("card rank: jack", "J"),
        "Q": pgettext("card rank: queen", "Q"),
        "K": pgettext("card rank: king", "K"),
        "A": pgettext("card rank: ace", "A"),
    }
    suits = {"c": "♣", "d": "♦", "h": "♥", "s": "♠"}
    rank, suit = code[:-1], code[-1:]
    return f"{ranks.get(rank, rank)}{suits.get(suit, suit)}"
