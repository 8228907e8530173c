"""Small HTTP helpers shared by the apps' views."""

from __future__ import annotations

from collections.abc import Callable
from functools import wraps
from typing import Any, TypeVar, cast

from django.contrib.auth.models import User
from django.http import HttpRequest, HttpResponse, HttpResponseNotAllowed
from django.utils.http import url_has_allowed_host_and_scheme
from django_htmx.middleware import HtmxDetails


class HtmxRequest(HttpRequest):
    """A request as django-htmx's middleware leaves it (for type hints: no view builds one)."""

    htmx: HtmxDetails


class AuthenticatedRequest(HtmxRequest):
    """The request of a view behind ``login_required``: its user is signed in."""

    user: User


def safe_next(target: str, request: HttpRequest) -> str | None:
    """``target`` when it is a path on this site, else None.

    Only an absolute path is followed: ``redirect()`` takes a bare word such as ``abc`` for a view name and
    raises ``NoReverseMatch`` (a 500, after the write), and a full URL is never needed by our own forms.
    """
    if not target or not target.startswith("/") or "\x00" in target:
        return None
    allowed = url_has_allowed_host_and_scheme(
        target, allowed_hosts={request.get_host()}, require_https=request.is_secure()
    )
    return target if allowed else None


def posted_next_or(request: HttpRequest, default: str) -> str:
    """The posted ``next`` when it stays on this site, else ``default`` (no open redirects, no 500)."""
    return safe_next(request.POST.get("next") or "", request) or default


def bounded_int(raw: str | None, *, default: int, low: int, high: int) -> int:
    """A posted integer within ``low``–``high`` (the database column's range or the rule's), else ValueError.

    A number outside the column's range used to reach the database's check (an IntegrityError or a
    DataError: a 500) instead of the form's refusal.
    """
    value = int(raw) if raw else default
    if not low <= value <= high:
        raise ValueError(f"{value} is outside {low}–{high}")
    return value


View = TypeVar("View", bound=Callable[..., HttpResponse])


def allow_methods(*methods: str, reach: Callable[..., object]) -> Callable[[View], View]:
    """Django's ``require_http_methods`` for a view whose URL names an object, with the visitor's access checked
    first: another method answers 405 only to someone who may reach that object. ``reach`` takes the view's
    arguments and raises ``Http404`` otherwise, as the view itself does.

    The method came first: an outsider got 404 to GET a sheet but 405 to POST it, and 405 to GET its actions,
    which told them the sheet exists (one answer for "not yours": docs/security.md)."""

    def decorator(view: View) -> View:
        @wraps(view)
        def checked(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
            if request.method not in methods:
                reach(request, *args, **kwargs)
                return HttpResponseNotAllowed(methods)
            return view(request, *args, **kwargs)

        return cast(View, checked)

    return decorator
