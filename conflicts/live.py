"""Live updates of the sequence pages: every ``sequence.*`` event re-renders the board for each viewer.

The board holds only what that viewer may see (selectors.sequence_board). When a new draw opens (or
someone joins, or the sequence is cut short), the viewer's own draw panels are refreshed too; another
participant's draw does not touch them, so a form still shows the odds its player was looking at.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from django.template.loader import render_to_string

from campaigns.live import Viewer, live_fragment
from conflicts import selectors
from conflicts.models import Sequence

if TYPE_CHECKING:
    from campaigns.models import Event

PANEL_REFRESH = ("sequence.settled", "sequence.joined", "sequence.cut", "sequence.resolved", "sequence.declared")


@live_fragment("sequence.")
def sequence_fragments(event: Event, viewer: Viewer) -> list[str]:
    sequence_id = event.payload.get("sequence")
    sequence = (
        Sequence.objects.select_related("scene", "campaign")
        .filter(pk=sequence_id, campaign_id=event.campaign_id)
        .first()
    )
    if sequence is None:
        return []
    board = selectors.sequence_board(sequence, viewer.membership)
    fragments = [render_to_string("conflicts/partials/board.html", {"board": board, "oob": True})]
    if event.kind in PANEL_REFRESH:
        from conflicts.views import panel_fragment

        fragments += [panel_fragment(viewer.membership, board, v.participant) for v in board.mine]
    return fragments
