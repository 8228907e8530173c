"""The Sequence page's board (``core.regions``), and each participant's row on it. Beside it on the page, the decks
(``conflicts.decks_region``); on the campaign pages, the « Sequences under way » card (``conflicts.running_region``).

**The board** (``conflicts/partials/board.html``) shows a Sequence as one member may see it
(``selectors.sequence_board``): its row, its participants' rows with their characters' names, kinds and owners,
what the state cards and the Revers do to their budgets, the table's settings (the success rule, the budget's
modifiers) and the story told from the log. Its declaration:

- subjects: ``sequence:<id>`` (every use case of a Sequence appends an Event naming it:
  ``conflicts.services.changes._append``, ``campaigns.event_subjects``), each participant's ``character:<id>`` and
  ``states:<id>`` (a wound, a Revers or Shaken lowers a budget or refuses a draw), ``settings:<campaign>`` and
  ``cast:<campaign>`` (a character renamed elsewhere is named on another's split);
- rows: the campaign's ``log_epoch`` (renames of people bump it: the story names them);
- viewer: what differs per viewer is what they control and which private events they may read. Narrators
  control everyone and read alike; a player controls their own characters and reads their own private events, so
  each player is a viewer of their own. A player never gets another's hand before it is drawn, an NPC's split or
  trait value, or another's budget: those are not in the ``Board`` built for them, and no two viewers who would
  see different bytes share a key.

**A row** (``console_row.html`` for narrators, ``board_row.html`` for players) reads one ``ParticipantView``, the
Sequence's phase and kind, and the names of the participants its split may name. It is a region of its own,
rendered inside the board. Its subjects: the draw as a whole (``draw:<id>``: someone joins or leaves, the result is
put on the table or changed, the Revers are settled, the Sequence is cut short or ended: what moves the phase, the
opponents a split may name and what each takes), its own participant's cards (``drew:<participant>``: its split,
its draw, an Atout bought, countered or helping it), its character's and states', the settings and the cast. Not
the Sequence's every Event: a draw renders its drawer's row again and finds the others kept, and a wound renders
that one row. Its viewer: narrators alike, and for players whether they control the row's participant
(their budget and split then show). A row with a modifiers form open (sent back with what was typed, or opened
without JavaScript) is rendered from the same template, afresh, never kept.

**Its head and foot** (``board_head.html``, ``board_foot.html``) are regions of their own, included in it with its own
context (``_shown``, so that a pushed part and the board around it read the same ``Board``): the head
shows where the draw stands (and the narrator's « draw for the NPCs »), the foot the draw's result, the forms that
settle it or cut the Sequence short, and the story. Both carry the Sequence's version in their forms, so every Event of
the Sequence changes them; they are small. **A live push sends the board by its parts** (``core.regions.Items``): what
the board reads besides them is who takes part, on which side, in what order (``draw:<sequence>``, the settings, the
cast: ``frame_depends``). An Event that touched none of that (a draw that leaves others to draw, a split, an Atout, a
wound) sends the head, the rows it changed and the foot, each swapped by its id; one that did sends the whole board. A
draw at a table of twenty then sends a few kilobytes to each page, not every participant's cards again.

**The narrator's way out** (``LEAVE``, ``narrator_leave.html``: take a participant out, end the Sequence) lists who is
still in and who cannot act: it reads what the board reads, under the board's declaration, so a console found kept
builds no board at all.

The page (``views._sequence_page``), the answers to a panel's POSTs, the live pushes (``campaigns.live_regions``,
a page watching ``sequence:<id>``) and the catch-up (``campaigns.live_catch_up``) all render the board here.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from django.http import Http404
from django.template.loader import render_to_string
from django.utils.safestring import SafeString, mark_safe

from campaigns.answer_position import touched_by_request
from campaigns.event_subjects import (
    CAST,
    CHARACTER,
    DRAW,
    DREW,
    SEQUENCE,
    SETTINGS,
    STATES,
)
from campaigns.kept import table_head
from campaigns.models import Membership
from conflicts import selectors
from conflicts.models import Participant, Sequence
from conflicts.story import sequence_story
from core.kept_regions import changed_html, region_html
from core.regions import Depends, Items, Region, pass_fact, register, subject

BOARD_TEMPLATE = "conflicts/partials/board.html"
CONSOLE_ROW = "conflicts/partials/console_row.html"
PLAYER_ROW = "conflicts/partials/board_row.html"


@dataclass
class BoardOf:
    """A Sequence's board for one member: the Sequence (with its campaign), and the ``Board`` when the caller has
    built it already (the page builds it for its panels too); otherwise the context builder builds it."""

    sequence: Sequence
    board: selectors.Board | None = None
    participants: list[Participant] | None = None  # read once, for the declaration and the board alike

    @property
    def campaign_id(self) -> int:
        return int(self.sequence.campaign_id)

    def built(self, membership: Membership) -> selectors.Board:
        if self.board is None:
            # What the rules read of the Sequence is the same for every viewer: read once per render pass (the twenty
            # pages of a live draw), and each viewer's board is built from it.
            snapshot = selectors.shared_snapshot(self.sequence)
            self.board = selectors.sequence_board(snapshot.sequence, membership, snapshot=snapshot)
        return self.board

    def _participants(self) -> list[Participant]:
        if self.participants is None:
            self.participants = selectors.shared_participants(self.sequence)
        return self.participants

    def character_ids(self) -> list[int]:
        return [p.character_id for p in self.participants_read()]

    def participants_read(self) -> list[Participant]:
        """The participants, from the board when it is built, else read (once per render pass)."""
        if self.board is not None:
            return [v.participant for v in self.board.views]
        return self._participants()


def member_viewer(membership: Membership) -> tuple[Any, ...]:
    return ("narrator",) if membership.is_narrator else ("player", membership.user_id)


def board_depends(thing: BoardOf, membership: Membership, _request: Any = None, *, story: bool = True) -> Depends:
    """The board's declaration (see the module's docstring); ``story=False``: its head's, which tells none of the
    story, so that every player reads it alike."""
    sequence = thing.sequence
    campaign_id = thing.campaign_id
    table = frozenset({subject(SEQUENCE, sequence.pk), subject(SETTINGS, campaign_id), subject(CAST, campaign_id)})

    def participants() -> frozenset[str]:  # who takes part: read only when the stream has moved
        def named() -> frozenset[str]:
            ids = thing.character_ids()
            return frozenset({subject(kind, pk) for pk in ids for kind in (CHARACTER, STATES)})

        # The same for every member: named once per render pass (a live event's twenty pages each declare the board).
        found: frozenset[str] = pass_fact(("board subjects", int(sequence.pk)), named)
        return found

    def alike() -> tuple[Any, ...]:
        # The players' board is kept as its spectators read it, each player's own rows put in afterwards (``_own_rows``):
        # it differs from one player to another only by the lines of the story they alone read. So the players of a
        # table's draw, given nothing apart, share one rendering, not one each.
        if membership.is_narrator:
            return ("narrator",)
        if not story:
            return ("player",)
        return ("player", tuple(sorted(sequence_story(sequence, membership).read_apart())))

    return Depends(
        campaign_id=campaign_id,
        subjects=table,
        more=participants,
        more_kinds=frozenset({CHARACTER, STATES}),
        # The campaign's ``log_epoch`` (renames of people bump it: the story names them). Not the row itself: its
        # loaded relations carry the stream head, which would make every Event a new key.
        rows=(sequence.campaign_id, sequence.campaign.log_epoch),
        viewer=member_viewer(membership),
        head=table_head(membership),
        alike=alike,
    )


def frame_depends(thing: BoardOf, membership: Membership, _request: Any = None) -> Depends:
    """What the board reads besides its head, its rows and its foot (``core.regions.Items``): who takes part, on which
    side and in what order (``draw:<sequence>``: someone joins or leaves), the settings and the cast. An Event that
    touched none of these (a draw that leaves others to draw, a split declared, a wound) sends the parts it changed
    alone: the head, the rows it changed and the foot, not the whole board with every participant's cards."""
    # Only asked whether an Event changed it (``Depends.changed_by``): its subjects are all it needs to say.
    campaign_id = thing.campaign_id
    return Depends(
        campaign_id=campaign_id,
        subjects=frozenset(
            {subject(DRAW, thing.sequence.pk), subject(SETTINGS, campaign_id), subject(CAST, campaign_id)}
        ),
    )


