"""Frag's pure engine: no Django, no app imports (see docs/frag.md, *The engine API*).

The package's public API, named once here; each name lives in its concept's module.
"""

from __future__ import annotations

from .errors import ContentError, IllegalAction
from .observation import visible_event
from .setup import new_game
from .state import State

__all__ = ["ContentError", "IllegalAction", "State", "new_game", "visible_event"]
