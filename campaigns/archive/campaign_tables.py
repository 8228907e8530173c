"""The campaign app's own tables in the archive: its game sessions and its log.

The log is restored last (every row it names exists by then), event by event in the order of their ids, with
their stream positions and corrections as they were; each event's words for the log's search are computed
again on save. The members are not rows but invitations (``writing.members_of``).
"""

from __future__ import annotations

from typing import Any

from django.contrib.auth import get_user_model

from campaigns.archive.registry import Renumber, Table, payload_renumbered, register_payload_ids, register_table
from campaigns.archive.sections import Section
from campaigns.models import Event, GameSession
from campaigns.redaction import PARTS
from campaigns.search_text import event_search_text

LOG_ORDER = 1000


def _searchable(event: Event) -> None:
    # What Event.save() does, which a batch insert skips.
    event.search_text = event_search_text(event.payload)


def _part_people(payload: Any, renumber: Renumber, row: Any) -> Any:
    """The recipient of an Event's private part (``campaigns.redaction``) is a person: an archive names them by
    username, never by id, as it names an Event's own recipient. Written by name on export, read back as the
    account of that name on import (the member the archive's invitation is addressed to); a name this server does
    not know leaves the part to the narrators, never to someone else."""
    parts = payload.get(PARTS) if isinstance(payload, dict) else None
    if not isinstance(parts, list):
        return payload
    users = get_user_model().objects
    for part in parts:
        if not isinstance(part, dict):
            continue
        if isinstance(part.get("recipient"), int):
            part["recipient_name"] = users.filter(pk=part["recipient"]).values_list("username", flat=True).first()
            part["recipient"] = None
        elif "recipient_name" in part:
            name = part.pop("recipient_name")
            part["recipient"] = users.filter(username=name).values_list("pk", flat=True).first() if name else None
    return payload


def register() -> None:
    Section("campaigns", order=0).table(GameSession)
    register_payload_ids("", _part_people)
    register_table(
        Table(
            model=Event,
            rows=lambda c: Event.objects.filter(campaign=c).order_by("pk"),
            section="campaigns",
            order=LOG_ORDER,
            skip=("search_text",),
            json_ids={"payload": payload_renumbered},
            written_once=True,
            before_insert=_searchable,
        )
    )
