"""System checks of production hygiene, run by ``manage.py check --deploy``."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.core.checks import CheckMessage, Error, Tags, register

# Keys that are public: the repository's own default and Django's generated development keys.
PUBLIC_KEY_PREFIXES = ("tablee-local-only-", "django-insecure-")


@register(Tags.security, deploy=True)
def secret_key_is_not_the_default(app_configs: Any = None, **kwargs: Any) -> list[CheckMessage]:
    """Refuse the repository's default ``SECRET_KEY`` outside DEBUG: anyone can read it in the source and
    sign sessions, password-reset links and CSRF tokens with it. Django's own W009 lets it through (it
    is long and varied enough)."""
    if settings.DEBUG:
        return []
    key = str(getattr(settings, "SECRET_KEY", ""))
    if key == getattr(settings, "LOCAL_SECRET_KEY", None) or key.startswith(PUBLIC_KEY_PREFIXES):
        return [
            Error(
                "SECRET_KEY is the repository's public default while DEBUG is off.",
                hint="Set the SECRET_KEY environment variable to a long random value "
                "(python -c 'import secrets; print(secrets.token_urlsafe(50))').",
                id="tablee.E001",
            )
        ]
    return []
