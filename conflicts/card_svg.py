"""A drawn card as a small inline SVG playing card: its value and suit in their colour, success or failure
at a glance (a green band with ✓, a grey one with ✗), attack and defence apart (a defence card has a second,
dashed frame), a card whose result an Atout changed outlined, and a text alternative in the reader's language.

« Chaque carte arborant un nombre pair est un succès, chaque carte affichant un chiffre impair est un
échec » (method 1), « les cartes rouges (cœurs et carreaux) comptent pour un succès alors que les cartes
noires (piques et trèfles) comptent pour un échec » (method 2): the outcome is worked out by the rules and
passed in; the picture only shows it. « Conseil : … utiliser une couleur pour les cartes d'attaque et une
autre couleur pour les cartes du jeu défensif » (Jeu défensif).

A card's SVG is a pure function of (code, outcome, part, changed, language): it is built once per process. What every
card of one outcome draws alike (the face, the band and its mark, a defence card's inner frame) is a symbol every page
carries once (``SYMBOLS``, through ``core.sprites``); a card draws it with ``<use>`` and adds its value and suit. Its
colours and text sizes are in the site's stylesheet (``svg.playing-card``).
"""

from __future__ import annotations

from functools import lru_cache

from django.utils.html import escape
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import get_language
from django.utils.translation import gettext as _

from conflicts.labels import SUITS

SUCCESS_BAND, FAILURE_BAND = "#1e6b34", "#5c5750"


def _suit_name(suit: str) -> str:
    return {"H": _("hearts"), "D": _("diamonds"), "C": _("clubs"), "S": _("spades")}.get(suit, suit)


def _value_name(value: str) -> str:
    return {"1": _("ace"), "11": _("jack"), "12": _("queen"), "13": _("king")}.get(value, value)


def _value_face(value: str) -> str:
    return {"1": _("A"), "11": _("J"), "12": _("Q"), "13": _("K")}.get(value, value)


def card_label(code: str, *, success: bool, part: str, changed: bool = False) -> str:
    """The card read aloud: « 10 de trèfle, réussite, carte d'attaque »."""
    value, suit = code[:-1], code[-1]
    parts = [
        _("%(value)s of %(suit)s") % {"value": _value_name(value), "suit": _suit_name(suit)},
        _("success") if success else _("failure"),
        _("defence card") if part == "defence" else _("attack card"),
    ]
    if changed:
        parts.append(_("result changed by an Atout"))
    return ", ".join(parts)


def card_svg(code: str, *, success: bool, part: str, changed: bool = False) -> SafeString:
    return _card_svg(code, bool(success), "defence" if part == "defence" else "attack", bool(changed), get_language())


DEFENCE_FRAME = (
    '<rect x="4" y="4" width="36" height="54" rx="3" fill="none" stroke="#2f5d8a" stroke-width="1.5" '
    'stroke-dasharray="3 2"/>'
)


def _face(outcome: str, part: str, band: str, mark: str) -> str:
    # The band over the defence frame's foot, as a card drawn whole had it.
    return (
        f'<symbol id="card-{outcome}-{part}" viewBox="0 0 44 62">'
        f'<rect x="1" y="1" width="42" height="60" rx="5" fill="#fffdf8" stroke="{band}" stroke-width="2"/>'
        f'{DEFENCE_FRAME if part == "defence" else ""}<rect x="2" y="46" width="40" height="14" rx="3" fill="{band}"/>'
        f'<text x="22" y="57" font-size="11" font-weight="700" text-anchor="middle" fill="#fff">{mark}</text></symbol>'
    )


SYMBOLS = "".join(
    _face(outcome, part, band, mark)
    for outcome, band, mark in (("success", SUCCESS_BAND, "✓"), ("failure", FAILURE_BAND, "✗"))
    for part in ("attack", "defence")
)
"""The parts every card of one outcome and part draws alike, once per page (``conflicts.apps`` registers them)."""


@lru_cache(maxsize=2048)
def _card_svg(code: str, success: bool, part: str, changed: bool, language: str) -> SafeString:
    value, suit = code[:-1], code[-1]
    colour = "red" if suit in ("H", "D") else "black"
    face, symbol = escape(_value_face(value)), SUITS.get(suit, escape(suit))
    label = escape(card_label(code, success=success, part=part, changed=changed))
    outcome = "success" if success else "failure"
    classes = f"playing-card {outcome} {part} {colour}{' flipped' if changed else ''}"
    return mark_safe(  # noqa: S308 - every value above is escaped or one of our own constants
        f'<svg class="{classes}" data-card="{escape(code)}" viewBox="0 0 44 62" role="img" aria-label="{label}">'
        f'<use href="#card-{outcome}-{part}"/>'
        f'<text x="7" y="17" class="face">{face}</text><text x="22" y="37" class="suit">{symbol}</text></svg>'
    )
