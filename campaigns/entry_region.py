"""A log entry as a region (``core.regions``): the log page, the campaign pages' feeds and the catch-ups render
every entry through it, so an entry is rendered once per reader alike and kept under its declaration.

An entry shows its event, which never changes, except through:

- a **correction**: the corrections it has (number and reason), read with the page in one query, are among the
  declaration's ``rows``;
- the **renaming** of a character, a member or a session it names: the campaign's ``log_epoch`` (bumped by those
  renames, ``campaigns.signals``) is a row too;
- the **reader's rights**: whether they may correct it (``viewer``), and for an Event that carries parts with their
  own visibility (a settle's Revers: ``campaigns.redaction``), who the reader is (the narrators, each player, the
  public). An entry is only ever looked up after the visibility filter has chosen it for this reader, so an entry
  kept for one reader reaches only readers whose own rendering would be the same bytes.

Its event's id and creation time are rows as well (SQLite may hand a deleted event's id out again). It declares no
subject of its own: what it reads changes through no use case but the ones above, so only the campaign's catch-all
(``table:<campaign>``, an Event of an undeclared kind) renders it anew besides them. The CSRF token of the
correction form is put in on the way out (``core.kept_regions``).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any

from django.template.loader import render_to_string
from django.utils.safestring import SafeString, mark_safe

from core.fragment_cache import page_token
from core.kept_regions import regions_html
from core.regions import Depends, Region, register

ENTRY_TEMPLATE = "campaigns/partials/entry.html"


@dataclass(frozen=True)
class EntryRef:
    """What decides one entry's HTML besides the reader's language and time zone."""

    pk: int
    created: str  # with the campaign, tells this event from any other that ever had its id (SQLite reuses ids)
    may_correct: bool
    corrections: tuple[tuple[int, str], ...]
    # Who reads the entry alike besides: () for most kinds; for a kind whose Events carry parts, the reader's
    # standing (``campaigns.redaction.reader_apart``): a player may be given a part another may not.
    reader: tuple[Any, ...] = ()


@dataclass
class LazyEntries:
    """The entries of a page, built (from the database) only for those not already kept.

    ``load(pks)`` returns the LogEntry of each of those events as this reader sees them.
    """

    refs: list[EntryRef]
    campaign: int
    epoch: int
    load: Callable[[list[int]], dict[int, Any]]
    head: int | None = None  # the campaign's stream head read with the reader's membership (none for the public)
    _loaded: dict[int, Any] = field(default_factory=dict)

    def __len__(self) -> int:
        return len(self.refs)

    def __bool__(self) -> bool:
        return bool(self.refs)

    def load_missing(self, pks: list[int]) -> None:
        missing = [pk for pk in pks if pk not in self._loaded]
        if missing:
            self._loaded.update(self.load(missing))

    def entry(self, pk: int) -> Any:
        self.load_missing([pk])
        return self._loaded.get(pk)

    def __iter__(self) -> Iterator[Any]:
        """The LogEntry objects themselves (all loaded), for code that reads them rather than render them."""
        self.load_missing([ref.pk for ref in self.refs])
        return iter([self._loaded[ref.pk] for ref in self.refs if ref.pk in self._loaded])


@dataclass(frozen=True)
class EntryOf:
    """What the entry region shows: one entry of a page's list."""

    ref: EntryRef
    entries: LazyEntries


def entry_depends(thing: EntryOf, membership: Any, request: Any = None) -> Depends:
    """The declaration of a log entry (see the module's docstring)."""
    ref = thing.ref
    return Depends(
        campaign_id=thing.entries.campaign,
        subjects=frozenset(),
        rows=(ref.pk, ref.created, ref.corrections, thing.entries.epoch),
        viewer=(ref.may_correct, ref.reader),
        head=thing.entries.head,
    )


def entry_context(thing: EntryOf, membership: Any, request: Any = None) -> dict[str, Any]:
    return {"entry": thing.entries.entry(thing.ref.pk)}


def _prepare(things: list[EntryOf]) -> None:
    """The events of the entries to render, loaded in one query per page."""
    by_list: dict[int, tuple[LazyEntries, list[int]]] = {}
    for thing in things:
        by_list.setdefault(id(thing.entries), (thing.entries, []))[1].append(thing.ref.pk)
    for entries, pks in by_list.values():
        entries.load_missing(pks)


ENTRY = register(
    Region(
        name="entry",
        template=ENTRY_TEMPLATE,
        load=lambda pk, membership: None,  # shown in lists only (a page's feed, a push's entry)
        context=entry_context,
        depends=entry_depends,
        element_id=lambda thing: f"event-{thing.ref.pk}",
        prepare=_prepare,
    )
)


def _token(request: Any, csrf_token: str | None) -> str | None:
    # As {% csrf_token %} renders it: the page's token, else the request's, else none (a live push: htmx sends the
    # page's token in a header).
    if csrf_token is not None:
        return csrf_token
    return None if request is None else page_token(request)


def render_entries(
    entries: Sequence[Any] | LazyEntries, *, oob: bool, request: Any, csrf_token: str | None = None
) -> SafeString:
    """The ``<li>`` of each entry, laid out as campaigns/partials/entries.html always has: a lazy list through the
    entry region, a list of LogEntry (a live push's entry, rendered once per audience) directly from the same
    template; the correction forms carry ``csrf_token`` (the page's), else the request's."""
    token = _token(request, csrf_token)
    if isinstance(entries, LazyEntries):
        things = [EntryOf(ref, entries) for ref in entries.refs]
        htmls = [str(html) for html in regions_html(ENTRY, things, None, request=None, token=token, oob=oob)]
    else:
        htmls = [
            render_to_string(ENTRY_TEMPLATE, {"entry": entry, "oob": oob, "csrf_token": token}) for entry in entries
        ]
    parts = ["\n"]  # entries.html used to loop in the template: a newline before the list and each entry
    parts.extend("\n" + html for html in htmls)
    return mark_safe("".join(parts))  # noqa: S308 - entry.html's own output
