"""Small HTTP helpers shared by the apps' views."""

from __future__ import annotations

from django.http import HttpRequest
from django.utils.http import url_has_allowed_host_and_scheme


def posted_next_or(request: HttpRequest, default: str) -> str:
    """The posted ``next`` when it stays on this site, else ``default`` (no open redirects)."""
    target = request.POST.get("next") or ""
    allowed = url_has_allowed_host_and_scheme(
        target, allowed_hosts={request.get_host()}, require_https=request.is_secure()
    )
    return target if target and allowed else default
