"""Characters' panels on the narrator dashboard, refreshed live by every ``character.*`` event."""

from __future__ import annotations

from typing import TYPE_CHECKING

from django.template.loader import render_to_string

from campaigns.live import Viewer, live_fragment
from characters.access import can_view
from characters.selectors import characters_for_panels

if TYPE_CHECKING:
    from campaigns.models import Event


@live_fragment("character.")
def character_panels(event: Event, viewer: Viewer) -> list[str]:
    """Narrators get the changed character's panel as an out-of-band swap (a new one is appended);
    everyone who may see the sheet gets its summary strip (Atouts, Revers) for an open sheet page."""
    character_id = event.payload.get("character_id")
    if character_id is None:
        return []
    character = characters_for_panels(event.campaign_id).filter(pk=character_id).first()
    if character is None or not can_view(viewer.membership, character):
        return []
    summary = render_to_string("characters/partials/summary.html", {"character": character, "oob": True})
    if not viewer.is_narrator:
        return [summary]
    html = render_to_string(
        "characters/partials/panel.html",
        {"character": character, "oob": event.kind != "character.created", "quick": True},
    )
    if event.kind == "character.created":
        return [
            f'<div hx-swap-oob="beforeend:#character-panels">{html}</div>',
            '<p id="no-characters" hx-swap-oob="delete"></p>',
        ]
    return [html, summary]
