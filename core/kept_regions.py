"""The kept-fragment service for regions (``core.regions``): one store, one switch, one CSRF substitution.

A region's HTML is kept under a key derived from nothing but its declaration (``Depends``), the markup
version computed from its template's sources (``core.template_digest``), the language and the time zone:

- the **outer key** names the campaign's stream head, the declared rows and the viewer. Until an Event moves
  the head, nothing a region reads through its subjects can have changed, so the kept HTML is served without
  reading anything more;
- the **inner key** replaces the head by the versions of the declared subjects (one query): after an Event that
  touched none of them, the HTML rendered before the Event is served again without building its context.

The store is the bounded ``fragments`` cache, the switch ``settings.FRAGMENT_CACHE`` and the CSRF token is put
in on the way out (``core.fragment_cache.with_token``), as for every kept fragment. With the switch off, a
region renders the same bytes, only every time.

A region with a ``Frame`` (``core.regions``) is also kept as a **frame**: its bytes with each hole
(``{% hole "name" %}``) marked, under the frame's narrower declaration. When the whole region must be rendered anew,
the frame is looked up first; found, only its holes are rendered, each a region kept by its own declaration. So an
Atout spent renders a sheet's counters and ledger into the sheet kept before it, and builds none of the rest.
"""

from __future__ import annotations

import datetime as dt
import decimal
import hashlib
import re
from collections.abc import Sequence
from typing import Any

from django.core.cache import caches
from django.template.loader import render_to_string
from django.utils import timezone
from django.utils.safestring import SafeString
from django.utils.translation import get_language

from core.fragment_cache import CSRF_MARKER, Unkeyable, enabled, fingerprint, kept_at, page_token, with_token
from core.regions import Depends, Frame, Region, get, head_trusted, pass_fact, versions, versions_known
from core.template_digest import markup_version

_SCALARS = frozenset({str, int, bool, float, type(None), dt.date, dt.datetime, dt.time, dt.timedelta, decimal.Decimal})


HOLES = "region_holes"
"""The context flag under which a frame is drawn: each ``{% hole %}`` prints its marker instead of its bytes."""

# A hole's place in a kept frame: an HTML comment, which no escaped text can hold (``<`` is escaped), so a marker
# is only ever one the frame's own template printed.
_HOLE = re.compile(r"<!--tablee-hole:([\w-]+)-->")


def hole_marker(name: str) -> str:
    """Where hole ``name`` goes in its frame's kept bytes."""
    return f"<!--tablee-hole:{name}-->"


def _plain(value: Any) -> bool:
    """Whether ``value`` holds only built-in scalars (exact types: no SafeString, no enum) in tuples: its ``repr``
    then says all it holds, and the walk of ``fingerprint`` (the bulk of a key's cost) is not needed."""
    kind = type(value)
    if kind is not tuple:
        return kind in _SCALARS
    # A loop rather than ``all()`` over a generator: a page's fifty entry keys ask it of every part of every key.
    for item in value:
        kind = type(item)
        if kind is tuple:
            if not _plain(item):
                return False
        elif kind not in _SCALARS:
            return False
    return True


def _digest(parts: Any, *, plain: bool | None = None) -> str:
    """The key's digest of ``parts``; ``plain``: whether they are plain, when the caller knows it already."""
    if plain is None:
        plain = _plain(parts)
    text = repr(parts) if plain else repr(fingerprint(parts))
    return hashlib.sha256(text.encode()).hexdigest()


Here = tuple[str, str, str]  # a region's markup version, the language and the time zone: the same for a whole list


def _here(region: Region) -> Here:
    return markup_version(region.template), get_language() or "", timezone.get_current_timezone_name()


def _fixed(
    region: Region, depends: Depends, oob: bool, here: Here | None = None, *, viewer: Any = None, shows: str = ""
) -> tuple[Any, ...]:
    """What both keys share: the region and its markup, the language and zone, what it shows (its element's id: two
    Sequences' boards are two things even where their declarations read alike), the rows and the viewer (the outer key
    the member's ``viewer``, the inner key the readers alike: ``Depends.readers``)."""
    markup, language, zone = _here(region) if here is None else here
    who = depends.viewer if viewer is None else viewer
    return (region.name, markup, language, zone, shows, depends.campaign_id, depends.rows, who, oob)


def outer_key(
    region: Region, depends: Depends, oob: bool = False, here: Here | None = None, *, shows: str = ""
) -> str | None:
    """The key under the stream head (``None`` when the declaration names no head, or when the head was read before
    a write of this same request: ``core.regions.head_trusted``)."""
    if depends.head is None or not head_trusted():
        return None
    return f"region-at:{region.name}:{_digest((_fixed(region, depends, oob, here, shows=shows), depends.head))}"


