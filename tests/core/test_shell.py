"""The shell (issue 12): menu, language and account reachable on a phone; styled, translated error pages."""

from __future__ import annotations

import pytest
from django.core.exceptions import PermissionDenied
from django.test import Client, override_settings
from django.urls import path

from config import urls as project_urls
from tests.campaigns.factories import UserFactory

pytestmark = pytest.mark.django_db


def _forbidden(request):  # type: ignore[no-untyped-def]
    raise PermissionDenied


def _broken(request):  # type: ignore[no-untyped-def]
    raise RuntimeError("boom")


urlpatterns = [path("forbidden/", _forbidden), path("broken/", _broken), *project_urls.urlpatterns]


@pytest.mark.parametrize(("language", "words"), [("fr", "Page introuvable"), ("en", "Page not found")])
def test_the_404_page_is_styled_and_translated(language: str, words: str) -> None:
    client = Client(HTTP_ACCEPT_LANGUAGE=language)
    response = client.get("/no-such-page/")
    assert response.status_code == 404
    html = response.content.decode()
    assert words in html and "tablee" in html and 'class="topbar"' in html
    assert 'name="language"' in html  # FR/EN reachable from an error page too


@override_settings(ROOT_URLCONF="tests.core.test_shell")
@pytest.mark.parametrize(("language", "words"), [("fr", "Action non autorisée"), ("en", "Not allowed")])
def test_the_403_page_is_styled_and_translated(language: str, words: str) -> None:
    response = Client(HTTP_ACCEPT_LANGUAGE=language).get("/forbidden/")
    assert response.status_code == 403
    assert words in response.content.decode()


@override_settings(ROOT_URLCONF="tests.core.test_shell")
@pytest.mark.parametrize(
    ("language", "words"), [("fr", "Quelque chose s’est mal passé"), ("en", "Something went wrong")]
)
def test_the_500_page_is_styled_and_translated(language: str, words: str) -> None:
    client = Client(HTTP_ACCEPT_LANGUAGE=language, raise_request_exception=False)
    response = client.get("/broken/")
    assert response.status_code == 500
    html = response.content.decode()
    assert words in html and "tablee" in html


@pytest.mark.parametrize("signed_in", [False, True])
def test_language_switch_sits_outside_the_folding_menu_signed_in_or_not(signed_in: bool) -> None:
    """At 390 px the menu folds into a popover; the language switch stays in the bar for everyone."""
    client = Client()
    if signed_in:
        client.force_login(UserFactory())
    html = client.get("/accounts/login/" if not signed_in else "/campaigns/", follow=True).content.decode()
    nav = html[html.index('id="topnav"') : html.index("</nav>", html.index('id="topnav"'))]
    assert 'popovertarget="topnav"' in html
    assert 'name="language"' not in nav  # not hidden inside the folded menu
    assert 'class="inline lang-switch"' in html
    if signed_in:
        assert "logout" in nav


def test_the_favicon_answers_and_every_page_links_it(client) -> None:  # type: ignore[no-untyped-def]
    """Issue 28: « /favicon.ico answers 404 on every page »."""
    from django.contrib.staticfiles import finders

    response = client.get("/favicon.ico")
    assert response.status_code == 302
    assert finders.find(response["Location"].removeprefix("/static/")) is not None
    assert 'rel="icon"' in client.get("/accounts/login/").content.decode()
