"""Events read by id for display (``EventQuerySet.for_display``: the actor, the game session, the characters), with
their SQL compiled once (``core.prepared``).

A log page after a note renders one entry: Django spent about 2.5 ms of the 15 ms request building and compiling the
two queries that load that one event and its characters (in process, SQLite), several times what running them
costs. The instances are the ones ``for_display()`` makes: the actor and the session loaded with the event, and the
characters as a prefetch (``event.characters.all()`` reads no more), in the characters' own order.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from campaigns.models import DISPLAY_JOINED, Event
from core.prepared import PreparedRead

# Arguments in the SQL's order: Django sorts a filter's keywords (campaign_id, pk__in).
_events = PreparedRead(
    lambda campaign_id, pks: (
        Event.objects.filter(campaign_id=campaign_id, pk__in=pks).order_by().select_related(*DISPLAY_JOINED)
    )
)
# One event by its id alone: what a process's live rendering loads for every event it is told of.
_event = PreparedRead(lambda pk: Event.objects.filter(pk=pk).order_by().select_related(*DISPLAY_JOINED)[:1])
# The characters' own order (``Character.Meta.ordering``: campaign, kind, name, pk; one campaign here).
_links = PreparedRead(
    lambda pks: (
        Event.characters.through.objects.filter(event_id__in=pks)
        .select_related("character")
        .order_by("character__kind", "character__name", "character_id")
    )
)


def events_for_display(campaign_id: int, pks: Iterable[int]) -> list[Event]:
    """The events of ``campaign_id`` among ``pks`` (in no particular order), as ``for_display()`` loads them: two
    queries, none for an empty ``pks``."""
    return _with_characters(_events(int(campaign_id), tuple(dict.fromkeys(int(pk) for pk in pks))))


def event_for_display(pk: int) -> Event | None:
    """Event ``pk`` as ``for_display()`` loads it, or None: two queries."""
    return next(iter(_with_characters(_event(int(pk)))), None)


def loaded_character_ids(event: Event) -> list[int] | None:
    """The ids of the characters loaded with ``event`` (``for_display``, or this module's reads), None when they were
    not: the one place besides ``_with_characters`` that knows where Django keeps a prefetch."""
    if "characters" not in getattr(event, "_prefetched_objects_cache", {}):
        return None
    return [character.pk for character in event.characters.all()]


def _with_characters(events: list[Event]) -> list[Event]:
    # The characters, typed loosely: the foundation of the campaigns names no feature app's model.
    characters: dict[int, list[Any]] = {event.pk: [] for event in events}
    for link in _links(tuple(characters)):
        characters[link.event_id].append(link.character)
    for event in events:
        # As Django's prefetch leaves it: the related manager's queryset with its result already there.
        rows = event.characters.get_queryset()
        rows._result_cache = characters[event.pk]
        rows.__dict__["_prefetch_done"] = True  # Django's own flags, which its stubs do not declare
        event.__dict__["_prefetched_objects_cache"] = {"characters": rows}
    return events
