"""Reads of the campaign app: what a page shows, in a constant number of queries."""

from __future__ import annotations

import datetime as dt
import typing
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from django.contrib.auth.models import User
from django.db import connection
from django.db.models import BooleanField, F, Func, Q, QuerySet, Value
from django.db.models.expressions import RawSQL
from django.urls import reverse
from django.utils import formats, timezone
from django.utils.safestring import SafeString, mark_safe

from campaigns.chronicle import describe, illustrate
from campaigns.entry_region import EntryRef, LazyEntries
from campaigns.event_reads import events_for_display
from campaigns.kept import table_head
from campaigns.log_pages import PAGE_SIZE
from campaigns.models import (
    Campaign,
    Event,
    EventQuerySet,
    GameSession,
    LoggedKind,
    Membership,
    SessionStatus,
    Visibility,
)
from campaigns.redaction import readable_event, reader_apart
from campaigns.search_text import fts5_query, name_matches, query_words, tsquery
from core.markdown import render_markdown
from core.prepared import PreparedRead


def campaigns_of(user: User) -> QuerySet[Membership]:
    return Membership.objects.filter(user=user).select_related("campaign").order_by("campaign__name")


def members_of(campaign: Campaign) -> QuerySet[Membership]:
    return campaign.memberships.select_related("user").order_by("role", "user__username")


def open_session(campaign: Campaign) -> GameSession | None:
    """The campaign's open session, if any: read at every Event appended (``campaigns.services.event_append``)."""
    return next(iter(_open_session(int(campaign.pk), str(SessionStatus.OPEN))), None)


# At most one session is open (a constraint): no ordering, so no join for it. Compiled once (``core.prepared``).
_open_session = PreparedRead(
    lambda campaign_id, status: GameSession.objects.filter(campaign_id=campaign_id, status=status).order_by()[:1]
)


@dataclass(frozen=True)
class LogFilter:
    game_session: int | None = None
    character: int | None = None
    kind: str | None = None
    text: str | None = None


def log_events(membership: Membership, log_filter: LogFilter) -> QuerySet[Event]:
    events = Event.objects.visible_to(membership)
    return filter_events(events, log_filter, membership.campaign_id).for_display()


def public_log_events(campaign: Campaign, log_filter: LogFilter) -> QuerySet[Event]:
    events = Event.objects.filter(campaign=campaign).public()
    return filter_events(events, log_filter, campaign.pk).for_display()


def filter_events(events: EventQuerySet, log_filter: LogFilter, campaign_id: int) -> EventQuerySet:
    if log_filter.game_session:
        events = events.filter(game_session_id=log_filter.game_session)
    if log_filter.character:
        events = events.filter(characters__id=log_filter.character)
    if log_filter.kind:
        events = events.filter(kind=log_filter.kind)
    if log_filter.text:
        events = _search(events, log_filter.text, campaign_id)
    return events


FTS_TABLE = "campaigns_event_search"  # SQLite's FTS5 index of Event.search_text (migration 0005)


class _WordsMatch(Func):
    """PostgreSQL: ``to_tsvector('simple', search_text) @@ to_tsquery('simple', %s)``, the expression of the
    GIN index ``event_search_words`` (migration 0005) written the same way, so that the planner uses it."""

    template = "to_tsvector('simple', %(expressions)s)"
    arg_joiner = ") @@ to_tsquery('simple', "
    output_field = BooleanField()


