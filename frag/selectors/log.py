"""The game's log in words, each event as one seat may read it."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from frag.engine import State, visible_event
from frag.engine.cards import PISTOL
from frag.models import Step
from frag.selectors.naming import card_name, fighter_name


def _count(value: Any) -> int:
    return value if isinstance(value, int) else 0


def describe(state: State, event: dict[str, Any]) -> str:
    """One line of the game log, in the reader's language. Hidden cards were removed before."""
    kind = event["type"]
    who = fighter_name(state, event["player"]) if isinstance(event.get("player"), int) else ""

    def card(field_name: str = "card") -> str:
        cid = event.get(field_name)
        if cid is None:
            return _("a card")
        return card_name(PISTOL) if cid == PISTOL.id else card_name(state.cardset.cards[cid])

    if kind == "dice":
        purposes = {
            "movement": _("%(name)s rolls %(dice)s for movement"),
            "respawn": _("%(name)s rolls %(dice)s to respawn"),
            "ejection": _("%(name)s is ejected and rolls %(dice)s"),
            "pick_up": _("%(name)s searches and rolls %(dice)s"),
            "accuracy": _("%(name)s rolls %(dice)s for accuracy"),
        }
        if event["purpose"] == "first_player":
            return _("Rolls for the first player: %(dice)s") % {
                "dice": ", ".join(f"{fighter_name(state, int(s))} {v}" for s, v in event["rolls"].items())
            }
        text = purposes[event["purpose"]] % {"name": who, "dice": " ".join(map(str, event["dice"]))}
        if event["purpose"] == "accuracy":
            text += " " + (
                _("against distance %(distance)s: hit") if event["hit"] else _("against distance %(distance)s: miss")
            ) % {"distance": event["distance"]}
        return text
    messages = {
        "first_player": _("%(name)s plays first"),
        "turn_started": _("Turn %(number)s: %(name)s"),
        "turn_ended": _("%(name)s ends the turn"),
        "arrived": _("%(name)s appears on the board"),
        "ejected": _("%(name)s is ejected"),
        "movement_points": ngettext(
            "%(name)s has %(mp)s movement point", "%(name)s has %(mp)s movement points", _count(event.get("mp"))
        ),
        "stepped": "",
        "jumped": _("%(name)s jumps"),
        "drew": _("%(name)s draws %(card)s"),
        "reshuffled": _("A discard pile is reshuffled"),
        "deck_empty": _("A deck is empty"),
        "played": _("%(name)s plays %(card)s"),
        "wounded": _("%(name)s loses %(points)s Health (now %(hp)s)"),
        "armour_destroyed": _("%(name)s's armour is destroyed"),
        "dying": _("%(name)s is down and may heal at once"),
        "survived": _("%(name)s survives"),
        "fragged": _("%(name)s is fragged"),
        "scored": _("%(name)s scores a frag (%(frags)s)"),
        "healed": _("%(name)s heals %(points)s (now %(hp)s)"),
        "took_blood": _("%(name)s takes a blood marker"),
        "took_weapon": _("%(name)s takes %(card)s from a weapon marker"),
        "spent_blood": _("%(name)s spends a blood marker"),
        "weapon_marker": _("A weapon marker is left on the board"),
        "dropped": _("%(name)s drops %(card)s"),
        "discarded": _("%(name)s discards %(card)s"),
        "must_discard": ngettext(
            "%(name)s must discard down to %(down_to)s card",
            "%(name)s must discard down to %(down_to)s cards",
            _count(event.get("down_to")),
        ),
        "card_expired": _("%(card)s ends for %(name)s"),
        "reloaded": _("%(name)s reloads"),
        "disconnected": _("%(name)s is disconnected until their next turn"),
        "attack": _("%(name)s attacks %(target)s with %(weapon)s"),
        "game_over": _("Game over"),
    }
    template = messages.get(kind, kind)
    if not template:
        return ""
    values = {
        "name": who,
        "number": event.get("number", ""),
        "mp": event.get("mp", ""),
        "points": event.get("points", ""),
        "hp": event.get("hp", ""),
        "frags": event.get("frags", ""),
        "down_to": event.get("down_to", ""),
        "card": card() if "card" in event or kind in ("drew", "took_weapon") else "",
        "target": fighter_name(state, event["target"]) if isinstance(event.get("target"), int) else "",
        "weapon": card("weapon") if kind == "attack" else "",
        "attack": " ".join(map(str, event.get("attack_dice", []))) or "0",
        "defence": " ".join(map(str, event.get("defence_dice", []))) or "0",
        "lost": event.get("lost", ""),
    }
    if kind == "game_over":
        winner = event.get("winner")
        return (
            _("Game over: %(name)s wins") % {"name": fighter_name(state, winner)}
            if winner is not None
            else _("Game over: no winner")
        )
    if kind == "damage_roll":  # French agrees with the count: « 1 perdu », « 3 perdus »
        lost = event.get("lost")
        count = lost if isinstance(lost, int) else 0
        if event.get("purpose") == "acid":
            return (
                ngettext(
                    "Acid: %(attack)s against %(defence)s, %(lost)s lost",
                    "Acid: %(attack)s against %(defence)s, %(lost)s lost",
                    count,
                )
                % values
            )
        return (
            ngettext(
                "Damage: %(attack)s against %(defence)s, %(lost)s lost",
                "Damage: %(attack)s against %(defence)s, %(lost)s lost",
                count,
            )
            % values
        )
    return template % values


def log_lines(state: State, steps: list[Step], seat: int | None, limit: int | None = 60) -> list[dict[str, Any]]:
    """The most recent steps first, each with its readable lines, hiding others' draws."""
    chosen = steps[-limit:] if limit else steps
    lines = []
    for step in reversed(chosen):
        texts = [describe(state, visible_event(event, seat)) for event in step.events]
        lines.append({"number": step.number, "seat": step.seat, "texts": [t for t in texts if t]})
    return lines
