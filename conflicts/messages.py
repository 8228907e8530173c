"""Readable reasons for the pure rules' refusals, in the user's language."""

from __future__ import annotations

from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from conflicts.rules.errors import RuleError
from core.errors import ServiceError


def _texts() -> dict[str, str]:
    return {
        "negative_cards": _("A number of cards cannot be negative."),
        "not_an_opponent": _("Attack cards can only go to an opponent still in the sequence."),
        "out_of_range_attack": _("Out of range: this participant can only defend until the distance is closed."),
        "shaken_attack": _("Shaken: only free actions — no attack cards; put every card that can defend in defence."),
        "protect_not_teammate": _("Defence cards can only protect yourself or someone on your side."),
        "protect_needs_collective": _("Protecting a teammate with your defence is for collective sequences."),
        "protect_needs_reason": _("Say how you protect your teammate: covering someone needs a reason."),
        "cut_needs_revers": _(
            "Nobody inflicted a Revers in the last draw: there is no winner to cut the sequence short."
        ),
        "cut_not_winner": _("Only the side that won the last draw can cut the sequence short."),
        "bad_card": _("Unknown card %(code)s."),
        "negative_draw": _("A number of cards cannot be negative."),
        "deck_not_whole": _("This deck's cards do not add up; ask the narrator to reshuffle it."),
        "pool_exhausted": _("Not enough cards left for these odds."),
        "nothing_rolled": _("No dice were rolled in this Test."),
        "bad_die_change": _("Choose one of the four dice and a face: −1, 0 or +1."),
        "die_unchanged": _("That die already shows this face."),
        "no_such_modifier": _("This Test has no such bonus to cancel."),
    }


def _counted(code: str, values: dict[str, object]) -> str | None:
    """The refusals whose words agree with a number (« 1 carte n'est pas encore placée »)."""

    def count(key: str) -> int:
        try:
            return int(str(values.get(key, 0)))
        except ValueError:
            return 0

    if code == "cards_left":
        return ngettext(
            "%(left)s card is not placed yet: put every card in attack or defence.",
            "%(left)s cards are not placed yet: put every card in attack or defence.",
            count("left"),
        )
    if code == "too_many_cards":
        return ngettext(
            "This split uses %(used)s card but you only have %(have)s.",
            "This split uses %(used)s cards but you only have %(have)s.",
            count("used"),
        )
    if code in ("too_many_attack", "too_many_defence"):
        if code == "too_many_attack":
            return ngettext(
                "Only %(have)s of your cards can go to attack; this split puts %(used)s there.",
                "Only %(have)s of your cards can go to attack; this split puts %(used)s there.",
                count("have"),
            )
        return ngettext(
            "Only %(have)s of your cards can go to defence; this split puts %(used)s there.",
            "Only %(have)s of your cards can go to defence; this split puts %(used)s there.",
            count("have"),
        )
    if code == "deck_too_small":
        return ngettext(
            "%(count)s card cannot come from a deck of %(size)s.",
            "%(count)s cards cannot come from a deck of %(size)s.",
            count("count"),
        )
    return None


def rule_message(error: RuleError) -> str:
    text = _counted(error.code, dict(error.values)) or _texts().get(error.code, _("This is not allowed by the rules."))
    try:
        return text % dict(error.values)
    except (KeyError, TypeError, ValueError):
        return text


def refuse(error: RuleError) -> ServiceError:
    return ServiceError(rule_message(error))
