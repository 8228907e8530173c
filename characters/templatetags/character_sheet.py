"""Template helpers for sheets: rank labels in the reader's language."""

from __future__ import annotations

from collections.abc import Iterable

from django import template
from django.utils.translation import ngettext

from characters.labels import (
    atout_use_label,
    difficulty_label,
    domain_label,
    gain_reason_label,
    power_name,
    rank_display,
    scale_domain_label,
    severity_label,
)

register = template.Library()


@register.filter
def rank(value: int) -> str:
    """``{{ 5|rank }}`` → « Bon » (French) or "Good" (English)."""
    return rank_display(int(value))


@register.filter
def severity(value: int) -> str:
    return severity_label(int(value))


@register.filter
def revers_domain(revers: object) -> str:
    name = getattr(revers, "domain_name", "")
    return name or domain_label(getattr(revers, "domain", ""))


@register.filter
def difficulty(code: str) -> str:
    return difficulty_label(code)


@register.filter
def atout_use(value: str) -> str:
    return atout_use_label(value)


@register.filter
def gain_reason(value: str) -> str:
    return gain_reason_label(value)


@register.filter
def get_item(mapping: dict[str, object], key: str) -> object:
    return mapping.get(key)


@register.filter
def scale_domains(domains: Iterable[str]) -> str:
    return ", ".join(scale_domain_label(d) for d in sorted(domains))


@register.filter
def telekinesis_reach(rank_value: int) -> str:
    """What a Télékinésie rank moves: « Bon — 4 Séquences, 10 kilogrammes »."""
    from characters.rules.psychic import TELEKINESIS

    reach = TELEKINESIS.get(min(int(rank_value), 7))
    if reach is None:
        return ""
    sequences, weight = reach
    mass = f"{weight * 1000:g} g" if weight < 1 else (f"{weight / 1000:g} t" if weight >= 1000 else f"{weight:g} kg")
    return ngettext("%(n)s sequence, up to %(mass)s", "%(n)s sequences, up to %(mass)s", int(sequences)) % {
        "n": sequences,
        "mass": mass,
    }


@register.filter
def first_aid_difficulty(severity: int) -> str:
    """« Moyen pour une Blessure, Difficile pour une Blessure sérieuse et Très difficile pour une Blessure grave »."""
    from characters.rules.revers import first_aid_required_rank

    codes = {4: "moyenne", 5: "difficile", 6: "tres_difficile"}
    return difficulty_label(codes[first_aid_required_rank(int(severity))])


@register.filter
def healing_name(code: str) -> str:
    """``{{ character.healing_power|healing_name }}`` → « Régénération » / "Regeneration"."""
    return power_name(code)
