"""« Changer le résultat … de l'une des cartes »: each change a participant may buy, with what it would do.

Appendix 4: « un Atout peut être utilisé pour changer le résultat de l'un des dés ou de l'une des cartes (ce qui
permet, selon les besoins, d'obtenir un succès ou un échec supplémentaire, d'augmenter ou réduire un Rang
final) ». A card turns one way only (a success becomes a failure, a failure a success), so each of the
participant's cards on the table is one choice; the form lists them all with the Revers each participant would
receive after it, the draw read again exactly as the settling will, and selects none: the player picks the card
and the direction, and sees the outcome before paying (issue 27: a default that flipped the only success).
"""

from __future__ import annotations

import copy
from dataclasses import dataclass
from typing import Any

from conflicts.models import Participant, Phase, Sequence
from conflicts.services.drawing import _resolve

SUCCESS, FAILURE = "success", "failure"


@dataclass(frozen=True)
class ReversChange:
    name: str
    before: int
    after: int


@dataclass(frozen=True)
class CardChange:
    """One card of the participant turned the other way: ``value`` is what the form posts (``ref|direction``)."""

    ref: str
    code: str
    part: str  # attack or defence
    target: str  # the opponent an attack card aims at, the protected one for a defence card
    direction: str  # what the card becomes: SUCCESS or FAILURE
    changes: tuple[ReversChange, ...]  # the Revers that would differ, before → after

    @property
    def value(self) -> str:
        return f"{self.ref}|{self.direction}"


def _severities(outcome: dict[str, Any]) -> dict[str, int]:
    return {key: int(t.get("severity", 0)) for key, t in outcome.get("targets", {}).items()}


def card_changes(sequence: Sequence, everyone: list[Participant], me: Participant) -> list[CardChange]:
    """Every change ``me`` may buy in this resolved draw, in the order its cards lie on the table."""
    if sequence.phase != Phase.RESOLVED or not me.drawn:
        return []
    from conflicts.decks import success_rule, table_settings
    from conflicts.rules.cards import Card

    rule = success_rule(table_settings(sequence.campaign))
    names = {p.key: p.character.name for p in everyone}
    now = _severities(sequence.outcome)
    flipped = set(me.hand.get("flipped", []))
    out = []
    for part in ("attack", "defence"):
        for key, codes in me.hand.get(part, {}).items():
            for index, code in enumerate(codes):
                ref = f"{part}:{key}:{index}"
                reads_success = Card.parse(code).is_success(rule) != (ref in flipped)
                trial = copy.copy(me)
                trial.hand = {**me.hand, "flipped": sorted(flipped ^ {ref})}
                after = _severities(_resolve(sequence, [trial if p.pk == me.pk else p for p in everyone]))
                changes = tuple(
                    ReversChange(names.get(k, k), now.get(k, 0), after.get(k, 0))
                    for k in sorted(set(now) | set(after), key=lambda k: names.get(k, k))
                    if now.get(k, 0) != after.get(k, 0)
                )
                out.append(
                    CardChange(ref, code, part, names.get(key, key), FAILURE if reads_success else SUCCESS, changes)
                )
    return out
