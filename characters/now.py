"""The campaign's "now" block, the characters' part: a player's own characters (name, states, Atouts, the sheet),
or the way to create one when they have none (``campaigns.now``)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from django.template.loader import render_to_string

from campaigns.event_subjects import CAST, CHARACTERS
from campaigns.now import NowSection, register_now
from characters.selectors import characters_for_panels

if TYPE_CHECKING:
    from collections.abc import Hashable

    from campaigns.models import Event, Membership

TEMPLATE = "characters/partials/now.html"


def my_characters_now(membership: Membership) -> str:
    """Nothing for a narrator (their dashboard has every character's panel); a player's characters otherwise."""
    if membership.is_narrator:
        return ""
    characters = list(characters_for_panels(membership.campaign_id).filter(owner_id=membership.user_id).order_by("pk"))
    return render_to_string(TEMPLATE, {"characters": characters, "campaign": membership.campaign})


def mine_audience(event: Event, membership: Membership) -> Hashable:
    """The narrators read it alike (empty); each player reads their own."""
    return ("narrator",) if membership.is_narrator else ("member", membership.pk)


def register() -> None:
    # What the block shows of the player's characters: any character's row, Atouts, Revers and states (every Event
    # naming one touches ``characters``), and who plays which (a character created or handed: ``cast``).
    register_now(NowSection("mine", 10, my_characters_now, (CHARACTERS, CAST), mine_audience, template=TEMPLATE))
