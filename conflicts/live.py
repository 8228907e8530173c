"""Live updates of the sequence pages besides their regions: each viewer's own draw panels.

The board, the decks and the « Sequences under way » card are regions (``conflicts.regions``): the live layer sends
them by their declarations (``campaigns.live_regions``), and a page that missed many events gets them at the
stream's head (``campaigns.live_catch_up``). The draw panels are a viewer's own forms, sent by the subjects an Event
touched (``campaigns.event_subjects``): when the whole draw changes (``draw:<sequence>``: a new draw opens, someone
joins or leaves, the Sequence is cut short, resolved or ended) or the participant drew (``drew:<participant>``), the
panel is sent whole; another participant's draw does not touch it, so a form still shows the odds its player was
looking at, and only its Atout buttons are refreshed, so that they carry the Sequence's current version. Once the
cards are on the table, each viewer's Atouts after the draw appear without a reload. A Sequence page caught up after
a cut connection gets its panels and its Atouts after the draw as they stand (``sequence_now``), from the same
functions.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Hashable
from typing import TYPE_CHECKING

from django.http import Http404
from django.template.loader import render_to_string

from campaigns.event_subjects import DRAW, DREW, named_sequence
from campaigns.live import (
    NOT_SHOWN,
    Viewer,
    audience_unless_concerned,
    console_subject,
    event_fact,
    live_fragment,
    panel_subject,
    sequence_subject,
)
from campaigns.live_catch_up import CatchUp, catch_up_region
from campaigns.live_regions import touched
from conflicts import selectors
from conflicts.models import Participant, Phase, Sequence
from core.prepared import PreparedRead
from core.regions import subject

if TYPE_CHECKING:
    from campaigns.models import Event


def _sequence(event: Event) -> Sequence | None:
    """The event's Sequence, loaded once per event for every socket and renderer of the process."""

    def load() -> Sequence | None:
        pk = named_sequence(event.payload)
        if pk is None:
            return None
        found = _sequence_of_campaign(event.campaign_id, pk)
        return found[0] if found else None

    found: Sequence | None = event_fact(event, "sequence", load)
    return found


# Read for every event a process renders: compiled once per thread (``core.prepared``; arguments in the SQL's order).
_sequence_of_campaign = PreparedRead(
    lambda campaign_id, pk: (
        Sequence.objects.select_related("scene", "campaign").filter(pk=pk, campaign_id=campaign_id).order_by()[:1]
    )
)


def _participants(event: Event) -> list[Participant]:
    """The event's Sequence's participants, read once per event for every audience's board."""
    sequence = _sequence(event)
    if sequence is None:
        return []
    # The render pass's one read (``selectors.shared_participants``), which its boards' changed rows and snapshot read
    # too: the panels read the same rows rather than read them once more.
    participants: list[Participant] = event_fact(event, "participants", lambda: selectors.shared_participants(sequence))
    return participants


def _runners(event: Event) -> set[int]:
    """Who runs a character in the event's Sequence: their board has controls, the others' does not (once per event:
    every page's every part asks)."""
    found: set[int] = event_fact(
        event, "runners", lambda: {p.character.owner_id for p in _participants(event) if p.character.owner_id}
    )
    return found


def board_audience(event: Event, viewer: Viewer) -> Hashable:
    """A board differs by the participants the viewer controls (controls(): narrators all, players their
    own characters): the players running nobody in it all read the same board, cards and all."""
    if named_sequence(event.payload) is None:
        return NOT_SHOWN  # an Event of no Sequence: nothing to read
    sequence = _sequence(event)
    if sequence is None or not viewer.shows(sequence_subject(sequence.pk)):
        return NOT_SHOWN
    return audience_unless_concerned(viewer, _runners(event))


@live_fragment("", audience=board_audience)
def sequence_fragments(event: Event, viewer: Viewer) -> list[str]:
    """The viewer's own draw panels, for a page showing this Sequence (its board is a region)."""
    sequence = _sequence(event)
    if sequence is None or not viewer.shows(sequence_subject(sequence.pk)):
        return []
    if not viewer.is_narrator and viewer.user_id not in _runners(event):
        return []  # a player running nobody in it controls no panel: no board to build for nothing
    # A panel is sent whole when the Event changed the whole draw (``draw:<sequence>``) or that participant's own
    # draw (``drew:<participant>``), as ``campaigns.event_subjects`` declares; otherwise its Atout buttons only.
    changed = touched(event)
    whole_draw = subject(DRAW, sequence.pk) in changed
    membership = viewer.membership
    snapshot = selectors.shared_snapshot(sequence)  # the pass's one snapshot of it, for every viewer
    return _panels(
        viewer,
        snapshot.sequence,
        snapshot.everyone,
        lambda: selectors.sequence_board(sequence, membership),
        lambda p: whole_draw or subject(DREW, p.pk) in changed,
        # A slot holds Atouts only once the draw is resolved, and the phase moves only with the whole draw: while it
        # is drawing, an Event that left the whole draw alone found every slot empty and leaves it so.
        slots=whole_draw or snapshot.sequence.phase == Phase.RESOLVED,
    )


