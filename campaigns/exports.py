"""The log as a chronicle file: Markdown for reading, JSON with every payload for tools.

Both read each event as the reader may (``campaigns.redaction``): a payload field the HTML hides from a
player is not in their file either, and no seed ever is.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from typing import Any

from django.utils import timezone
from django.utils.translation import gettext as _

from campaigns.chronicle import describe
from campaigns.models import Campaign, Event, Membership
from campaigns.redaction import readable_events


def event_as_dict(event: Event) -> dict[str, Any]:
    return {
        "id": event.pk,
        "kind": event.kind,
        "text": describe(event),
        "created_at": event.created_at.isoformat(),
        "game_time": event.game_time.isoformat(),
        "game_session": event.game_session.number if event.game_session else None,
        "actor": event.actor.username if event.actor else None,
        "characters": [c.name for c in event.characters.all()],
        "visibility": event.visibility,
        "corrects": event.corrects_id,
        "payload": event.payload,
    }


def log_as_json(campaign: Campaign, events: Iterable[Event], *, reader: Membership | None) -> str:
    document = {"campaign": campaign.name, "events": [event_as_dict(e) for e in readable_events(events, reader)]}
    return json.dumps(document, ensure_ascii=False, indent=2)


def log_as_markdown(campaign: Campaign, events: Iterable[Event], *, reader: Membership | None) -> str:
    lines = [f"# {campaign.name}", "", _("Campaign log"), ""]
    current_session: object = object()
    for event in readable_events(events, reader):
        if event.game_session_id != current_session:
            current_session = event.game_session_id
            heading = str(event.game_session) if event.game_session else _("Between sessions")
            lines += ["", f"## {heading}", ""]
        when = timezone.localtime(event.created_at).strftime("%Y-%m-%d %H:%M")
        game_when = event.game_time.strftime("%Y-%m-%d %H:%M")
        line = f"- **#{event.pk}** · {when} · _{game_when}_ — {describe(event)}"
        names = ", ".join(c.name for c in event.characters.all())
        if names:
            line += f" ({names})"
        lines.append(line)
        if event.kind == "note":
            lines += ["", *["  > " + row for row in event.payload.get("text", "").splitlines()], ""]
        if event.corrects_id:
            lines.append("  " + _("(corrects #%(number)s)") % {"number": event.corrects_id})
    return "\n".join(lines).rstrip() + "\n"