def _search(events: EventQuerySet, text: str, campaign_id: int) -> EventQuerySet:
    """Events whose words begin with every word of ``text``, case and accents aside (campaigns.search_text):
    a note's text, the title, name, goal or reason an event carries, or the name of a character it names
    (as the character is called now). Full text on both databases (SQLite FTS5, PostgreSQL GIN), so a search
    reads the entries that match, not the whole log. Applied after the visibility filter, so a reader only
    ever finds what they may read."""
    wanted = query_words(text)
    if not wanted:
        return events.none()  # nothing searchable typed (only signs): nothing is found
    named = _characters_named(campaign_id, wanted)
    if connection.vendor == "sqlite" and not named:
        # The index drives: its matches newest first (FTS5 reads its rowids in order), each joined to its
        # event by primary key and kept if the reader may see it, until the page is full. Ordered by the
        # index's rowid, the event's id (campaigns.log_pages.SEARCH_ORDER).
        return typing.cast(
            EventQuerySet,
            events.extra(
                tables=[FTS_TABLE],
                where=[f"{FTS_TABLE}.rowid = campaigns_event.id", f"{FTS_TABLE} MATCH %s"],
                params=[fts5_query(wanted)],
            ),
        )
    if connection.vendor == "sqlite":
        found = Q(pk__in=RawSQL(f"SELECT rowid FROM {FTS_TABLE} WHERE {FTS_TABLE} MATCH %s", [fts5_query(wanted)]))
    else:
        found = _pg_words_match(campaign_id, tsquery(wanted))
    if named:
        found |= Q(pk__in=Event.characters.through.objects.filter(character_id__in=named).values("event_id"))
    return events.filter(found)


# Up to this many matches, a PostgreSQL search hands the page their ids; past it, the page reads the log
# newest first and keeps the rows that match.
FEW_MATCHES = 200


def _pg_words_match(campaign_id: int, query: str) -> Q:
    """The condition for events whose words match ``query`` (a tsquery) on PostgreSQL.

    The planner cannot tell how many events a prefix query matches (« lanterne:* » is estimated at about
    850 of 50,000 whatever it holds), so it reads the log newest first and tests every row: right for a
    common word (51 matches come in the first rows), 0.7 s at 50,000 events for a word only old entries
    hold. One query through the GIN index alone first takes up to FEW_MATCHES + 1 matching ids of the
    campaign: when there are no more, the page reads just those events.
    """
    words = _WordsMatch(F("search_text"), Value(query))
    first = list(
        Event.objects.filter(words, campaign_id=campaign_id).order_by().values_list("pk", flat=True)[: FEW_MATCHES + 1]
    )
    if len(first) <= FEW_MATCHES:
        return Q(pk__in=first)
    return Q(words)


def _characters_named(campaign_id: int, wanted: list[str]) -> list[int]:
    """The campaign's characters whose name holds every wanted word (a few rows: matched in Python, alike on
    both databases; campaigns imports no feature app, so the model comes from the Event's relation)."""
    character_model = Event._meta.get_field("characters").related_model
    assert isinstance(character_model, type)
    rows = character_model._default_manager.filter(campaign_id=campaign_id).values_list("pk", "name")
    return [pk for pk, name in rows if name_matches(name, wanted)]


# The kinds a member may read, read on every plain log page to key its filter: compiled once (``core.prepared``), for
# a narrator and for a player. Arguments in the SQL's order.
_kinds_of_narrator = PreparedRead(
    lambda campaign_id: LoggedKind.objects.filter(campaign_id=campaign_id).order_by().values_list("kind")
)
_kinds_of_player = PreparedRead(
    lambda campaign_id, everyone, user_id, private: (
        LoggedKind.objects.filter(campaign_id=campaign_id)
        .filter(Q(visibility=everyone) | Q(reader=user_id, visibility=private))
        .order_by()
        .values_list("kind")
    )
)


