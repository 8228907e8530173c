from __future__ import annotations

import pytest


@pytest.fixture(autouse=True)
def _fast_password_hashing(settings):  # type: ignore[no-untyped-def]
    """Accounts here are made by the dozen; their password strength is not what these tests check."""
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
