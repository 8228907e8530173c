"""Names the log shows changed: bump the campaign's ``log_epoch`` so that kept entries are rendered anew.

Log entries are kept rendered (campaigns.entry_region); an event never changes, but the names of the
characters, the actor and the game session it shows may. Connected by model label, so that the campaign
app does not import the apps above it.
"""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.db.models import F
from django.db.models.signals import post_save

from campaigns.models import Campaign


def _bump(campaigns: Any) -> None:
    # In the renaming's own transaction: rolled back with it.
    campaigns.update(log_epoch=F("log_epoch") + 1)


def _named(update_fields: Any, *names: str) -> bool:
    return update_fields is None or any(name in update_fields for name in names)


def character_saved(sender: Any, instance: Any, created: bool, update_fields: Any = None, **kwargs: Any) -> None:
    if not created and _named(update_fields, "name"):
        _bump(Campaign.objects.filter(pk=instance.campaign_id))


def session_saved(sender: Any, instance: Any, created: bool, update_fields: Any = None, **kwargs: Any) -> None:
    if not created and _named(update_fields, "title", "number"):
        _bump(Campaign.objects.filter(pk=instance.campaign_id))


def user_saved(sender: Any, instance: Any, created: bool, update_fields: Any = None, **kwargs: Any) -> None:
    if not created and _named(update_fields, "username"):
        _bump(Campaign.objects.filter(memberships__user_id=instance.pk))


def connect() -> None:
    post_save.connect(character_saved, sender="characters.Character", dispatch_uid="log_epoch_character")
    post_save.connect(session_saved, sender="campaigns.GameSession", dispatch_uid="log_epoch_session")
    post_save.connect(user_saved, sender=settings.AUTH_USER_MODEL, dispatch_uid="log_epoch_user")
