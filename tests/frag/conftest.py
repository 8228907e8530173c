from __future__ import annotations

import pytest


@pytest.fixture(autouse=True)
def _quick_frag_tests(settings):  # type: ignore[no-untyped-def]
    """The live table pauses between bot turns for people; tests need no pause to see the order.
    Accounts here only need to exist: a cheap password hasher keeps the suite fast on two cores."""
    settings.FRAG_LIVE_PACE = 0.01
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    yield
