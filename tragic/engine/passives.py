"""What each card adds to its player's :class:`~tragic.engine.state.Mods`, read from its ``passive`` table
once per card: a player's Mods are summed again after every change of their cards, and this keeps that sum
cheap. Moved out of ``state.py``, which reads it."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from .cards import Card


@dataclass(frozen=True, slots=True)
class PassivePart:
    """What one card adds to its player's :class:`Mods`, read from its ``passive`` table once per card (the
    Mods of a player are summed again after every change of their cards: this keeps that sum cheap)."""

    max_life_pct: int
    life_start_pct: int
    draw: int
    armour: tuple[tuple[str, int], ...]  # the passive's armour, then an item's own, in that order
    crit_chances: int
    crit_multiplier: int
    attack_bonus: tuple[str, int] | None
    penetration: int
    ally_power: int
    ally_life: int
    skill_slots: int
    special: tuple[tuple[str, int], ...]
    flags: tuple[str, ...]


MOD_FLAGS = ("mulligan", "kamikaze", "bon_vivant", "unidextrous", "luminous", "no_brotherhood")
# id(card) -> (card, part without malus, part with malus); the card is kept so that its id is never reused.
_PARTS: dict[int, tuple[Card, PassivePart | None, PassivePart | None]] = {}


def passive_part(card: Card, *, malus: bool) -> PassivePart | None:
    """``card``'s contribution (None: it adds nothing); ``malus``: its ``unless_equipped`` malus applies."""
    known = _parts(card)
    return known[2] if malus else known[1]


def inert(card: Card) -> bool:
    """Whether ``card`` adds nothing to the Mods, with or without its malus (most SPECIAL cards, for one)."""
    known = _parts(card)
    return known[1] is None and known[2] is None


def _parts(card: Card) -> tuple[Card, PassivePart | None, PassivePart | None]:
    known = _PARTS.get(id(card))
    if known is None or known[0] is not card:
        known = _PARTS[id(card)] = (
            card,
            _passive_part(card, card.passive),
            _passive_part(card, {**card.passive, **card.malus}),
        )
    return known


def _passive_part(card: Card, passive: Mapping[str, Any]) -> PassivePart | None:
    if not passive and not card.armour:
        return None
    armour = list(passive.get("armour", {}).items())
    if card.type == "item":
        armour.extend(card.armour.items())
    attack_bonus = None
    if "attack_bonus" in passive:
        key = card.attribute if card.type == "special" and card.attribute else "all"
        attack_bonus = (key, passive["attack_bonus"])
    return PassivePart(
        max_life_pct=passive.get("max_life_pct", 100) - 100,
        life_start_pct=passive.get("life_start_pct", 100) - 100,
        draw=passive.get("draw", 0),
        armour=tuple(armour),
        crit_chances=passive.get("crit_chances", 0),
        crit_multiplier=passive.get("crit_multiplier", 2),
        attack_bonus=attack_bonus,
        penetration=passive.get("penetration", 0),
        ally_power=passive.get("ally_power", 0),
        ally_life=passive.get("ally_life", 0),
        skill_slots=passive.get("skill_slots", 0),
        special=tuple(passive.get("special", {}).items()),
        flags=tuple(flag for flag in MOD_FLAGS if passive.get(flag)),
    )
