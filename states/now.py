"""The campaign's "now" block, the states' part (``campaigns.now``): on the narrator's dashboard, who is Shaken
and who is in État critique (« Il ne peut plus agir »: four wounds, ``incapacitated``)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from django.db.models import Q
from django.template.loader import render_to_string

from campaigns.event_subjects import CHARACTERS, SETTINGS
from campaigns.now import NowSection, register_now
from characters.models import Character
from core.regions import subject

if TYPE_CHECKING:
    from collections.abc import Hashable, Iterable

    from campaigns.models import Event, Membership

TEMPLATE = "states/partials/now.html"


def states_now(membership: Membership) -> str:
    """Nothing for a player (their own character's badges head their page), for a dead character, nor in a campaign
    that does not play the Savage-style states."""
    if not membership.is_narrator or not membership.campaign.savage_states:
        return ""
    rows = list(
        Character.objects.filter(campaign_id=membership.campaign_id, savage_state__dead=False)
        .filter(Q(savage_state__shaken=True) | Q(savage_state__incapacitated=True))
        .values_list("pk", "name", "savage_state__shaken", "savage_state__incapacitated")
    )
    if not rows:
        return ""
    shaken = sorted((pk, name) for pk, name, is_shaken, _ in rows if is_shaken)
    critical = sorted((pk, name) for pk, name, _, is_critical in rows if is_critical)
    return render_to_string(TEMPLATE, {"shaken": shaken, "critical": critical})


def states_subjects(membership: Membership) -> Iterable[str]:
    """A narrator's list reads every character's states and whether the campaign plays them; a player's part is
    always empty, and reads nothing."""
    if not membership.is_narrator:
        return ()
    return {subject(CHARACTERS, membership.campaign_id), subject(SETTINGS, membership.campaign_id)}


def states_audience(event: Event, membership: Membership) -> Hashable:
    """The narrators read it alike; the players read nothing."""
    return ("narrator",) if membership.is_narrator else ("player",)


def register() -> None:
    # Who is Shaken or in État critique (any character's states: ``characters``), in a campaign that plays the states
    # (its settings).
    register_now(
        NowSection("states", 30, states_now, (CHARACTERS, SETTINGS), states_audience, template=TEMPLATE,
                   subjects=states_subjects)
    )  # fmt: skip
