"""Resolving a draw: defence cancels, successes become Revers, who won the draw.

« 1 succès = l'adversaire essuie un Revers (pénalité de -1 carte); 2 succès = … un Revers Sérieux
(pénalité de -2 cartes); 3 succès = … un Revers Décisif (pénalité de -3 cartes) et perd la Séquence. »
« Si personne n'enregistre de succès, la Séquence se conclue par une égalité … La Séquence se poursuit »
(V, 2). Successes aimed at one participant by several attackers are pooled before the defence cancels
them (docs/rules-decisions.md, Resolution).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from enum import IntEnum, StrEnum

from .cards import Card, SuccessRule


class Severity(IntEnum):
    """« Un Revers est considéré comme une Blessure, un Revers Majeur … une Blessure sérieuse et un Revers
    Décisif … une Blessure grave ou mortelle »."""

    NONE = 0
    REVERS = 1
    SERIOUS = 2
    DECISIVE = 3

    @property
    def penalty(self) -> int:
        """Cards (or ranks, in a Test) the Revers costs: -1, -2, -3."""
        return -int(self)


WOUNDS = {Severity.REVERS: "wound", Severity.SERIOUS: "serious_wound", Severity.DECISIVE: "grave_wound"}
"""« Revers et blessures »: Revers → Blessure, Revers sérieux → Blessure sérieuse, décisif → grave ou mortelle."""


def severity_from_successes(successes: int) -> Severity:
    return Severity(min(3, max(0, successes)))


@dataclass(frozen=True)
class Played:
    """A card on the table; ``flipped`` after an Atout « changer le résultat … de l'une des cartes »."""

    card: Card
    flipped: bool = False

    def success(self, rule: SuccessRule) -> bool:
        return self.card.is_success(rule) != self.flipped


@dataclass(frozen=True)
class Hand:
    key: str
    side: str
    attack: Mapping[str, tuple[Played, ...]] = field(default_factory=dict)
    defence: Mapping[str, tuple[Played, ...]] = field(default_factory=dict)
    upper_hand: bool = False
    out_of_range: bool = False


@dataclass(frozen=True)
class TargetResult:
    target: str
    attack_successes: Mapping[str, int]
    defence_successes: int
    defence_weight: int
    credited: Mapping[str, int]
    cost: int
    severity: Severity
    upper_hand_cards: Mapping[str, int]

    @property
    def attacked(self) -> int:
        return sum(self.attack_successes.values())

    @property
    def net(self) -> int:
        return sum(self.credited.values())


class DrawVerdict(StrEnum):
    WINNER = "winner"  # one side inflicted more: it may cut the sequence short
    EQUAL = "equal"  # equal Revers: cutting short needs both sides
    TIE = "tie"  # nobody inflicted anything: draw again


@dataclass(frozen=True)
class DrawOutcome:
    targets: Mapping[str, TargetResult]
    by_side: Mapping[str, int]
    verdict: DrawVerdict
    winner: str | None
    range_closed: Mapping[str, int]
    upper_hand_cards: Mapping[str, int]

    @property
    def decisive(self) -> list[str]:
        return [k for k, t in self.targets.items() if t.severity is Severity.DECISIVE]


def _successes(cards: tuple[Played, ...], rule: SuccessRule) -> int:
    return sum(1 for c in cards if c.success(rule))