def inner_key(
    region: Region, depends: Depends, oob: bool = False, found: dict[str, int] | None = None, here: Here | None = None,
    *, shows: str = "",
) -> str:  # fmt: skip
    """The key under the versions of the declared subjects (``found``: versions read already)."""
    return _inner(region, depends, oob, found, here=here, shows=shows)[0]


def _inner(
    region: Region,
    depends: Depends,
    oob: bool,
    found: dict[str, int] | None = None,
    *,
    kind: str = "region",
    here: Here | None = None,
    shows: str = "",
) -> tuple[str, frozenset[str], dict[str, int]]:
    subjects = depends.all_subjects()
    if found is None:
        found = versions(subjects, depends.campaign_id)
    # The readers are asked after the versions: what ``alike`` reads is then read in the same pass.
    fixed = _fixed(region, depends, oob, here, viewer=("readers", depends.readers()), shows=shows)

    plain = _plain(fixed)

    def digest() -> str:
        # The versions are names and numbers: the parts are plain when ``fixed`` is.
        stamped = tuple(sorted((name, found.get(name, 0)) for name in subjects))
        return f"{kind}:{region.name}:{_digest((fixed, stamped), plain=plain)}"

    # Twenty pages of one live event ask for the same keys: each is worked out once per render pass, under what it is
    # made of (the pass forgets it with the versions it was read with: ``core.regions.pass_fact``). Only for plain
    # values, whose equality is their content (a model instance is equal to any other of its row).
    key: str = pass_fact(("inner key", kind, fixed, subjects), digest) if plain else digest()
    return key, subjects, found


def _framed(
    region: Region, frame: Frame, thing: Any, membership: Any, request: Any, oob: bool, token: str | None
) -> str:
    """Region ``region`` from its frame, kept under the frame's declaration, with each hole put in: a region of its
    own, showing the same thing, kept by its own declaration (``token``: as ``region_html``'s render gets it)."""
    depends = frame.depends(thing, membership, request)
    key, asked, found = _inner(region, depends, oob, kind="frame", shows=region.element_id(thing))

    def render(csrf_token: str | None) -> str:
        context = frame.context(thing, membership, request)
        context.update({"oob": oob, "csrf_token": csrf_token, HOLES: True})
        with versions_known(asked, found):
            return render_to_string(region.template, context, request=request)

    html = kept_at(key, render, token)
    filled: dict[str, str] = {}  # a hole shown in several places (a sheet's version) is rendered or found once

    def hole(found: re.Match[str]) -> str:
        name = found[1]
        if name not in filled:
            filled[name] = region_html(get(name), thing, membership, request=request, token=token)
        return filled[name]

    return _HOLE.sub(hole, html)


def _with_own(region: Region, html: str, thing: Any, membership: Any) -> SafeString:
    """A copy kept for readers wider than one member, with this member's own parts put in (``Region.own``): our own
    templates' output, marked safe as ``with_token`` does."""
    return SafeString(html if region.own is None else region.own(html, thing, membership))


def region_html(
    region: Region,
    thing: Any,
    membership: Any,
    *,
    request: Any = None,
    token: str | None = None,
    oob: bool = False,
    depends: Depends | None = None,
) -> SafeString:
    """Region ``region`` showing ``thing`` to ``membership``, kept by its declaration; ``token`` is the CSRF
    token to print (with a ``request`` and none given, the request's own; ``None`` prints none). ``depends``: the
    region's declaration for them when the caller has asked it already (with what it read: its subjects, its
    readers)."""
    if token is None and request is not None:
        token = page_token(request)
    # The versions the inner key was read with: the regions rendered inside this one (a board's rows) key
    # themselves with them, without reading them again.
    read: list[tuple[frozenset[str], dict[str, int]]] = []

    def render(csrf_token: str | None) -> str:
        if region.frame is not None and enabled():
            try:
                return _framed(region, region.frame, thing, membership, request, oob, csrf_token)
            except Unkeyable:
                pass  # the frame's declaration holds a value no key can hold: the whole region, rendered
        context = region.context(thing, membership, request)
        context.update({"oob": oob, "csrf_token": csrf_token})
        if not read:
            return render_to_string(region.template, context, request=request)
        with versions_known(*read[-1]):
            return render_to_string(region.template, context, request=request)

    shows = region.element_id(thing)

    def keyed(depends: Depends) -> str:
        key, asked, found = _inner(region, depends, oob, shows=shows)
        read.append((asked, found))
        return key

    def own(html: str) -> SafeString:
        # The key under the stream head is the member's: their own parts are put in before it keeps the copy.
        return _with_own(region, html, thing, membership)

    if not enabled():
        return own(render(token))
    if depends is None:
        depends = region.depends(thing, membership, request)
    try:
        outer = outer_key(region, depends, oob, shows=shows)
        if outer is None:
            return own(kept_at(keyed(depends), render, token))
    except Unkeyable:
        return own(render(token))

    def inner(csrf_token: str | None) -> str:
        return own(kept_at(keyed(depends), render, csrf_token))

    return kept_at(outer, inner, token)