def log_kinds(membership: Membership, head: int | None = None) -> list[str]:
    """The kinds of the events this member may read (a kind alone can give a secret away), from the few rows
    of LoggedKind rather than the whole log: one small query (``head`` is no longer used)."""
    if membership.is_narrator:
        rows = _kinds_of_narrator(membership.campaign_id)
    else:
        rows = _kinds_of_player(
            membership.campaign_id, str(Visibility.EVERYONE), membership.user_id, str(Visibility.PLAYER)
        )
    return sorted({kind for (kind,) in rows})


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
    entries not already rendered for this reader (campaigns.entry_region)."""
    rows = list(events.prefetch_related(None).select_related(None).values_list("pk", "kind", "actor_id", "created_at"))
    return lazy_entries_of_rows(rows, membership, campaign)


def lazy_entries_of_rows(
    rows: Sequence[tuple[int, str, int | None, dt.datetime]],
    membership: Membership | None,
    campaign: Campaign,
    *,
    under_head: bool = True,
) -> LazyEntries:
    """As ``lazy_log_entries``, from rows (pk, kind, actor id, creation time) already read (a log page's).

    ``under_head=False``: the entries are keyed by their declaration alone, not also under the stream's head. For a
    list inside a region itself kept under the head (a feed): that region is rendered only once the head has moved,
    when no entry can have been kept under the new head yet, so those keys were each a digest and a read for nothing.
    """
    corrections = corrections_of([row[0] for row in rows])
    refs = [
        EntryRef(
            pk,
            created.isoformat(),
            _may_correct(kind, actor, membership),
            corrections.get(pk, ()),
            reader_apart(kind, membership),
        )
        for pk, kind, actor, created in rows
    ]

    def load(pks: list[int]) -> dict[int, LogEntry]:
        loaded = events_for_display(campaign.pk, pks)
        # As ``log_entries``: what the describers read is the payload as this reader may (campaigns.redaction).
        return {
            event.pk: _log_entry(readable_event(event, membership), membership, corrections.get(event.pk, ()))
            for event in loaded
        }

    head = table_head(membership) if membership is not None and under_head else None
    return LazyEntries(refs=refs, campaign=campaign.pk, epoch=campaign.log_epoch, load=load, head=head)


FEED_LENGTH = 30
_ENTRY_ROW = ("pk", "kind", "actor_id", "created_at")


def _newest_of_narrator(limit: int) -> PreparedRead[Event]:
    return PreparedRead(
        lambda campaign_id: (
            Event.objects.filter(campaign_id=campaign_id)
            .order_by("-created_at", "-pk")
            .values_list(*_ENTRY_ROW)[:limit]
        )
    )


def _newest_of_player(limit: int) -> PreparedRead[Event]:
    return PreparedRead(
        lambda campaign_id, everyone, user_id, private: (
            Event.objects.filter(campaign_id=campaign_id)
            .filter(Q(visibility=everyone) | Q(visibility=private, recipient_id=user_id))
            .order_by("-created_at", "-pk")
            .values_list(*_ENTRY_ROW)[:limit]
        )
    )


# The newest rows a member may read (``EventQuerySet.visible_to``), read on every campaign page (the feed) and plain
# log page after a change: compiled once (``core.prepared``), per length, for a narrator and for a player. Arguments in
# the SQL's order.
_NEWEST = {
    (limit, narrator): (_newest_of_narrator if narrator else _newest_of_player)(limit)
    for limit in (FEED_LENGTH, PAGE_SIZE + 1)
    for narrator in (True, False)
}


def newest_rows(membership: Membership, limit: int) -> list[tuple[int, str, int | None, dt.datetime]]:
    """The newest ``limit`` events ``membership`` may read, as rows (pk, kind, actor id, creation time)."""
    read = _NEWEST.get((limit, membership.is_narrator))
    if read is None:
        return list(Event.objects.visible_to(membership).values_list(*_ENTRY_ROW)[:limit])
    if membership.is_narrator:
        return read(membership.campaign_id)
    return read(membership.campaign_id, str(Visibility.EVERYONE), membership.user_id, str(Visibility.PLAYER))


def recent_entries(membership: Membership, limit: int = FEED_LENGTH, *, under_head: bool = True) -> LazyEntries:
    """The latest entries this member may read (the dashboard's and the campaign home's feed)."""
    return lazy_entries_of_rows(newest_rows(membership, limit), membership, membership.campaign, under_head=under_head)


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


# Compiled once (core.prepared): on a page whose feed is rendered anew, building this query cost more than running it.
_corrections = PreparedRead(
    lambda ids: (
        Event.objects.filter(corrects_id__in=ids)
        .order_by("-created_at", "-pk")
        .values_list("corrects_id", "pk", "payload")
    )
)


def corrections_of(event_ids: list[int]) -> dict[int, tuple[tuple[int, str], ...]]:
    """Number and reason of each correction of these events, newest first as the log reads."""
    found: dict[int, list[tuple[int, str]]] = {}
    if event_ids:
        for corrects_id, pk, payload in _corrections(tuple(dict.fromkeys(event_ids))):
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
