"""The stream position an answer was rendered at: the ``X-Live-Position`` header of a campaign page's answer.

A live push and the answer to a page's own POST travel on two connections and can cross: a push rendered
before the POST's write can reach the page after the POST's answer and put the old state back over it.
The answer says which position of the campaign's stream it shows at least, and the page
(``static/js/tablee.js``) drops every push fragment at that position or older aimed at a region the answer
replaced; a push newer than an answer is not put back under it either.

What an answer shows "at least" (every event at or before the position is in it):

- the stream's head read with the membership (``campaigns.access.campaign_member``), which is the page's
  first query, so whatever the view reads next is at least that recent;
- the position of each event the request appended, once its transaction has committed: positions are
  handed out in commit order (``campaigns.models.CampaignStream``), so when the request's own event
  commits every earlier position has committed too, and the answer is rendered after that.

A request that did neither (a sheet read before its membership, an answer from outside a campaign) gets no
header, and the page treats its answer as before: swapped as it comes.
"""

from __future__ import annotations

from collections.abc import Callable
from contextvars import ContextVar

from django.http import HttpRequest, HttpResponse

from campaigns.models import CampaignStream, Membership

HEADER = "X-Live-Position"


class AnswerPosition:
    """What the answer being rendered shows at least (None: nothing known)."""

    position: int | None = None

    def note(self, position: int) -> None:
        if self.position is None or position > self.position:
            self.position = position


# Set per request by LivePositionMiddleware; a holder (not a value) so that the view, its services and their
# on-commit callbacks all write to the one the middleware reads, whatever context copies lie between.
_answer: ContextVar[AnswerPosition | None] = ContextVar("tablee_answer_position", default=None)


def current() -> AnswerPosition | None:
    return _answer.get()


def note_head(membership: Membership) -> None:
    """The stream's head as read with the membership (``select_related("campaign__stream")``: no query)."""
    holder = _answer.get()
    if holder is None:
        return
    try:
        head = membership.campaign.stream.position
    except CampaignStream.DoesNotExist:
        head = 0  # no event yet: the first one creates the row
    holder.note(head)


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
        if holder.position is not None and response.status_code < 500:
            response[HEADER] = str(holder.position)
        return response
