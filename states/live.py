"""The Savage-style states refreshed live by every ``savage.*`` event: the badges and state panels of the
characters it touched, and the round tracker. Rendered from the same contexts as the pages."""

from __future__ import annotations

from typing import TYPE_CHECKING

from django.template.loader import render_to_string

from campaigns.chronicle import describe
from campaigns.live import Viewer, live_fragment
from characters.access import can_view
from states.views import panel_context, round_context

if TYPE_CHECKING:
    from campaigns.models import Event


@live_fragment("savage.")
def savage_fragments(event: Event, viewer: Viewer) -> list[str]:
    """Refresh the badges and state panels of the characters the event touched (with what just happened),
    and the round tracker."""
    fragments: list[str] = []
    for character in event.characters.all():
        if not can_view(viewer.membership, character):
            continue
        context = panel_context(character, viewer.membership)
        context["oob"] = True
        # The roll that just happened stays on the panel: whoever acted reads its dice, and so does the table.
        context["notice"] = describe(event)
        fragments.append(render_to_string("states/badges.html", context))
        fragments.append(render_to_string("states/partials/panel.html", context))
    tracker = round_context(event.campaign, viewer.membership)
    tracker["oob"] = True
    fragments.append(render_to_string("states/partials/round.html", tracker))
    return fragments
