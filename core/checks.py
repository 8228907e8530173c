"""System checks of production hygiene, run by ``manage.py check --deploy``."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.core.checks import CheckMessage, Error, Tags, register
from django.core.exceptions import ImproperlyConfigured

# Keys that are public: the repository's own default and Django's generated development keys.
PUBLIC_KEY_PREFIXES = ("tablee-local-only-", "django-insecure-")


# The hosts a table on one's own machine answers to (the default ALLOWED_HOSTS).
LOCAL_HOSTS = frozenset({"127.0.0.1", "localhost", "[::1]", "::1", "testserver"})


def _public_key() -> bool:
    key = str(getattr(settings, "SECRET_KEY", ""))
    return key == getattr(settings, "LOCAL_SECRET_KEY", None) or key.startswith(PUBLIC_KEY_PREFIXES)


def refuse_public_key_on_a_public_server() -> None:
    """Stop a server's start (config/asgi.py, config/wsgi.py) with the public default ``SECRET_KEY`` when ``DEBUG``
    is off and ``ALLOWED_HOSTS`` names a host other than this machine's: a server others reach. ``check --deploy``
    alone let it start and serve. A table on one's own machine (``make run``, the tests: local hosts only) keeps
    the default, which is why the hosts and not ``DEBUG`` alone decide."""
    if settings.DEBUG or not _public_key():
        return
    public = sorted(set(settings.ALLOWED_HOSTS) - LOCAL_HOSTS)
    if public:
        raise ImproperlyConfigured(
            f"SECRET_KEY is the repository's public default while DEBUG is off and ALLOWED_HOSTS names {public}: "
            "set the SECRET_KEY environment variable to a long random value "
            "(python -c 'import secrets; print(secrets.token_urlsafe(50))')."
        )


@register(Tags.security, deploy=True)
def secret_key_is_not_the_default(app_configs: Any = None, **kwargs: Any) -> list[CheckMessage]:
    """Refuse the repository's default ``SECRET_KEY`` outside DEBUG: anyone can read it in the source and
    sign sessions, password-reset links and CSRF tokens with it. Django's own W009 lets it through (it
    is long and varied enough)."""
    if settings.DEBUG:
        return []
    if _public_key():
        return [
            Error(
                "SECRET_KEY is the repository's public default while DEBUG is off.",
                hint="Set the SECRET_KEY environment variable to a long random value "
                "(python -c 'import secrets; print(secrets.token_urlsafe(50))').",
                id="tablee.E001",
            )
        ]
    return []
