"""The stream positions an answer was rendered at: the ``X-Live-Position`` header of a page's answer.

A live push and the answer to a page's own POST travel on two connections and can cross: a push rendered
before the POST's write can reach the page after the POST's answer and put the old state back over it.
The answer says which position of each live stream it shows at least, and the page
(``static/js/tablee.js``) drops every push fragment at that position or older aimed at a region the answer
replaced; a push newer than an answer is not put back under it either.

A page follows one stream, and positions of two streams mean nothing to each other: a campaign page counts in
its campaign's stream (``campaign:<id>``, the Event positions), a game board in its game's versions
(``tragic:<id>``, ``frag:<id>``, campaigns.live_boards). So the header names its streams,
``X-Live-Position: campaign:3=41, tragic:7=12`` (a move that also writes to the campaign's log shows both),
and a page takes only the position of its own stream. A whole page carries the position it was rendered at
on its socket's element (``data-live-after``, the ``live_position`` template tag), so its socket starts from
there instead of replaying the last seconds.

What an answer shows "at least" (every event at or before the position is in it):

- the stream's head read with the membership (``campaigns.access.campaign_member``), which is the page's
  first query, or with the character a sheet's view reads first (``characters.access.character_for_viewer``),
  so whatever the view reads next is at least that recent;
- the position of each event the request appended, once its transaction has committed: positions are
  handed out in commit order (``campaigns.models.CampaignStream``), so when the request's own event
  commits every earlier position has committed too, and the answer is rendered after that;
- a game's version after a move, once committed (the board the answer renders is that version or later).

A request that did none of these (an answer from outside a campaign) gets no header, and the page treats its
answer as before: swapped as it comes.
"""

from __future__ import annotations

from collections.abc import Callable
from contextvars import ContextVar

from django.db import transaction
from django.http import HttpRequest, HttpResponse

from campaigns.models import CampaignStream, Membership

HEADER = "X-Live-Position"


def campaign_stream(campaign_id: int) -> str:
    """The name of a campaign's live stream (its Event positions)."""
    return f"campaign:{campaign_id}"


class AnswerPosition:
    """What the answer being rendered shows at least, per stream."""

    def __init__(self) -> None:
        self.positions: dict[str, int] = {}
        # What the request's own committed Events touched (``campaigns.event_subjects``): its answer carries the regions
        # they changed as their pushes do, a board's parts rather than the whole board (``core.kept_regions.changed_html``).
        self.touched: set[str] = set()

    def note(self, stream: str, position: int) -> None:
        if position > self.positions.get(stream, -1):
            self.positions[stream] = position

    def of(self, stream: str) -> int | None:
        return self.positions.get(stream)

    def header(self) -> str:
        """``campaign:3=41, tragic:7=12``; "" when nothing is known."""
        return ", ".join(f"{stream}={position}" for stream, position in sorted(self.positions.items()))


# Set per request by LivePositionMiddleware; a holder (not a value) so that the view, its services and their
# on-commit callbacks all write to the one the middleware reads, whatever context copies lie between.
_answer: ContextVar[AnswerPosition | None] = ContextVar("tablee_answer_position", default=None)


def current() -> AnswerPosition | None:
    return _answer.get()


def note_head(membership: Membership) -> None:
    """The stream's head as read with the membership (``select_related("campaign__stream")``: no query)."""
    try:
        head = membership.campaign.stream.position
    except CampaignStream.DoesNotExist:
        head = 0  # no event yet: the first one creates the row
    note(campaign_stream(membership.campaign_id), head)


def note(stream: str, position: int) -> None:
    """The answer being rendered shows at least this position of the stream (read before what it shows)."""
    holder = _answer.get()
    if holder is not None:
        holder.note(stream, position)


def note_on_commit(stream: str, position: int, touched: frozenset[str] = frozenset()) -> None:
    """The answer shows this position once the transaction that wrote it has committed (it is rendered after), and what
    its Event touched (``touched``)."""
    holder = _answer.get()
    if holder is not None:

        def committed() -> None:
            holder.note(stream, position)
            holder.touched.update(touched)

        transaction.on_commit(committed)


def touched_by_request() -> frozenset[str] | None:
    """What the Events this request committed touched, or ``None`` outside a request's answer."""
    holder = _answer.get()
    return None if holder is None else frozenset(holder.touched)


class LivePositionMiddleware:
    """Gives each request a holder and writes what it holds into the answer's ``X-Live-Position``."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        holder = AnswerPosition()
        token = _answer.set(holder)
        try:
            response = self.get_response(request)
        finally:
            _answer.reset(token)
        if holder.positions and response.status_code < 500:
            response[HEADER] = holder.header()
        return response
