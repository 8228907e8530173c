"""Live updates of the sequence pages: every ``sequence.*`` event re-renders the board, once per audience
(the narrators, each player running a character in it, the other players), for the pages showing it.

The board holds only what that viewer may see (selectors.sequence_board). When a new draw opens (or
someone joins, or the sequence is cut short), the viewer's own draw panels are refreshed too; another
participant's draw does not touch them, so a form still shows the odds its player was looking at; only
their Atout buttons are refreshed, so that they carry the sequence's current version. Once the cards are
on the table, each viewer's Atouts after the draw appear without a reload, and the decks' counts follow
every draw. A player's campaign page and the narrator's dashboard list the sequences under way and whose turn it
is to draw.
"""

from __future__ import annotations

from collections.abc import Hashable
from typing import TYPE_CHECKING

from django.template.loader import render_to_string

from campaigns.live import (
    NOT_SHOWN,
    Viewer,
    audience_unless_concerned,
    console_subject,
    event_fact,
    home_subject,
    live_fragment,
    panel_subject,
    sequence_subject,
)
from campaigns.live_catch_up import CatchUp, catch_up_region
from conflicts import running_table, selectors
from conflicts.models import Deck, Participant, Sequence
from conflicts.running_card import running_card

if TYPE_CHECKING:
    from campaigns.models import Event

PANEL_REFRESH = ("sequence.settled", "sequence.joined", "sequence.cut", "sequence.resolved", "sequence.declared",
                 "sequence.outdistanced", "sequence.left", "sequence.ended")  # fmt: skip
RUNNING_REFRESH = ("sequence.created", "sequence.joined", "sequence.drew", "sequence.resolved", "sequence.settled",
                   "sequence.cut", "sequence.outdistanced", "sequence.left", "sequence.ended")  # fmt: skip
DECK_REFRESH = ("sequence.drew", "sequence.atout", "sequence.settled", "sequence.resolved", "sequence.left",
                "sequence.ended")  # fmt: skip


def resolves_draw(event: Event) -> bool:
    """Whether the event put the draw's result on the table: the last draw and a participant taken out carry it in
    their payload (``outcome``); older logs, and a draw resolved by a change outside the Sequence, in an Event of
    its own (``sequence.resolved``, in ``PANEL_REFRESH``)."""
    return event.kind in ("sequence.drew", "sequence.left") and "outcome" in event.payload


def _sequence(event: Event) -> Sequence | None:
    """The event's Sequence, loaded once per event for every socket and renderer of the process."""
    return event_fact(
        event,
        "sequence",
        lambda: (
            Sequence.objects.select_related("scene", "campaign")
            .filter(pk=event.payload.get("sequence"), campaign_id=event.campaign_id)
            .first()
        ),
    )


def _participants(event: Event) -> list[Participant]:
    """The event's Sequence's participants, read once per event for every audience's board."""
    sequence = _sequence(event)
    if sequence is None:
        return []
    participants: list[Participant] = event_fact(event, "participants", lambda: selectors.participants_of(sequence))
    return participants


def _runners(event: Event) -> set[int]:
    """Who runs a character in the event's Sequence: their board has controls, the others' does not."""
    return {p.character.owner_id for p in _participants(event) if p.character.owner_id}


def board_audience(event: Event, viewer: Viewer) -> Hashable:
    """A board differs by the participants the viewer controls (controls(): narrators all, players their
    own characters): the players running nobody in it all read the same board, cards and all."""
    sequence = _sequence(event)
    if sequence is None or not viewer.shows(sequence_subject(sequence.pk)):
        return NOT_SHOWN
    return audience_unless_concerned(viewer, _runners(event))


@live_fragment("sequence.", audience=board_audience)
def sequence_fragments(event: Event, viewer: Viewer) -> list[str]:
    """The board and the viewer's own draw panels, for a page showing this Sequence."""
    sequence = _sequence(event)
    if sequence is None or not viewer.shows(sequence_subject(sequence.pk)):
        return []
    board = selectors.sequence_board(sequence, viewer.membership, _participants(event))
    fragments: list[str] = [render_to_string("conflicts/partials/board.html", {"board": board, "oob": True})]
    from conflicts.views import atouts_fragment, panel_fragment

    back = sequence.get_absolute_url()
    drew = event.payload.get("participant") if event.kind == "sequence.drew" else None
    # Every panel this viewer controls, knocked-out ones included: the narrator's page shows one per
    # participant, and a Sequence that ends must say so on every panel it leaves behind.
    # The narrator's console opens each row's panel on demand: only the panels it has opened are sent to it.
    on_demand = viewer.watches(console_subject(sequence.pk))
    for v in (v for v in board.views if v.controlled):
        p = v.participant
        if on_demand and not viewer.watches(panel_subject(p.pk)):
            continue
        if event.kind in PANEL_REFRESH or p.pk == drew or resolves_draw(event):
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
    return fragments


def decks_audience(event: Event, viewer: Viewer) -> Hashable:
    """The decks a member sees (visible_decks): the table's and the players' for all, a player's own deck for them."""
    sequence = _sequence(event)
    if event.kind not in DECK_REFRESH or sequence is None or not viewer.shows(sequence_subject(sequence.pk)):
        return NOT_SHOWN
    holders = event_fact(
        event,
        "deck_holders",
        lambda: set(
            Deck.objects.filter(campaign_id=event.campaign_id, player__isnull=False).values_list("player_id", flat=True)
        ),
    )
    return audience_unless_concerned(viewer, holders)


@live_fragment("sequence.", audience=decks_audience, by_page=False)
def decks_fragment(event: Event, viewer: Viewer) -> list[str]:
    """The decks' counts follow every draw, on a page showing the Sequence."""
    sequence = _sequence(event)
    if event.kind not in DECK_REFRESH or sequence is None or not viewer.shows(sequence_subject(sequence.pk)):
        return []
    from conflicts.views import visible_decks

    context = {"decks": visible_decks(viewer.membership), "campaign": sequence.campaign, "oob": True,
               "next_url": sequence.get_absolute_url()}  # fmt: skip
    return [render_to_string("conflicts/partials/decks.html", context)]


def _running(event: Event) -> running_table.RunningTable:
    return event_fact(event, "running", lambda: running_table.running_table(event.campaign_id))


def running_audience(event: Event, viewer: Viewer) -> Hashable:
    """The list of sequences under way names, for each viewer, the characters they must still draw for:
    viewers with the same role and the same characters waiting read the same list."""
    if event.kind not in RUNNING_REFRESH or not viewer.watches(home_subject(event.campaign_id)):
        return NOT_SHOWN
    return (
        "narrator" if viewer.is_narrator else "player",
        running_table.waiting_for(_running(event), viewer.membership),
    )


@live_fragment("sequence.", audience=running_audience, by_page=False)
def running_fragment(event: Event, viewer: Viewer) -> list[str]:
    """A player's campaign page and the narrator's dashboard list the sequences under way and whose turn it is."""
    if event.kind not in RUNNING_REFRESH or not viewer.watches(home_subject(event.campaign_id)):
        return []
    running = running_table.running_for(_running(event), viewer.membership)
    # Rows are kept by what they show (conflicts.running_card): only the Sequence that changed is rendered.
    return [running_card(running, oob=True)]


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


@catch_up_region("home")
def running_now(catch_up: CatchUp, campaign_id: int) -> list[str] | None:
    """A campaign page or dashboard caught up: the Sequences under way and whose turn it is, as its GET lists them."""
    if campaign_id != catch_up.membership.campaign_id:
        return []
    return [running_card(running_table.running_sequences(catch_up.membership), oob=True)]