def regions_html(
    region: Region,
    things: Sequence[Any],
    membership: Any,
    *,
    request: Any = None,
    token: str | None = None,
    oob: bool = False,
) -> list[SafeString]:
    """``region_html`` of each of ``things``, in order, with one read of the store for all their keys, one read of
    the versions, and ``region.prepare`` called once with the things that must be rendered (a list of log
    entries: the events are loaded only for the entries not kept yet)."""
    if token is None and request is not None:
        token = page_token(request)

    def render(thing: Any, csrf_token: str | None) -> str:
        context = region.context(thing, membership, request)
        context.update({"oob": oob, "csrf_token": csrf_token})
        return render_to_string(region.template, context, request=request)

    def afresh(thing: Any) -> SafeString:  # not kept: rendered with the token, its own parts put in
        return _with_own(region, render(thing, token), thing, membership)

    def prepared(missing: list[Any]) -> None:
        if missing and region.prepare is not None:
            region.prepare(missing)

    if not things:
        return []
    if not enabled():
        prepared(list(things))
        return [afresh(thing) for thing in things]
    cache = caches["fragments"]
    declared = [region.depends(thing, membership, request) for thing in things]
    try:
        here = _here(region)  # read once for the whole list
        shown = [region.element_id(thing) for thing in things]
        outer = [outer_key(region, depends, oob, here, shows=id_) for depends, id_ in zip(declared, shown, strict=True)]
    except Unkeyable:
        prepared(list(things))
        return [afresh(thing) for thing in things]
    found: dict[str, str] = cache.get_many([key for key in outer if key is not None])
    html: list[str | None] = [found.get(key) if key is not None else None for key in outer]
    pending = [index for index, piece in enumerate(html) if piece is None]
    if pending:
        by_campaign: dict[int, set[str]] = {}
        for index in pending:
            by_campaign.setdefault(declared[index].campaign_id, set()).update(declared[index].all_subjects())
        read = {pk: versions(frozenset(names), pk) for pk, names in by_campaign.items()}
        inner = {
            index: inner_key(region, declared[index], oob, read[declared[index].campaign_id], here, shows=shown[index])
            for index in pending
        }
        kept_inner: dict[str, str] = cache.get_many(list(inner.values()))
        prepared([things[index] for index in pending if inner[index] not in kept_inner])
        fresh: dict[str, str] = {}
        for index in pending:
            piece = kept_inner.get(inner[index])
            if piece is None:
                piece = fresh[inner[index]] = render(things[index], CSRF_MARKER)
            if outer[index] is not None:
                fresh[str(outer[index])] = piece
            html[index] = piece
        cache.set_many(fresh, timeout=None)
    return [
        with_token(_with_own(region, str(piece), thing, membership), token)
        for piece, thing in zip(html, things, strict=True)
    ]


def changed_html(
    region: Region,
    thing: Any,
    membership: Any,
    touched: frozenset[str],
    *,
    request: Any = None,
    token: str | None = None,
    depends: Depends | None = None,
) -> list[SafeString]:
    """What an Event that touched ``touched`` changed of ``region``, as out-of-band swaps: nothing when its declaration
    names none of them; its items alone, each swapped by its own id, when it is made of items (``core.regions.Items``)
    and the Event changed some of them and nothing else it reads; otherwise the whole region. A live push and the answer
    to one's own POST send the same (``campaigns.live_regions``, ``conflicts.views``). ``depends``: the region's
    declaration for them, when the caller has asked it already."""
    declared = region.depends(thing, membership, request) if depends is None else depends
    if not declared.changed_by(touched):
        return []
    items = region.items
    if items is not None and not items.depends(thing, membership, request).changed_by(touched):
        return [
            region_html(item_region, item, membership, request=request, token=token, oob=True)
            for item_region, item in items.changed(thing, membership, touched)
        ]
    return [region_html(region, thing, membership, request=request, token=token, oob=True, depends=declared)]