def changed_parts(thing: BoardOf, membership: Membership, touched: frozenset[str]) -> list[tuple[Region, Any]]:
    """The parts of a board an Event changed, in the board's order: its head, each row whose declaration names one of
    the Event's subjects (as the reader's copy shows it: their own rows with their budgets, the others as their
    spectators read them) and its foot. The head and foot declare the board's subjects, so an Event that changed the
    board (the only one asked here: ``core.kept_regions.changed_html``) changed them.

    Which rows changed is the same for every reader (a row's subjects are its participant's): worked out once per
    render pass. A player none of whose own rows changed reads them as every spectator does, from the pass's one
    spectators' board: their own board (with their story and budgets) is built only when one of their rows changed."""
    changed = _rows_changed(thing, touched)
    if not changed:
        return [(HEAD, thing), (FOOT, thing)]
    if membership.is_narrator or any(selectors.controls(membership, p) for p in changed):
        board = thing.built(membership)
        as_read = selectors.as_spectators_read_it(board)
        spectators = {v.participant.pk: v for v in as_read.views}
        region = CONSOLE_ROW_REGION if board.is_narrator else PLAYER_ROW_REGION
        pks = {p.pk for p in changed}
        rows = [
            RowOf(board, v) if v.controlled else RowOf(as_read, spectators[v.participant.pk])
            for v in board.views
            if v.participant.pk in pks
        ]
        return [(HEAD, thing), *((region, row) for row in rows), (FOOT, thing)]
    spectators_board = _spectators_board(thing, membership)
    views = {v.participant.pk: v for v in spectators_board.views}
    return [
        (HEAD, thing),
        *((PLAYER_ROW_REGION, RowOf(spectators_board, views[p.pk])) for p in changed),
        (FOOT, thing),
    ]


