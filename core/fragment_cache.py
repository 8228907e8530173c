"""Fragments rendered once and kept, under a key made of everything that decides their bytes.

A fragment (a character's sheet, a dashboard panel, the note form) is a pure function of its template,
the values its context hands the template, the active language and time zone. ``kept()`` digests those
values — every model row, dataclass, form and choice list in the context, walked field by field by
``fingerprint()`` — and keeps the HTML under that digest. Nothing outside the key can reach the output,
so a fragment rendered for one reader is only ever served to a reader whose own rendering would be the
same bytes: rights (narrator, owner, may edit) are values of the context like any other, and a row that
changed (a new version, a new name, one more Revers) is a new key. Nothing needs invalidating; old keys
age out of the bounded ``fragments`` cache.

What the key cannot see, the caller must add to ``parts``: anything a template reads outside its
context (the request's session, a query a template tag makes). A context value the walker does not know
(an unevaluated queryset, a bound form) raises ``Unkeyable`` and the fragment is rendered as usual.

The CSRF token is never kept: fragments are rendered with a marker, replaced on the way out by the
request's token exactly as ``{% csrf_token %}`` prints it.
"""

from __future__ import annotations

import dataclasses
import datetime as dt
import decimal
import enum
import hashlib
from collections.abc import Callable, Mapping
from html import escape as html_escape
from typing import Any

from django import forms
from django.conf import settings
from django.core.cache import caches
from django.db import models
from django.middleware.csrf import get_token
from django.utils import timezone
from django.utils.functional import Promise
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import get_language

from core.template_digest import markup_version

CSRF_MARKER = "__tablee_csrf_marker__"
CSRF_INPUT = f'<input type="hidden" name="csrfmiddlewaretoken" value="{CSRF_MARKER}">'
_PLAIN = (int, float, bool, type(None), decimal.Decimal, dt.date, dt.time, dt.datetime, dt.timedelta, bytes)
_MAX_DEPTH = 24


class Unkeyable(Exception):
    """The context holds a value whose content the key cannot see: render without keeping."""


def enabled() -> bool:
    return bool(getattr(settings, "FRAGMENT_CACHE", True))


def fingerprint(value: Any, depth: int = 0, seen: set[int] | None = None) -> Any:
    """A plain, comparable copy of everything ``value`` can show a template."""
    seen = set() if seen is None else seen
    if depth > _MAX_DEPTH:
        raise Unkeyable("too deep")
    if isinstance(value, str):
        # SafeString and str escape differently: the type is part of the key.
        return ("safe" if isinstance(value, SafeString) else "str", str(value))
    if isinstance(value, enum.Enum):
        return ("enum", type(value).__qualname__, value.value)
    if isinstance(value, _PLAIN):
        return value
    if isinstance(value, Promise):
        return ("str", str(value))  # a lazy string, in the active language
    d = depth + 1
    if isinstance(value, Mapping):
        return ("map", tuple((fingerprint(k, d, seen), fingerprint(v, d, seen)) for k, v in value.items()))
    if isinstance(value, list | tuple):
        return ("seq", tuple(fingerprint(v, d, seen) for v in value))
    if isinstance(value, set | frozenset):
        return ("set", tuple(sorted(repr(fingerprint(v, d, seen)) for v in value)))
    if isinstance(value, models.Model):
        return _model(value, d, seen)
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        fields = tuple(fingerprint(getattr(value, f.name), d, seen) for f in dataclasses.fields(value))
        return ("data", type(value).__qualname__, fields)
    if isinstance(value, forms.BaseForm):
        return _form(value, d, seen)
    raise Unkeyable(type(value).__qualname__)


def _model(row: models.Model, depth: int, seen: set[int]) -> Any:
    """A row's own columns, and the related rows already loaded with it (select_related, prefetch_related):
    those are what a template can read without a query, which the caller would have to key itself."""
    if id(row) in seen:  # a row met again through a relation (a state and its character): already in the key
        return ("again", row._meta.label, row.pk)
    seen.add(id(row))
    columns = tuple(fingerprint(getattr(row, f.attname), depth, seen) for f in row._meta.concrete_fields)
    related = tuple(
        (name, fingerprint(other, depth, seen)) for name, other in sorted(row._state.fields_cache.items())
    )  # fmt: skip
    prefetched = getattr(row, "_prefetched_objects_cache", {})
    many = tuple((name, fingerprint(list(rows), depth, seen)) for name, rows in sorted(prefetched.items()))
    return ("row", row._meta.label, columns, related, many)


