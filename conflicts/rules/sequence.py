"""What a draw does to the sequence: who is out, whether it is over, cutting it short.

« Le vainqueur du tirage peut annoncer à tout moment qu'il met un terme à la Séquence … En cas d'égalité,
n'importe lequel des deux camps peut annoncer qu'il souhaite mettre un terme à la Séquence, mais la
Séquence ne s'arrête que si l'autre camp souhaite également mettre un terme à la Séquence » (V, 2,
« Abréger une Séquence »).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from enum import StrEnum

from .errors import RuleError
from .resolution import DrawVerdict, Severity


def is_out(*, severity: Severity, revers_taken: int, out_after: int | None) -> bool:
    """A decisive Revers « perd la Séquence »; « un seul Revers ou deux Revers seulement sont suffisants pour
    mettre un PNJ hors de combat » (VII, 1) when the narrator says so: ``revers_taken`` counts Revers points
    received during this sequence."""
    if severity is Severity.DECISIVE:
        return True
    return out_after is not None and revers_taken >= out_after


def sides_standing(active: Mapping[str, bool], side_of: Mapping[str, str]) -> set[str]:
    return {side_of[k] for k, standing in active.items() if standing}


def over(active: Mapping[str, bool], side_of: Mapping[str, str]) -> bool:
    """The sequence ends when fewer than two sides still have someone standing."""
    return len(sides_standing(active, side_of)) < 2


class CutChoice(StrEnum):
    CUT = "cut"
    GO_ON = "go_on"


@dataclass(frozen=True)
class CutDecision:
    ended: bool
    winner: str | None
    waiting_for: tuple[str, ...] = ()


def cut_short(
    *,
    verdict: DrawVerdict | None,
    winner: str | None,
    side: str,
    choices: Mapping[str, CutChoice],
    sides: Iterable[str],
) -> CutDecision:
    """Decide whether the sequence stops after ``side`` chose (its choice is in ``choices``).

    The draw's winner ends it alone and reaches its goal. On equal Revers every side must choose CUT
    (openly, or secretly and revealed together: the caller hides choices until everyone chose).
    """
    if verdict is None or verdict is DrawVerdict.TIE:
        raise RuleError("cut_needs_revers")
    if verdict is DrawVerdict.WINNER:
        if side != winner:
            raise RuleError("cut_not_winner")
        return CutDecision(ended=choices.get(side) is CutChoice.CUT, winner=winner)
    sides = sorted(set(sides))
    missing = tuple(s for s in sides if s not in choices)
    if missing:
        return CutDecision(ended=False, winner=None, waiting_for=missing)
    return CutDecision(ended=all(choices[s] is CutChoice.CUT for s in sides), winner=None)


def friendly_penalty(received: Iterable[int]) -> int:
    """In a friendly contest Revers are not written on sheets, yet they still weigh on the next draws of the
    sequence; like Revers on a sheet they do not add up: the worst one counts (V, 3)."""
    return max(received, default=0)
