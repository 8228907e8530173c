"""The campaign's "now" block, the characters' part: a player's own characters (name, states, Atouts, the sheet),
or the way to create one when they have none (``campaigns.now``)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from django.template.loader import render_to_string

from campaigns.event_subjects import CAST, CHARACTER, CHARACTERS, STATES
from campaigns.now import NowSection, register_now
from characters.selectors import characters_for_panels, owned_ids
from core.regions import subject

if TYPE_CHECKING:
    from collections.abc import Hashable, Iterable

    from campaigns.models import Event, Membership

TEMPLATE = "characters/partials/now.html"


def my_characters_now(membership: Membership) -> str:
    """Nothing for a narrator (their dashboard has every character's panel); a player's characters otherwise."""
    if membership.is_narrator:
        return ""
    characters = list(characters_for_panels(membership.campaign_id).filter(owner_id=membership.user_id).order_by("pk"))
    return render_to_string(TEMPLATE, {"characters": characters, "campaign": membership.campaign})


def mine_subjects(membership: Membership) -> Iterable[str]:
    """A player's own characters (their row, Atouts and Revers: ``character``; their badges: ``states``) and who
    runs which (``cast``: a character created or handed); a narrator's part is empty."""
    if membership.is_narrator:
        return ()
    own = owned_ids(membership)
    return {subject(CAST, membership.campaign_id)} | {subject(k, pk) for pk in own for k in (CHARACTER, STATES)}


def mine_audience(event: Event, membership: Membership) -> Hashable:
    """The narrators read it alike (empty); each player reads their own."""
    return ("narrator",) if membership.is_narrator else ("member", membership.pk)


def register() -> None:
    # What the block shows of the player's characters: their rows, Atouts, Revers and states, and who plays which (a
    # character created or handed: ``cast``), each player their own (``mine_subjects``).
    register_now(
        NowSection("mine", 10, my_characters_now, (CHARACTERS, CAST), mine_audience, template=TEMPLATE,
                   subjects=mine_subjects)
    )  # fmt: skip
