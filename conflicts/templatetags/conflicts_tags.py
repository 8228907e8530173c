"""Filters the conflict templates use to show cards, ranks and results."""

from __future__ import annotations

from typing import Any

from django import template
from django.utils.html import format_html_join
from django.utils.safestring import SafeString

from conflicts import labels
from conflicts.odds_html import odds_html

register = template.Library()


@register.filter
def teammate_options(helpable: list[Any]) -> SafeString:
    """The ``<option>`` of each teammate one may help (``conflicts.views.helpable``). Written here rather than in a
    template loop: every player's panel lists them again at each teammate's draw, and the loop took most of the
    panel's render (about 10 µs a teammate)."""
    return format_html_join("", '<option value="{}">{}</option>', ((t.pk, t.character.name) for t in helpable))


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


@register.simple_tag(takes_context=True)
def ask_test_form(context: Any, membership: Any) -> str:
    """The narrator's « Ask for a Test » (conflicts.asked_tests), folded under the dashboard's "now" block: its form
    is fetched when the fold opens, so the dashboard reads nothing for it."""
    from django.template.loader import render_to_string

    from conflicts.asked_tests import FORM_TEMPLATE

    if not membership.is_narrator:
        return ""
    return render_to_string(FORM_TEMPLATE, {"campaign_id": membership.campaign_id})


@register.simple_tag
def running_sequences(membership: Any) -> str:
    """The sequences under way, for a campaign page or the dashboard: a region (conflicts.running_region.RUNNING)."""
    from conflicts.running_region import running_card

    return running_card(membership)


@register.filter
def signed(value: int) -> str:
    """A modifier with its sign, a true minus rather than a hyphen: « +2 », « −1 »."""
    return f"{int(value):+d}".replace("-", "\u2212")


@register.simple_tag(takes_context=True)
def sheet_roll_memory(context: Any, character: Any) -> Any:
    """The difficulty and modifier this reader last rolled this character's traits at (default: Average, +0)."""
    from conflicts import sheet_roll

    request = context.get("request")
    session = getattr(request, "session", None)
    return sheet_roll.remembered(session, character.pk) if session is not None else sheet_roll.RollMemory()


@register.simple_tag
def roll_standing(character: Any, revers: Any = None) -> Any:
    """What the sheet brings to this character's Tests (states, Revers per domain, a boost): ``sheet_roll.Standing``."""
    from conflicts import sheet_roll

    return sheet_roll.standing(character, revers)


@register.filter
def domain(code: str) -> str:
    """A Revers domain in the reader's language (physical, social, mental)."""
    from characters.labels import domain_label

    return str(domain_label(code))


@register.simple_tag
def roll_applied(standing: Any, code: str) -> tuple[Any, ...]:
    return standing.applied(code) if standing is not None else ()


@register.simple_tag
def roll_chips(rank: int, memory: Any, standing: Any = None, code: str = "") -> list[dict[str, Any]]:
    """The dialog's difficulty chips, each with its exact chance for this trait, the modifiers the sheet applies
    and the remembered situational one."""
    from conflicts import sheet_roll

    applied = standing.applied(code) if standing is not None else ()
    return [
        {"value": value, "label": label, "percent": sheet_roll.chance_percent(rank, value, memory.other, applied),
         "checked": value == memory.difficulty}
        for value, label in sheet_roll.CHIPS
    ]  # fmt: skip


@register.simple_tag
def roll_chance(rank: int, memory: Any, standing: Any = None, code: str = "") -> str:
    """The one-tap Test's exact chance: what the roll will carry, not the bare trait."""
    from conflicts import sheet_roll

    applied = standing.applied(code) if standing is not None else ()
    return sheet_roll.chance_percent(rank, memory.difficulty, memory.other, applied)


@register.filter
def chip_label(value: int) -> str:
    from conflicts import sheet_roll

    return str(dict(sheet_roll.CHIPS).get(value, value))


@register.simple_tag
def roll_situations() -> tuple[int, ...]:
    from conflicts import sheet_roll

    return sheet_roll.SITUATIONAL


@register.simple_tag
def playing_card(card: Any) -> str:
    """A drawn card (selectors.ShownCard) as a small SVG playing card (conflicts/card_svg.py)."""
    from conflicts.card_svg import card_svg

    return card_svg(card.code, success=card.success, part=card.ref.split(":", 1)[0], changed=card.flipped)


@register.simple_tag(takes_context=True)
def board_row(context: Any, view: Any) -> str:
    """A participant's row of the board being rendered: a region of its own (conflicts.regions)."""
    from conflicts.regions import row_html

    return row_html(context["board"], view, context.get("console_forms") or {})


@register.simple_tag
def odds_part(participant_id: int, version: int, placed: int, total: int, odds: Any) -> str:
    """The odds block of a draw panel (conflicts.odds_html: the endpoint answers each change of the split with it)."""
    return odds_html(participant_id, version, placed, total, odds or [])


@register.filter
def pair(first: Any, second: Any) -> tuple[Any, Any]:
    """Both sides of a simple conflict, to show them alike."""
    return first, second


@register.filter
def percent(chance: float) -> str:
    """A chance between 0 and 1 as a whole percentage."""
    return f"{100 * float(chance):.0f}"


@register.filter
def savage_trait(code: str) -> str:
    from states.chronicle import trait_label

    return trait_label(code)


@register.filter
def savage_modifier(key: str) -> str:
    from states.chronicle import modifier_label

    return modifier_label(key)


@register.filter
def savage_outcome(outcome: str, raises: int = 0) -> str:
    from states.chronicle import outcome_label

    return outcome_label(outcome, int(raises or 0))


@register.simple_tag
def attribute_chance(attribute: Any, other: int = 0) -> str:
    """The exact chance of a Savage attribute roll (states.bridge.AttributeRoll) with a situational modifier."""
    return percent(attribute.chance(int(other or 0)))


@register.simple_tag
def attribute_rolls(character: Any) -> tuple[Any, ...]:
    """The Savage attributes the sheet's roll dialog rolls (none without states), read once per page."""
    cached: tuple[Any, ...] | None = getattr(character, "_attribute_rolls", None)
    if cached is None:
        from states.bridge import attribute_rolls as read

        cached = read(character)
        character._attribute_rolls = cached
    return cached


@register.simple_tag
def card_changes(board: Any, participant: Any) -> Any:
    """The cards ``participant`` may turn with an Atout, each with the Revers it would change
    (``conflicts.card_changes``): the form lists them and preselects none."""
    from conflicts.card_changes import card_changes as changes

    return changes(board.sequence, [v.participant for v in board.views], participant)
