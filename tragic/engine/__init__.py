"""Pure rules: no Django, no app imports (see ../shared/design.md, rule 1).

The API of design.md rule 7: :func:`new_game`, then on the :class:`State` ``current_players``,
``legal_actions``, ``apply``, ``observation``, ``is_over``, ``winner``, ``to_json`` / ``from_json``.

The compiled build of these modules, when current, is imported instead of their sources (``native.py``).
"""

from . import native

__path__ = native.search_path(__path__)  # before any other module of the package is imported

from .card_files import default_pool, load_cards
from .cards import CardError
from .errors import IllegalAction
from .game import State, new_game
from .observation import redact_event

__all__ = ["CardError", "IllegalAction", "State", "default_pool", "load_cards", "new_game", "redact_event"]
