"""Drawing for every NPC of a draw at once, from the narrator's Sequence console.

« Les Séquences impliquant des Conflits hasardeux, tout comme les Séquences collectives, peuvent exiger de
tirer un grand nombre de cartes pour un grand nombre de protagonistes. Cela est d'autant plus vrai pour le
Narrateur qui doit faire la différence entre des cartes d'attaque et de défense pour chaque PNJ dont il a
la charge. » (appendix 5, « Cards are a Narrator's best friend ! »). One tap deals every NPC's cards, each
from its own split, exactly as one draw per NPC would: the same checks, the same decks. One tap, one Event:
``sequence.npcs_drew`` holds every NPC's hand (``hands``, each as its own ``sequence.drew`` would say it) and
the draw's resolution when nobody is left to draw (logs from before hold one ``sequence.drew`` per NPC, and read
as before). All of them or none: the first NPC refused (named, with the reason) undoes the whole tap.
"""

from __future__ import annotations

import random
from collections.abc import Mapping

from django.contrib.auth.models import User
from django.db import transaction
from django.utils.translation import gettext as _

from conflicts.models import Participant, Phase, Sequence
from conflicts.rules.budget import Split
from conflicts.services.changes import _narrator, _rng, runs_itself
from conflicts.services.drawing import _append_draws, _deal_for, _outdistanced
from conflicts.setup import default_split
from conflicts.snapshot import load
from core.errors import ServiceError


def npcs_to_draw(everyone: list[Participant]) -> list[Participant]:
    """The NPCs still to draw in this draw, in the table's order."""
    return [p for p in everyone if p.active and not p.drawn and runs_itself(p)]


@transaction.atomic
def sequence_draw_npcs(
    *, sequence: Sequence, actor: User, expected_version: int | None, splits: Mapping[int, Split] | None = None,
    rng: random.Random | None = None,
) -> list[Participant]:  # fmt: skip
    """Deal the cards of every NPC still to draw; return them. ``splits`` (by participant id) replaces an
    NPC's saved split; without one, its saved split is used, else the split its form starts from (every
    attack card on the first opponent, the rest in defence)."""
    _narrator(sequence.campaign_id, actor)
    if expected_version is None:
        raise ServiceError(_("Reload the page: this form does not say which state of the sequence it was made for."))
    snap = load(sequence, expected_version)
    sequence, everyone = snap.sequence, snap.everyone
    if sequence.phase == Phase.ENDED:
        raise ServiceError(_("This sequence is over."))
    if sequence.phase != Phase.DRAWING:
        raise ServiceError(_("Out of turn: this draw is over; the narrator records its Revers before the next one."))
    # An NPC that cannot act (État critique, dead, unconscious) draws nothing: the draw does not wait for it.
    npcs = [npc for npc in npcs_to_draw(everyone) if not snap.effect(npc).out]
    if not npcs:
        raise ServiceError(_("No NPC is left to draw in this draw."))
    if _outdistanced(sequence, everyone, actor):
        return []
    deal = _rng(rng)
    splits = splits or {}
    drawn = []
    for npc in npcs:
        split = splits.get(npc.pk)
        if split is None:
            split = default_split(npc, everyone, snap.budget(npc), shaken=bool(snap.effect(npc).shaken),
                                  collective=sequence.collective)  # fmt: skip
        try:
            drawn.append((npc, _deal_for(snap, npc, split, None, deal)))
        except ServiceError as error:
            raise type(error)(
                _("%(name)s: %(reason)s") % {"name": npc.character.name, "reason": error.message}
            ) from error
    _append_draws(snap, actor, drawn, tap=True)
    return npcs
