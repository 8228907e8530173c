"""Reads of a campaign's sequences under way: what the campaign pages list and who must still draw in them."""

from __future__ import annotations

from dataclasses import dataclass

from django.db.models import Q

from campaigns.event_subjects import CHARACTER, CHARACTERS, STATES, TURN, TURNS
from campaigns.models import Membership
from characters.selectors import owned_ids
from conflicts.models import Participant, Phase, Sequence
from core.prepared import PreparedRead
from core.regions import pass_fact, subject


@dataclass(frozen=True)
class RunningSequence:
    """A sequence under way, as a player's campaign page lists it."""

    sequence: Sequence
    to_draw: list[str]  # the viewer's own characters who still have to draw


@dataclass(frozen=True)
class RunningTable:
    """The campaign's sequences not over yet and every character still to draw in them, for every viewer at
    once (the live layer reads it once per event and lists it for each viewer with ``running_for``)."""

    sequences: list[Sequence]
    waiting: list[tuple[int | None, int, str]]  # (owner's user id, sequence id, character name)


def running_table(campaign_id: int) -> RunningTable:
    """Two queries, once per render pass whoever reads it (``core.regions.pass_fact``: the twenty pages a live event
    is rendered for, the card and the "now" block of one page)."""
    found: RunningTable = pass_fact(("running table", campaign_id), lambda: _read(campaign_id))
    return found


# The campaign's Sequences not over yet, read once per render pass for every page showing them (a live draw's every
# process): compiled once per thread (``core.prepared``; arguments in the SQL's order).
_not_ended = PreparedRead(
    lambda campaign_id, ended: (
        Sequence.objects.filter(campaign_id=campaign_id)
        .exclude(phase=ended)
        .select_related("scene")
        .order_by("-created_at", "-pk")
    )
)


# Nobody is waited for who cannot act (État critique, unconscious, dead: conflicts.services.drawing).
_OUT = Q(character__campaign__savage_states=True) & (
    Q(character__savage_state__incapacitated=True)
    | Q(character__savage_state__dead=True)
    | Q(character__savage_state__unconscious=True)
)

# Who must still draw in the campaign's Sequences being drawn (a Sequence being drawn is not over), compiled once per
# thread as ``_not_ended`` is: every live event of a table at war reads it.
_waiting = PreparedRead(
    lambda campaign_id, drawing: (
        Participant.objects.filter(sequence__campaign_id=campaign_id, sequence__phase=drawing, active=True, drawn=False)
        .exclude(_OUT)
        .values_list("character__owner_id", "sequence_id", "character__name")
    )
)


def _read(campaign_id: int) -> RunningTable:
    sequences = _not_ended(campaign_id, Phase.ENDED.value)
    if not sequences:
        return RunningTable([], [])
    return RunningTable(sequences, _waiting(campaign_id, Phase.DRAWING.value))


def waits_subjects(membership: Membership) -> set[str]:
    """The subjects that say whose draws ``membership`` waits on (``waiting_for``), for every region listing them: a
    narrator waits on every character (``turns``: any hand dealt; ``characters``: who cannot act is not waited for),
    a player on their own (each one's ``turn``: a hand dealt to it; ``character``: it joins a Sequence, it is renamed;
    ``states``: it cannot act). Another player's draw leaves a player's list alone."""
    campaign_id = membership.campaign_id
    if membership.is_narrator:
        return {subject(CHARACTERS, campaign_id), subject(TURNS, campaign_id)}
    return {subject(kind, pk) for pk in owned_ids(membership) for kind in (CHARACTER, STATES, TURN)}


def waiting_for(table: RunningTable, membership: Membership) -> tuple[tuple[int, str], ...]:
    """(sequence id, character name) of the characters this viewer must still draw for: a player their own, a
    narrator also those nobody else runs (NPCs)."""
    return tuple(
        (sequence_id, name)
        for owner_id, sequence_id, name in table.waiting
        if owner_id == membership.user_id or (owner_id is None and membership.is_narrator)
    )


def running_for(table: RunningTable, membership: Membership) -> list[RunningSequence]:
    waiting: dict[int, list[str]] = {}
    for sequence_id, name in waiting_for(table, membership):
        waiting.setdefault(sequence_id, []).append(name)
    return [RunningSequence(s, waiting.get(s.pk, [])) for s in table.sequences]


def running_sequences(membership: Membership) -> list[RunningSequence]:
    """The campaign's sequences not over yet, with the characters the viewer must still draw for (two queries)."""
    return running_for(running_table(membership.campaign_id), membership)
