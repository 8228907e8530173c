"""What a page receives for one event, rendered once per audience and shared by the process's sockets.

Turbo Streams and Phoenix render a broadcast once per stream, not once per subscriber. Here the stream
of one audience is "the viewers an event's fragment reads the same for" (campaigns.live): when twenty
pages are open, a draw is rendered for the narrators, for the player who drew, for the players it does
not concern, per language and per kind of page, and every socket takes its copy from
``EventRendering``. The rendering happens where the sockets are (the consumer, on the first socket of
an audience that receives the event), so nothing is rendered for an audience nobody has open, and no
registry of who is connected has to be kept across processes: with N worker processes an audience is
rendered N times at most.

Secrets: a socket still gets only what its own member may see. The event's visibility is checked for
each socket's own membership (``may_see``, the Python twin of ``Event.objects.visible_to``), and the
fragments are looked up under the audience key of that membership: two viewers share HTML only when
every renderer puts them in the same audience.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Hashable, Iterable

from django.core.exceptions import SynchronousOnlyOperation
from django.template.loader import render_to_string
from django.utils import translation

from campaigns.event_reads import event_for_display
from campaigns.kept import WITH_HEAD
from campaigns.live import (
    NOT_SHOWN,
    LivePart,
    Viewer,
    audience_unless_concerned,
    event_fact,
    feed_subject,
    parts_for,
)
from campaigns.live_pages import OpenPage
from campaigns.models import CampaignStream, Event, Membership
from campaigns.redaction import readable, readers_apart
from campaigns.selectors import corrections_of, log_entries
from core.prepared import PreparedRead
from core.regions import version_pass

# Forms in fragments carry the page's own CSRF token: fragments are rendered with this marker, and each
# socket puts its own token in its copy (campaigns.consumers).
CSRF_MARKER = "live-csrf-token-of-the-page"
# Renderings kept per process, newest last: enough for a catch-up after a drop to share them too.
KEPT_RENDERINGS = 256
# The newest of them keep what their sockets take copies with (the members, the facts, the assembled copies); the older
# keep their fragments alone (``EventRendering.let_readers_go``).
KEPT_READERS = 16


def may_see(event: Event, membership: Membership) -> bool:
    """``Event.objects.visible_to(membership)`` for one loaded event (a test keeps the two alike)."""
    return event.campaign_id == membership.campaign_id and readable(event.visibility, event.recipient_id, membership)


def _log_entry(event: Event, viewer: Viewer) -> list[str]:
    """The event's entry at the top of the page's log feed."""
    if not viewer.shows(feed_subject(event.campaign_id)):
        return []
    membership = viewer.membership
    # The corrections of the event (a catch-up may replay a corrected one) are read once for every audience.
    corrections = event_fact(event, "corrections", lambda: corrections_of([event.pk]))
    entries = log_entries([event], membership, corrections=corrections)
    # The correction form carries the page's own token, as the page's entries do (each socket puts its own in).
    context = {"entries": entries, "membership": membership, "campaign": membership.campaign,
               "csrf_token": viewer.csrf_token}  # fmt: skip
    return [render_to_string("campaigns/partials/live_event.html", context)]


def _log_audience(event: Event, viewer: Viewer) -> Hashable:
    if not viewer.shows(feed_subject(event.campaign_id)):
        return NOT_SHOWN
    # An entry reads the same for every narrator and every player, except for the one who wrote it (who may
    # correct it), the one a private entry is addressed to (the others do not see it at all) and those a private
    # part of it is addressed to (campaigns.redaction: the others are not given that part).
    return audience_unless_concerned(viewer, (event.actor_id, event.recipient_id, *readers_apart(event)))


LOG_ENTRY = LivePart("", _log_entry, _log_audience, by_page=False)


# A campaign's members, read again for every event each process renders (roles can change while a socket is open),
# with the campaign's stream: the head each region's declaration names (``campaigns.kept.table_head``). Compiled once
# per thread (``core.prepared``).
_members_of = PreparedRead(
    lambda campaign_id: Membership.objects.filter(campaign_id=campaign_id).select_related(*WITH_HEAD).order_by("pk")
)


class EventRendering:
    """One event, loaded once per process, and its fragments per audience, language and page kind."""

    def __init__(self, event: Event) -> None:
        self.event = event
        self.parts = [LOG_ENTRY, *parts_for(event.kind)]
        self._html: dict[Hashable, str] = {}
        # Each page's copy once assembled (its member, what it watches, its language): the sockets after the first of
        # a page's kind take it from here, without asking every part for its audience again. Forgotten with the facts.
        self._copies: dict[tuple[int, frozenset[str], str], str] = {}
        self._members: dict[int, Membership] | None = None
        self._lock = threading.Lock()
        self._facts_head: int | None = None  # the campaign's stream position when the facts were read
        self.renders = 0  # fragments rendered (tests and the benchmark read it)

    def holds_readers(self) -> bool:
        return self._members is not None or bool(self._copies) or "_live_facts" in self.event.__dict__

    def let_readers_go(self) -> None:
        """Forget what the sockets took their copies with: the members (three rows each, with the campaign and its
        stream), the facts that sorted them into audiences and the copies assembled. A process keeping its renderings
        for catch-ups otherwise keeps thousands of model rows, which every full collection of the garbage collector
        walks while a live draw waits (40–80 ms on a 2-core machine). An older event asked for again reads them
        again, as its first socket did (a catch-up asks with its own membership: ``html_for``)."""
        with self._lock:
            self._members = None
            self._copies.clear()
            self._facts_head = None
            self.event.__dict__.pop("_live_facts", None)

    def _facts_outdated(self) -> bool:
        """Whether an event was appended to the campaign since the facts were read: every change that can move
        a viewer from one audience to another is an event. The sockets of the process note every position they
        hear of (``note_position``), so this reads no database while the table is live."""
        now = _stream_seen.get(self.event.campaign_id)
        if now is None:  # no socket of this process has heard of the campaign's stream yet
            head = CampaignStream.objects.filter(campaign_id=self.event.campaign_id).values_list("position", flat=True)
            now = head.first() or 0
        outdated, self._facts_head = now != self._facts_head, now
        return outdated

    def membership(self, membership_id: int) -> Membership | None:
        """A member as the campaign stands when the event is first sent (one query for every socket:
        roles can change while a socket is open, so they are read per event, not per connection)."""
        if self._members is None:
            # With the campaign's stream: the head each region's declaration names (``campaigns.kept.table_head``).
            self._members = {m.pk: m for m in _members_of(self.event.campaign_id)}
        return self._members.get(membership_id)

    def html_for(self, membership: Membership, *, watching: frozenset[str], language: str, csrf_token: str) -> str:
        """The event's fragments as this member's page gets them, or "" when they may not see it."""
        with version_pass():  # the regions' versions read once for this copy (core.regions)
            html = self._assemble(membership, watching=watching, language=language, render=True)
        assert html is not None  # rendering on a miss, never short of a piece
        return html.replace(CSRF_MARKER, csrf_token)

    def ready_html_for(
        self, membership_id: int, *, watching: frozenset[str], language: str, csrf_token: str
    ) -> str | None:
        """``html_for`` when every piece of this page's copy is rendered already and the members and facts are
        loaded, read without touching the database; None otherwise. The consumers call it on the event loop:
        the sockets after the first of an audience then take their copy without a turn on the single thread
        where database work runs (one turn per socket, queued behind each other and behind the requests of a
        one-process server). The copy is looked up under the same audience keys as ``html_for``'s."""
        members = self._members
        membership = members.get(membership_id) if members is not None else None
        if membership is None:
            return None
        html = self._copies.get((membership.pk, watching, language))
        if html is None:
            try:
                html = self._assemble(membership, watching=watching, language=language, render=False)
            except SynchronousOnlyOperation:  # an audience wanted a fact not loaded yet: the thread will read it
                return None
        return None if html is None else html.replace(CSRF_MARKER, csrf_token)

    def render_for(self, pages: Iterable[OpenPage]) -> None:
        """Every piece the pages need, rendered in one pass on this thread (campaigns.live_pages): each socket then
        takes its copy with ``ready_html_for``, without a turn of its own on the database thread."""
        # The regions' versions read once for every page (core.regions), and handed to the request's own answer; regions
        # kept under their versions alone, which every member alike finds (not under each member and the new head).
        with version_pass(hand_over=True, by_head=False):
            for page in pages:
                membership = self.membership(page.membership_id)
                if membership is not None:
                    self._assemble(membership, watching=page.watching, language=page.language, render=True)

    def copy_of(self, page: OpenPage) -> str | None:
        """The copy ``render_for`` assembled for ``page``, its CSRF marker left in for the socket to put its own token
        in (``campaigns.live_shared``: a socket of another process); None when there is none (its member is no longer
        one): that socket then renders for itself, as one whose page opened after the pass does."""
        return self.ready_html_for(
            page.membership_id, watching=page.watching, language=page.language, csrf_token=CSRF_MARKER
        )

    def _assemble(self, membership: Membership, *, watching: frozenset[str], language: str, render: bool) -> str | None:
        event = self.event
        if not may_see(event, membership):
            return ""
        viewer = Viewer(membership, watching=watching, csrf_token=CSRF_MARKER)
        pieces = []
        for index, part in enumerate(self.parts):
            audience = part.audience(event, viewer)
            if audience == NOT_SHOWN:
                continue  # the page has no place for this part: nothing to render, for anyone alike
            page = watching if part.by_page else None
            key = (index, audience, language, page)
            html = self._html.get(key)
            if html is None:
                if not render:
                    return None
                with self._lock, translation.override(language):
                    if self._facts_outdated():
                        # The campaign changed since the facts that sort viewers into audiences were read (someone
                        # joined the Sequence…): read them again, so that the viewer rendering this copy belongs
                        # to its audience as the world stands now, and every copy kept was rendered by a member
                        # of the audience it is kept for.
                        event.__dict__.pop("_live_facts", None)
                        self._copies.clear()
                    key = (index, part.audience(event, viewer), language, page)
                    html = self._html.get(key)
                    if html is None:
                        html = self._html[key] = "".join(part.render(event, viewer))
                        self.renders += 1
            pieces.append(html)
        copy = self._copies[(membership.pk, watching, language)] = "".join(pieces)
        return copy


