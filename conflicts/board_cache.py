"""The Sequence board of a page, rendered once per state of what it shows and kept.

The board (conflicts/partials/board.html) reads nothing but the ``Board`` a selector built for one viewer:
the sequence's row, each participant's row, character name and kind, what the viewer may see of it (budget,
split, cards, the state cards' refusal), and the story. The key is a digest of exactly those values, with the
viewer's membership and language, so a kept board is only served to a viewer whose own rendering would be
the same bytes; anything that changes any of them (a draw, a split, a wound that lowers a budget, a
rename) makes another key. The CSRF token of its forms is not kept: the board is stored with a marker,
replaced per request, as log entries are (campaigns/entry_cache.py).

Live pushes render the board afresh (conflicts/live.py): they run once per event, not once per page view.
"""

from __future__ import annotations

import hashlib
from typing import Any

from django.core.cache import caches
from django.http import HttpRequest
from django.middleware.csrf import get_token
from django.template.loader import render_to_string
from django.utils.html import format_html
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import get_language

from campaigns.entry_cache import enabled
from conflicts.models import Participant, Sequence
from conflicts.selectors import Board
from core.fragment_cache import CSRF_INPUT, CSRF_MARKER
from core.template_digest import markup_version

BOARD_TEMPLATE = "conflicts/partials/board.html"

_SEQUENCE_FIELDS = [f.attname for f in Sequence._meta.concrete_fields]
_PARTICIPANT_FIELDS = [f.attname for f in Participant._meta.concrete_fields]


def _facts(board: Board, membership_pk: int) -> str:
    sequence = board.sequence
    parts: list[Any] = [
        markup_version(BOARD_TEMPLATE), membership_pk, board.is_narrator, get_language(),
        [getattr(sequence, name) for name in _SEQUENCE_FIELDS], board.story,
        board.npcs_to_draw, board.to_draw, board.standing,
    ]  # fmt: skip
    for v in board.views:
        p = v.participant
        parts.append(
            (
                [getattr(p, name) for name in _PARTICIPANT_FIELDS],
                p.character.name, p.character.kind, p.character.owner_id,
                v.controlled, v.secret, v.budget, v.split, v.attack_cards, v.defence_cards, v.received,
                v.blocked, v.shaken, v.bulk,
            )
        )  # fmt: skip
    return repr(parts)


def board_html(
    board: Board, request: HttpRequest, membership_pk: int, console_forms: dict[str, Any] | None = None
) -> SafeString:
    """The board's HTML for this request, from the cache when this very state was rendered for this viewer.
    A console row with a modifiers form open (sent back with what was typed, or opened without JavaScript)
    is rendered afresh."""
    if not enabled() or console_forms:
        context = {"board": board, "console_forms": console_forms or {}}
        return mark_safe(render_to_string(BOARD_TEMPLATE, context, request=request))  # noqa: S308
    key = "sequence-board:" + hashlib.blake2b(_facts(board, membership_pk).encode(), digest_size=20).hexdigest()
    cache = caches["fragments"]
    html = cache.get(key)
    if html is None:
        html = render_to_string(BOARD_TEMPLATE, {"board": board, "csrf_token": CSRF_MARKER})
        cache.set(key, html)
    token = format_html('<input type="hidden" name="csrfmiddlewaretoken" value="{}">', get_token(request))
    return mark_safe(html.replace(CSRF_INPUT, token))  # noqa: S308 - our own template, token escaped above
