from __future__ import annotations

import pytest


@pytest.fixture(autouse=True)
def _cheap_password_hashing(settings):  # type: ignore[no-untyped-def]
    """Accounts are made and logged in by the dozen here; a slow hasher proves nothing about conflicts."""
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
