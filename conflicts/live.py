"""Live updates of the sequence pages: every ``sequence.*`` event re-renders the board for each viewer.

The board holds only what that viewer may see (selectors.sequence_board). When a new draw opens (or
someone joins, or the sequence is cut short), the viewer's own draw panels are refreshed too; another
participant's draw does not touch them, so a form still shows the odds its player was looking at; only
their Atout buttons are refreshed, so that they carry the sequence's current version. Once the cards are
on the table, each viewer's Atouts after the draw appear without a reload, and the decks' counts follow
every draw. A player's campaign page and the narrator's dashboard list the sequences under way and whose turn it
is to draw.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from django.template.loader import render_to_string

from campaigns.live import Viewer, home_subject, live_fragment
from conflicts import selectors
from conflicts.models import Sequence

if TYPE_CHECKING:
    from campaigns.models import Event

PANEL_REFRESH = ("sequence.settled", "sequence.joined", "sequence.cut", "sequence.resolved", "sequence.declared",
                 "sequence.outdistanced")  # fmt: skip
RUNNING_REFRESH = ("sequence.created", "sequence.joined", "sequence.drew", "sequence.resolved", "sequence.settled",
                   "sequence.cut", "sequence.outdistanced")  # fmt: skip
DECK_REFRESH = ("sequence.drew", "sequence.atout", "sequence.settled", "sequence.resolved")


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
    fragments: list[str] = [render_to_string("conflicts/partials/board.html", {"board": board, "oob": True})]
    from conflicts.views import atouts_fragment, panel_fragment, visible_decks

    back = sequence.get_absolute_url()
    drew = event.payload.get("participant") if event.kind == "sequence.drew" else None
    # Every panel this viewer controls, knocked-out ones included: the narrator's page shows one per
    # participant, and a Sequence that ends must say so on every panel it leaves behind.
    for v in (v for v in board.views if v.controlled):
        p = v.participant
        if event.kind in PANEL_REFRESH or p.pk == drew:
            fragments.append(panel_fragment(viewer.membership, board, p))
        elif sequence.phase == "drawing" and p.active and not p.drawn:
            fragments.append(atouts_fragment(viewer.membership, board, p))
        if not p.active:
            continue
        fragments.append(
            render_to_string(
                "conflicts/partials/after_draw_slot.html",
                {
                    "p": p,
                    "view": v,
                    "board": board,
                    "sequence": sequence,
                    "campaign": sequence.campaign,
                    "oob": True,
                    "next_url": back,
                },
            )  # fmt: skip
        )
    if event.kind in DECK_REFRESH:
        decks = visible_decks(viewer.membership)
        context = {"decks": decks, "campaign": sequence.campaign, "oob": True, "next_url": back}
        fragments.append(render_to_string("conflicts/partials/decks.html", context))
    if event.kind in RUNNING_REFRESH and viewer.watches(home_subject(sequence.campaign_id)):
        running = selectors.running_sequences(viewer.membership)
        fragments.append(render_to_string("conflicts/partials/running.html", {"running": running, "oob": True}))
    return fragments