def resolve_draw(
    hands: list[Hand],
    rule: SuccessRule,
    *,
    collective: bool = False,
    defence_weights: Mapping[str, int] | None = None,
    costs: Mapping[tuple[str, str], int] | None = None,
    armour: Mapping[str, tuple[int, int]] | None = None,
) -> DrawOutcome:
    """Turn every participant's cards into Revers.

    ``defence_weights[target]``: attack successes each of the target's defence successes cancels (the
    narrator's figure). ``armour[target] = (weight, cards)``: « Chaque succès d'une armure du futur annule
    deux succès d'une arme moderne »: only the successes among the first ``cards`` of the target's own
    defence (its armour's cards) cancel ``weight`` each. ``costs[(attacker, target)]``: successes per Revers.
    """
    weights = defence_weights or {}
    armour_extra: dict[str, int] = {}
    for hand in hands:
        a_weight, a_cards = (armour or {}).get(hand.key, (1, 0))
        own = hand.defence.get(hand.key, ())
        if a_cards and a_weight > max(1, weights.get(hand.key, 1)):
            armour_extra[hand.key] = (a_weight - max(1, weights.get(hand.key, 1))) * _successes(own[:a_cards], rule)
    costs = costs or {}
    side_of = {h.key: h.side for h in hands}
    incoming: dict[str, dict[str, int]] = {}
    defence: dict[str, int] = {}
    own_defence: dict[str, int] = {}
    for hand in hands:
        for target, cards in hand.attack.items():
            incoming.setdefault(target, {})[hand.key] = _successes(cards, rule)
        for protected, cards in hand.defence.items():
            got = _successes(cards, rule)
            defence[protected] = defence.get(protected, 0) + got
            if protected == hand.key:
                own_defence[hand.key] = own_defence.get(hand.key, 0) + got
    upper = {h.key for h in hands if h.upper_hand}
    targets: dict[str, TargetResult] = {}
    upper_cards: dict[str, int] = {}
    inflicted_by: dict[str, int] = {}
    successes_by: dict[str, int] = {}
    for target in sorted(set(incoming) | set(defence)):
        attacks = incoming.get(target, {})
        weight = max(1, weights.get(target, 1))
        capacity = defence.get(target, 0) * weight + armour_extra.get(target, 0)
        if target in armour_extra:
            weight = max(weight, (armour or {})[target][0])  # shown: the armour cards' weight
        # The defence parries the biggest threat first; what is left is credited to each attacker.
        credited: dict[str, int] = {}
        for attacker, got in sorted(attacks.items(), key=lambda kv: (-kv[1], kv[0])):
            cancelled = min(capacity, got)
            capacity -= cancelled
            credited[attacker] = got - cancelled
        active = [a for a, n in credited.items() if n]
        cost = max((costs.get((a, target), 1) for a in active), default=1)
        gained: dict[str, int] = {}
        for attacker in active:
            if attacker in upper:
                # « le nombre de Revers infligés est doublé. Le résultat donne le nombre de cartes supplémentaires ».
                gained[attacker] = 2 * min(3, credited[attacker] // cost)
                upper_cards[attacker] = upper_cards.get(attacker, 0) + gained[attacker]
        inflicting = sum(n for a, n in credited.items() if a not in upper)
        severity = severity_from_successes(inflicting // cost)
        targets[target] = TargetResult(
            target, dict(attacks), defence.get(target, 0), weight, credited, cost, severity, gained
        )
        per_side: dict[str, int] = {}
        for attacker, n in credited.items():
            successes_by[side_of.get(attacker, "")] = successes_by.get(side_of.get(attacker, ""), 0) + n
            if attacker not in upper:
                per_side[side_of.get(attacker, "")] = per_side.get(side_of.get(attacker, ""), 0) + n
        for side, n in per_side.items():
            inflicted_by[side] = inflicted_by.get(side, 0) + min(3, n // cost)
    # « Lorsque le nombre de succès défensifs est supérieur au nombre de succès obtenus en attaque, les succès
    # défensifs supplémentaires peuvent être utilisés pour réduire la distance ».
    range_closed = {
        h.key: max(0, own_defence.get(h.key, 0) - sum(incoming.get(h.key, {}).values()))
        for h in hands
        if h.out_of_range
    }
    # Collective: « Le camp qui enregistre le plus grand nombre de succès est considéré comme le vainqueur ».
    score = successes_by if collective else inflicted_by
    sides = sorted({h.side for h in hands})
    by_side = {s: score.get(s, 0) for s in sides}
    best = max(by_side.values(), default=0)
    leaders = [s for s, v in by_side.items() if v == best]
    if best == 0:
        verdict, winner = DrawVerdict.TIE, None
    elif len(leaders) == 1:
        verdict, winner = DrawVerdict.WINNER, leaders[0]
    else:
        verdict, winner = DrawVerdict.EQUAL, None
    return DrawOutcome(targets, by_side, verdict, winner, range_closed, upper_cards)
