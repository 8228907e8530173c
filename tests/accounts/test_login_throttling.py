"""Brute-force throttling (issue 14, item 4): 50 wrong passwords then the right one used to log in."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from tests.campaigns.factories import PASSWORD, UserFactory

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _throttled(settings):  # type: ignore[no-untyped-def]
    settings.AXES_ENABLED = True
    settings.AXES_FAILURE_LIMIT = 5


def _login(client: Client, username: str, password: str, *, url: str = "", ip: str = "203.0.113.7", lang: str = "en"):  # type: ignore[no-untyped-def]
    client.cookies["django_language"] = lang
    return client.post(url or reverse("login"), {"username": username, "password": password}, REMOTE_ADDR=ip)


def _logged_in(client: Client) -> bool:
    return "_auth_user_id" in client.session


def test_after_five_wrong_passwords_even_the_right_one_is_refused_with_a_clear_message() -> None:
    user = UserFactory()
    client = Client()
    statuses = [_login(client, user.username, "wrong").status_code for _ in range(5)]
    assert statuses == [200, 200, 200, 200, 429]  # the form's own error four times, then the lockout
    response = _login(client, user.username, PASSWORD)
    assert response.status_code == 429
    assert not _logged_in(client)
    assert "Too many failed login attempts" in response.content.decode()
    assert "15 minutes" in response.content.decode()


def test_the_lockout_message_reads_in_french() -> None:
    user = UserFactory()
    client = Client()
    for _ in range(5):
        _login(client, user.username, "wrong", lang="fr")
    body = _login(client, user.username, PASSWORD, lang="fr").content.decode()
    assert "Trop de tentatives de connexion" in body and "15 minutes" in body


def test_the_account_is_locked_from_every_client() -> None:
    """Per account: spreading the guesses over many addresses does not help."""
    user = UserFactory()
    for n in range(5):
        _login(Client(), user.username, f"wrong-{n}", ip=f"198.51.100.{n + 1}")
    client = Client()
    assert _login(client, user.username, PASSWORD, ip="192.0.2.200").status_code == 429
    assert not _logged_in(client)


def test_a_client_is_locked_for_every_account() -> None:
    """Per client: one address trying many accounts is stopped too."""
    victims = [UserFactory() for _ in range(6)]
    client = Client()
    for victim in victims[:5]:
        _login(client, victim.username, "wrong", ip="203.0.113.9")
    assert _login(client, victims[5].username, PASSWORD, ip="203.0.113.9").status_code == 429
    assert not _logged_in(client)
    other = Client()
    assert _login(other, victims[5].username, PASSWORD, ip="203.0.113.10").status_code == 302  # others still can


def test_a_good_password_before_the_limit_resets_the_count() -> None:
    user = UserFactory()
    client = Client()
    for _ in range(4):
        _login(client, user.username, "wrong")
    assert _login(client, user.username, PASSWORD).status_code == 302
    client.logout()
    for _ in range(4):
        _login(client, user.username, "wrong")
    assert _login(client, user.username, PASSWORD).status_code == 302


def test_the_admin_login_is_throttled_too() -> None:
    admin = UserFactory(is_staff=True, is_superuser=True)
    client = Client()
    url = reverse("admin:login")
    for _ in range(5):
        _login(client, admin.username, "wrong", url=url)
    response = _login(client, admin.username, PASSWORD, url=url)
    assert response.status_code == 429
    assert not _logged_in(client)
