"""Ending a Sequence: recording its Revers on the sheets, or cutting it short."""

from __future__ import annotations

from typing import Any

from django.contrib.auth.models import User
from django.db import transaction
from django.utils.translation import gettext as _

from campaigns.redaction import PARTS
from conflicts import sheets
from conflicts.messages import refuse
from conflicts.models import Participant, Phase, Sequence
from conflicts.rules.errors import RuleError
from conflicts.rules.healing import inflicted_nature
from conflicts.rules.resolution import DrawVerdict, Severity
from conflicts.rules.sequence import CutChoice, cut_short, is_out, over
from conflicts.services.changes import _append, _bump, _lock_sequence, _member, _narrator, _participants, controls
from conflicts.services.drawing import _discard_all
from conflicts.setup import effect_of, writes_to_sheets
from core.errors import PermissionRefused, ServiceError


@transaction.atomic
def sequence_settle(*, sequence: Sequence, actor: User, expected_version: int | None) -> Sequence:
    """Record the draw's Revers (on the sheets unless friendly, chase or demolition), then open the next draw.

    Locks in the order every Sequence use case takes them (``conflicts.snapshot``): the Sequence, its
    participants, then the sheets written (each character's row, its state row), then the decks, all at once in
    the order of their addresses. One change, one Event: ``sequence.settled``, the table's, carries each Revers
    written on a sheet as a part (``campaigns.redaction``: ``character.revers_inflicted`` or
    ``savage.revers_wounds``) with the visibility its own Event used to have: an NPC's wounds stay the narrators'
    (and its runner's), and a player's log, export and live feed are never given them."""
    _narrator(sequence.campaign_id, actor)
    sequence = _lock_sequence(sequence, expected_version)
    if sequence.phase != Phase.RESOLVED:
        raise ServiceError(_("There is no draw waiting for its Revers."))
    everyone = _participants(sequence)
    by_key = {p.key: p for p in everyone}
    outcome = sequence.outcome
    interpose = outcome.get("interpose", {})
    recorded, parts = [], []
    for key, target in outcome.get("targets", {}).items():
        severity = Severity(target["severity"])
        if not severity or key not in by_key:
            continue
        receiver = by_key[interpose.get(key, key)]
        # « une Carte par jour … coups de poing » ; « armes à feu … 1 Carte par semaine »: the weapon that hit.
        nature = inflicted_nature(
            sequence_nature=sequence.nature, domain=sequence.domain, credited=target.get("credited", {}),
            natures={p.key: p.inflicts for p in everyone},
        )  # fmt: skip
        if writes_to_sheets(sequence):
            part = sheets.revers_record(
                character=receiver.character, actor=actor, domain=sequence.domain, severity=int(severity),
                source=f"{sequence.scene.title} · {sequence.title}", nature=nature,
                payload={"sequence": sequence.pk, "draw": sequence.draw_number},
            )  # fmt: skip
            if part:
                parts.append(part)
        receiver.revers_taken += int(severity)
        receiver.friendly_worst = max(receiver.friendly_worst, int(severity))
        out = is_out(severity=severity, revers_taken=receiver.revers_taken, out_after=receiver.out_after)
        if out:
            receiver.active = False
        recorded.append({"participant": receiver.pk, "name": receiver.character.name, "severity": int(severity),
                         "instead_of": by_key[key].character.name if receiver.key != key else "", "out": out,
                         "nature": nature})  # fmt: skip
    closed = outcome.get("range_closed", {})
    _discard_all(sequence, everyone)
    for p in everyone:
        p.upper_hand_cards = outcome.get("upper_hand_cards", {}).get(p.key, 0)
        p.out_of_range_bands = max(0, p.out_of_range_bands - closed.get(p.key, 0))
        p.hand, p.drawn, p.atout_card, p.help_cards = {}, False, 0, 0
        p.version += 1
        p.save()
    sequence.last_verdict = outcome.get("verdict", "")
    sequence.last_winner = outcome.get("winner") or ""
    sequence.cut_choices = {}
    standing = standing_of(sequence, everyone)
    sides = {p.key: p.side for p in everyone}
    ended = over(standing, sides)
    payload = {"revers": recorded, "verdict": sequence.last_verdict, "winner": sequence.last_winner,
               "upper_hand_cards": outcome.get("upper_hand_cards", {}), "range_closed": closed, "names": outcome.get("names", {}),
               "kind": sequence.kind, "written": writes_to_sheets(sequence), PARTS: parts}  # fmt: skip
    if ended:
        standing_sides = sorted({p.side for p in everyone if standing[p.key]})
        sequence.phase = Phase.ENDED
        sequence.winner = standing_sides[0] if len(standing_sides) == 1 else ""
        sequence.ended_how = "decisive"
        payload.update({"ended": True, "sequence_winner": sequence.winner})
    else:
        sequence.phase = Phase.DRAWING
        sequence.draw_number += 1
    _append(sequence, "sequence.settled", actor, payload, [p.character for p in everyone])
    _bump(sequence, "phase", "draw_number", "last_verdict", "last_winner", "cut_choices", "winner", "ended_how")
    return sequence


