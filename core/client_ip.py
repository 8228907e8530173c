"""Who a request comes from, for django-axes' per-client lockout (``AXES_CLIENT_IP_CALLABLE``).

``REMOTE_ADDR`` is the peer of the TCP connection: nobody can choose it. ``X-Forwarded-For`` is a header anyone
can send; it is read only when the site says it runs behind proxies (``BEHIND_PROXY``) and how many of them
(``TRUSTED_PROXY_COUNT``): each proxy appends the address it received the request from, so with N proxies the
client is the Nth entry from the right, and whatever lies further left is the client's own say. A value that is
no address (``not-an-ip``, ``999.1.1.1``) is ignored: it made every login a 500 on PostgreSQL (an ``inet``
column), and a new one per attempt escaped the per-client limit.
"""

from __future__ import annotations

import ipaddress

from django.conf import settings
from django.http import HttpRequest


def _address(value: str | None) -> str | None:
    """``value`` as a normalised IP address, or None."""
    try:
        return str(ipaddress.ip_address((value or "").strip()))
    except ValueError:
        return None


def forwarded_client(header: str, proxies: int) -> str | None:
    """The client in an ``X-Forwarded-For`` written by ``proxies`` trusted proxies, or None when the header is too
    short or that entry is not an address."""
    if proxies < 1:
        return None
    hops = header.split(",")
    if len(hops) < proxies:
        return None
    return _address(hops[-proxies])


def client_ip(request: HttpRequest) -> str | None:
    """The client's address: the forwarded one behind trusted proxies when it is an address, else the peer's."""
    remote = _address(request.META.get("REMOTE_ADDR"))
    if not settings.BEHIND_PROXY:
        return remote
    return forwarded_client(request.META.get("HTTP_X_FORWARDED_FOR", ""), settings.TRUSTED_PROXY_COUNT) or remote
