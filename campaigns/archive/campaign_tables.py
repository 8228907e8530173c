"""The campaign app's own tables in the archive: its game sessions and its log.

The log is restored last (every row it names exists by then), event by event in the order of their ids, with
their stream positions and corrections as they were; each event's words for the log's search are computed
again on save. The members are not rows but invitations (``writing.members_of``).
"""

from __future__ import annotations

from campaigns.archive.registry import Table, payload_renumbered, register_table
from campaigns.archive.sections import Section
from campaigns.models import Event, GameSession
from campaigns.search_text import event_search_text

LOG_ORDER = 1000


def _searchable(event: Event) -> None:
    # What Event.save() does, which a batch insert skips.
    event.search_text = event_search_text(event.payload)


def register() -> None:
    Section("campaigns", order=0).table(GameSession)
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
