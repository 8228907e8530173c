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

**Parts.** One change is one Event, but what it changed may not be the table's alike: a settle writes the Revers of
a PC (the table's) and of an NPC (the narrator's) in one ``sequence.settled``. Such an Event carries its parts,
``payload["parts"]``, each as an Event of its own would have been (``event_part``): a kind, its payload, and its
visibility and recipient, with the meaning an Event's have. ``readable_payload`` keeps only the parts the reader may
see (``part_visible``, the same rule as ``Event.objects.visible_to``), so the sentence, the JSON export and the live
entry a player gets were never given the others. ``describe`` (``campaigns.chronicle``) tells the parts of an
Event after its own sentence, and only those ``visible_parts`` hands it: a copy made by ``readable_event`` holds the
reader's; any other Event, its parts everyone may read. Forgetting to filter for a reader can hide a part from a
narrator, never show one to a player. Old logs hold such changes as separate Events, which read as they always did.
"""

from __future__ import annotations

import copy
from collections.abc import Callable, Iterable, Iterator, Mapping
from typing import TYPE_CHECKING, Any

from campaigns.models import Visibility

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


PARTS = "parts"
# The kinds whose Events may carry parts (``carries_parts``): their entries read differently for each player.
_parted_kinds: set[str] = set()


def carries_parts(*kinds: str) -> None:
    """Say that Events of ``kinds`` may carry parts (see the module's docstring): a log entry of one of them is kept
    for each reader apart (``reader_apart``), since two players may be given different parts of it."""
    _parted_kinds.update(kinds)


def event_part(
    kind: str, payload: Mapping[str, Any], *, visibility: str = Visibility.EVERYONE, recipient_id: int | None = None
) -> dict[str, Any]:
    """A part of an Event: what an Event of ``kind`` would have said, with the visibility it would have had
    (``recipient_id``: the one player of a ``Visibility.PLAYER`` part)."""
    if visibility == Visibility.PLAYER and recipient_id is None:
        raise ValueError("A private part needs its recipient.")
    return {"kind": kind, "visibility": str(visibility), "recipient": recipient_id if visibility == Visibility.PLAYER
            else None, "payload": dict(payload)}  # fmt: skip


def readable(visibility: Any, recipient_id: Any, reader: Membership | None) -> bool:
    """Whether ``reader`` (``None``: the public) may read what has this visibility and recipient:
    ``Event.objects.visible_to``'s rule in Python, for an Event loaded (``campaigns.live_render.may_see``), a part
    (``part_visible``) or a row read as values (a Sequence's story); nothing for a visibility it does not know."""
    if reader is not None and reader.is_narrator:
        return True
    if visibility == Visibility.EVERYONE:
        return True
    return reader is not None and visibility == Visibility.PLAYER and recipient_id == reader.user_id


def part_visible(part: Mapping[str, Any], reader: Membership | None) -> bool:
    """Whether ``reader`` (``None``: the public) may read ``part`` (``readable``)."""
    return readable(part.get("visibility"), part.get("recipient"), reader)


def visible_parts(event: Event) -> list[dict[str, Any]]:
    """The parts ``describe`` tells: those a ``readable_event`` copy was made with, else those everyone may read."""
    parts = event.payload.get(PARTS) if isinstance(event.payload, dict) else None
    if not isinstance(parts, list):
        return []
    if getattr(event, "_parts_for_reader", False):
        return [part for part in parts if isinstance(part, dict)]
    return [part for part in parts if isinstance(part, dict) and part_visible(part, None)]


def readers_apart(event: Event) -> set[int]:
    """The players who may read a part of ``event`` that other players may not (its private parts' recipients):
    the live layer renders its entry for each of them alone."""
    return private_readers(event.payload)


def private_readers(payload: Any) -> set[int]:
    """The recipients of a payload's private parts (``readers_apart``, for a payload read without its Event)."""
    parts = payload.get(PARTS) if isinstance(payload, dict) else None
    if not isinstance(parts, list):
        return set()
    return {int(p["recipient"]) for p in parts if isinstance(p, dict) and p.get("visibility") == Visibility.PLAYER
            and isinstance(p.get("recipient"), int)}  # fmt: skip


def has_parts(kind: str) -> bool:
    """Whether Events of ``kind`` may carry parts (``carries_parts``)."""
    return kind in _parted_kinds


def reader_apart(kind: str, reader: Membership | None) -> tuple[Any, ...]:
    """Who reads an entry of ``kind`` alike, for the entry's kept HTML: everyone for most kinds (the describers read
    what the redaction leaves to every reader alike); for a kind that carries parts, the narrators, each player,
    the public."""
    if kind not in _parted_kinds:
        return ()
    if reader is None:
        return ("public",)
    return ("narrator",) if reader.is_narrator else ("player", reader.user_id)


def readable_payload(event: Event, reader: Membership | None) -> dict[str, Any]:
    """``event.payload`` as ``reader`` may read it (``None``: the public); a new dict, the event is untouched."""
    narrator = reader is not None and reader.is_narrator
    payload = _strip(event.payload or {}, narrator=narrator)
    if not narrator:
        payload = copy.deepcopy(payload)
        parts = payload.get(PARTS)
        if isinstance(parts, list):
            payload[PARTS] = [part for part in parts if isinstance(part, dict) and part_visible(part, reader)]
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
    shown._parts_for_reader = True  # type: ignore[attr-defined]  # its parts are the reader's (visible_parts)
    return shown


def told_to(event: Event, reader: Membership | None) -> Event:
    """``event`` as ``describe`` should tell it to ``reader``: with the parts they may read, and nothing else read
    or copied (what only ``describe`` reads needs no kind filter: the filters never remove what a describer reads)."""
    parts = event.payload.get(PARTS) if isinstance(event.payload, dict) else None
    if not isinstance(parts, list):
        return event
    shown = copy.copy(event)
    shown.payload = {**event.payload, PARTS: [p for p in parts if isinstance(p, dict) and part_visible(p, reader)]}
    shown._parts_for_reader = True  # type: ignore[attr-defined]  # its parts are the reader's (visible_parts)
    return shown


def readable_events(events: Iterable[Event], reader: Membership | None) -> Iterator[Event]:
    return (readable_event(event, reader) for event in events)
