"""The Savage-style states refreshed live by every ``savage.*`` event: the badges and state panels of the
characters it touched, and the round tracker. Rendered from the same contexts as the pages."""

from __future__ import annotations

from collections.abc import Hashable
from typing import TYPE_CHECKING

from django.template.loader import render_to_string

from campaigns.chronicle import describe
from campaigns.live import Viewer, audience_unless_concerned, event_fact, home_subject, live_fragment
from campaigns.live_catch_up import CatchUp, catch_up_region
from characters.access import can_view
from characters.subjects import sheet_subject
from states.subjects import round_subject, states_subject
from states.views import panel_context, round_context

if TYPE_CHECKING:
    from campaigns.models import Event


def savage_audience(event: Event, viewer: Viewer) -> Hashable:
    """Panels and the tracker read the same for every player except those running a character the event
    touched or one in the round (their buttons: can_edit)."""

    def owners() -> set[int]:
        from states.models import SavageRound

        found = {c.owner_id for c in event.characters.all() if c.owner_id}
        tracker = SavageRound.objects.filter(campaign_id=event.campaign_id).first()
        if tracker is not None:
            found |= {o for o in tracker.participants.values_list("owner_id", flat=True) if o}
        return found

    return audience_unless_concerned(viewer, event_fact(event, "savage_owners", owners))


@live_fragment("savage.", audience=savage_audience)
def savage_fragments(event: Event, viewer: Viewer) -> list[str]:
    """Refresh the badges and state panels of the characters the event touched (with what just happened),
    and the round tracker, on the pages showing them."""
    fragments: list[str] = []
    for character in event.characters.all():
        badges = any(
            viewer.shows(s)
            for s in (home_subject(event.campaign_id), sheet_subject(character.pk), round_subject(event.campaign_id))
        )
        panel = viewer.shows(states_subject(character.pk))
        if not (badges or panel) or not can_view(viewer.membership, character):
            continue
        context = panel_context(character, viewer.membership)
        context["oob"] = True
        # The roll that just happened stays on the panel: whoever acted reads its dice, and so does the table.
        context["notice"] = describe(event)
        fragments.append(render_to_string("states/badges.html", context))
        if panel:
            fragments.append(render_to_string("states/partials/panel.html", context))
    if viewer.shows(round_subject(event.campaign_id)):
        tracker = round_context(event.campaign, viewer.membership)
        tracker["oob"] = True
        fragments.append(render_to_string("states/partials/round.html", tracker))
    return fragments


@catch_up_region("states")
def states_now(catch_up: CatchUp, character_id: int) -> list[str] | None:
    """A page watching a character's states (its states page) caught up: its state panel as a fresh GET shows it."""
    from characters.models import Character

    membership = catch_up.membership
    character = (
        Character.objects.select_related("campaign").filter(pk=character_id, campaign_id=membership.campaign_id).first()
    )
    if character is None or not character.campaign.savage_states or not can_view(membership, character):
        return []
    context = panel_context(character, membership)
    context.update({"oob": True, "csrf_token": catch_up.viewer.csrf_token})
    return [render_to_string("states/partials/panel.html", context)]


@catch_up_region("round")
def round_now(catch_up: CatchUp, campaign_id: int) -> list[str] | None:
    """The round tracker page caught up: the tracker as a fresh GET shows it."""
    membership = catch_up.membership
    if campaign_id != membership.campaign_id or not membership.campaign.savage_states:
        return []
    tracker = round_context(membership.campaign, membership)
    tracker.update({"oob": True, "csrf_token": catch_up.viewer.csrf_token})
    return [render_to_string("states/partials/round.html", tracker)]
