"""Pages of the log by cursor: a page starts at an entry's (time, id), never at a row count.

``OFFSET`` reads and drops every row above the page, and numbered pages need a ``COUNT(*)`` of the
reader's whole filtered log: both grow with history (docs/benchmarks.md). A cursor page reads its 50
entries and one more (to know whether there is another page) from the log's index
``(campaign, -created_at, -id)``, wherever it is in the log. Its links: the newest entries, newer (the
50 just above its first entry), older (the 50 just below its last), the oldest entries.

Addresses: ``?before=<cursor>`` (older than that entry), ``?after=<cursor>`` (newer), ``?oldest=1``,
none for the newest; the filters (kind, session, character, search) stay in the query. Old
``?page=N`` links are still served (by ``OFFSET``, as they were) and link on by cursor.
"""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Callable
from dataclasses import dataclass

from django.db.models import OrderBy, Q, QuerySet
from django.db.models.expressions import RawSQL
from django.http import QueryDict
from django.utils.translation import gettext as _

from campaigns.models import Event
from core.forms import MAX_ID

PAGE_SIZE = 50
OLDEST = "oldest=1"
# The query keys that place a page; everything else in the query (the filters) is kept in its links.
PLACING = ("page", "before", "after", "oldest")
# A log row as a page reads it: (pk, kind, actor_id, created_at).
Row = tuple[int, str, int | None, dt.datetime]

_CURSOR = re.compile(r"^(\d{1,17})_(\d{1,19})$")
_EPOCH = dt.datetime(1970, 1, 1, tzinfo=dt.UTC)


@dataclass(frozen=True)
class Cursor:
    created_at: dt.datetime
    pk: int


def cursor_of(created_at: dt.datetime, pk: int) -> str:
    """An entry's place in the log, for an address: microseconds since 1970 and the id, ``1764147350123456_42``."""
    delta = created_at.astimezone(dt.UTC) - _EPOCH
    micros = (delta.days * 86_400 + delta.seconds) * 1_000_000 + delta.microseconds
    return f"{micros}_{pk}"


def parse_cursor(text: str) -> Cursor | None:
    """The cursor in ``text``, or None when it is not one (a hand-edited or truncated address)."""
    found = _CURSOR.match(text)
    if found is None:
        return None
    try:
        created = _EPOCH + dt.timedelta(microseconds=int(found.group(1)))
    except OverflowError:  # past the year 9999
        return None
    pk = int(found.group(2))
    # 19 digits pass the pattern but not always the column: a search binds the id raw (SQLite's OverflowError).
    return Cursor(created, pk) if pk <= MAX_ID else None


@dataclass(frozen=True)
class Order:
    """How a page's rows follow each other, and the conditions that start a page after a cursor."""

    newest_first: tuple[str | OrderBy, ...]
    oldest_first: tuple[str | OrderBy, ...]
    by_id: bool  # the rows follow their ids alone (the FTS5 index's order), not (created_at, id)

    def older(self, events: QuerySet[Event], cursor: Cursor) -> QuerySet[Event]:
        if self.by_id:
            return events.extra(where=[f"{_FTS_ROWID} < %s"], params=[cursor.pk])
        # created_at <= t bounds the index range; the rest only drops the rows of that very instant.
        return events.filter(
            Q(created_at__lte=cursor.created_at) & (Q(created_at__lt=cursor.created_at) | Q(id__lt=cursor.pk))
        )

    def newer(self, events: QuerySet[Event], cursor: Cursor) -> QuerySet[Event]:
        if self.by_id:
            return events.extra(where=[f"{_FTS_ROWID} > %s"], params=[cursor.pk])
        return events.filter(
            Q(created_at__gte=cursor.created_at) & (Q(created_at__gt=cursor.created_at) | Q(id__gt=cursor.pk))
        )


_FTS_ROWID = "campaigns_event_search.rowid"
# The log's order: its index (campaign, -created_at, -id).
TIME_ORDER = Order(("-created_at", "-id"), ("created_at", "id"), by_id=False)
# A search on SQLite (campaigns.selectors._search): the FTS5 index's order, the events' ids. Events are
# written in time order, so it is the log's order but for events written in the same instant.
SEARCH_ORDER = Order((RawSQL(_FTS_ROWID, []).desc(),), (RawSQL(_FTS_ROWID, []).asc(),), by_id=True)


