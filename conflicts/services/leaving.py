"""Leaving a Sequence: a draw that no longer waits for someone who cannot act, the narrator taking a participant
out, or ending the Sequence, at any moment and with the reason in the log.

« Lorsque tous les participants ont tiré leurs cartes, les succès obtenus … sont transformés en Revers » (V, 2);
État critique: « Il ne peut plus agir et ne reçoit plus de carte d'initiative » (state cards). A participant who
falls into État critique in the middle of a draw (the narrator sets the fourth wound, a Revers becomes wounds)
draws nothing: the draw resolves once everyone who can act has drawn.
"""

from __future__ import annotations

from typing import Any

from django.contrib.auth.models import User
from django.db import transaction
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from characters.models import Character
from conflicts.models import Participant, Phase, Sequence
from conflicts.rules.sequence import over
from conflicts.services.changes import _append, _bump, _lock_sequence, _narrator, _participants
from conflicts.services.drawing import _discard, _discard_all, _resolve_if_complete, resolution
from conflicts.services.settling import standing_of
from core.errors import ServiceError

REASON_MAX = 240


def draw_without_those_out(character: Character, actor: User | None) -> None:
    """The states app's hook (``states.hooks.on_out_of_action``): ``character`` can no longer act; every open
    draw it was still to draw in resolves if everyone else has drawn (``sequence.resolved``)."""
    waiting = Sequence.objects.filter(
        participants__character=character, participants__active=True, participants__drawn=False,
        phase=Phase.DRAWING, campaign_id=character.campaign_id,
    ).values_list("pk", flat=True)  # fmt: skip
    for pk in sorted(set(waiting)):
        sequence = _lock_sequence(Sequence(pk=pk), None)
        if sequence.phase != Phase.DRAWING:
            continue
        _resolve_if_complete(sequence, _participants(sequence), actor)


def _reason(reason: str) -> str:
    reason = " ".join(reason.split())
    if not reason:
        raise ServiceError(_("Say why: the reason goes in the log."))
    if len(reason) > REASON_MAX:
        raise ServiceError(
            ngettext("Keep the reason under %(n)s character.", "Keep the reason under %(n)s characters.", REASON_MAX)
            % {"n": REASON_MAX}
        )
    return reason


def _end(sequence: Sequence, everyone: list[Participant], how: str, payload: dict[str, Any]) -> None:
    """Close the sequence: the cards on the table go to the discard pile, the side still standing (if one) wins."""
    _discard_all(sequence, [p for p in everyone if p.drawn or p.hand])
    for p in everyone:
        if p.drawn or p.hand:
            p.hand, p.drawn = {}, False
            p.version += 1
            p.save(update_fields=["hand", "drawn", "version"])
    standing = standing_of(sequence, everyone)
    sides = sorted({p.side for p in everyone if standing[p.key]})
    sequence.phase = Phase.ENDED
    sequence.winner = sides[0] if len(sides) == 1 else ""
    sequence.ended_how = how
    payload.update({"ended": True, "sequence_winner": sequence.winner})


@transaction.atomic
def participant_take_out(
    *, participant: Participant, actor: User, reason: str, expected_version: int | None
) -> Participant:
    """The narrator takes a participant out of the sequence at any moment (``sequence.left``, with the reason).
    Cards it drew in a draw still open go back; a draw waiting only for it resolves (the outcome in the same
    Event); a sequence left with fewer than two sides standing ends (a draw's Revers waiting to be recorded are
    recorded first, by the narrator)."""
    _narrator(participant.sequence.campaign_id, actor)
    reason = _reason(reason)
    sequence = _lock_sequence(participant.sequence, expected_version)
    if not sequence.is_open:
        raise ServiceError(_("This sequence is over."))
    everyone = _participants(sequence)
    me = next((p for p in everyone if p.pk == participant.pk), None)
    if me is None:
        raise ServiceError(_("This participant is not in this sequence."))
    if not me.active:
        raise ServiceError(_("%(name)s is already out of this sequence.") % {"name": me.character.name})
    if sequence.phase == Phase.DRAWING and me.drawn:
        _discard(sequence, me)
        me.hand, me.drawn = {}, False
    me.active = False
    me.version += 1
    me.save(update_fields=["active", "hand", "drawn", "version"])
    payload: dict[str, Any] = {"participant": me.pk, "name": me.character.name, "reason": reason}
    sides = {p.key: p.side for p in everyone}
    if sequence.phase == Phase.DRAWING and over(standing_of(sequence, everyone), sides):
        _end(sequence, everyone, "taken_out", payload)
    characters = [me.character]
    # A draw that waited only for them resolves now, in this Event: one change, one Event.
    outcome = resolution(sequence, everyone) if sequence.phase == Phase.DRAWING else None
    if outcome is not None:
        payload["outcome"] = outcome
        characters = [p.character for p in everyone]
    _append(sequence, "sequence.left", actor, payload, characters)
    _bump(sequence, "phase", "winner", "ended_how", "outcome")
    return me


@transaction.atomic
def sequence_end(*, sequence: Sequence, actor: User, reason: str, expected_version: int | None) -> Sequence:
    """The narrator ends the sequence at any moment (``sequence.ended``, with the reason): cards on the table go
    back, a draw's Revers not yet recorded are not written, and the side still standing, if only one, wins."""
    _narrator(sequence.campaign_id, actor)
    reason = _reason(reason)
    sequence = _lock_sequence(sequence, expected_version)
    if not sequence.is_open:
        raise ServiceError(_("This sequence is over."))
    everyone = _participants(sequence)
    payload: dict[str, Any] = {"reason": reason, "unrecorded": sequence.phase == Phase.RESOLVED}
    _end(sequence, everyone, "narrator", payload)
    _append(sequence, "sequence.ended", actor, payload, [p.character for p in everyone])
    _bump(sequence, "phase", "winner", "ended_how")
    return sequence
