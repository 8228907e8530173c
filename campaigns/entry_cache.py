"""Log entries rendered once and kept: the log is append-only, so an entry's HTML only changes through a
correction (or the renaming of a character, a member or a session it names).

Key: the event, the reader's language and time zone, what the reader may do with it (correct it or not),
whether it is an out-of-band swap, the corrections it has (read with the page, one query), and the
campaign's ``log_epoch`` (bumped when a name an entry shows changes, see ``campaigns.signals``). Whatever
else an entry shows comes from the event itself, which never changes. So a cached entry can only be served
to a reader whose own rendering would be the same bytes: the reader's rights are part of the key, and an
event is only ever looked up after the visibility filter has chosen it for this reader.

The CSRF token of the correction form is not kept: the entry is stored with a marker, replaced per request.
Entries live in the ``fragments`` cache (per process by default).
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any

from django.core.cache import caches
from django.middleware.csrf import get_token
from django.template.loader import render_to_string
from django.utils import timezone
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import get_language

from core import fragment_cache
from core.fragment_cache import CSRF_INPUT, CSRF_MARKER, token_input
from core.template_digest import markup_version

ENTRY_TEMPLATE = "campaigns/partials/entry.html"


def enabled() -> bool:
    """Whether entries are kept: the one switch of every kept fragment (``FRAGMENT_CACHE``)."""
    return fragment_cache.enabled()


@dataclass(frozen=True)
class EntryRef:
    """What decides one entry's HTML besides the reader's language and time zone."""

    pk: int
    created: str  # with the campaign, tells this event from any other that ever had its id (SQLite reuses ids)
    may_correct: bool
    corrections: tuple[tuple[int, str], ...]


@dataclass
class LazyEntries:
    """The entries of a page, built (from the database) only for those not already kept.

    ``load(pks)`` returns the LogEntry of each of those events as this reader sees them.
    """

    refs: list[EntryRef]
    campaign: int
    epoch: int
    load: Callable[[list[int]], dict[int, Any]]
    _loaded: dict[int, Any] = field(default_factory=dict)

    def __len__(self) -> int:
        return len(self.refs)

    def __bool__(self) -> bool:
        return bool(self.refs)

    def __iter__(self) -> Iterator[Any]:
        """The LogEntry objects themselves (all loaded), for code that reads them rather than render them."""
        missing = [ref.pk for ref in self.refs if ref.pk not in self._loaded]
        if missing:
            self._loaded.update(self.load(missing))
        return iter([self._loaded[ref.pk] for ref in self.refs])


def _key(ref: EntryRef, campaign: int, epoch: int, oob: bool, language: str, zone: str) -> str:
    fixes = hashlib.sha256(repr(ref.corrections).encode()).hexdigest()[:24] if ref.corrections else ""
    rights = "c" if ref.may_correct else "r"
    event = f"{campaign}:{ref.pk}:{ref.created}"
    return f"entry:{markup_version(ENTRY_TEMPLATE)}:{event}:{epoch}:{language}:{zone}:{rights}:{int(oob)}:{fixes}"


def _render_one(entry: Any, oob: bool) -> str:
    return render_to_string(ENTRY_TEMPLATE, {"entry": entry, "oob": oob, "csrf_token": CSRF_MARKER})


def _token_input(request: Any) -> str:
    # As {% csrf_token %} renders it: the request's token, or nothing when there is no request (live pushes:
    # htmx sends the page's token in a header).
    return "" if request is None else token_input(get_token(request))


def render_entries(
    entries: Sequence[Any] | LazyEntries, *, oob: bool, request: Any, csrf_token: str | None = None
) -> SafeString:
    """The ``<li>`` of each entry, laid out as campaigns/partials/entries.html always has; the correction
    forms carry ``csrf_token`` (the page's, or core.fragment_cache's marker inside a kept part), else the
    request's."""
    if isinstance(entries, LazyEntries) and enabled():
        htmls = _cached(entries, oob)
    else:
        htmls = [_render_one(entry, oob) for entry in entries]
    token = None
    parts = ["\n"]  # entries.html used to loop in the template: a newline before the list and each entry
    for html in htmls:
        if CSRF_MARKER in html:
            if token is None:
                token = token_input(csrf_token) if csrf_token is not None else _token_input(request)
            html = html.replace(CSRF_INPUT, token)
        parts.append("\n" + html)
    return mark_safe("".join(parts))  # noqa: S308 - entry.html's own output


def _cached(entries: LazyEntries, oob: bool) -> list[str]:
    cache = caches["fragments"]
    language, zone = get_language() or "", timezone.get_current_timezone_name()
    keys = [_key(ref, entries.campaign, entries.epoch, oob, language, zone) for ref in entries.refs]
    found: dict[str, str] = cache.get_many(keys)
    missing = [ref.pk for ref, key in zip(entries.refs, keys, strict=True) if key not in found]
    if missing:
        loaded = entries.load(missing)
        fresh = {}
        for ref, key in zip(entries.refs, keys, strict=True):
            if key not in found and ref.pk in loaded:
                fresh[key] = found[key] = _render_one(loaded[ref.pk], oob)
        cache.set_many(fresh, timeout=None)
    return [found[key] for key in keys if key in found]
