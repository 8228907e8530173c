"""Refuse a NUL character anywhere in a request's path, query or form fields, before any view runs.

PostgreSQL text and jsonb cannot hold ``\\x00`` (psycopg raises ``DataError``: a 500, sometimes after part
of a write), and no field of ours means to take one. Django's form ``CharField`` already refuses it; this
covers every value a view reads without a form (tokens in the path, ``request.POST.get``), project-wide.
"""

from __future__ import annotations

from collections.abc import Callable

from django.http import HttpRequest, HttpResponse, HttpResponseBadRequest
from django.utils.translation import gettext as _

from core.regions import version_pass

NUL = "\x00"


def _holds_nul(request: HttpRequest) -> bool:
    if NUL in request.path:
        return True
    for query in (request.GET, request.POST if request.method == "POST" else None):
        if query is None:
            continue
        for key, values in query.lists():
            if NUL in key or any(NUL in value for value in values):
                return True
    return False


class RefuseNulMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        if _holds_nul(request):
            return HttpResponseBadRequest(
                _("The request holds a NUL character, which no field accepts."),
                content_type="text/plain; charset=utf-8",
            )
        return self.get_response(request)


class RegionVersionPassMiddleware:
    """One render pass per request (``core.regions.version_pass``): however many regions a page shows, their
    subjects' versions are read in one query."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        with version_pass():
            return self.get_response(request)