def _form(form: forms.BaseForm, depth: int, seen: set[int]) -> Any:
    """An unbound form: its class, initial values and each field as a widget would draw it."""
    if form.is_bound:
        raise Unkeyable("bound form")  # errors and typed values: render it as usual
    fields = []
    for name, field in form.fields.items():
        choices = getattr(field, "choices", None)
        if choices is not None:
            # A model choice field reads its rows here (one query), so its options are in the key.
            choices = [(getattr(v, "value", v), label) for v, label in choices]
        fields.append(
            (name, type(field).__qualname__, field.label, field.help_text, field.required, field.initial,
             field.disabled, type(field.widget).__qualname__, field.widget.attrs, choices)
        )  # fmt: skip
    return ("form", type(form).__qualname__, form.prefix, fingerprint(form.initial, depth, seen),
            fingerprint(fields, depth, seen))  # fmt: skip


def key_of(name: str, parts: Any, template: str) -> str:
    """The cache key of fragment ``name`` for ``parts`` in the active language and time zone, drawn by
    ``template`` (its markup version, computed from its sources, is part of the key)."""
    language, zone = get_language() or "", timezone.get_current_timezone_name()
    digest = hashlib.sha256(repr(fingerprint((language, zone, parts))).encode()).hexdigest()
    return f"fragment:{markup_version(template)}:{name}:{digest}"


def token_input(token: str | None) -> str:
    """What ``{% csrf_token %}`` prints for ``token`` (nothing without one)."""
    if not token or token == "NOTPROVIDED":
        return ""
    # The standard library's escape, which Django's own ``escape`` wraps (without its lazy-string checks): a live
    # draw's pass puts a token in some sixty kept regions.
    return CSRF_INPUT.replace(CSRF_MARKER, html_escape(token))


def page_token(request: Any) -> str:
    """The request's masked CSRF token, masked once for the whole answer, as ``{% csrf_token %}`` prints it (Django's
    context processor asks ``get_token`` once per render too): each ``get_token`` masks the secret afresh, with 32 random
    characters, and a page or a POST's answer puts a token in every kept region it shows. Masked again if the secret
    changed meanwhile (``rotate_token``)."""
    kept = request.__dict__.get("_tablee_page_token")
    if kept is None or kept[0] != request.META.get("CSRF_COOKIE"):
        token = get_token(request)  # sets the secret when the request had none
        kept = request.__dict__["_tablee_page_token"] = (request.META.get("CSRF_COOKIE"), token)
    return str(kept[1])


def with_token(html: str, token: str | None) -> SafeString:
    """A kept fragment with the marker replaced by this reader's CSRF token. The marker itself as the token (a live
    pass, whose copies each socket puts its own token in later) leaves the fragment as it was kept."""
    if token != CSRF_MARKER and CSRF_MARKER in html:
        html = html.replace(CSRF_INPUT, token_input(token))
        html = html.replace(CSRF_MARKER, html_escape(token or ""))
    # Our own templates' output. ``SafeString`` itself: ``mark_safe``'s lazy-string check costs more than the rest here.
    return SafeString(html)


def kept(name: str, parts: Any, render: Callable[[str | None], str], token: str | None, *, template: str) -> SafeString:
    """Fragment ``name``: ``render(csrf_token)`` once per key, then the kept HTML with this reader's token.

    ``parts`` holds everything the fragment shows (usually its whole template context); ``token`` is the
    CSRF token the page would print (``None`` where there is none, e.g. live pushes without one);
    ``template`` is the template ``render`` draws with."""
    if not enabled():
        return mark_safe(render(token))  # noqa: S308
    try:
        key = key_of(name, parts, template)
    except Unkeyable:
        return mark_safe(render(token))  # noqa: S308
    return kept_at(key, render, token)


def kept_at(key: str, render: Callable[[str | None], str], token: str | None) -> SafeString:
    """``kept()`` under a key the caller has made with ``key_of`` already (it also needs it for an ETag)."""
    if not enabled():
        return mark_safe(render(token))  # noqa: S308
    cache = caches["fragments"]
    html = cache.get(key)
    if html is None:
        html = render(CSRF_MARKER)
        cache.set(key, html, timeout=None)
    return with_token(html, token)
