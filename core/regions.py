"""Regions: the named parts of a screen, each declaring what it shows and what it depends on.

A region is one component of a page or a live push (a character's sheet, a panel, a dialog) made of three
things, and only these:

1. ``context(thing, membership, request)``: a selector that builds the template's context (reads only);
2. ``template``: the one source of its markup (``"app/page.html#partial"``);
3. ``depends(thing, membership, request)``: a ``Depends``, the declaration of everything its bytes read:

   - ``subjects``: what the table changes through its use cases, named ``<kind>:<id>`` (``character:12``,
     ``states:12``, ``settings:3``). Every use case appends one Event, and the Event names the subjects it
     changed (``campaigns.event_subjects``, one declared place); each subject's *version* is the stream
     position of the last Event that touched it, written in the same transaction as the Event. So a subject's
     version moves exactly when something a region reads through it changed. This currency was chosen over
     each row's own ``version`` column because it also covers rows that have none (the Revers, the settings
     tables, the sessions) and because the same names answer the live layer's question, « which open
     regions does this Event change? »: the intersection of the Event's subjects with the declaration's.
   - ``rows``: values already loaded that the bytes read and that change without an Event (the campaign row,
     whose ``log_epoch`` renames bump): their content is part of the key;
   - ``viewer``: who reads the region alike (the member's rights, the request's session where the markup
     reads it). Two viewers with equal ``viewer`` values are served the same bytes;
   - ``alike``: when who reads alike is known only by reading (the players of a Sequence who run nobody in it and
     are given no private line of its story), a function that says it, called only when the versions are read:
     the key under the stream head keeps ``viewer`` (one member, known for nothing), the key under the versions
     takes ``alike`` instead, so the twenty viewers of one live event share one rendering;
   - ``head``: the campaign's stream head read with the membership, when the caller has it: until it moves no
     subject can have changed, so the kept HTML is found without reading the versions.

   Language and time zone are always part of the key (``core.kept_regions``).

Nobody writes a key by hand: ``core.kept_regions`` derives it from the declaration and the template's source.
A new field on a region is an edit of its context builder and template; the declaration already names the
rows it comes from. The consistency test (``tests/campaigns/test_one_truth.py``) keeps declarations honest.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Hashable, Iterable, Iterator, Mapping
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass, field
from typing import Any, TypeVar

T = TypeVar("T")

TABLE = "table"
"""The subject every region depends on implicitly: an Event whose kind declares nothing narrower touches it,
so an undeclared change re-renders every region of its campaign (correct first, precise where declared)."""


def subject(kind: str, pk: int) -> str:
    """A subject's name: ``character:12``."""
    return f"{kind}:{int(pk)}"


@dataclass(frozen=True)
class Depends:
    """What a region's bytes depend on, besides its template, the language and the time zone."""

    campaign_id: int
    # The subjects, or a function that reads them (one query, say): called only when the stream has moved.
    subjects: frozenset[str] | Callable[[], frozenset[str]]
    rows: tuple[Any, ...] = ()
    viewer: Hashable = ()
    head: int | None = None
    alike: Callable[[], Hashable] | None = None
    # Subjects named by reading (each participant's ``character`` and ``states`` on a Sequence's board), and the kinds
    # of subject that function names (``character`` for ``character:12``): an Event that touched no subject of those
    # kinds cannot change the region through them, so ``changed_by`` answers without reading them (a draw in one
    # Sequence, asked about another's board).
    more: Callable[[], frozenset[str]] | None = None
    more_kinds: frozenset[str] = frozenset()

    # What the functions answered, for this declaration only (``init=False``: ``dataclasses.replace`` starts afresh).
    _read: dict[str, Any] = field(default_factory=dict, init=False, compare=False, repr=False)

    def readers(self) -> Hashable:
        """Who reads the bytes alike, as finely as it is known (``alike``, else ``viewer``)."""
        if self.alike is None:
            return self.viewer
        if "readers" not in self._read:
            self._read["readers"] = self.alike()
        found: Hashable = self._read["readers"]
        return found

    def all_subjects(self) -> frozenset[str]:
        """The declared subjects and the campaign's catch-all (``TABLE``), worked out once per declaration (a live push
        asks for them to see whether the Event changed the region, then for its key)."""
        if "subjects" not in self._read:
            named = self.subjects() if callable(self.subjects) else self.subjects
            self._read["subjects"] = frozenset(named) | {subject(TABLE, self.campaign_id)} | self._more()
        found: frozenset[str] = self._read["subjects"]
        return found

    def _more(self) -> frozenset[str]:
        if self.more is None:
            return frozenset()
        found = self.more()
        # Checked once per render pass for a set the pass read once (a board's participants, declared by each of a live
        # event's twenty pages): a frozenset keeps its hash, and is found again by identity.
        pass_fact(("subjects of their kinds", self.more_kinds, found), lambda: _of_kinds(found, self.more_kinds))
        return found

    def changed_by(self, touched: Iterable[str]) -> bool:
        """Whether an Event that touched ``touched`` changes this region."""
        touched = frozenset(touched)
        if "subjects" not in self._read and self.more is not None and not callable(self.subjects):
            # What is named without reading first: only when it is not changed and the Event touched a subject of a
            # kind ``more`` names are the subjects read.
            if not self.subjects.isdisjoint(touched) or subject(TABLE, self.campaign_id) in touched:
                return True
            if not any(name.partition(":")[0] in self.more_kinds for name in touched):
                return False
        return not self.all_subjects().isdisjoint(touched)


