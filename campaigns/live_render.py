"""What one member's page receives for one event: the log entry and the apps' out-of-band fragments."""

from __future__ import annotations

from django.template.loader import render_to_string
from django.utils import translation

from campaigns.live import Viewer, extra_fragments
from campaigns.models import Event, Membership
from campaigns.selectors import log_entries


def render_event_html(event: Event, viewer: Viewer, *, language: str) -> str:
    """The event as this viewer may see it, as hx-swap-oob fragments (the caller checked visibility)."""
    membership = viewer.membership
    with translation.override(language):
        parts: list[str] = [
            render_to_string(
                "campaigns/partials/live_event.html",
                {
                    "entries": log_entries([event], membership),
                    "membership": membership,
                    "campaign": membership.campaign,
                },
            )
        ]
        parts.extend(extra_fragments(event, viewer))
    return "".join(parts)


def render_event(
    membership: Membership, event_id: int, *, watching: frozenset[str], csrf_token: str, language: str
) -> str:
    """The event for this member, or "" when they may not see it."""
    event = Event.objects.visible_to(membership).for_display().filter(pk=event_id).first()
    if event is None:
        return ""
    viewer = Viewer(membership, watching=watching, csrf_token=csrf_token)
    return render_event_html(event, viewer, language=language)
