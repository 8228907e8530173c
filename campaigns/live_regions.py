"""Live pushes derived from the regions' declarations (``core.regions``): no event kind picks them by hand.

An Event names the subjects it changed (``campaigns.event_subjects``). A page names the regions it shows by the
subjects it watches (``?watch=character:12`` shows the regions whose ``watch`` is ``character``). Each such
region whose declaration depends on one of the Event's subjects is sent to the page, rendered by the
kept-fragment service (``core.kept_regions``) for the page's member: viewers whose declarations are equal share
one rendering, and a page and a push share what either kept.
"""

from __future__ import annotations

from collections.abc import Hashable
from typing import TYPE_CHECKING, Any

from campaigns.event_reads import loaded_character_ids
from campaigns.event_subjects import subjects_of
from campaigns.live import NOT_SHOWN, Viewer, event_fact, live_fragment
from core.kept_regions import changed_html
from core.regions import Depends, Region, one_per_element, watched_by

if TYPE_CHECKING:
    from campaigns.models import Event


def touched(event: Event) -> frozenset[str]:
    """The subjects ``event`` changed, read once per event and process."""

    def load() -> frozenset[str]:
        ids = [] if event.pk is None else loaded_character_ids(event)
        if ids is None:  # not loaded with it (``for_display``): read them
            ids = list(event.characters.values_list("pk", flat=True))
        return subjects_of(event.kind, event.campaign_id, event.payload, ids)

    found: frozenset[str] = event_fact(event, "touched_subjects", load)
    return found


def _watched_regions(viewer: Viewer) -> list[tuple[str, int]]:
    pairs = []
    for watched in sorted(viewer.watching):
        kind, _sep, pk = watched.partition(":")
        if watched_by(kind) and pk.isdigit():
            pairs.append((kind, int(pk)))
    return pairs


def regions_audience(event: Event, viewer: Viewer) -> Hashable:
    """Each member on their own, and only pages that watch a region (the kept-fragment service then shares the
    renderings of members whose declarations are equal)."""
    if not _watched_regions(viewer):
        return NOT_SHOWN
    return ("member", viewer.membership.pk)


@live_fragment("", audience=regions_audience)
def changed_regions(event: Event, viewer: Viewer) -> list[str]:
    """The regions the page watches that ``event`` changed, as out-of-band swaps.

    Of changed regions that share an element id, only the one the page ends with is rendered (``one_per_element``)."""
    membership, changed = viewer.membership, touched(event)
    sent: list[tuple[str, tuple[Region, Any, Depends]]] = []
    for kind, pk in _watched_regions(viewer):
        for region in watched_by(kind):
            thing = region.load(pk, membership)
            if thing is None:
                continue
            declared = region.depends(thing, membership, None)
            if declared.changed_by(changed):
                sent.append((region.element_id(thing), (region, thing, declared)))
    fragments: list[str] = []
    for region, thing, declared in one_per_element(sent):
        found = changed_html(region, thing, membership, changed, token=viewer.csrf_token, depends=declared)
        fragments.extend(map(str, found))
    return fragments