def _of_kinds(found: frozenset[str], kinds: frozenset[str]) -> bool:
    stray = {name for name in found if name.partition(":")[0] not in kinds}
    if stray:  # a declaration that names more than it says it may: ``changed_by`` could miss a change
        raise ValueError(f"subjects {sorted(stray)} are not of the declared kinds {sorted(kinds)}")
    return True


Loader = Callable[[int, Any], Any]
ContextBuilder = Callable[[Any, Any, Any], dict[str, Any]]
Declaration = Callable[[Any, Any, Any], Depends]


@dataclass(frozen=True)
class Items:
    """How a region made of item regions (the dashboard's grid of character panels; a Sequence's board, its head, rows
    and foot) is pushed: ``depends`` declares
    what it reads besides its items (who they are and in what order), ``changed(thing, membership, touched)`` returns
    the items an Event changed, each with its region. When an Event changed items and nothing ``depends`` names, a
    live push sends those items alone, each swapped by its own id, not the whole region (``campaigns.live_regions``);
    the page's GET still renders the region, from its items kept."""

    depends: Declaration
    changed: Callable[[Any, Any, frozenset[str]], list[tuple[Region, Any]]]


@dataclass(frozen=True)
class Frame:
    """How a region is kept apart from its **holes** (``{% hole "name" %}`` in its template): the parts of it that
    change with less than the rest does, each a region of its own that shows the same thing (a sheet's Atout
    counters and ledger, which an Atout spent changes, around traits and forms it does not).

    ``depends`` declares what the region's bytes read outside its holes, and ``context`` builds what the template
    needs outside them. The frame is kept with its holes marked (``core.kept_regions``): after a change that touches
    only what the holes read, the kept frame is served with its holes rendered (or found kept) alone. The region's own
    declaration still names everything, frame and holes alike: its pushes and its whole key follow it."""

    depends: Declaration
    context: ContextBuilder


@dataclass(frozen=True)
class Region:
    """One named component: ``load(pk, membership)`` finds what it shows (``None`` when the member may not see
    it), ``context`` and ``depends`` take ``(thing, membership, request)``; ``watch`` is the page subject's kind
    under which a page shows it (``character`` for ``?watch=character:12``)."""

    name: str
    template: str
    load: Loader
    context: ContextBuilder
    depends: Declaration
    watch: str = ""
    # The element id the region's root carries, from what it shows: the oob swap's target.
    element_id: Callable[[Any], str] = field(default=lambda thing: "")
    # For a list of regions rendered together (``core.kept_regions.regions_html``): loads, in one go, what the
    # context builders of the things not kept need (the log's events, say), before any of them is rendered.
    prepare: Callable[[list[Any]], None] | None = None
    # A region made of item regions (a grid of panels, ``Items``): ``None`` for the others.
    items: Items | None = None
    # A region kept apart from its holes (``Frame``): ``None`` for a region kept whole.
    frame: Frame | None = None
    # For a region kept for readers wider than one member (``Depends.alike``), what each member's copy puts in after
    # it is found kept: ``own(html, thing, membership)`` (a player's own rows on a board kept for its spectators).
    own: Callable[[str, Any, Any], str] | None = None


