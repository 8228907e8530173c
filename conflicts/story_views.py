"""A Sequence's whole story, on a page of its own: the board tells its last lines (``conflicts.story.ON_BOARD``) and
links here once the story goes further back."""

from __future__ import annotations

from django.http import HttpResponse
from django.shortcuts import render
from django.views.decorators.http import require_GET

from campaigns.access import MemberRequest, campaign_member
from conflicts import selectors
from conflicts.story import sequence_story


@campaign_member
@require_GET
def story(request: MemberRequest, campaign_id: int, sequence_id: int) -> HttpResponse:
    """Every line of the Sequence's story the member may read, in order, each the region the board tells it with
    (``sequence-story-line``: a line kept for the board is found here, and the other way round). Another campaign's
    Sequence is a 404, as its board is."""
    membership = request.membership
    sequence = selectors.sequence_for(membership, sequence_id)
    context = {
        "campaign": membership.campaign,
        "membership": membership,
        "sequence": sequence,
        "story": sequence_story(sequence, membership, whole=True),
    }
    return render(request, "conflicts/story.html", context)