def _rows_changed(thing: BoardOf, touched: frozenset[str]) -> list[Participant]:
    """The participants whose rows an Event that touched ``touched`` changed, in the board's order (once per pass)."""
    sequence = thing.sequence

    def load() -> list[Participant]:
        campaign_id = int(sequence.campaign_id)
        everyone = selectors.shared_snapshot(sequence).everyone
        # A row's declaration as ``row_depends`` makes it, for what ``changed_by`` reads: its campaign and subjects.
        return [p for p in everyone if Depends(campaign_id, _row_subjects(sequence, p)).changed_by(touched)]

    found: list[Participant] = pass_fact(("board rows changed", int(sequence.pk), touched), load)
    return found


def _spectators_board(thing: BoardOf, membership: Membership) -> selectors.Board:
    """The board as a player who controls none of it reads it (no story: a row reads none), built once per pass for
    every player whose own rows an Event left alone."""
    sequence = thing.sequence

    def build() -> selectors.Board:
        snapshot = selectors.shared_snapshot(sequence)
        board = selectors.sequence_board(snapshot.sequence, membership, snapshot=snapshot, story=False)
        return selectors.as_spectators_read_it(board)

    found: selectors.Board = pass_fact(("spectators' board", int(sequence.pk)), build)
    return found


def _board_of(sequence_id: int, membership: Membership) -> BoardOf | None:
    # This member's campaign only: a socket may name any id (a catch-up renders what it names).
    sequence = sequence_of_page(membership, sequence_id)
    return None if sequence is None else BoardOf(sequence)


def sequence_of_page(membership: Membership, sequence_id: int) -> Sequence | None:
    """The Sequence a page of ``membership`` names, read once per render pass for every member of its campaign."""
    key = ("sequence of campaign", int(membership.campaign_id), int(sequence_id))

    def load() -> Sequence | None:
        try:
            return selectors.sequence_for(membership, sequence_id)
        except Http404:
            return None

    found: Sequence | None = pass_fact(key, load)
    return found


def _shown(thing: BoardOf, membership: Membership) -> selectors.Board:
    """The ``Board`` the board region and its head and foot render: the narrator's console, or for a player the board as
    its spectators read it (the copy kept for every player who reads its story alike)."""
    board = thing.built(membership)
    return board if board.is_narrator else selectors.as_spectators_read_it(board)