_registry: dict[str, Region] = {}


def register(region: Region) -> Region:
    """Add a region to the registry (from an app's ``ready()`` or its module's import)."""
    if region.name in _registry and _registry[region.name] != region:
        raise ValueError(f"two regions named {region.name!r}")
    _registry[region.name] = region
    return region


def get(name: str) -> Region:
    return _registry[name]


def all_regions() -> list[Region]:
    return list(_registry.values())


def one_per_element(entries: Iterable[tuple[str, T]]) -> list[T]:
    """Of entries ``(element id, what renders it)`` in a page's order, those its swaps leave on the page: a page holds one
    element per id and the last swap is what it shows, so of entries sharing an id only the last is kept (the decks, a
    region of each Sequence a page watches); entries with no id are all kept. A push and a catch-up send the same."""
    listed = list(entries)
    last = {shown: index for index, (shown, _what) in enumerate(listed) if shown}
    return [what for index, (shown, what) in enumerate(listed) if not shown or last[shown] == index]


def watched_by(watch_kind: str) -> list[Region]:
    """The regions a page watching ``<watch_kind>:<id>`` shows."""
    return [region for region in _registry.values() if region.watch and region.watch == watch_kind]


VersionSource = Callable[[frozenset[str]], dict[str, int]]
# Every version a campaign has (one query): what a pass reads once for all the regions it renders.
CampaignVersionSource = Callable[[int], dict[str, int]]


def _no_versions(subjects: frozenset[str]) -> dict[str, int]:
    raise RuntimeError("no subject version source: campaigns registers it in its AppConfig.ready()")


def _no_campaign_versions(campaign_id: int) -> dict[str, int]:
    raise RuntimeError("no subject version source: campaigns registers it in its AppConfig.ready()")


_version_source: list[VersionSource] = [_no_versions]
_campaign_source: list[CampaignVersionSource] = [_no_campaign_versions]


def set_version_source(source: VersionSource, campaign_source: CampaignVersionSource | None = None) -> None:
    """Where subjects' versions are read (``campaigns.event_subjects.versions``, and ``campaign_versions`` for a
    whole campaign at once): core stands below campaigns."""
    _version_source[0] = source
    if campaign_source is not None:
        _campaign_source[0] = campaign_source


@dataclass
class _Pass:
    """The versions read during one render pass (a request, one live rendering), per campaign."""

    depth: int  # the transaction depth the pass began at: inside a deeper one, versions may be uncommitted
    # The connection whose transactions ``depth`` counts, the pass's thread's own, looked up once: Django finds it
    # through a context-local lookup (8 µs), and a live draw's pass asks for the depth about 360 times. A pass read
    # from another thread (its context copied there) looks that thread's connection up, as before.
    connection: Any = field(default=None, compare=False, repr=False)
    thread: int = 0
    read: dict[int, dict[str, int]] = field(default_factory=dict)
    wrote: bool = False  # an Event was appended during the pass: a head read before it names an older table
    by_head: bool = True  # whether regions are kept under the stream head too (``version_pass``)
    facts: dict[Hashable, Any] = field(default_factory=dict)  # ``pass_fact``: what the declarations read, once


_pass: ContextVar[_Pass | None] = ContextVar("region_version_pass", default=None)


def _connection() -> Any:
    from django.db import DEFAULT_DB_ALIAS, connections  # core.regions reads no database: only the pass's guard does

    return connections[DEFAULT_DB_ALIAS]


def _atomic_depth(current: _Pass) -> int:
    """How many transactions are open on this thread's default connection."""
    connection = current.connection if current.thread == threading.get_ident() else _connection()
    return len(connection.atomic_blocks)


