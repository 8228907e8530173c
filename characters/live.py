"""Characters refreshed live by every Event that changed them (``character:<id>`` among its subjects): the summary
strip of a sheet shown without watching it. The whole open sheet (``characters.views.sheet.SHEET``) and the narrator
dashboard's panels (``characters.panels``) are regions, pushed by ``campaigns.live_regions`` to the pages watching
them whenever an event changes what they declare."""

from __future__ import annotations

from collections.abc import Hashable
from typing import TYPE_CHECKING

from django.template.loader import render_to_string

from campaigns.event_subjects import CHARACTER
from campaigns.live import NOT_SHOWN, Viewer, audience_unless_concerned, event_fact, live_fragment
from campaigns.live_regions import touched
from characters.access import can_view
from characters.models import Character
from characters.selectors import characters_for_panels
from characters.subjects import sheet_subject

if TYPE_CHECKING:
    from campaigns.models import Event


def _named(event: Event) -> list[Character]:
    """The characters the event changed (``character:<id>`` among its subjects, ``campaigns.event_subjects``: the
    character it names, the one a taken Revers left, the one whose Atouts paid a Test's follow-up…), loaded once per
    event for every socket of the process."""
    prefix = f"{CHARACTER}:"
    ids = sorted(int(name[len(prefix) :]) for name in touched(event) if name.startswith(prefix))

    def load() -> list[Character]:
        return list(characters_for_panels(event.campaign_id).filter(pk__in=ids).order_by("pk")) if ids else []

    found: list[Character] = event_fact(event, "named characters", load)
    return found


def _strips_for(event: Event, viewer: Viewer) -> list[Character]:
    """The named characters whose strip this page shows without watching their sheet (the regions bring the rest)."""
    if viewer.watching:
        # A page that names its regions shows a strip only where it watches the sheet, which the regions bring: the
        # strips are for the pages naming nothing (older pages), and the others read no character for them.
        return []
    return [
        c
        for c in _named(event)
        if viewer.shows(sheet_subject(c.pk))
        and not viewer.watches(sheet_subject(c.pk))
        and can_view(viewer.membership, c)
    ]


def strip_audience(event: Event, viewer: Viewer) -> Hashable:
    """What a member sees of a character (can_view, can_edit, the sheet's sections) differs only for its owner."""
    characters = _strips_for(event, viewer)
    if not characters:
        return NOT_SHOWN
    return tuple((c.pk, audience_unless_concerned(viewer, [c.owner_id])) for c in characters)


@live_fragment("", audience=strip_audience)
def character_strips(event: Event, viewer: Viewer) -> list[str]:
    """A page that names no region gets the summary strip (Atouts, Revers) of each character the event changed."""
    # characters_for_panels has prefetched the active Revers.
    return [
        render_to_string("characters/partials/summary.html", {"character": c, "oob": True, "revers": c.revers.all()})
        for c in _strips_for(event, viewer)
    ]
