"""Frag's pure engine: no Django, no app imports (see ../shared/design.md, rules 1 and 7)."""

from __future__ import annotations

from .errors import ContentError, IllegalAction
from .state import State, new_game, visible_event

__all__ = ["ContentError", "IllegalAction", "State", "new_game", "visible_event"]
