"""The plan of an action already known to be legal, for :meth:`State.apply_code`.

``apply`` runs each action's ``_check_<kind>`` first: it refuses what is illegal and returns the plan that
``_run_<kind>`` carries out. An action coded by ``legal_codes`` was produced by the legal-move generator at
this very step, so its check could only agree: here is the same plan, read from the action without the checks
(which rebuild targets, payments and legal lists, and cost as much again as generating the moves).
``tests/tragic/test_codes.py`` plays every coded action of seeded games both ways and compares.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from .legal import Action
from .legal import Choices as State  # what the plans read; game.State is built on it


def _none(state: State, action: Action) -> None:
    return None


def _card(state: State, action: Action) -> Any:
    return state.card(action["card"])


def _play(state: State, action: Action) -> Any:
    return state.card(action["card"]), action.get("target")


def _upkeep(state: State, action: Action) -> Any:
    return next(e for e in state.upkeep_todo if e["id"] == action["entry"])


def _place_special(state: State, action: Action) -> Any:
    return state.card(action["card"]).attribute or "S"


def _block(state: State, action: Action) -> Any:
    blockers = list(action["blockers"])
    assert state.pending is not None
    if state.pending["kind"] == "protect" or not blockers:
        return blockers, []
    return blockers, list(action["split"])


PLANS: dict[str, Callable[[State, Action], Any]] = {
    "choose_traits": lambda state, action: list(action["traits"]),
    "choose_skills": lambda state, action: list(action["skills"]),
    "mulligan": _none,
    "keep": lambda state, action: list(action["bottom"]),
    "upkeep": _upkeep,
    "end_upkeep": _none,
    "play": _play,
    "react": _card,
    "pass": _none,
    "place_special": _place_special,
    "activate": _card,
    "equip": _card,
    "unequip": _card,
    "ally_attack": lambda state, action: list(action["allies"]),
    "block": _block,
    "search": lambda state, action: action["card"],
    "discover": lambda state, action: [list(p) for p in action["placements"]],
    "end_turn": _none,
    "concede": _none,
}


def trusted_plan(state: State, action: Action) -> Any:
    return PLANS[action["kind"]](state, action)
