"""The bridge between the state cards and MicroFudge CECJ, as pure rules (docs/rules-decisions.md, « The bridge »).

Wounds: « Chaque Blessure inflige un malus de -1 à tous les jets de Trait » (at most −3); Fatigue: « Chaque niveau
de Fatigue inflige un malus de -1 à tous les jets de Trait » (at most −2). CECJ: « chaque pénalité de -1 Carte
devient une pénalité de -1 Rang lors d'un Test » (V-1). So each wound and each fatigue level is −1 card in a
Sequence draw and −1 rank in a Test, capped as the cards cap them.

« Un Revers est considéré comme une Blessure » and « Les effets des divers Revers ne sont pas cumulatifs, seul le
Revers entraînant la pénalité la plus importante est pris en compte »: wounds and a physical Revers are one kind
of harm, so the larger of the two penalties counts, never both (a Revers turned into wounds keeps exactly one
penalty). Fatigue is another kind (a Revers « s'appliquant à un domaine différent ») and adds.

Secoué: « ne peut faire que des actions gratuites »: no attack card; defence cards are allowed (in the cards'
game being Shaken never lowers Parry: defending is not an action). A Test while Shaken is refused unless the
narrator calls it a free action (a resistance or perception roll). État critique: « Il ne peut plus agir »; the
dead and the unconscious (Fatigue's third level: « perte de conscience ») do not act either: no Test, no draw.
"""

from __future__ import annotations

from dataclasses import dataclass

from .states import MAX_FATIGUE, MAX_WOUNDS, CardState

# The Sequence or Test domains wounds and fatigue weigh on: physical, and a Test with no Revers domain chosen
# (« tous les jets de Trait »). Social, mental and named domains are left alone (« une Blessure peut ainsi
# n'avoir aucun effet sur un jet de nature sociale »).
BODILY_DOMAINS = frozenset({"physical", ""})


@dataclass(frozen=True)
class CecjEffect:
    """What a character's state cards do to its next MicroFudge Test or draw. Penalties are positive numbers."""

    wounds: int = 0
    fatigue: int = 0
    out: str = ""  # "dead", "incapacitated" or "unconscious": no Test, no draw
    shaken: bool = False

    def lines(self, revers_penalty: int = 0) -> tuple[tuple[str, int], ...]:
        """The modifier lines (code, amount) beside a physical Revers penalty of ``revers_penalty``: the wounds
        line only when it is worse than the Revers (then the Revers line goes: see ``keeps_revers``)."""
        out = []
        if self.wounds > revers_penalty:
            out.append(("wounds", -self.wounds))
        if self.fatigue:
            out.append(("fatigue", -self.fatigue))
        return tuple(out)

    def keeps_revers(self, revers_penalty: int) -> bool:
        return revers_penalty >= self.wounds


NO_EFFECT = CecjEffect()


def cecj_effect(state: CardState, *, domain: str, penalties: bool = True, everywhere: bool = False) -> CecjEffect:
    """The effect of ``state`` on a Test or draw of ``domain``; ``penalties=False`` keeps only who may act.

    ``everywhere`` is the campaign's default reading of « à tous les jets de Trait » (and CECJ's « Les Revers
    s'appliquent, en principe, à tous les types d'action »): wounds and fatigue weigh on every roll, social and
    mental too; off, only on the body's (``BODILY_DOMAINS``)."""
    out = (
        "dead" if state.dead else "incapacitated" if state.incapacitated else "unconscious" if state.unconscious else ""
    )
    bodily = penalties and (everywhere or domain in BODILY_DOMAINS)
    return CecjEffect(
        wounds=min(state.wounds, MAX_WOUNDS) if bodily else 0,
        fatigue=min(state.fatigue, MAX_FATIGUE) if bodily else 0,
        out=out,
        shaken=state.shaken,
    )