def standing_of(sequence: Sequence, everyone: list[Participant]) -> dict[str, bool]:
    """Who still stands in the sequence: in it and able to act. A participant in État critique (« Il ne peut plus
    agir »), unconscious or dead stands no more than one a Revers décisif took out (« perd la Séquence »), so a
    side left with nobody able to act has lost it (read after the draw's Revers are written: a Revers may have
    just become the fourth wound)."""
    effects = sheets.states_effects([p.character for p in everyone], domain=sequence.domain, campaign=sequence.campaign)
    return {p.key: p.active and not effect_of(p, sequence, effects).out for p in everyone}


@transaction.atomic
def sequence_cut_short(
    *, sequence: Sequence, actor: User, side: str, choice: str, expected_version: int | None
) -> Sequence:
    """« Abréger une Séquence »: the draw's winner ends it; on equal Revers both sides must want it."""
    membership = _member(sequence.campaign_id, actor)
    sequence = _lock_sequence(sequence, expected_version)
    everyone = _participants(sequence)
    if not any(p.side == side and controls(membership, p) for p in everyone):
        raise PermissionRefused(_("You can only choose for a side you play."))
    if sequence.phase != Phase.DRAWING or sequence.draw_number == 1:
        raise ServiceError(_("A sequence is cut short once a draw's Revers are recorded."))
    if any(p.drawn for p in everyone):
        raise ServiceError(_("Cards are already on the table for the next draw: finish it first."))
    choices = {**{k: CutChoice(v) for k, v in sequence.cut_choices.items()}, side: CutChoice(choice)}
    standing = sorted({p.side for p in everyone if p.active})
    try:
        decision = cut_short(
            verdict=DrawVerdict(sequence.last_verdict) if sequence.last_verdict else None, winner=sequence.last_winner or None,
            side=side, choices=choices, sides=standing,
        )  # fmt: skip
    except RuleError as error:
        raise refuse(error) from error
    sequence.cut_choices = {k: str(v) for k, v in choices.items()}
    payload: dict[str, Any] = {"side": side, "waiting_for": list(decision.waiting_for), "ended": decision.ended}
    if not (sequence.secret_cut and decision.waiting_for):
        payload["choices"] = sequence.cut_choices  # revealed together once every side chose
    if decision.ended:
        sequence.phase = Phase.ENDED
        sequence.winner = decision.winner or ""
        sequence.ended_how = "cut_short"
        payload["sequence_winner"] = sequence.winner
    elif not decision.waiting_for:
        sequence.cut_choices = {}
    _append(sequence, "sequence.cut", actor, payload, [])
    _bump(sequence, "cut_choices", "phase", "winner", "ended_how")
    return sequence
