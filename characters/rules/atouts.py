"""Atouts: the ledger's pools, each use with its own rule (II, IV, appendices 3 and 4).

Two pools are kept apart because the rules treat them differently:

* **creation** Atouts — left unspent at creation; « Lorsque vous dépensez un Atout ainsi mis en
  réserve, le personnage augmente de manière permanente l'une de ses Caractéristiques d'un Rang.
  Le joueur a cependant pour obligation d'inventer une explication plausible » (II);
* **experience** Atouts — « Les Atouts gagnés par le biais de l'expérience ne peuvent pas être
  utilisés pour augmenter définitivement une Caractéristique pendant une session de jeu » (IV).

Every other use draws on experience Atouts first, so that creation Atouts stay available for the
in-play raises only they can pay for (docs/rules-decisions.md).
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from .errors import RuleViolation
from .ladder import Rank
from .traits import TraitKind


class Pool(StrEnum):
    CREATION = "creation"
    EXPERIENCE = "experience"


class AtoutUse(StrEnum):
    """Every way to spend an Atout. Values are stored in the ledger."""

    RAISE_IN_PLAY = "raise_in_play"  # II « Etoffer le personnage en cours de jeu »
    RAISE_BETWEEN_SESSIONS = "raise_between_sessions"  # IV, appendix 3 progression
    SAVE_YOUR_SKIN = "save_your_skin"  # II « Sauver sa peau »
    TEMPORARY_BONUS = "temporary_bonus"  # app. 4 « +1 Rang […] une carte supplémentaire »
    COUNTER = "counter"  # app. 4 « contrer la dépense d'un Atout par une autre personne »
    REROLL = "reroll"  # app. 4 « relancer les dés Fudge ou retirer les cartes »
    CHANGE_RESULT = "change_result"  # app. 4 « changer le résultat de l'un des dés ou de l'une des cartes »
    NARRATIVE_CONTROL = "narrative_control"  # app. 4 « Contrôle narratif et coïncidences »
    MONOLOGUE = "monologue"  # app. 4 « attirer la caméra à soi et faire un monologue »
    HELP_OTHER = "help_other"  # app. 4 « Deux Atouts permettent de donner un bonus […] à un autre »
    TAKE_REVERS = "take_revers"  # app. 4 « supporter un Revers à la place d'un autre »
    RIGHT_MOMENT = "right_moment"  # app. 4 « arriver à point nommé »


class GainReason(StrEnum):
    CREATION = "creation"  # Atouts kept at the end of creation
    SESSION_AWARD = "session_award"  # IV « Au terme de chaque session de jeu »
    NARRATOR = "narrator"  # a narrator's gift or adjustment
    REFUND = "refund"  # narrative control vetoed or given back by the narrator


# Uses the player must explain in words (the rule asks for the story, not just the cost).
NEEDS_JUSTIFICATION = frozenset(
    {AtoutUse.RAISE_IN_PLAY, AtoutUse.SAVE_YOUR_SKIN, AtoutUse.NARRATIVE_CONTROL, AtoutUse.HELP_OTHER}
)
# Uses that belong to one roll or draw and are limited per roll.
PER_ROLL = frozenset({AtoutUse.TEMPORARY_BONUS, AtoutUse.COUNTER, AtoutUse.HELP_OTHER})
# Uses aimed at another character.
TARGETS_OTHER = frozenset({AtoutUse.HELP_OTHER, AtoutUse.TAKE_REVERS, AtoutUse.COUNTER})
HELP_COST = 2


@dataclass(frozen=True)
class Balances:
    creation: int = 0
    experience: int = 0

    @property
    def total(self) -> int:
        return self.creation + self.experience

    def after(self, plan: dict[Pool, int]) -> Balances:
        return Balances(
            creation=self.creation - plan.get(Pool.CREATION, 0),
            experience=self.experience - plan.get(Pool.EXPERIENCE, 0),
        )


@dataclass(frozen=True)
class RollHistory:
    """What already happened on one roll or draw, as far as this character is concerned."""

    own_bonuses: int = 0  # temporary +1 this character spent on the roll
    countered: int = 0  # how many of those were countered
    helped: bool = False  # this character already helped someone on the roll


@dataclass(frozen=True)
class SpendRequest:
    use: AtoutUse
    amount: int = 1
    justification: str = ""
    in_session: bool = False
    roll: RollHistory | None = None
    # Raises: the progression cost the rank asks for (between sessions) or the ranks gained (in play).
    expected_cost: int | None = None
    targets_other: bool = False
    # « Le Narrateur peut autoriser deux joueurs à dépenser chacun un Atout pour aider un troisième »
    single_atout_help: bool = False


def spend_plan(request: SpendRequest, balances: Balances) -> dict[Pool, int]:
    """Which pool pays how much for a legal spend; raises ``RuleViolation`` naming the broken rule."""
    use, amount = request.use, request.amount
    if amount < 1:
        raise RuleViolation("atout.amount_positive")
    if use in NEEDS_JUSTIFICATION and not request.justification.strip():
        raise RuleViolation(f"atout.{use}.justification")
    if use in PER_ROLL and request.roll is None:
        raise RuleViolation("atout.needs_roll", use=str(use))
    if use in TARGETS_OTHER and not request.targets_other:
        raise RuleViolation("atout.needs_other_character", use=str(use))
    is_raise = use in (AtoutUse.RAISE_IN_PLAY, AtoutUse.RAISE_BETWEEN_SESSIONS)
    if is_raise and request.expected_cost is not None and amount != request.expected_cost:
        raise RuleViolation("atout.raise_cost", cost=request.expected_cost, amount=amount)
    _check_use(request)
    if use == AtoutUse.RAISE_IN_PLAY:
        if balances.creation < amount:
            raise RuleViolation("atout.raise_in_play.creation_only", creation=balances.creation, amount=amount)
        return {Pool.CREATION: amount}
    if balances.total < amount:
        raise RuleViolation("atout.not_enough", balance=balances.total, amount=amount)
    from_experience = min(balances.experience, amount)
    plan = {Pool.EXPERIENCE: from_experience, Pool.CREATION: amount - from_experience}
    return {pool: n for pool, n in plan.items() if n}


def _check_use(request: SpendRequest) -> None:
    use, amount, roll = request.use, request.amount, request.roll
    if use == AtoutUse.RAISE_IN_PLAY and not request.in_session:
        raise RuleViolation("atout.raise_in_play.in_session")
    if use == AtoutUse.RAISE_BETWEEN_SESSIONS and request.in_session:
        raise RuleViolation("atout.raise_between_sessions.not_in_session")
    if use == AtoutUse.TEMPORARY_BONUS:
        # « Il n'est normalement possible de dépenser qu'un seul point de cette manière, à moins que
        # la tentative ne soit contrée. »
        if amount != 1:
            raise RuleViolation("atout.temporary_bonus.one_at_a_time")
        assert roll is not None
        if roll.own_bonuses > roll.countered:
            raise RuleViolation("atout.temporary_bonus.once_per_roll")
    if use == AtoutUse.COUNTER and amount != 1:
        raise RuleViolation("atout.counter.one_at_a_time")
    if use == AtoutUse.HELP_OTHER:
        # « Un joueur ne peut dépenser des Atouts pour apporter de l'aide qu'une fois par jet »
        assert roll is not None
        if roll.helped:
            raise RuleViolation("atout.help_other.once_per_roll")
        if amount != HELP_COST and not (request.single_atout_help and amount == 1):
            raise RuleViolation("atout.help_other.two_atouts", cost=HELP_COST)
    if use in (AtoutUse.MONOLOGUE, AtoutUse.RIGHT_MOMENT, AtoutUse.REROLL, AtoutUse.CHANGE_RESULT) and amount != 1:
        raise RuleViolation("atout.one_atout", use=str(use))
    if use == AtoutUse.SAVE_YOUR_SKIN and amount != 1:
        raise RuleViolation("atout.one_atout", use=str(use))
    if use == AtoutUse.NARRATIVE_CONTROL and amount != 1:
        raise RuleViolation("atout.one_atout", use=str(use))


# Appendix 3 « Augmentation des Champs et Domaines » : De Lamentable à Faible 3, Faible→Médiocre 3,
# Médiocre→Moyen 3, Moyen→Bon 6, Bon→Excellent 12, Excellent→Exceptionnel 24.
# « Augmentation des Aptitudes : Tripler les coûts donnés pour les Champs et Domaines ».
STREAMLINED_PROGRESSION = {
    Rank.ABYSSAL: 3,  # not in the table: the first step of a power domain costs as the next one
    Rank.LAMENTABLE: 3,
    Rank.FAIBLE: 3,
    Rank.MEDIOCRE: 3,
    Rank.MOYEN: 6,
    Rank.BON: 12,
    Rank.EXCELLENT: 24,
}
PROGRESSION_ONE_PER_RANK = "one_per_rank"
PROGRESSION_STREAMLINED = "streamlined"


def progression_cost(kind: TraitKind, from_rank: int, *, scheme: str) -> int:
    """Atouts to raise a trait one rank from ``from_rank`` between sessions.

    ``one_per_rank`` (IV): « augmenter une Caractéristique (Aptitude ou Champ d'expertise) d'un
    rang » for one Atout. ``streamlined``: the appendix 3 table, tripled for Aptitudes; past
    Exceptionnel the cost keeps doubling (48, 96…), which the narrator must allow anyway.
    """
    if scheme == PROGRESSION_ONE_PER_RANK:
        return 1
    if from_rank >= Rank.EXCEPTIONNEL:
        base: int = 24 * 2 ** (from_rank - Rank.EXCELLENT)
    else:
        base = STREAMLINED_PROGRESSION[Rank(max(from_rank, Rank.ABYSSAL))]
    return base * 3 if kind == TraitKind.APTITUDE else base


STREAMLINED_APTITUDE_RANK_COST = 3
"""Appendix 3 « Coûts des augmentations de Rang : Aptitudes ±3, Champs et Domaines 1 »."""


def in_play_rank_cost(kind: TraitKind, *, streamlined: bool) -> int:
    """Creation Atouts one rank costs when raised in play (« Etoffer le personnage en cours de jeu »): the
    creation price of the campaign's mode, since in play the character is still being created (CECJ): one
    Atout per rank (II, Jim's Tir), or in streamlined creation 3 for an Aptitude and 1 for a field or domain."""
    return STREAMLINED_APTITUDE_RANK_COST if streamlined and kind == TraitKind.APTITUDE else 1


def in_play_raise_cost(from_rank: int, to_rank: int, *, per_rank: int = 1) -> int:
    """« le joueur […] dépense 2 Atouts en Tir […] un rang Moyen » : ``per_rank`` creation Atouts per rank."""
    if to_rank <= from_rank:
        raise RuleViolation("atout.raise.must_go_up")
    return (to_rank - from_rank) * per_rank


def session_award(campaign_award: int, adjustment: int | None) -> int:
    """IV « chaque personnage gagne un Atout » ; « Le Narrateur peut réduire ou augmenter le nombre ».

    ``adjustment`` is the narrator's per-character figure for this session (replaces the award).
    """
    return max(0, campaign_award if adjustment is None else adjustment)
