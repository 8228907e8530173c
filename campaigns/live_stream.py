"""Where a page stands in its campaign's live stream, and what it missed (Zulip's ``last_event_id`` idea).

Positions are per campaign and handed out in commit order (campaigns.models.CampaignStream), so "after 41"
is exact. A replay is filtered for the member exactly like live messages: it reads the member's visible
events only, in this campaign only, whatever position the page claims.

A page that missed more than ``settings.LIVE_CATCH_UP_REPLAY_MAX`` of its events is not replayed event by event:
it is sent its regions as they stand at the head (``campaigns.live_catch_up``), rendered for its member like a
fresh GET, or told to reload when one of them cannot be rendered that way.
"""

from __future__ import annotations

import datetime as dt
import math
from dataclasses import dataclass

from django.conf import settings
from django.db.models import Min
from django.utils import timezone

from campaigns.live_catch_up import regions_now
from campaigns.live_render import note_position, rendering_of
from campaigns.models import CampaignStream, Event, Membership

# A page rendered at time T may lack events created shortly before T: their transaction can commit
# while the page's view is reading. Replaying from T minus this margin re-sends a few (the page drops
# what it already shows: entries by id, boards by version) and misses none.
SINCE_MARGIN = dt.timedelta(seconds=10)
# Older than this, a page's render time is not worth replaying from: it starts at the stream's head.
SINCE_MAX_AGE = dt.timedelta(hours=1)


@dataclass(frozen=True)
class Replay:
    head: int  # the stream's position when the replay was read
    events: list[tuple[int, str]]  # (position, html) for the events this member may see, in order
    too_many: bool  # too many to replay, and a region the page watches cannot be caught up: the page should reload
    regions: str | None = None  # too many to replay: the page's regions as they stand at ``head``, out-of-band swaps


def stream_head(campaign_id: int) -> int:
    return CampaignStream.objects.filter(campaign_id=campaign_id).values_list("position", flat=True).first() or 0


def start_position(campaign_id: int, *, after: str, since: str) -> int:
    """The position a connecting page has rendered, from its socket URL: ``after`` (a reconnecting page
    knows it) or ``since`` (a page's render time, in epoch seconds). Malformed values start at the head."""
    head = stream_head(campaign_id)
    if after.isascii() and after.isdigit():
        return min(int(after), head)
    try:
        rendered = float(since)
    except ValueError:
        return head
    if not math.isfinite(rendered):
        return head
    now = timezone.now()
    rendered_at = dt.datetime.fromtimestamp(min(rendered, now.timestamp()), tz=dt.UTC)
    if now - rendered_at > SINCE_MAX_AGE:
        return head
    first_recent = Event.objects.filter(
        campaign_id=campaign_id, position__isnull=False, created_at__gte=rendered_at - SINCE_MARGIN
    ).aggregate(first=Min("position"))["first"]
    return head if first_recent is None else min(first_recent - 1, head)


def replay_after(
    membership: Membership, after: int, *, watching: frozenset[str], csrf_token: str, language: str
) -> Replay:
    """What this member's page missed after ``after``: each event, or past a few its regions now. The head is read
    first, so an event committed while the replay renders has a later position and comes through the live group
    instead (a region rendered after that commit may already show it: the push is then applied over the same
    state, which changes nothing)."""
    head = stream_head(membership.campaign_id)
    note_position(membership.campaign_id, head)
    if after >= head:
        return Replay(head=head, events=[], too_many=False)
    limit = max(0, settings.LIVE_CATCH_UP_REPLAY_MAX)
    missed = list(
        Event.objects.visible_to(membership)
        .for_display()
        .filter(position__gt=after, position__lte=head)
        .order_by("position")[: limit + 1]
    )
    if len(missed) > limit:
        # Rendering each missed event costs more, and weighs more, than the regions they changed as they are now.
        regions = regions_now(
            membership, watching=watching, csrf_token=csrf_token, language=language, after=after, head=head
        )
        return Replay(head=head, events=[], too_many=regions is None, regions=regions)
    events = []
    for event in missed:
        # The same shared rendering as live messages (campaigns.live_render): filtered the same way, and a
        # table's phones coming back together after a Wi-Fi drop render each missed event once per audience.
        rendering = rendering_of(event.pk, loaded=event)
        assert rendering is not None
        html = rendering.html_for(membership, watching=watching, language=language, csrf_token=csrf_token)
        assert event.position is not None  # the query reads positioned events only
        events.append((event.position, html))
    return Replay(head=head, events=events, too_many=False)
