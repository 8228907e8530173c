"""The campaign's own live fragments: the game card (clock and open session) on a player's campaign page, and
the entry a correction strikes out."""

from __future__ import annotations

from collections.abc import Hashable

from django.template.loader import render_to_string

from campaigns import selectors
from campaigns.live import NOT_SHOWN, Viewer, audience_unless_concerned, feed_subject, home_subject, live_fragment
from campaigns.models import Event


def everyone_alike(event: Event, viewer: Viewer) -> Hashable:
    """The game card reads the same for every player (narrators get none)."""
    if viewer.is_narrator or not viewer.watches(home_subject(event.campaign_id)):
        return NOT_SHOWN
    return audience_unless_concerned(viewer, ())


@live_fragment("clock.", audience=everyone_alike, by_page=False)
@live_fragment("session.", audience=everyone_alike, by_page=False)
def game_status(event: Event, viewer: Viewer) -> list[str]:
    """The clock moved or a session opened or closed: players see it without reloading."""
    if viewer.is_narrator or not viewer.watches(home_subject(event.campaign_id)):
        return []  # a narrator's dashboard has no game card (its side column shows the session and the clock)
    campaign = event.campaign
    context = {"campaign": campaign, "open_session": selectors.open_session(campaign), "oob": True}
    return [render_to_string("campaigns/partials/game_status.html", context)]


def correction_audience(event: Event, viewer: Viewer) -> Hashable:
    """Each member on their own (the corrected entry reads as that member may see it), on pages showing the feed."""
    if event.corrects_id is None or not viewer.shows(feed_subject(event.campaign_id)):
        return NOT_SHOWN
    return ("member", viewer.membership.pk)


@live_fragment("correction", audience=correction_audience, by_page=False)
def corrected_entry(event: Event, viewer: Viewer) -> list[str]:
    """A correction strikes out the entry it corrects, for everyone who reads that entry, without a reload."""
    if event.corrects_id is None or not viewer.shows(feed_subject(event.campaign_id)):
        return []
    # The same entry region as the page's (campaigns.entry_region): none when this member may not read it.
    corrected = Event.objects.visible_to(viewer.membership).filter(pk=event.corrects_id)
    entries = selectors.lazy_log_entries(corrected, viewer.membership, event.campaign)
    if not entries:
        return []
    context = {"entries": entries, "campaign": event.campaign, "oob": True}
    return [render_to_string("campaigns/partials/entries.html", context)]
