"""No view opts out of CSRF, state changes need a CSRF token, and no ``next`` sends people off the site."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from django.test import Client
from django.urls import reverse

from campaigns.models import Event

pytestmark = pytest.mark.django_db
ROOT = Path(__file__).resolve().parents[2]
APPS = ["accounts", "campaigns", "characters", "conflicts", "tragic", "frag", "core", "config"]
EVIL = ["https://evil.example/", "//evil.example/", "/\\evil.example/", "\\\\evil.example", "http:evil.example"]


def _sources() -> list[Path]:
    return [p for app in APPS for p in (ROOT / app).rglob("*.py") if "migrations" not in p.parts]


def test_no_view_is_csrf_exempt():
    offenders = [str(p.relative_to(ROOT)) for p in _sources() if "csrf_exempt" in p.read_text(encoding="utf-8")]
    assert not offenders


def test_csrf_middleware_is_on(settings):
    assert "django.middleware.csrf.CsrfViewMiddleware" in settings.MIDDLEWARE


def test_every_next_read_from_a_request_is_checked():
    """A view reading ``next`` must check it with url_has_allowed_host_and_scheme (or a helper that does)."""
    pattern = re.compile(r"""(?:POST|GET)\.get\(\s*["']next["']""")
    offenders = []
    for path in _sources():
        text = path.read_text(encoding="utf-8")
        if pattern.search(text) and "url_has_allowed_host_and_scheme" not in text and "safe_next" not in text:
            offenders.append(str(path.relative_to(ROOT)))
    assert offenders == []


def test_a_post_without_csrf_token_is_refused(world):
    client = Client(enforce_csrf_checks=True)
    world.login(client, world.bob)
    before = Event.objects.count()
    response = client.post(reverse("campaigns:note_create", args=[world.campaign.pk]), {"text": "forged"})
    assert response.status_code == 403
    assert Event.objects.count() == before


@pytest.mark.parametrize("target", EVIL)
def test_note_next_stays_on_site(client, world, target):
    world.login(client, world.bob)
    response = client.post(
        reverse("campaigns:note_create", args=[world.campaign.pk]), {"text": "hello", "next": target}
    )
    assert response.status_code == 302
    assert response["Location"] == reverse("campaigns:log", args=[world.campaign.pk])


@pytest.mark.parametrize("target", EVIL)
def test_session_transition_next_stays_on_site(client, world, target):
    world.login(client, world.narrator)
    url = reverse("campaigns:session_transition", args=[world.campaign.pk, world.game_session.pk, "close"])
    response = client.post(url, {"next": target})
    assert response["Location"] == reverse("campaigns:sessions", args=[world.campaign.pk])


def test_a_local_next_is_still_followed(client, world):
    world.login(client, world.bob)
    target = reverse("campaigns:home", args=[world.campaign.pk])
    response = client.post(reverse("campaigns:note_create", args=[world.campaign.pk]), {"text": "hi", "next": target})
    assert response["Location"] == target


@pytest.mark.parametrize("target", EVIL)
def test_language_and_signup_next_stay_on_site(client, target):
    response = client.post(reverse("accounts:language"), {"language": "en", "next": target})
    assert response["Location"] == "/"


@pytest.mark.parametrize("target", EVIL)
def test_login_next_stays_on_site(client, world, target):
    response = client.post(
        reverse("login") + "?next=" + target,
        {"username": world.bob.username, "password": "correct-horse-battery-staple"},
    )
    assert response.status_code == 302
    assert "evil.example" not in response["Location"]


def test_conflict_cut_next_stays_on_site(client, world):
    world.login(client, world.narrator)
    url = reverse("conflicts:cut", args=[world.campaign.pk, world.sequence.pk])
    response = client.post(url, {"next": "https://evil.example/", "side": "PJ"})
    assert "evil.example" not in response["Location"]


def test_conflict_reshuffle_next_stays_on_site(client, world):
    world.login(client, world.narrator)
    url = reverse("conflicts:reshuffle", args=[world.campaign.pk, world.deck.pk])
    response = client.post(url, {"next": "/\\evil.example/"})
    assert "evil.example" not in response["Location"]
