"""The campaign's "now" block, the Sequences' part (``campaigns.now``): a player sees the draws waiting for their
characters, each a button to the Sequence; the narrator sees every character who still has to draw."""

from __future__ import annotations

from typing import TYPE_CHECKING

from django.template.loader import render_to_string

from campaigns.event_subjects import CAST, SEQUENCES
from campaigns.live import event_fact
from campaigns.now import NowSection, register_now
from conflicts.running_table import running_table, waiting_for, waits_subjects
from core.regions import subject

if TYPE_CHECKING:
    from collections.abc import Hashable, Iterable

    from campaigns.models import Event, Membership

TEMPLATE = "conflicts/partials/now.html"


def draws_now(membership: Membership) -> str:
    """The Sequences in their drawing phase with characters still to draw: the player's own (theirs to play), or
    for a narrator all of them, the NPCs they run first."""
    table = running_table(membership.campaign_id)  # one read per render pass, for every member
    if not table.waiting:
        return ""
    names: dict[int, list[str]] = {}
    for owner_id, sequence_id, name in table.waiting:
        if membership.is_narrator or owner_id == membership.user_id:
            names.setdefault(sequence_id, []).append(name)
    rows = [(s, sorted(names[s.pk])) for s in table.sequences if s.pk in names]
    if not rows:
        return ""
    return render_to_string(TEMPLATE, {"rows": rows, "narrator": membership.is_narrator})


def draws_subjects(membership: Membership) -> Iterable[str]:
    """The Sequences under way (``sequences``: one begun, ended, or its draw's result on the table, which opens the
    next draw after it is settled) and the names printed (``cast``); then whose draws: a narrator waits on every
    character (``turns``: any hand dealt; ``characters``: who cannot act is not waited for), a player on their own
    (each one's ``turn``: a hand dealt to it; ``character``: it joins a Sequence; ``states``: it cannot act)."""
    return {subject(SEQUENCES, membership.campaign_id), subject(CAST, membership.campaign_id)} | waits_subjects(
        membership
    )


def draws_audience(event: Event, membership: Membership) -> Hashable:
    """The narrators read every draw waiting alike; a player reads the Sequences their own characters wait in."""
    if membership.is_narrator:
        return ("narrator",)
    table = event_fact(event, "running", lambda: running_table(event.campaign_id))
    return ("player", waiting_for(table, membership))


def register() -> None:
    # It prints the waiting characters' names: a rename (``character.updated``) touches the cast.
    register_now(
        NowSection("draw", 20, draws_now, (SEQUENCES, CAST), draws_audience, template=TEMPLATE,
                   subjects=draws_subjects)
    )  # fmt: skip
