"""What every live socket (a campaign page's, a game board's) reads from its page's handshake."""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Awaitable
from dataclasses import dataclass, field
from typing import Any, TypeVar

from channels.consumer import get_handler_name
from django.conf import settings
from django.db import DatabaseError
from django.http import HttpRequest
from django.middleware.csrf import get_token
from django.utils import translation
from django.utils.translation.trans_real import parse_accept_lang_header

from core.jsonlimits import JsonRefused, loads_limited

logger = logging.getLogger(__name__)

# WebSocket close code 1013, "try again later" (the channel layer is down): the page reconnects with backoff.
TRY_AGAIN_LATER = 1013


T = TypeVar("T")


class DispatchWithoutSweep:
    """Channels' ``AsyncConsumer.dispatch``, without the connection sweep channels 4.2 put before every handler.

    That sweep (``channels.db.aclose_old_connections``) runs ``close_old_connections`` on the sockets' one database
    thread for every message every socket handles: twenty sockets hearing of a draw made twenty hops to that thread
    and back, one behind the other, although a copy the pass rendered is taken on the event loop without any database
    (``campaigns.live_render.ready_html_for``). Every handler that does read goes through ``database_sync_to_async``,
    which closes old connections before and after its own work, so the sweep stays where a database is touched.
    ``tests/campaigns/test_live_socket_dispatch.py`` holds both halves."""

    async def dispatch(self, message: dict[str, Any]) -> None:
        handler = getattr(self, get_handler_name(message), None)
        if handler is None:
            raise ValueError(f"No handler for message type {message['type']}")
        await handler(message)


class DatabaseUnavailable(Exception):
    """The database did not answer a handshake's read in time."""


async def handshake_read(read: Awaitable[T]) -> T:
    """A handshake's database read, or ``DatabaseUnavailable`` after ``LIVE_HANDSHAKE_DB_SECONDS``.

    During a PostgreSQL outage the pool waits its own timeout (``DB_POOL_TIMEOUT``, 10 s) for a connection: the
    handshake hung that long before failing. The page is better told at once to try again later (1013) and
    reconnect with its backoff; the read left behind ends with the pool's timeout on its own thread."""
    try:
        return await asyncio.wait_for(read, timeout=settings.LIVE_HANDSHAKE_DB_SECONDS)
    except (TimeoutError, DatabaseError) as error:
        raise DatabaseUnavailable(repr(error)) from error


async def refuse_for_now(consumer: Any, error: Exception, *, accepted: bool = False) -> None:
    """Close a socket whose handshake could not read the database: 1013, one log line."""
    logger.warning("live socket %s refused, database unavailable: %s", consumer.scope.get("path", "?"), error)
    if not accepted:
        await consumer.accept()
    await consumer.close(code=TRY_AGAIN_LATER)


def page_csrf_token(scope: dict[str, Any]) -> str:
    """A masked token for the page's CSRF cookie, so forms in live fragments post as the page's do."""
    secret = scope.get("cookies", {}).get(settings.CSRF_COOKIE_NAME, "")
    if len(secret) != 32 or not secret.isalnum():
        return ""
    request = HttpRequest()
    request.META["CSRF_COOKIE"] = secret
    return get_token(request)


def page_language(scope: dict[str, Any]) -> str:
    """The page's language as LocaleMiddleware chose it: the language cookie, then the browser's
    Accept-Language, then the default (French)."""
    supported = dict(settings.LANGUAGES)
    cookie = scope.get("cookies", {}).get(settings.LANGUAGE_COOKIE_NAME)
    if cookie in supported:
        return str(cookie)
    headers = dict(scope.get("headers", []))
    accept = headers.get(b"accept-language", b"").decode("latin-1")
    for code, _quality in parse_accept_lang_header(accept):
        try:
            return translation.get_supported_language_variant(code)
        except LookupError:
            continue
    return str(settings.LANGUAGE_CODE)


# The largest stream position or game version a column holds (signed 64 bits).
MAX_POSITION = 2**63 - 1

# A page may ask to catch up at most this often (a catch-up renders a few events, or the page's regions).
RESUME_INTERVAL = 1.0


# Close codes (RFC 6455, 7.4.1) for a message the socket will not read.
UNSUPPORTED_DATA = 1003  # a binary frame: the pages speak JSON text only
INVALID_PAYLOAD = 1007  # not JSON, too deeply nested, NUL or NaN
POLICY_VIOLATION = 1008  # more messages than the rate limit allows
MESSAGE_TOO_BIG = 1009


