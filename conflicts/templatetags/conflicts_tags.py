"""Filters the conflict templates use to show cards, ranks and results."""

from __future__ import annotations

from typing import Any

from django import template

from conflicts import labels

register = template.Library()


@register.filter
def card_face(code: str) -> str:
    return labels.card_face(code)


@register.filter
def rank(value: int) -> str:
    return labels.rank(int(value))


@register.filter
def severity(value: int, kind: str = "standard") -> str:
    return labels.severity_label(int(value), kind)


@register.filter
def verdict(outcome: dict[str, Any]) -> str:
    return labels.verdict_label(outcome.get("verdict", "tie"), outcome.get("winner"))


@register.filter
def last_verdict(sequence: Any) -> str:
    return labels.verdict_label(sequence.last_verdict, sequence.last_winner or None)


@register.filter
def participant_name(key: str, board: Any) -> str:
    for v in board.views:
        if v.participant.key == str(key):
            return str(v.participant.character.name)
    return str(key)


@register.filter
def modifier(code: str) -> str:
    return labels.modifier_label(code)


@register.filter
def use(code: str) -> str:
    return labels.use_label(str(code))


@register.filter
def get(mapping: dict[str, Any], key: Any) -> Any:
    return (mapping or {}).get(str(key), "")


@register.filter
def difficulty(name: str) -> str:
    return labels.difficulty_label(name)


@register.filter
def dice(values: list[int]) -> str:
    return labels.dice_text(values)


@register.inclusion_tag("conflicts/partials/running.html")
def running_sequences(membership: Any) -> dict[str, Any]:
    """The sequences under way, for a player's campaign page (refreshed live by conflicts.live)."""
    from conflicts.selectors import running_sequences as running

    return {"running": running(membership)}


@register.filter
def signed(value: int) -> str:
    """A modifier with its sign, a true minus rather than a hyphen: « +2 », « −1 »."""
    return f"{int(value):+d}".replace("-", "\u2212")
