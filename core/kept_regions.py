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
"""

from __future__ import annotations

import hashlib
from typing import Any

from django.middleware.csrf import get_token
from django.template.loader import render_to_string
from django.utils import timezone
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import get_language

from core.fragment_cache import Unkeyable, enabled, fingerprint, kept_at
from core.regions import Depends, Region, versions, versions_known
from core.template_digest import markup_version


def _digest(parts: Any) -> str:
    return hashlib.sha256(repr(fingerprint(parts)).encode()).hexdigest()


def _fixed(region: Region, depends: Depends, oob: bool) -> tuple[Any, ...]:
    """What both keys share: the region and its markup, the language and zone, the rows and the viewer."""
    return (region.name, markup_version(region.template), get_language() or "", timezone.get_current_timezone_name(),
            depends.campaign_id, depends.rows, depends.viewer, oob)  # fmt: skip


def outer_key(region: Region, depends: Depends, oob: bool = False) -> str | None:
    """The key under the stream head (``None`` when the declaration names no head)."""
    if depends.head is None:
        return None
    return f"region-at:{region.name}:{_digest((_fixed(region, depends, oob), depends.head))}"


def inner_key(region: Region, depends: Depends, oob: bool = False) -> str:
    """The key under the versions of the declared subjects."""
    return _inner(region, depends, oob)[0]


def _inner(region: Region, depends: Depends, oob: bool) -> tuple[str, frozenset[str], dict[str, int]]:
    subjects = depends.all_subjects()
    found = versions(subjects)
    stamped = tuple(sorted((name, found.get(name, 0)) for name in subjects))
    return f"region:{region.name}:{_digest((_fixed(region, depends, oob), stamped))}", subjects, found


def region_html(
    region: Region,
    thing: Any,
    membership: Any,
    *,
    request: Any = None,
    token: str | None = None,
    oob: bool = False,
) -> SafeString:
    """Region ``region`` showing ``thing`` to ``membership``, kept by its declaration; ``token`` is the CSRF
    token to print (with a ``request`` and none given, the request's own; ``None`` prints none)."""
    if token is None and request is not None:
        token = get_token(request)
    # The versions the inner key was read with: the regions rendered inside this one (a board's rows) key
    # themselves with them, without reading them again.
    read: list[tuple[frozenset[str], dict[str, int]]] = []

    def render(csrf_token: str | None) -> str:
        context = region.context(thing, membership, request)
        context.update({"oob": oob, "csrf_token": csrf_token})
        if not read:
            return render_to_string(region.template, context, request=request)
        with versions_known(*read[-1]):
            return render_to_string(region.template, context, request=request)

    def keyed(depends: Depends) -> str:
        key, asked, found = _inner(region, depends, oob)
        read.append((asked, found))
        return key

    if not enabled():
        return mark_safe(render(token))  # noqa: S308 - our own template's output
    depends = region.depends(thing, membership, request)
    try:
        outer = outer_key(region, depends, oob)
        if outer is None:
            return kept_at(keyed(depends), render, token)
    except Unkeyable:
        return mark_safe(render(token))  # noqa: S308

    def inner(csrf_token: str | None) -> str:
        return str(kept_at(keyed(depends), render, csrf_token))

    return kept_at(outer, inner, token)
