"""What every live socket (a campaign page's, a game board's) reads from its page's handshake."""

from __future__ import annotations

import asyncio
import json
import time
from typing import Any

from django.conf import settings
from django.http import HttpRequest
from django.middleware.csrf import get_token
from django.utils import translation
from django.utils.translation.trans_real import parse_accept_lang_header

# WebSocket close code 1013, "try again later" (the channel layer is down): the page reconnects with backoff.
TRY_AGAIN_LATER = 1013


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

# A page may ask to catch up at most this often (a catch-up renders up to campaigns.live_stream.REPLAY_LIMIT events).
RESUME_INTERVAL = 1.0


def page_message(text_data: str | None) -> Any:
    """What a page sent, as JSON; None when it is not JSON."""
    try:
        return json.loads(text_data or "")
    except ValueError:
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
