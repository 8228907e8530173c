"""The client's address for the per-client lockout (issue 30, item 2; core/client_ip.py).

« One password sprayed at 12 accounts gave 12 × 200 and no lockout » with a new ``X-Forwarded-For`` per attempt,
and ``X-Forwarded-For: not-an-ip`` made every login a 500 on PostgreSQL."""

from __future__ import annotations

import pytest
from django.test import Client, RequestFactory
from django.urls import reverse

from core.client_ip import client_ip, forwarded_client
from tests.campaigns.factories import UserFactory

pytestmark = pytest.mark.django_db

PROXY = "10.0.0.2"


@pytest.fixture(autouse=True)
def _throttled(settings):  # type: ignore[no-untyped-def]
    settings.AXES_ENABLED = True
    settings.AXES_FAILURE_LIMIT = 5


def _spray(accounts: int, *, remote: str, forwarded: list[str]) -> list[int]:
    """One wrong password at each of ``accounts`` accounts, each attempt with its own X-Forwarded-For."""
    statuses = []
    for n in range(accounts):
        user = UserFactory()
        client = Client()
        response = client.post(
            reverse("login"),
            {"username": user.username, "password": "Spring2026!"},
            REMOTE_ADDR=remote,
            HTTP_X_FORWARDED_FOR=forwarded[n % len(forwarded)],
        )
        statuses.append(response.status_code)
    return statuses


def test_a_new_forwarded_header_per_attempt_does_not_escape_the_lockout_without_a_proxy(settings) -> None:  # type: ignore[no-untyped-def]
    settings.BEHIND_PROXY = False
    statuses = _spray(12, remote="203.0.113.7", forwarded=[f"198.51.100.{n}" for n in range(1, 13)])
    assert statuses == [200] * 4 + [429] * 8


def test_behind_a_proxy_the_forwarded_client_is_locked_out_and_another_client_is_not(settings) -> None:  # type: ignore[no-untyped-def]
    settings.BEHIND_PROXY, settings.TRUSTED_PROXY_COUNT = True, 1
    # What the client prepends is its own say: the proxy's entry (rightmost) decides.
    statuses = _spray(6, remote=PROXY, forwarded=[f"192.0.2.{n}, 203.0.113.7" for n in range(1, 7)])
    assert statuses == [200] * 4 + [429] * 2
    assert _spray(1, remote=PROXY, forwarded=["203.0.113.8"]) == [200]  # another client through the same proxy


@pytest.mark.parametrize("value", ["not-an-ip", "999.1.1.1", "", ",,,", "1.2.3.4, nope", "\u00e9" * 300])
@pytest.mark.parametrize("behind_proxy", [False, True])
def test_a_malformed_forwarded_header_never_answers_500(settings, value: str, behind_proxy: bool) -> None:  # type: ignore[no-untyped-def]
    settings.BEHIND_PROXY = behind_proxy
    user = UserFactory()
    response = Client().post(
        reverse("login"),
        {"username": user.username, "password": "wrong"},
        REMOTE_ADDR=PROXY,
        HTTP_X_FORWARDED_FOR=value,
    )
    assert response.status_code == 200


def test_the_address_is_the_nth_from_the_right(settings) -> None:  # type: ignore[no-untyped-def]
    assert forwarded_client("1.1.1.1, 2.2.2.2, 3.3.3.3", 1) == "3.3.3.3"
    assert forwarded_client("1.1.1.1, 2.2.2.2, 3.3.3.3", 2) == "2.2.2.2"
    assert forwarded_client("3.3.3.3", 2) is None  # shorter than the proxies in front: not trusted
    assert forwarded_client("999.1.1.1", 1) is None
    assert forwarded_client(" 2001:db8::1 ", 1) == "2001:db8::1"
    request = RequestFactory().get("/", REMOTE_ADDR=PROXY, HTTP_X_FORWARDED_FOR="not-an-ip")
    settings.BEHIND_PROXY = True
    assert client_ip(request) == PROXY  # a malformed header is ignored
    settings.BEHIND_PROXY = False
    request = RequestFactory().get("/", REMOTE_ADDR=PROXY, HTTP_X_FORWARDED_FOR="198.51.100.1")
    assert client_ip(request) == PROXY


@pytest.mark.parametrize("remote", ["not-an-ip", "999.1.1.1", ""])
def test_a_peer_address_that_is_no_address_is_not_stored(settings, remote: str) -> None:  # type: ignore[no-untyped-def]
    """uvicorn's own proxy headers (on by default for 127.0.0.1) put X-Forwarded-For's value in the peer's address:
    PostgreSQL's ``inet`` refused it (a 500). The README's command turns them off; a bad value is still dropped."""
    from axes.models import AccessAttempt

    settings.BEHIND_PROXY = False
    user = UserFactory()
    response = Client().post(reverse("login"), {"username": user.username, "password": "wrong"}, REMOTE_ADDR=remote)
    assert response.status_code == 200
    assert AccessAttempt.objects.get(username=user.username).ip_address is None
