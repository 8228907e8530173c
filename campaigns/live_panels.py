"""The campaign's own live fragments: the game card (clock and open session) on a player's campaign page."""

from __future__ import annotations

from typing import TYPE_CHECKING

from django.template.loader import render_to_string

from campaigns import selectors
from campaigns.live import Viewer, live_fragment

if TYPE_CHECKING:
    from campaigns.models import Event


@live_fragment("clock.")
@live_fragment("session.")
def game_status(event: Event, viewer: Viewer) -> list[str]:
    """The clock moved or a session opened or closed: players see it without reloading."""
    if viewer.is_narrator:
        return []  # the dashboard's panels are the narrator's own, refreshed by their actions
    campaign = event.campaign
    context = {"campaign": campaign, "open_session": selectors.open_session(campaign), "oob": True}
    return [render_to_string("campaigns/partials/game_status.html", context)]