# The last stream position each campaign's sockets in this process heard of (live messages and catch-ups).
_stream_seen: dict[int, int] = {}


def note_position(campaign_id: int, position: int) -> None:
    if position > _stream_seen.get(campaign_id, 0):
        _stream_seen[campaign_id] = position


_renderings: OrderedDict[int, EventRendering] = OrderedDict()
_renderings_lock = threading.Lock()


def rendering_of(event_id: int, *, loaded: Event | None = None) -> EventRendering | None:
    """The process's rendering of an event (loaded once, ``for_display``), or None when it does not exist."""
    with _renderings_lock:
        rendering = _renderings.get(event_id)
        if rendering is not None:
            _renderings.move_to_end(event_id)
            return rendering
    event = loaded if loaded is not None else event_for_display(event_id)
    if event is None:
        return None
    with _renderings_lock:
        rendering = _renderings.setdefault(event_id, EventRendering(event))
        while len(_renderings) > KEPT_RENDERINGS:
            _renderings.popitem(last=False)
        older = list(_renderings.values())[:-KEPT_READERS]
    for old in older:
        if old.holds_readers():
            old.let_readers_go()
    return rendering


def rendering_if_loaded(event_id: int) -> EventRendering | None:
    """The process's rendering of an event if a socket has loaded it already (no database)."""
    with _renderings_lock:
        return _renderings.get(event_id)


def forget_renderings() -> None:
    """Drop every kept rendering (tests that change an event's world between two sends)."""
    with _renderings_lock:
        _renderings.clear()
        _stream_seen.clear()
