"""Reads of the campaign app: what a page shows, in a constant number of queries."""

from __future__ import annotations

import datetime as dt
import hashlib
from collections.abc import Iterable
from dataclasses import dataclass

from django.contrib.auth.models import User
from django.core.cache import caches
from django.db.models import Q, QuerySet
from django.urls import reverse
from django.utils import formats, timezone
from django.utils.safestring import SafeString, mark_safe

from campaigns.chronicle import describe, illustrate
from campaigns.entry_cache import EntryRef, LazyEntries
from campaigns.models import Campaign, Event, EventQuerySet, GameSession, Membership, SessionStatus
from campaigns.redaction import readable_event
from core.markdown import render_markdown


def campaigns_of(user: User) -> QuerySet[Membership]:
    return Membership.objects.filter(user=user).select_related("campaign").order_by("campaign__name")


def members_of(campaign: Campaign) -> QuerySet[Membership]:
    return campaign.memberships.select_related("user").order_by("role", "user__username")


def open_session(campaign: Campaign) -> GameSession | None:
    # At most one session is open (a constraint): no ordering, so no join for it.
    return campaign.game_sessions.filter(status=SessionStatus.OPEN).order_by().first()


# The payload keys that hold words a reader sees in an entry (notes, scenes, sequences, corrections).
SEARCHED_KEYS = ("text", "title", "name", "goal", "reason")


@dataclass(frozen=True)
class LogFilter:
    game_session: int | None = None
    character: int | None = None
    kind: str | None = None
    text: str | None = None


def log_events(membership: Membership, log_filter: LogFilter) -> QuerySet[Event]:
    events = Event.objects.visible_to(membership)
    return filter_events(events, log_filter).for_display()


def public_log_events(campaign: Campaign, log_filter: LogFilter) -> QuerySet[Event]:
    events = Event.objects.filter(campaign=campaign).public()
    return filter_events(events, log_filter).for_display()


def filter_events(events: EventQuerySet, log_filter: LogFilter) -> EventQuerySet:
    if log_filter.game_session:
        events = events.filter(game_session_id=log_filter.game_session)
    if log_filter.character:
        events = events.filter(characters__id=log_filter.character)
    if log_filter.kind:
        events = events.filter(kind=log_filter.kind)
    if log_filter.text:
        events = events.filter(_text_search(log_filter.text))
    return events


def _text_search(text: str) -> Q:
    """Events whose words contain ``text``, case aside: a note's text, the title, name, goal or reason an
    event carries, or a character it names. Applied after the visibility filter, so a reader only ever
    finds what they may read. ``icontains`` on the JSON keys (measured at 50,000 events: docs/benchmarks.md)."""
    named = Event.characters.through.objects.filter(character__name__icontains=text).values("event_id")
    words = Q(pk__in=named)
    for key in SEARCHED_KEYS:
        words |= Q(**{f"payload__{key}__icontains": text})
    return words


# Counting a reader's events and listing their kinds read every event the reader may see: at 50,000
# events that is most of the log page. The log is append-only, so both only change when an event is
# added: they are kept under the campaign's latest event id. Ids are handed out before commit, so an
# event committed after a later one can be missing from a kept figure until the next event or a minute.
LOG_FACTS_SECONDS = 60


def latest_event_id(campaign_id: int) -> int:
    found = Event.objects.filter(campaign_id=campaign_id).order_by("-id").values_list("id", flat=True).first()
    return int(found or 0)


def _reader(membership: Membership | None) -> str:
    if membership is None:
        return "public"
    return "narrator" if membership.is_narrator else f"player:{membership.user_id}"


def log_kinds(membership: Membership, latest: int) -> list[str]:
    """The kinds of the events this member may read (a kind alone can give a secret away)."""
    key = f"log-kinds:{membership.campaign_id}:{_reader(membership)}:{latest}"
    kinds = caches["default"].get(key)
    if kinds is None:
        # order_by(): the default ordering would add its columns to the DISTINCT and read every event.
        kinds = sorted(Event.objects.visible_to(membership).order_by().values_list("kind", flat=True).distinct())
        caches["default"].set(key, kinds, LOG_FACTS_SECONDS)
    return list(kinds)


def log_count(
    events: QuerySet[Event], *, campaign_id: int, membership: Membership | None, log_filter: LogFilter, latest: int
) -> int:
    """How many of ``events`` (this reader's, filtered by ``log_filter``) there are, kept as ``log_kinds``."""
    digest = hashlib.sha256(repr(log_filter).encode()).hexdigest()[:24]
    key = f"log-count:{campaign_id}:{_reader(membership)}:{latest}:{digest}"
    count = caches["default"].get(key)
    if count is None:
        count = events.count()
        caches["default"].set(key, count, LOG_FACTS_SECONDS)
    return int(count)


def recent_events(membership: Membership, limit: int = 30) -> list[Event]:
    return list(Event.objects.visible_to(membership).for_display()[:limit])


