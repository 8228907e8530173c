"""Accounts: sign up, log in and out, change password, and a remembered language."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.urls import reverse

from accounts.models import Profile
from tests.campaigns.factories import PASSWORD, UserFactory

pytestmark = pytest.mark.django_db


def test_signing_up_logs_in_and_remembers_the_language() -> None:
    client = Client()
    response = client.post(
        reverse("accounts:signup"),
        {"username": "mireille", "password1": "un-mot-de-passe-solide", "password2": "un-mot-de-passe-solide"},
    )
    assert response.status_code == 302
    user = User.objects.get(username="mireille")
    assert Profile.objects.get(user=user).language == "fr"
    assert client.get(reverse("campaigns:list")).status_code == 200


def test_signup_errors_are_in_french_by_default_and_nothing_is_saved() -> None:
    response = Client().post(reverse("accounts:signup"), {"username": "x", "password1": "abc", "password2": "abd"})
    assert response.status_code == 200
    assert "Les deux mots de passe ne correspondent pas" in response.content.decode()
    assert not User.objects.filter(username="x").exists()


def test_signup_errors_are_in_english_when_chosen() -> None:
    client = Client()
    client.cookies["django_language"] = "en"
    response = client.post(reverse("accounts:signup"), {"username": "x", "password1": "abc", "password2": "abd"})
    assert "The two password fields didn’t match" in response.content.decode()


def test_the_chosen_language_is_stored_and_comes_back_at_login() -> None:
    user = UserFactory()
    client = Client()
    client.force_login(user)
    response = client.post(reverse("accounts:language"), {"language": "en", "next": "/campaigns/"})
    assert response.status_code == 302
    assert response.cookies["django_language"].value == "en"
    assert Profile.objects.get(user=user).language == "en"

    other_browser = Client()
    login = other_browser.post(reverse("login"), {"username": user.username, "password": PASSWORD})
    assert login.status_code == 302
    assert login.cookies["django_language"].value == "en"


def test_an_unknown_language_is_ignored() -> None:
    response = Client().post(reverse("accounts:language"), {"language": "xx", "next": "/"})
    assert "django_language" not in response.cookies


def test_the_language_switch_never_redirects_off_site() -> None:
    response = Client().post(reverse("accounts:language"), {"language": "en", "next": "https://evil.example/"})
    assert response["Location"] == "/"


def test_log_out_and_change_password() -> None:
    user = UserFactory()
    client = Client()
    client.force_login(user)
    response = client.post(
        reverse("password_change"),
        {"old_password": PASSWORD, "new_password1": "un-autre-secret-long", "new_password2": "un-autre-secret-long"},
    )
    assert response.status_code == 302
    user.refresh_from_db()
    assert user.check_password("un-autre-secret-long")
    client.post(reverse("logout"))
    assert client.get(reverse("campaigns:list")).status_code == 302