@contextmanager
def version_pass(*, hand_over: bool = False, by_head: bool = True) -> Iterator[None]:
    """Within it, the first region that needs versions reads every version of its campaign (one query), and the
    other regions of the page take theirs from that read: a page of N regions costs one version query, not N.

    Safe by construction: an Event appended during the pass forgets what was read (``forget_versions``, called
    where versions are written), and nothing is remembered from inside a transaction opened during the pass,
    whose writes could still be rolled back.

    ``hand_over``: what this pass read is given to the pass around it, when that one stands at the same transaction
    depth (the live pages' copies rendered by the request that committed an Event, ``campaigns.live_announce``:
    the request's own answer then finds the versions, the story and the participants its pages' copies read, as the
    table stands after its commit). Only what the enclosing pass has not read itself, and only while no write came
    between: a later Event forgets them all alike.

    ``by_head=False``: regions are kept under their subjects' versions alone, not also under the member and the stream
    head (``head_trusted`` says no). The live pass renders twenty pages' copies of an event: keys under each member and
    the new head would cost a digest, a miss and a write per region and member, for a page load the next event makes
    stale, while the versions' key is the same for every member alike."""
    outer = _pass.get()
    connection = _connection()
    inner = _Pass(
        depth=len(connection.atomic_blocks), connection=connection, thread=threading.get_ident(), by_head=by_head
    )
    token = _pass.set(inner)
    try:
        yield
    finally:
        _pass.reset(token)
        if hand_over and outer is not None and outer.depth == inner.depth and not inner.wrote:
            for campaign_id, found in inner.read.items():
                outer.read.setdefault(campaign_id, found)
            for key, fact in inner.facts.items():
                outer.facts.setdefault(key, fact)


def forget_versions() -> None:
    """Versions changed (an Event was appended): the pass reads them again when next asked, and no longer trusts a
    stream head read before (``head_trusted``)."""
    current = _pass.get()
    if current is not None:
        current.read.clear()
        current.facts.clear()
        current.wrote = True


def pass_fact(key: Hashable, load: Callable[[], Any]) -> Any:
    """``load()``, read once per render pass for every region and viewer that asks for ``key``: what declarations
    read to name their subjects (who runs which character, the Sequences under way, the asks waiting), which twenty
    viewers of one live event would otherwise each read again. Forgotten with the versions when an Event is appended
    (``forget_versions``), and not kept from inside a transaction opened during the pass (its writes could still
    be rolled back): the same rules as the versions', so a fact is never older than the versions read with it."""
    current = _pass.get()
    if current is None or _atomic_depth(current) != current.depth:
        return load()
    if key not in current.facts:
        current.facts[key] = load()
    return current.facts[key]


def head_trusted() -> bool:
    """Whether a stream head read with the membership still names the table as it stands: not after an Event
    appended during this pass (the answer to one's own POST), when the HTML kept under that head is the table before
    the write. Regions are then keyed by their subjects' versions alone (``core.kept_regions.outer_key``)."""
    current = _pass.get()
    return current is None or (not current.wrote and current.by_head)


# The versions an enclosing region's key was read with, while it renders: a region inside it (a Sequence board's
# rows) whose subjects are among them reads them from here rather than once more per region.
_known: ContextVar[tuple[frozenset[str], Mapping[str, int]] | None] = ContextVar("known_versions", default=None)


@contextmanager
def versions_known(asked: frozenset[str], found: Mapping[str, int]) -> Iterator[None]:
    """While it lasts, ``versions`` answers for the subjects of ``asked`` from ``found`` (read together)."""
    token = _known.set((asked, found))
    try:
        yield
    finally:
        _known.reset(token)


def versions(subjects: frozenset[str], campaign_id: int | None = None) -> dict[str, int]:
    """Each subject's version (0 for one no Event has touched yet): from an enclosing region's read
    (``versions_known``), else from the pass's read of the whole campaign when a pass is open (``version_pass``)
    and ``campaign_id`` is given, else one query for these subjects."""
    known = _known.get()
    if known is not None and subjects <= known[0]:
        return {name: known[1][name] for name in subjects if name in known[1]}
    current = _pass.get()
    if current is None or campaign_id is None or _atomic_depth(current) != current.depth:
        return _version_source[0](subjects)
    found = current.read.get(campaign_id)
    if found is None:
        found = current.read[campaign_id] = _campaign_source[0](campaign_id)
    return {name: found[name] for name in subjects if name in found}