def _board_context(thing: BoardOf, membership: Membership, _request: Any) -> dict[str, Any]:
    # Its head and foot (regions of their own, ``HEAD`` and ``FOOT``) are included with this context: the same bytes.
    context = {"board": _shown(thing, membership), "console_forms": {}, "membership": membership}
    if membership.is_narrator:
        return context
    # A player's copy is kept as the board's spectators read it, every row marked (``ROW_APART``) for its reader's own.
    return {**context, "rows_apart": True}


# A row of the players' board, as its spectators read it, between the marks a reader's own row takes its place in:
# HTML comments, which no escaped text can hold (``<`` is escaped), so a mark is only ever one the board printed.
ROW_APART = re.compile(r"<!--tablee-row:(\d+)-->(.*?)<!--/tablee-row-->", re.DOTALL)


def _own_rows(html: str, thing: BoardOf, membership: Membership) -> str:
    """A player's copy of the board kept for its spectators: the rows of the participants they control, as they read
    them (their budgets and splits), put in; the other rows as kept, their marks taken out."""
    if membership.is_narrator or "<!--tablee-row:" not in html:
        return html
    # The board's pieces between its rows, and its rows, split once per render pass for all its readers.
    pieces: list[str] = pass_fact(("board rows apart", html), lambda: ROW_APART.split(html))
    mine = {p.pk for p in thing.participants_read() if selectors.controls(membership, p)}
    if not mine:
        return pass_fact(("board rows put back", html), lambda: "".join(_as_kept(pieces)))
    board = thing.built(membership)
    views = {v.participant.pk: v for v in board.views}
    out = []
    for index, piece in enumerate(pieces):
        kind = index % 3  # ``split`` gives the text between rows, then each row's participant and the row itself
        if kind == 0:
            out.append(piece)
        elif kind == 2:
            pk = int(pieces[index - 1])
            out.append(str(row_html(board, views[pk], {})) if pk in mine and pk in views else piece)
    return "".join(out)


def _as_kept(pieces: list[str]) -> list[str]:
    return [piece for index, piece in enumerate(pieces) if index % 3 != 1]


BOARD = register(
    Region(
        name="sequence-board",
        template=BOARD_TEMPLATE,
        load=_board_of,
        context=_board_context,
        depends=board_depends,
        watch="sequence",  # a Sequence page watches sequence:<pk> (campaigns.live.sequence_subject)
        element_id=lambda thing: f"sequence-board-{thing.sequence.pk}",
        own=_own_rows,
        items=Items(depends=frame_depends, changed=changed_parts),
    )
)


def _part_context(thing: BoardOf, membership: Membership, _request: Any) -> dict[str, Any]:
    return {"board": _shown(thing, membership), "membership": membership}


HEAD = register(
    Region(
        name="sequence-board-head", template="conflicts/partials/board_head.html", load=_board_of,
        context=_part_context, depends=lambda thing, membership, request: board_depends(thing, membership, story=False),
        element_id=lambda thing: f"board-head-{thing.sequence.pk}",
    )
)  # fmt: skip
"""The board's head: its title and where the draw stands, and the narrator's « draw for the NPCs »."""

FOOT = register(
    Region(
        name="sequence-board-foot", template="conflicts/partials/board_foot.html", load=_board_of,
        context=_part_context, depends=board_depends, element_id=lambda thing: f"board-foot-{thing.sequence.pk}",
    )
)  # fmt: skip
"""The board's foot: the draw's result, settling it or cutting the Sequence short, and the story so far."""


LEAVE = register(
    Region(
        name="sequence-leave",
        template="conflicts/partials/narrator_leave.html",
        load=_board_of,
        # Who may be taken out (the participants still in, their names, who cannot act) and the Sequence's version:
        # what the board reads, under the board's declaration.
        context=lambda thing, membership, _request: {"sequence": thing.sequence, "board": thing.built(membership)},
        depends=board_depends,
        element_id=lambda thing: f"narrator-leave-{thing.sequence.pk}",
    )
)
"""The narrator's way out of a Sequence (take someone out, end it), beside the board on the console."""


@dataclass(frozen=True)
class RowOf:
    """One participant's row of a board being rendered."""

    board: selectors.Board
    view: selectors.ParticipantView


