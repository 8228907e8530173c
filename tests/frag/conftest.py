from __future__ import annotations

import pytest

from tests.frag.factories import UserFactory


@pytest.fixture(autouse=True)
def _quick_frag_tests(settings):  # type: ignore[no-untyped-def]
    """The live table pauses between bot turns for people; tests need no pause to see the order.
    Accounts here only need to exist: a cheap password hasher keeps the suite fast on two cores."""
    settings.FRAG_LIVE_PACE = 0.01
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    yield


@pytest.fixture
def person(client):  # type: ignore[no-untyped-def]
    """A signed-in person whose pages are in English."""
    user = UserFactory()
    client.force_login(user)
    client.cookies["django_language"] = "en"
    return user
