"""Each participant's row of a Sequence board, rendered once per state of what that row shows and kept.

A board (conflicts/partials/board.html) is one row per participant: the narrator's console rows
(``console_row.html``) or the players' view of each participant (``board_row.html``). A row reads only its
``ParticipantView`` (the participant's row, its character's name and kind, and what this viewer may see of
it: budget, split, cards, the state cards' refusal, the console's bulk split), a few columns of the
sequence (its ids, phase and kind) and the names of the participants its split may name. The key is
exactly those values, with the viewer's role, the language and the time zone. So a draw, which changes one
participant's row and the sequence's version, renders that one row again and finds the seven others kept;
and a row is only ever served to a viewer whose own rendering would be the same bytes (what a viewer may
not see is not in its ``ParticipantView``, so a secret never reaches a key another viewer can make).

Both the page (through ``board_cache``) and the live pushes (``conflicts.live``) render board.html, so
both use the kept rows. A row with a modifiers form open (sent back with what was typed) is rendered
afresh, never kept. Rows hold no CSRF token.
"""

from __future__ import annotations

import hashlib
from functools import partial
from typing import Any

from django.core.cache import caches
from django.template import Context
from django.utils import timezone
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import get_language

from campaigns.entry_cache import enabled
from conflicts.models import Participant
from conflicts.row_html import console_row, player_row
from conflicts.selectors import Board, ParticipantView
from core.template_digest import markup_version

CONSOLE_ROW = "conflicts/partials/console_row.html"
PLAYER_ROW = "conflicts/partials/board_row.html"

# A row without a form open is written by conflicts.row_html; tests turn this off to compare it with the templates.
IN_PYTHON = True

_PARTICIPANT_FIELDS = [f.attname for f in Participant._meta.concrete_fields]


def row_facts(board: Board, view: ParticipantView, template: str) -> str:
    """Everything the row's template can print, as one string."""
    sequence = board.sequence
    p = view.participant
    names = [(v.participant.key, v.participant.character.name) for v in board.views]
    return repr(
        (
            markup_version(template), template, get_language(), timezone.get_current_timezone_name(), board.is_narrator,
            sequence.pk, sequence.campaign_id, sequence.phase, sequence.kind, names,
            [getattr(p, name) for name in _PARTICIPANT_FIELDS], p.character.name, p.character.kind,
            view.controlled, view.secret, view.budget.total if view.budget is not None else None, view.split,
            view.attack_cards, view.defence_cards, view.received, view.blocked, view.shaken, view.bulk,
        )
    )  # fmt: skip


def row_html(context: Context, view: ParticipantView) -> SafeString:
    """The row of ``view`` on the board being rendered in ``context``, kept unless a form is open in it."""
    board: Board = context["board"]
    name = CONSOLE_ROW if board.is_narrator else PLAYER_ROW
    forms: dict[str, Any] = context.get("console_forms") or {}
    values = {"board": board, "v": view, "p": view.participant, "console_forms": forms}

    def render() -> str:
        # A context of its own, as ``{% include … only %}``: the row reads nothing of the page beyond its key.
        template = context.template.engine.get_template(name)  # type: ignore[union-attr]  # set while rendering
        return str(template.render(context.new(values)))

    if forms.get(str(view.participant.pk)):
        return mark_safe(render())  # noqa: S308 - our own template's output
    if IN_PYTHON:
        # The same bytes as the template (conflicts.row_html), at a fraction of its cost.
        render = partial(console_row if board.is_narrator else player_row, board, view)
    if not enabled():
        return mark_safe(render())  # noqa: S308 - our own markup, its values escaped
    key = "board-row:" + hashlib.blake2b(row_facts(board, view, name).encode(), digest_size=20).hexdigest()
    cache = caches["fragments"]
    html = cache.get(key)
    if html is None:
        html = render()
        cache.set(key, html)
    return mark_safe(html)  # noqa: S308 - our own template's output
