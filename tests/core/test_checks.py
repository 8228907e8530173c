"""The public default SECRET_KEY on a server others reach: ``check --deploy`` refuses it, and a server's start stops.

The subprocess run of ``check --deploy`` (tests/security/test_production_hygiene.py) proves production values pass; these run the checks in the
test's own process, one setting at a time, for the refusals.
"""

from __future__ import annotations

import pytest
from django.core.exceptions import ImproperlyConfigured

from core.checks import refuse_public_key_on_a_public_server, secret_key_is_not_the_default

PRIVATE_KEY = "k" * 20 + "-production-only-secret-with-enough-entropy-3f9a"


@pytest.fixture
def production(settings):  # type: ignore[no-untyped-def]
    settings.DEBUG = False
    settings.ALLOWED_HOSTS = ["tablee.example.org", "localhost"]
    return settings


@pytest.mark.parametrize("key", ["repository-default", "django-insecure-abc", "tablee-local-only-yyy"])
def test_the_public_key_stops_a_server_others_reach(production, key: str) -> None:  # type: ignore[no-untyped-def]
    production.SECRET_KEY = production.LOCAL_SECRET_KEY if key == "repository-default" else key
    with pytest.raises(ImproperlyConfigured, match=r"ALLOWED_HOSTS names \['tablee.example.org'\]"):
        refuse_public_key_on_a_public_server()


def test_the_public_key_is_kept_on_ones_own_machine(production) -> None:  # type: ignore[no-untyped-def]
    production.SECRET_KEY = production.LOCAL_SECRET_KEY
    production.ALLOWED_HOSTS = ["127.0.0.1", "localhost", "[::1]", "testserver"]
    refuse_public_key_on_a_public_server()  # no exception: `make run` and the tests keep the default


def test_debug_or_a_private_key_lets_the_server_start(production) -> None:  # type: ignore[no-untyped-def]
    production.SECRET_KEY = PRIVATE_KEY
    refuse_public_key_on_a_public_server()
    production.SECRET_KEY = production.LOCAL_SECRET_KEY
    production.DEBUG = True
    refuse_public_key_on_a_public_server()


def test_check_deploy_refuses_the_public_key_outside_debug(production) -> None:  # type: ignore[no-untyped-def]
    production.SECRET_KEY = production.LOCAL_SECRET_KEY
    [error] = secret_key_is_not_the_default()
    assert error.id == "tablee.E001" and "SECRET_KEY" in error.hint


def test_check_deploy_accepts_a_private_key_and_any_key_in_debug(production) -> None:  # type: ignore[no-untyped-def]
    production.SECRET_KEY = PRIVATE_KEY
    assert secret_key_is_not_the_default() == []
    production.SECRET_KEY = "django-insecure-abc"
    production.DEBUG = True
    assert secret_key_is_not_the_default() == []