@dataclass
class Refusal:
    code: int
    reason: str


@dataclass
class MessageGate:
    """What one socket lets through: JSON text within ``LIVE_MESSAGE_MAX_BYTES`` and ``LIVE_MESSAGE_MAX_DEPTH``, at
    most ``LIVE_MESSAGE_BURST`` messages at once refilled at ``LIVE_MESSAGES_PER_SECOND`` (a token bucket).

    ``json.loads`` recursed once per bracket: ``"[" * 100000`` raised ``RecursionError``, which dropped the socket
    without a close frame and logged a traceback. A page sends a few small messages (a resume when it comes back to
    the foreground, the panels it opens); a client flooding its socket is closed instead of keeping the event loop
    busy for the process's other sockets."""

    rate: float = field(default_factory=lambda: float(settings.LIVE_MESSAGES_PER_SECOND))
    burst: float = field(default_factory=lambda: float(settings.LIVE_MESSAGE_BURST))
    tokens: float = -1.0
    at: float = field(default_factory=time.monotonic)
    refused: bool = False

    def admit(self, text_data: str | None, bytes_data: bytes | None) -> tuple[Any, Refusal | None]:
        """The message as JSON, or why the socket closes (once: a refused socket reads nothing more)."""
        if self.refused:
            return None, Refusal(0, "already refused")
        refusal = self._refusal(text_data, bytes_data)
        if refusal is not None:
            self.refused = True
            return None, refusal
        try:
            return loads_limited(
                text_data or "", max_bytes=settings.LIVE_MESSAGE_MAX_BYTES, max_depth=settings.LIVE_MESSAGE_MAX_DEPTH
            ), None
        except (JsonRefused, ValueError) as error:
            self.refused = True
            return None, Refusal(INVALID_PAYLOAD, f"invalid JSON ({error.__class__.__name__}: {str(error)[:80]})")

    def _refusal(self, text_data: str | None, bytes_data: bytes | None) -> Refusal | None:
        now = time.monotonic()
        if self.tokens < 0:
            self.tokens = self.burst
        self.tokens = min(self.burst, self.tokens + (now - self.at) * self.rate)
        self.at = now
        if self.tokens < 1:
            return Refusal(POLICY_VIOLATION, "too many messages")
        self.tokens -= 1
        if bytes_data is not None:
            return Refusal(UNSUPPORTED_DATA, f"binary frame of {len(bytes_data)} bytes")
        # Measured before anything parses the text, characters first (no copy), then bytes.
        text, limit = text_data or "", settings.LIVE_MESSAGE_MAX_BYTES
        if len(text) > limit or len(text.encode("utf-8", "surrogatepass")) > limit:
            return Refusal(MESSAGE_TOO_BIG, f"message of {len(text)} characters")
        return None


async def page_message(consumer: Any, text_data: str | None, bytes_data: bytes | None) -> Any:
    """What a page sent, as JSON; None (and the socket closed, with one log line) when the gate refuses it."""
    gate: MessageGate | None = getattr(consumer, "gate", None)
    if gate is None:
        gate = consumer.gate = MessageGate()
    said, refusal = gate.admit(text_data, bytes_data)
    if refusal is None:
        return said
    if refusal.code:
        user = consumer.scope.get("user")
        logger.warning(
            "live socket %s closed with %d: %s (user %s)",
            consumer.scope.get("path", "?"),
            refusal.code,
            refusal.reason,
            getattr(user, "pk", None),
        )
        await consumer.close(code=refusal.code)
    return None


def resume_of(said: Any) -> int | None:
    """The position of a page's ``{"resume": <last position shown>}``; None for anything else."""
    after = said.get("resume") if isinstance(said, dict) else None
    # Bounded to the column's range: a 20-digit position reached SQLite (an OverflowError on the socket).
    return after if isinstance(after, int) and not isinstance(after, bool) and 0 <= after <= MAX_POSITION else None


async def paced_resume(last_resume: float) -> float:
    """Waits until RESUME_INTERVAL has passed since the page's last catch-up (a page asking too often only slows
    its own socket) and returns the time of this one."""
    wait = last_resume + RESUME_INTERVAL - time.monotonic()
    if wait > 0:
        await asyncio.sleep(wait)
    return time.monotonic()
