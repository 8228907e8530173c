"""The "Sequences under way" card of a campaign's home page and dashboard, built from rows kept per process.

A row shows one Sequence (its title, its scene's title, its phase, its address) and the names of the
viewer's own characters still to draw in it. Those values, with the language, are the row's key: two viewers
whose rows have the same key read the same bytes, so a row rendered for one is served to the other, and a
Sequence that changes is a new key (nothing to invalidate; old rows age out). On a live draw the card is
still put together once per audience (the viewers with the same characters waiting, campaigns.live_render),
but it renders only the rows whose Sequence changed: with 19 players each waiting on a duel of their own and
fifty duels under way, a draw renders a handful of rows instead of fifty per player.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Hashable

from django.template.loader import render_to_string
from django.utils import translation
from django.utils.safestring import SafeString, mark_safe

from conflicts.running_table import RunningSequence
from core.fragment_cache import enabled
from core.template_digest import markup_version

ROW = "conflicts/partials/running_row.html"
CARD = "conflicts/partials/running.html"
KEPT_ROWS = 2048

_rows: OrderedDict[Hashable, str] = OrderedDict()
_lock = threading.Lock()


def row_key(item: RunningSequence) -> Hashable:
    """Every value ROW prints, and the language it prints them in."""
    sequence = item.sequence
    return (sequence.campaign_id, sequence.pk, sequence.title, sequence.scene.title, sequence.phase,
            tuple(item.to_draw), translation.get_language(), markup_version(ROW))  # fmt: skip


def running_row(item: RunningSequence) -> str:
    if not enabled():
        return render_to_string(ROW, {"r": item})
    key = row_key(item)
    with _lock:
        row = _rows.get(key)
        if row is not None:
            _rows.move_to_end(key)
            return row
    row = render_to_string(ROW, {"r": item})
    with _lock:
        _rows[key] = row
        while len(_rows) > KEPT_ROWS:
            _rows.popitem(last=False)
    return row


def running_card(running: list[RunningSequence], *, oob: bool = False) -> SafeString:
    """The card (``#running-sequences``), empty when nothing is under way."""
    rows = mark_safe("".join(running_row(item) for item in running))  # noqa: S308 - rows our template escaped
    return render_to_string(CARD, {"rows": rows, "oob": oob})


def forget_rows() -> None:
    """Tests start with no row kept."""
    with _lock:
        _rows.clear()
