from __future__ import annotations

from django.contrib.auth.models import User
from django.db import transaction

from accounts.forms import SignupForm
from accounts.models import Profile


def user_signup(*, form: SignupForm, language: str) -> User:
    """Create the account and its profile together, or neither."""
    with transaction.atomic():
        user = form.save()
        Profile.objects.create(user=user, language=language)
    return user


def profile_language_set(*, user: User, language: str) -> None:
    Profile.objects.update_or_create(user=user, defaults={"language": language})
