"""What of an event's payload one reader may read: the per-reader filter every export goes through.

Services write an event's payload for the log's describers; the HTML log only ever shows the sentence a
describer makes of it, but the JSON export hands the payload itself to the reader. Every payload a
member may download therefore passes through ``readable_payload`` first, field by field:

- **Server-only keys** (a game's ``seed``, a library's order…) are dropped for everyone, at any depth:
  with the game's config a seed deals every hand again. The services no longer write them, but events
  already stored in a database still hold them, so the filter works on read too.
- **Narrator-only keys** (``narrator_only``, any ``narrator_*`` key) are dropped for players and the
  public, at any depth.
- **Kind filters**: an app registers ``@redacts("sequence.drew")`` for the fields of one kind of event
  that only narrators may read (an NPC's split and the private reasons given for cover).

The filter never removes a field a describer needs, so the sentence of an entry reads the same.
"""

from __future__ import annotations

import copy
from collections.abc import Callable, Iterable, Iterator
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from campaigns.models import Event, Membership

# Keys no client ever receives, at any depth of a payload (the game keeps its seed in its own row).
SERVER_ONLY_KEYS = frozenset({"seed", "seeds", "rng", "rng_state", "library", "library_order", "deck_order"})
NARRATOR_ONLY_KEYS = frozenset({"narrator_only"})
NARRATOR_ONLY_PREFIX = "narrator_"

KindFilter = Callable[[dict[str, Any], "Event"], None]
"""Removes, in place, what a player or the public may not read from a (copied) payload of one kind."""

_kind_filters: dict[str, list[KindFilter]] = {}


def redacts(*kinds: str) -> Callable[[KindFilter], KindFilter]:
    """Register a filter of the narrator-only fields of ``kinds``, run for every reader who is not a narrator."""

    def register(func: KindFilter) -> KindFilter:
        for kind in kinds:
            if func not in _kind_filters.setdefault(kind, []):
                _kind_filters[kind].append(func)
        return func

    return register


def _strip(value: Any, *, narrator: bool) -> Any:
    if isinstance(value, dict):
        return {
            key: _strip(item, narrator=narrator)
            for key, item in value.items()
            if key not in SERVER_ONLY_KEYS
            and (narrator or (key not in NARRATOR_ONLY_KEYS and not str(key).startswith(NARRATOR_ONLY_PREFIX)))
        }
    if isinstance(value, list):
        return [_strip(item, narrator=narrator) for item in value]
    return value


def readable_payload(event: Event, reader: Membership | None) -> dict[str, Any]:
    """``event.payload`` as ``reader`` may read it (``None``: the public); a new dict, the event is untouched."""
    narrator = reader is not None and reader.is_narrator
    payload = _strip(event.payload or {}, narrator=narrator)
    if not narrator:
        payload = copy.deepcopy(payload)
        for kind_filter in _kind_filters.get(event.kind, ()):
            kind_filter(payload, event)
    return payload


def contains_server_only(value: Any) -> bool:
    """True when a payload holds a server-only key anywhere (used by tests and checks)."""
    if isinstance(value, dict):
        return any(key in SERVER_ONLY_KEYS or contains_server_only(item) for key, item in value.items())
    if isinstance(value, list):
        return any(contains_server_only(item) for item in value)
    return False


def readable_event(event: Event, reader: Membership | None) -> Event:
    """A copy of ``event`` whose payload is what ``reader`` may read, for describers and exports alike.

    The copy shares the loaded relations (actor, characters); saving it is refused like any event's.
    """
    shown = copy.copy(event)
    shown.payload = readable_payload(event, reader)
    return shown


def readable_events(events: Iterable[Event], reader: Membership | None) -> Iterator[Event]:
    return (readable_event(event, reader) for event in events)
