"""Character creation budgets: standard (I), free style (appendix 2) and streamlined (appendix 3).

Standard — « Dépenser un Atout augmente une Caractéristique d'un Rang » ; « Vous pouvez attribuer
autant d'Atouts que vous le voulez […] à l'exception du dernier Atout qui doit être conservé […].
Vous devez également dépenser au moins un Atout. »

Free style — « Les Atouts sont utilisés normalement mais le joueur peut donner un rang à tout ce
qu'il souhaite […] tant que le Narrateur ne met pas son veto. »

Streamlined — « le Rang par défaut des Aptitudes est Moyen » ; « Aptitudes ±3, Champs et
Domaines 1 » ; « il est possible de diminuer une Aptitude afin de récupérer des Atouts » ;
« Sauf autorisation du Narrateur, et à l'exception des Champs d'expertise dont le Rang par défaut
est Abyssal ou Lamentable, aucune Caractéristique ne peut avoir un Rang inférieur à Faible ou
supérieur à Excellent à l'issue de la phase de Création » ; « un maximum de 3 Atouts peuvent être
ainsi conservés ».

``creation_budget`` never raises: it reports every broken rule so the wizard can show them live;
``creation_check`` raises the first one.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field

from .errors import RuleViolation
from .ladder import HUMAN_MAXIMUM, Rank
from .traits import TraitDef, TraitKind, creation_default

STANDARD = "standard"
FREE = "free"
STREAMLINED = "streamlined"
MODES = (STANDARD, FREE, STREAMLINED)

# « Les personnes moyennes commencent avec 6 Atouts […] 11 […] 16 […] 21 Atouts. » (I)
STATUS_BUDGETS = {"ordinary": 6, "heroic": 11, "expert": 16, "legendary": 21}
STREAMLINED_BUDGET = 15
STREAMLINED_KEEP_MAX = 3
STREAMLINED_APTITUDE_COST = 3
STREAMLINED_LOWEST = Rank.FAIBLE
STREAMLINED_HIGHEST = Rank.EXCELLENT


@dataclass(frozen=True)
class CreationOptions:
    """What the narrator allows at creation. ``permitted`` lists traits the narrator let pass limits."""

    human_maximum: int = HUMAN_MAXIMUM
    keep_max: int = STREAMLINED_KEEP_MAX
    permitted: frozenset[str] = frozenset()


@dataclass(frozen=True)
class TraitLine:
    code: str
    kind: TraitKind
    default: int
    rank: int
    cost: int


@dataclass(frozen=True)
class Budget:
    """The live state of a creation: what is spent, what is left, and every rule currently broken."""

    mode: str
    total: int
    spent: int
    lines: tuple[TraitLine, ...]
    violations: tuple[RuleViolation, ...] = field(default=())

    @property
    def left(self) -> int:
        return self.total - self.spent

    @property
    def valid(self) -> bool:
        return not self.violations

    def ranks(self) -> dict[str, int]:
        return {line.code: line.rank for line in self.lines}


def rank_cost(trait: TraitDef, rank: int, mode: str) -> int:
    """Atouts a creation rank costs (negative: a streamlined refund)."""
    start = creation_default(trait, mode)
    steps = rank - start
    if mode == STREAMLINED and trait.kind == TraitKind.APTITUDE:
        return steps * STREAMLINED_APTITUDE_COST
    return steps


def creation_budget(
    *,
    mode: str,
    total: int,
    traits: Iterable[TraitDef],
    ranks: Mapping[str, int],
    options: CreationOptions | None = None,
) -> Budget:
    """Cost out ``ranks`` (final rank by trait code) against the campaign's ``traits``."""
    if mode not in MODES:
        raise RuleViolation("creation.unknown_mode", mode=mode)
    options = options or CreationOptions()
    by_code = {t.code: t for t in traits}
    violations: list[RuleViolation] = []
    lines: list[TraitLine] = []
    for code, rank in ranks.items():
        trait = by_code.get(code)
        if trait is None:
            violations.append(RuleViolation("creation.unknown_trait", trait=code))
            continue
        start = creation_default(trait, mode)
        cost = rank_cost(trait, rank, mode)
        lines.append(TraitLine(code=code, kind=trait.kind, default=start, rank=rank, cost=cost))
        violations.extend(_rank_violations(trait, start, rank, mode, options))
    spent = sum(line.cost for line in lines)
    violations.extend(_budget_violations(mode, total, spent, options))
    return Budget(mode=mode, total=total, spent=spent, lines=tuple(lines), violations=tuple(violations))


def _rank_violations(
    trait: TraitDef, start: int, rank: int, mode: str, options: CreationOptions
) -> list[RuleViolation]:
    permitted = trait.code in options.permitted
    found: list[RuleViolation] = []
    if rank < Rank.ABYSSAL:
        found.append(RuleViolation("rank.below_abyssal", trait=trait.code))
    if rank < start and not (mode == STREAMLINED and trait.kind == TraitKind.APTITUDE):
        # Only streamlined Aptitudes may be lowered for a refund.
        found.append(RuleViolation("creation.below_default", trait=trait.code, default=start))
    if mode == STREAMLINED and not permitted:
        # « à l'exception des Champs d'expertise dont le Rang par défaut est Abyssal ou Lamentable »
        low_default_field = trait.kind != TraitKind.APTITUDE and trait.default < Rank.FAIBLE
        if rank < STREAMLINED_LOWEST and not low_default_field:
            found.append(RuleViolation("streamlined.below_faible", trait=trait.code))
        if rank > STREAMLINED_HIGHEST:
            found.append(RuleViolation("streamlined.above_excellent", trait=trait.code))
    elif rank > options.human_maximum and not permitted:
        found.append(RuleViolation("rank.above_maximum", trait=trait.code, maximum=options.human_maximum))
    return found


def _budget_violations(mode: str, total: int, spent: int, options: CreationOptions) -> list[RuleViolation]:
    found: list[RuleViolation] = []
    left = total - spent
    if mode == STREAMLINED:
        if left < 0:
            found.append(RuleViolation("creation.over_budget", total=total, spent=spent))
        elif left > options.keep_max:
            found.append(RuleViolation("streamlined.too_many_kept", kept=left, maximum=options.keep_max))
        return found
    if spent < 1:
        found.append(RuleViolation("creation.spend_at_least_one"))
    if left < 1:
        found.append(RuleViolation("creation.keep_last_atout", total=total, spent=spent))
    return found


def creation_check(
    *,
    mode: str,
    total: int,
    traits: Iterable[TraitDef],
    ranks: Mapping[str, int],
    options: CreationOptions | None = None,
) -> Budget:
    """As ``creation_budget``, raising the first broken rule: a sheet is saved only when legal."""
    budget = creation_budget(mode=mode, total=total, traits=traits, ranks=ranks, options=options)
    if budget.violations:
        raise budget.violations[0]
    return budget