def _row_subjects(sequence: Sequence, participant: Participant) -> frozenset[str]:
    """What a row reads through the table's subjects: the board's, for its own participant (whoever reads it)."""
    campaign_id = int(sequence.campaign_id)
    character_id = participant.character_id
    return frozenset(
        {subject(DRAW, sequence.pk), subject(DREW, participant.pk)}
        | {subject(SETTINGS, campaign_id), subject(CAST, campaign_id)}
        | {subject(kind, character_id) for kind in (CHARACTER, STATES)}
    )


def row_depends(thing: RowOf, _membership: Any = None, _request: Any = None) -> Depends:
    """A row's declaration (see the module's docstring): the board's subjects for its own participant."""
    sequence = thing.board.sequence
    return Depends(
        campaign_id=int(sequence.campaign_id),
        subjects=_row_subjects(sequence, thing.view.participant),
        # The row's own participant: a board's rows are one key each.
        rows=(thing.view.participant.pk,),
        viewer=("narrator",) if thing.board.is_narrator else ("player", thing.view.controlled),
    )


def _row_context(thing: RowOf, _membership: Any, _request: Any) -> dict[str, Any]:
    return {"board": thing.board, "v": thing.view, "p": thing.view.participant, "console_forms": {}}


def _no_load(_pk: int, _membership: Any) -> None:
    return None  # a row is rendered inside its board, never on its own


CONSOLE_ROW_REGION = register(
    Region(
        name="sequence-console-row", template=CONSOLE_ROW, load=_no_load, context=_row_context,
        depends=row_depends, element_id=lambda thing: f"participant-{thing.view.participant.pk}",
    )
)  # fmt: skip
PLAYER_ROW_REGION = register(
    Region(
        name="sequence-player-row", template=PLAYER_ROW, load=_no_load, context=_row_context,
        depends=row_depends, element_id=lambda thing: f"participant-{thing.view.participant.pk}",
    )
)  # fmt: skip


def row_html(board: selectors.Board, view: selectors.ParticipantView, console_forms: dict[str, Any]) -> SafeString:
    """The row of ``view`` on ``board``: kept by its declaration, unless a modifiers form is open in it."""
    region = CONSOLE_ROW_REGION if board.is_narrator else PLAYER_ROW_REGION
    if console_forms.get(str(view.participant.pk)):
        context = {"board": board, "v": view, "p": view.participant, "console_forms": console_forms}
        return mark_safe(render_to_string(region.template, context))  # noqa: S308 - our own template's output
    return region_html(region, RowOf(board, view), None)


def leave_html(thing: BoardOf, membership: Membership, *, request: Any = None) -> SafeString:
    """The console's « take someone out or end the Sequence » card, kept with the board (``LEAVE``)."""
    return region_html(LEAVE, thing, membership, request=request)


def _board_thing(board: selectors.Board | BoardOf) -> BoardOf:
    """What the board region shows, from a ``Board`` the caller built (for its panels too) or the ``BoardOf`` itself."""
    return board if isinstance(board, BoardOf) else BoardOf(board.sequence, board)


def board_html(
    board: selectors.Board | BoardOf, membership: Membership, *, request: Any = None, token: str | None = None,
    oob: bool = False, console_forms: dict[str, Any] | None = None,
) -> SafeString:  # fmt: skip
    """The board region for ``membership``; with a modifiers form open in a row, the board rendered afresh. Given a
    ``BoardOf`` without its ``Board``, the board is built only if its region is not found kept."""
    thing = _board_thing(board)
    if console_forms:
        # A modifiers form is the narrator's (their console): the console's context, the forms put in.
        context = {**_board_context(thing, membership, request), "console_forms": console_forms, "oob": oob}
        return mark_safe(render_to_string(BOARD_TEMPLATE, context, request=request))  # noqa: S308
    return region_html(BOARD, thing, membership, request=request, token=token, oob=oob)


def board_answer_html(board: selectors.Board | BoardOf, membership: Membership, *, request: Any) -> SafeString:
    """The board as the answer to one's own POST carries it: what the request's Events changed of it, as their pushes
    send it (its head, rows and foot, or the whole board: ``core.kept_regions.changed_html``), so that the answer and
    the push are the same regions at the same position. The whole board when the request changed nothing (a refusal)."""
    thing = _board_thing(board)
    touched = touched_by_request()
    if not touched:
        return board_html(thing, membership, request=request, oob=True)
    return mark_safe("".join(changed_html(BOARD, thing, membership, touched, request=request)))  # noqa: S308 - ours
