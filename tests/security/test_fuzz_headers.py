"""Hostile request headers on every page, as every role, and on the sockets' handshakes: never a 500 (issue 30).

``X-Forwarded-For`` that is no address (``not-an-ip`` made every login a 500 on PostgreSQL), a ``Host`` outside
``ALLOWED_HOSTS``, an ``Origin`` of another site, a ``Cookie`` header that is no cookie, an ``Accept-Language``
that names no language; with ``BEHIND_PROXY`` off and on."""

from __future__ import annotations

from typing import Any

import pytest
from asgiref.sync import sync_to_async
from django.test import Client
from django.urls import reverse
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from config.asgi import application
from tests.campaigns.factories import campaign_with, players_of
from tests.campaigns.live_client import LiveCommunicator
from tests.campaigns.test_live import session_cookie
from tests.security.conftest import World
from tests.security.test_inventory import URLS, url_names

HOSTILE_HEADERS: dict[str, list[str]] = {
    "HTTP_X_FORWARDED_FOR": ["not-an-ip", "999.1.1.1", "1.2.3.4, nope", ",,,", "::ffff:999.0.0.1", "1" * 300, "\u00e9"],
    "HTTP_HOST": ["evil.example", "127.0.0.1:99999", "[::1", "a" * 300, "127.0.0.1:abc", "", "localhost\u00e9"],
    "HTTP_ORIGIN": ["null", "http://evil.example", "javascript:alert(1)", "http://[::1", "\u00e9" * 50],
    "HTTP_COOKIE": ["sessionid=" + "x" * 5000, "=;=;;", "csrftoken=\u00e9", "django_language=xx-\u00e9", "a" * 10000],
    "HTTP_ACCEPT_LANGUAGE": ["*;q=abc", "xx-YY-" * 100, "fr;q=2, en;q=-1", "\u00e9", ",,,;;;", "en;q=nan"],
}
ROLES = ("narrator", "player", "outsider", "anonymous")


def _pages(world: World) -> list[str]:
    return [
        reverse(name, kwargs=URLS[name].kwargs(world)) for name in sorted(set(url_names())) if not URLS[name].post_only
    ]


@pytest.mark.django_db
@pytest.mark.parametrize("behind_proxy", [False, True])
@pytest.mark.parametrize("role", ROLES)
def test_hostile_headers_never_answer_500(world: World, role: str, behind_proxy: bool, settings: Any) -> None:
    from django.test.utils import override_settings

    settings.BEHIND_PROXY = behind_proxy
    settings.AXES_ENABLED = True  # the login posts go through django-axes' reading of the address
    pages = _pages(world) + [reverse("login")]
    user = {"narrator": world.narrator, "player": world.alice, "outsider": world.stranger}.get(role)
    client = Client(raise_request_exception=False)

    @settings_for_hypothesis
    @given(
        path=st.sampled_from(pages),
        post=st.booleans(),
        headers=st.dictionaries(st.sampled_from(sorted(HOSTILE_HEADERS)), st.just(""), min_size=1, max_size=3).flatmap(
            lambda keys: st.fixed_dictionaries({key: st.sampled_from(HOSTILE_HEADERS[key]) for key in keys})
        ),
    )
    def attempt(path: str, post: bool, headers: dict[str, str]) -> None:
        client.logout()
        if user is not None:
            client.force_login(user)
        with override_settings(AXES_ENABLED=post and path == reverse("login")):
            data = {"username": world.alice.username, "password": "wrong"} if path == reverse("login") else {}
            response = (client.post if post else client.get)(path, data, **headers)
        assert response.status_code < 500, f"{'POST' if post else 'GET'} {path} {headers!r:.300}"

    attempt()


settings_for_hypothesis = settings(
    max_examples=25, derandomize=True, deadline=None, database=None, suppress_health_check=list(HealthCheck)
)


HANDSHAKE_HEADERS = [
    [(b"origin", b"null")],
    [(b"origin", b"http://evil.example")],
    [(b"origin", b"http://127.0.0.1"), (b"host", b"127.0.0.1:99999")],
    [(b"origin", b"http://127.0.0.1"), (b"accept-language", b"*;q=abc, \xc3\xa9")],
    [(b"origin", b"http://127.0.0.1"), (b"cookie", b"=;=;;csrftoken=\xff")],
    [(b"origin", b"http://127.0.0.1"), (b"x-forwarded-for", b"not-an-ip"), (b"x-forwarded-proto", b"\xff")],
]


@pytest.mark.django_db(transaction=True)
@pytest.mark.asyncio
@pytest.mark.parametrize("headers", HANDSHAKE_HEADERS)
async def test_hostile_handshake_headers_are_refused_or_served_never_a_crash(
    headers: list[tuple[bytes, bytes]],
) -> None:
    campaign = await sync_to_async(campaign_with)(players=1)
    player = (await sync_to_async(players_of)(campaign))[0]
    cookie = (await sync_to_async(session_cookie)(player)).encode()
    merged = [(k, v + b"; " + cookie if k == b"cookie" else v) for k, v in headers]
    if not any(k == b"cookie" for k, _v in headers):
        merged.append((b"cookie", cookie))
    if not any(k == b"host" for k, _v in headers):
        merged.append((b"host", b"127.0.0.1"))
    socket = LiveCommunicator(application, f"/ws/campaigns/{campaign.pk}/", headers=merged)
    connected, code = await socket.connect(timeout=5)
    assert connected or code in (None, 1000, 403, 4401, 4403, 4404), code
    await socket.disconnect()
