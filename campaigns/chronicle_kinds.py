"""The campaign app's own event kinds and how they read."""

from __future__ import annotations

import datetime as dt
from typing import TYPE_CHECKING

from django.utils import formats, timezone
from django.utils.translation import gettext as _

from campaigns.chronicle import actor_name, describes
from campaigns.setting_changes import changes_text

if TYPE_CHECKING:
    from campaigns.models import Event


@describes("campaign.created", label=lambda: _("Campaign created"))
def _created(event: Event) -> str:
    return _("%(actor)s created the campaign “%(name)s”.") % {"actor": actor_name(event), "name": event.payload["name"]}


@describes("campaign.settings_changed", label=lambda: _("Settings changed"))
def _settings(event: Event) -> str:
    from campaigns.models import Campaign

    changed = changes_text(Campaign, event.payload.get("changed", {}))
    return _("%(actor)s changed the campaign settings: %(fields)s.") % {"actor": actor_name(event), "fields": changed}


@describes("member.joined", label=lambda: _("Member joined"))
def _joined(event: Event) -> str:
    if event.payload.get("role") == "narrator":
        return _("%(user)s joined as narrator.") % {"user": event.payload["username"]}
    return _("%(user)s joined as player.") % {"user": event.payload["username"]}


@describes("member.role_changed", label=lambda: _("Role changed"))
def _role(event: Event) -> str:
    if event.payload.get("role") == "narrator":
        return _("%(user)s is now a narrator.") % {"user": event.payload["username"]}
    return _("%(user)s is now a player.") % {"user": event.payload["username"]}


@describes("invitation.created", label=lambda: _("Invitation"))
def _invited(event: Event) -> str:
    return _("%(actor)s created an invitation link (expires %(expires)s).") % {
        "actor": actor_name(event),
        "expires": _local_time(event.payload["expires_at"]),
    }


@describes("invitation.revoked", label=lambda: _("Invitation revoked"))
def _revoked(event: Event) -> str:
    return _("%(actor)s revoked an invitation link.") % {"actor": actor_name(event)}


def _local_time(iso: str) -> str:
    """A stored UTC instant, shown in the reader's time zone and format (as the pages show times)."""
    moment = dt.datetime.fromisoformat(iso)
    if timezone.is_naive(moment):
        moment = timezone.make_aware(moment, dt.UTC)
    return formats.date_format(timezone.localtime(moment), "SHORT_DATETIME_FORMAT")


@describes("session.created", label=lambda: _("Session planned"))
def _session_created(event: Event) -> str:
    return _("Session %(number)s planned for %(date)s.") % event.payload


@describes("session.opened", label=lambda: _("Session opened"))
def _session_opened(event: Event) -> str:
    return _("Session %(number)s begins.") % event.payload


@describes("session.closed", label=lambda: _("Session closed"))
def _session_closed(event: Event) -> str:
    return _("Session %(number)s ends.") % event.payload


@describes("clock.advanced", label=lambda: _("Game clock"))
def _clock(event: Event) -> str:
    text = _("Time passes: %(duration)s (now %(to)s).") % {
        "duration": _duration(event.payload),
        "to": _local_time(event.payload["to"]),
    }
    if event.payload.get("reason"):
        text += " " + event.payload["reason"]
    return text


def _duration(payload: dict) -> str:
    # Worded at read time from the minutes: a label stored at write time stayed in the writer's language.
    if "minutes" in payload:
        from campaigns.services import duration_label

        return duration_label(dt.timedelta(minutes=int(payload["minutes"])))
    return str(payload.get("duration_label", ""))


@describes("note", label=lambda: _("Note"))
def _note(event: Event) -> str:
    return _("%(actor)s wrote:") % {"actor": actor_name(event)}


@describes("correction", label=lambda: _("Correction"))
def _correction(event: Event) -> str:
    return _("%(actor)s corrected entry #%(number)s: %(reason)s") % {
        "actor": actor_name(event),
        "number": event.corrects_id,
        "reason": event.payload.get("reason", ""),
    }


@describes("log.published", label=lambda: _("Log published"))
def _published(event: Event) -> str:
    return _("%(actor)s published the public log.") % {"actor": actor_name(event)}


@describes("log.unpublished", label=lambda: _("Log unpublished"))
def _unpublished(event: Event) -> str:
    return _("%(actor)s withdrew the public log link.") % {"actor": actor_name(event)}