def can_correct(event: Event, membership: Membership | None) -> bool:
    """Who may correct an entry: a narrator any, a player their own; corrections are never corrected."""
    return _may_correct(event.kind, event.actor_id, membership)


def _may_correct(kind: str, actor_id: int | None, membership: Membership | None) -> bool:
    if membership is None or kind == "correction":
        return False
    return membership.is_narrator or actor_id == membership.user_id


def lazy_log_entries(events: QuerySet[Event], membership: Membership | None, campaign: Campaign) -> LazyEntries:
    """The entries of ``events`` (already filtered to what the reader may see, sliced to a page) as a
    LazyEntries: two light queries (ids, corrections); the events themselves are loaded only for the
    entries not already rendered for this reader (campaigns.entry_cache)."""
    rows = list(events.prefetch_related(None).select_related(None).values_list("pk", "kind", "actor_id", "created_at"))
    corrections = corrections_of([row[0] for row in rows])
    refs = [
        EntryRef(pk, created.isoformat(), _may_correct(kind, actor, membership), corrections.get(pk, ()))
        for pk, kind, actor, created in rows
    ]

    def load(pks: list[int]) -> dict[int, LogEntry]:
        loaded = Event.objects.filter(campaign_id=campaign.pk, pk__in=pks).order_by().for_display()
        return {event.pk: _log_entry(event, membership, corrections.get(event.pk, ())) for event in loaded}

    return LazyEntries(refs=refs, campaign=campaign.pk, epoch=campaign.log_epoch, load=load)


def recent_entries(membership: Membership, limit: int = 30) -> LazyEntries:
    """The latest entries this member may read (the dashboard's and the campaign home's feed)."""
    return lazy_log_entries(Event.objects.visible_to(membership)[:limit], membership, membership.campaign)


@dataclass(frozen=True)
class LogEntry:
    """What one entry of the log shows to one reader, worked out once in Python.

    Built in the reader's language and time zone (call it while they are active); the template
    ``campaigns/partials/entries.html`` only lays these values out.
    """

    pk: int
    kind: str
    visibility: str
    created_iso: str
    created_label: str
    game_time_label: str
    game_session: str
    text: str
    character_names: str
    note_html: SafeString
    illustration: SafeString
    corrects_id: int | None
    corrections: tuple[tuple[int, str], ...]
    correct_url: str


def log_entries(
    events: Iterable[Event],
    membership: Membership | None,
    *,
    corrections: dict[int, tuple[tuple[int, str], ...]] | None = None,
) -> list[LogEntry]:
    """The entries of ``events`` (loaded ``for_display()``) as ``membership`` reads them (None: the public).

    One more query reads the reasons of the corrections of these events, unless they are given (``corrections_of``
    read once for several readers).
    """
    events = list(events)
    if corrections is None:
        corrections = corrections_of([event.pk for event in events])
    # Describers read the payload as the reader may (campaigns.redaction), like the exports.
    return [
        _log_entry(readable_event(event, membership), membership, corrections.get(event.pk, ())) for event in events
    ]


def corrections_of(event_ids: list[int]) -> dict[int, tuple[tuple[int, str], ...]]:
    """Number and reason of each correction of these events, newest first as the log reads."""
    found: dict[int, list[tuple[int, str]]] = {}
    if event_ids:
        rows = Event.objects.filter(corrects_id__in=event_ids).values_list("corrects_id", "pk", "payload")
        for corrects_id, pk, payload in rows:
            found.setdefault(corrects_id, []).append((pk, payload.get("reason", "")))
    return {event_id: tuple(fixes) for event_id, fixes in found.items()}


def _log_entry(event: Event, membership: Membership | None, corrections: tuple[tuple[int, str], ...]) -> LogEntry:
    created = timezone.localtime(event.created_at)
    game_time = event.game_time.astimezone(dt.UTC)
    return LogEntry(
        pk=event.pk,
        kind=event.kind,
        visibility=event.visibility,
        created_iso=created.isoformat(),
        created_label=formats.date_format(created, "SHORT_DATETIME_FORMAT"),
        game_time_label=formats.date_format(game_time, "SHORT_DATETIME_FORMAT"),  # as the reader writes dates
        game_session=str(event.game_session) if event.game_session_id else "",
        text=describe(event),
        illustration=illustrate(event),
        character_names=", ".join(character.name for character in event.characters.all()),
        note_html=_note_html(event),
        corrects_id=event.corrects_id,
        corrections=corrections,
        correct_url=reverse("campaigns:event_correct", args=[event.campaign_id, event.pk])
        if can_correct(event, membership)
        else "",
    )


def _note_html(event: Event) -> SafeString:
    if event.kind != "note":
        return SafeString()
    # render_markdown sanitises with nh3, so the result is safe to mark.
    return mark_safe(render_markdown(event.payload.get("text") or ""))  # noqa: S308
