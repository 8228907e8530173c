"""The fighters' panel: each fighter's state as one seat may see it."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _

from frag.engine import State
from frag.engine.base import PLACEMENT
from frag.selectors.board import COLOURS
from frag.selectors.naming import card_name


def fighter_status(state: State, seat: int) -> tuple[str, str]:
    """Why a fighter is not on the board, as (code, label); ("", "") when it is on the board.

    Before its first placement a fighter is about to appear, not out of action; a fragged fighter is
    « hors jeu jusqu'au prochain tour, où il réapparaîtra » ; a disconnected one keeps its Santé."""
    fighter = state.fighters[seat]
    if not fighter.out:
        return "", ""
    if state.phase == PLACEMENT:
        return "to_place", _("to place")
    if state.is_over():
        return ("fragged", _("fragged")) if fighter.hp <= 0 else ("disconnected", _("disconnected"))
    if fighter.hp <= 0:
        return "respawning", _("fragged: respawns on their turn")
    return "disconnected", _("disconnected until their turn")


def fighters_panel(state: State, seat: int | None) -> list[dict[str, Any]]:
    rows = []
    for f in state.observation(seat)["fighters"]:
        status, status_label = fighter_status(state, f["seat"])
        rows.append(
            {
                **f,
                "status": status,
                "status_label": status_label,
                "colour": COLOURS[f["seat"] % 6],
                "weapon_names": [
                    f"{card_name(state.card(w['uid']))} ({w['ammo_left'] if state.card(w['uid']).ammo else '∞'})"
                    for w in f["weapons"]
                ],
                "armour_name": card_name(state.card(f["armour"]["uid"])) if f["armour"] else "",
                "current": f["seat"] in state.current_players(),
            }
        )
    return rows