def order_of(events: QuerySet[Event]) -> Order:
    """SEARCH_ORDER when ``events`` are read through SQLite's full-text index, else the log's order."""
    return SEARCH_ORDER if "campaigns_event_search" in events.query.extra_tables else TIME_ORDER


@dataclass
class LogPage:
    """One page of a reader's filtered log: its rows, newest first, and the addresses of its neighbours."""

    rows: list[Row]
    newest_href: str = ""
    newer_href: str = ""
    older_href: str = ""
    oldest_href: str = ""
    notice: str = ""

    @property
    def has_other_pages(self) -> bool:
        return bool(self.newer_href or self.older_href or self.notice)


def log_page(
    events: QuerySet[Event], query: QueryDict, path: str, newest_rows: Callable[[int], list[Row]] | None = None
) -> LogPage:
    """The page of ``events`` (a reader's log, filtered) that ``query`` asks for, linked under ``path``.
    ``newest_rows(limit)``: the newest rows of ``events`` read another way (the plain log's, compiled once)."""
    kept = query.copy()
    for key in PLACING:
        kept.pop(key, None)
    newest_href = f"{path}?{kept.urlencode()}" if kept else path
    base = f"{newest_href}&" if kept else f"{path}?"
    order = order_of(events)
    events = events.order_by()

    def read(qs: QuerySet[Event], limit: int = PAGE_SIZE + 1) -> list[Row]:
        return list(qs.values_list("pk", "kind", "actor_id", "created_at")[:limit])

    def newest() -> tuple[list[Row], bool, bool]:
        if newest_rows is not None and order is TIME_ORDER:
            rows = newest_rows(PAGE_SIZE + 1)
        else:
            rows = read(events.order_by(*order.newest_first))
        return rows[:PAGE_SIZE], False, len(rows) > PAGE_SIZE

    notice = ""
    if "before" in query or "after" in query:
        cursor = parse_cursor(query.get("before") or query.get("after") or "")
        if cursor is None:
            rows, has_newer, has_older = newest()
            notice = _("This page's address is not valid: here are the newest entries.")
        elif "before" in query:
            rows = read(order.older(events, cursor).order_by(*order.newest_first))
            if not rows:  # below the oldest entry (an address made by hand): the oldest page
                return log_page(events, _oldest_query(query), path)
            rows, has_newer, has_older = rows[:PAGE_SIZE], True, len(rows) > PAGE_SIZE
        else:
            rows = read(order.newer(events, cursor).order_by(*order.oldest_first))
            if len(rows) > PAGE_SIZE:
                rows, has_newer, has_older = rows[:PAGE_SIZE][::-1], True, True
            else:  # less than a page above: that is the newest page
                rows, has_newer, has_older = newest()
    elif "oldest" in query:
        rows = read(events.order_by(*order.oldest_first))
        if len(rows) > PAGE_SIZE:
            rows, has_newer, has_older = rows[:PAGE_SIZE][::-1], True, False
        else:
            rows, has_newer, has_older = rows[::-1], False, False
    elif (number := _page_number(query.get("page", ""))) > 1:
        # An address from before cursors: served as it was, by OFFSET; past the end, the oldest page.
        start = (number - 1) * PAGE_SIZE
        rows = read(events.order_by(*order.newest_first)[start:])
        if rows:
            rows, has_newer, has_older = rows[:PAGE_SIZE], True, len(rows) > PAGE_SIZE
        else:
            return log_page(events, _oldest_query(query), path)
    else:
        rows, has_newer, has_older = newest()
    page = LogPage(rows=rows, notice=notice)
    if has_newer and rows:
        page.newest_href = newest_href
        page.newer_href = f"{base}after={cursor_of(rows[0][3], rows[0][0])}"
    if has_older and rows:
        page.older_href = f"{base}before={cursor_of(rows[-1][3], rows[-1][0])}"
        page.oldest_href = f"{base}{OLDEST}"
    return page


def _page_number(text: str) -> int:
    return int(text) if text.isdigit() and len(text) < 10 else 1


def _oldest_query(query: QueryDict) -> QueryDict:
    oldest = query.copy()
    for key in PLACING:
        oldest.pop(key, None)
    oldest["oldest"] = "1"
    return oldest
