"""The WebSocket handshake's Origin must be this site: same scheme, host and port.

Channels' ``AllowedHostsOriginValidator`` checks the Origin's host name against ``ALLOWED_HOSTS`` and
ignores its scheme and port, so a page served by anything else on an allowed host
(``http://127.0.0.1:9999``) could open a socket with the visitor's cookies. Browsers send the Origin of
the page on every WebSocket handshake; here it must be the origin the socket was asked of, as Django's
CSRF check requires of a POST's Origin (or one listed in ``CSRF_TRUSTED_ORIGINS``).
"""

from __future__ import annotations

from typing import Any
from urllib.parse import SplitResult, urlsplit

from channels.security.websocket import WebsocketDenier
from django.conf import settings
from django.http.request import split_domain_port, validate_host

DEFAULT_PORTS = {"http": 80, "https": 443}
# A socket's scheme as the page that opened it says it: wss is opened by an https page.
PAGE_SCHEMES = {"ws": "http", "wss": "https", "http": "http", "https": "https"}


def _header(scope: dict[str, Any], name: bytes) -> str | None:
    headers: list[tuple[bytes, bytes]] = scope.get("headers", [])
    for key, value in headers:
        if key == name:
            try:
                return value.decode("latin1")
            except UnicodeDecodeError:  # pragma: no cover - latin1 decodes every byte
                return None
    return None


def _origin_tuple(url: SplitResult) -> tuple[str, str, int] | None:
    scheme = url.scheme.lower()
    try:
        port = url.port
    except ValueError:
        return None
    if scheme not in DEFAULT_PORTS or not url.hostname:
        return None
    return scheme, url.hostname.lower(), port or DEFAULT_PORTS[scheme]


def _scheme(scope: dict[str, Any]) -> str:
    """The page's scheme: a proxy that terminates TLS says so in its header (``SECURE_PROXY_SSL_HEADER``)."""
    proxy = getattr(settings, "SECURE_PROXY_SSL_HEADER", None)
    if proxy:
        header, secure_value = proxy
        name = header.removeprefix("HTTP_").replace("_", "-").lower().encode()
        forwarded = _header(scope, name)
        if forwarded is not None:
            return "https" if forwarded.split(",")[0].strip() == secure_value else "http"
    return PAGE_SCHEMES.get(str(scope.get("scheme", "ws")), "http")


def origin_allowed(scope: dict[str, Any]) -> bool:
    raw = _header(scope, b"origin")
    if not raw:
        return False
    origin = _origin_tuple(urlsplit(raw))
    if origin is None:
        return False
    trusted = {_origin_tuple(urlsplit(o)) for o in getattr(settings, "CSRF_TRUSTED_ORIGINS", [])}
    if origin in trusted - {None}:
        return True
    named = f"[{origin[1]}]" if ":" in origin[1] else origin[1]  # an IPv6 address, as ALLOWED_HOSTS writes it
    if not validate_host(named, settings.ALLOWED_HOSTS):
        return False
    host = _header(scope, b"host")
    if host is None:
        # No Host (test clients and some proxies): only the allowed host on its scheme's own port.
        return origin[2] == DEFAULT_PORTS[origin[0]]
    domain, port = split_domain_port(host)
    scheme = _scheme(scope)
    asked = (scheme, domain.lower().strip("[]"), int(port) if port.isdigit() else DEFAULT_PORTS[scheme])
    return origin == asked


class SameOriginValidator:
    """ASGI middleware for the websocket router: refuse a handshake from another origin."""

    def __init__(self, application: Any) -> None:
        self.application = application

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> Any:
        if scope["type"] != "websocket":
            raise ValueError("SameOriginValidator only guards WebSocket connections.")
        if origin_allowed(scope):
            return await self.application(scope, receive, send)
        return await WebsocketDenier()(scope, receive, send)
