"""The « Sequences under way » card of a campaign's home page and dashboard (``conflicts/partials/running.html``), a
region (``core.regions``)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.utils.safestring import SafeString

from campaigns.event_subjects import SEQUENCES, SETTINGS
from campaigns.kept import table_head
from campaigns.models import Membership
from conflicts.running_table import running_sequences, running_table, waiting_for, waits_subjects
from core.kept_regions import region_html
from core.regions import Depends, Region, register, subject


@dataclass(frozen=True)
class RunningOf:
    """The « Sequences under way » card of a campaign's home page and dashboard."""

    campaign_id: int


def running_depends(thing: RunningOf, membership: Membership, _request: Any = None) -> Depends:
    """The card lists the campaign's Sequences not over yet (their titles, scenes and whether their result is on the
    table: ``sequences:<campaign>``, touched by a Sequence begun or ended and by the draw that resolves one) and names
    the viewer's own characters still to draw, leaving out those who cannot act (``settings:<campaign>``: whether the
    states count). Whose draws: a narrator's card waits on every character (they draw for the NPCs nobody runs), a
    player's on their own, so that another player's draw leaves it alone (``running_table.waits_subjects``). Viewer:
    each member on their own."""
    campaign_id = thing.campaign_id
    table = {subject(SEQUENCES, campaign_id), subject(SETTINGS, campaign_id)}

    def subjects() -> frozenset[str]:  # read only when the stream has moved
        return frozenset(table | waits_subjects(membership))

    def alike() -> tuple[Any, ...]:
        # What differs between two members' cards: whose turn to draw it names (``running_for``).
        return (membership.is_narrator, waiting_for(running_table(campaign_id), membership))

    return Depends(
        campaign_id=campaign_id,
        subjects=subjects,
        viewer=(membership.is_narrator, membership.user_id),
        head=table_head(membership),
        alike=alike,
    )


def _running_of(campaign_id: int, membership: Membership) -> RunningOf | None:
    return RunningOf(campaign_id) if campaign_id == membership.campaign_id else None


RUNNING = register(
    Region(
        name="running-sequences",
        template="conflicts/partials/running.html",
        load=_running_of,
        context=lambda _thing, membership, _request: {"running": running_sequences(membership)},
        depends=running_depends,
        watch="home",  # a campaign page and the dashboard watch home:<campaign> (campaigns.live.home_subject)
        element_id=lambda _thing: "running-sequences",
    )
)


def running_card(membership: Membership, *, oob: bool = False) -> SafeString:
    """The card (``#running-sequences``) for ``membership``, empty when nothing is under way."""
    return region_html(RUNNING, RunningOf(int(membership.campaign_id)), membership, oob=oob)