def _panels(
    viewer: Viewer,
    sequence: Sequence,
    everyone: list[Participant],
    board_of: Callable[[], selectors.Board],
    whole: Callable[[Participant], bool],
    *,
    slots: bool = True,
) -> list[str]:
    """The draw panels (whole, or only their Atout buttons and version when ``whole`` says not) and the Atouts after
    the draw of the participants ``viewer`` controls. The viewer's board (``board_of``: budgets, odds, states) is built
    only for a panel sent whole or Atouts after the draw: a teammate's draw, which refreshes the others' Atout buttons
    alone, builds none (ten players on a Sequence page each built theirs for every draw). ``slots=False``: the slots of
    the Atouts after the draw are left as the page has them (they cannot have changed)."""
    from conflicts.views import atouts_fragment, panel_fragment

    back = sequence.get_absolute_url()
    fragments: list[str] = []
    board = functools.cache(board_of)  # built once, and only when a panel needs it

    # Every panel this viewer controls, knocked-out ones included: the narrator's page shows one per
    # participant, and a Sequence that ends must say so on every panel it leaves behind.
    # The narrator's console opens each row's panel on demand: only the panels it has opened are sent to it.
    on_demand = viewer.watches(console_subject(sequence.pk))
    for p in everyone:
        if not selectors.controls(viewer.membership, p):
            continue
        if on_demand and not viewer.watches(panel_subject(p.pk)):
            continue
        if whole(p):
            fragments.append(panel_fragment(viewer.membership, board(), p, viewer.csrf_token))
        elif sequence.phase == "drawing" and p.active and not p.drawn:
            fragments.append(atouts_fragment(sequence, everyone, p, viewer.csrf_token))
        if not p.active or not slots:
            continue
        # Its Atouts once the cards are on the table; before, the empty slot they will fill (after_draw_slot.html).
        after_draw = p.drawn and sequence.phase == "resolved"
        view = next(v for v in board().views if v.participant.pk == p.pk) if after_draw else None
        fragments.append(
            render_to_string(
                "conflicts/partials/after_draw_slot.html",
                {
                    "p": p,
                    "view": view,
                    "board": board() if after_draw else None,
                    "sequence": sequence,
                    "campaign": sequence.campaign,
                    "oob": True,
                    "next_url": back,
                    "csrf_token": viewer.csrf_token,
                },
            )  # fmt: skip
        )
    return fragments


@live_fragment("test.atout")
def roll_card_fragment(event: Event, viewer: Viewer) -> list[str]:
    """A Test's result card as it now stands, for the sockets watching the sheet of the character who rolled it
    (and may roll for it): a teammate's help or a counter shows on the player's card without a reload."""
    from characters.models import Character
    from characters.subjects import sheet_subject
    from conflicts import sheet_roll
    from conflicts.services.roll_follow_ups import fudge_test_state

    character_id = event.payload.get("character_id")
    if character_id is None or not viewer.watches(sheet_subject(int(character_id))):
        return []
    character = Character.objects.filter(pk=character_id, campaign_id=event.campaign_id).first()
    if character is None or not (viewer.is_narrator or character.owner_id == viewer.user_id):
        return []
    context = {"character": character, "result": fudge_test_state(character, event.payload["roll"]).card(),
               "memory": sheet_roll.RollMemory(), "faces": (-1, 0, 1), "oob": True, "csrf_token": viewer.csrf_token}  # fmt: skip
    return [render_to_string("conflicts/partials/roll_card.html", context)]


@catch_up_region("sequence")
def sequence_now(catch_up: CatchUp, sequence_id: int) -> list[str] | None:
    """A Sequence page (or a phone panel) caught up: its board is a region (``conflicts.regions.BOARD``); besides it,
    the viewer's own draw panels and Atouts after the draw, and the decks' counts, as they stand, from the same
    functions as the pushes. Nothing of a Sequence the member may not see (another campaign's: 404 there)."""
    try:
        sequence = selectors.sequence_for(catch_up.membership, sequence_id)
    except Http404:
        return []
    board = selectors.sequence_board(sequence, catch_up.membership)
    everyone = [v.participant for v in board.views]
    return _panels(catch_up.viewer, board.sequence, everyone, lambda: board, lambda _p: True)


@catch_up_region("console")
@catch_up_region("panel")
def console_now(_catch_up: CatchUp, _pk: int) -> list[str] | None:
    """The narrator's console and the panels it opened: ``sequence_now`` renders them with the Sequence it watches."""
    return []
