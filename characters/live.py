"""Characters refreshed live by every ``character.*`` event: the narrator dashboard's panels, the
summary strip of an open sheet, and the whole open sheet for the sockets watching it."""

from __future__ import annotations

from typing import TYPE_CHECKING

from django.template.loader import render_to_string

from campaigns.live import Viewer, live_fragment
from characters.access import can_view
from characters.models import Character
from characters.selectors import characters_for_panels
from characters.subjects import sheet_subject

if TYPE_CHECKING:
    from campaigns.models import Event


@live_fragment("character.")
def character_panels(event: Event, viewer: Viewer) -> list[str]:
    """Narrators get the changed character's panel as an out-of-band swap (a new one is appended);
    everyone who may see the sheet gets its summary strip (Atouts, Revers), and a socket watching
    the sheet gets the whole sheet instead, rendered for that member."""
    character_id = event.payload.get("character_id")
    if character_id is None:
        return []
    fragments = _panels(event, viewer, character_id)
    if event.kind == "character.revers_taken":
        # The Revers left the other sheet: both show it.
        fragments += _panels(event, viewer, event.payload["from_id"])
    return fragments


def _panels(event: Event, viewer: Viewer, character_id: int) -> list[str]:
    character = characters_for_panels(event.campaign_id).filter(pk=character_id).first()
    if character is None or not can_view(viewer.membership, character):
        return []
    if viewer.watches(sheet_subject(character.pk)):
        summary = open_sheet(character.pk, viewer)
    else:
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


def open_sheet(character_id: int, viewer: Viewer) -> str:
    """The whole sheet (``detail.html#sheet``) as an out-of-band swap, with this member's rights: the
    same context as the page, so narrator-only sections stay off a player's socket. Forms come unbound;
    static/js/tablee.js puts back what the person was typing."""
    from characters.views.sheet import sheet_context

    character = Character.objects.select_related("campaign", "owner").get(pk=character_id)
    context = sheet_context(character, viewer.membership)
    context.update({"oob": True, "csrf_token": viewer.csrf_token})
    return render_to_string("characters/detail.html#sheet", context)
