"""Conscience's boosts for a number of draws: « Endurance accrue » and « Coordination accrue » (appendix 1).

« Ce pouvoir psychique permet à l'adepte d'ajouter la valeur de sa Caractéristique Présence au rang ou à la
valeur de sa Caractéristique Vigueur pour un nombre de tirages égal à la valeur du Domaine psychique
Conscience » (Coordination accrue: Habileté). Starting one is a use of the power (``power_use``: the
rank, a Potentiel point, the optional fatigue); then each Test or Sequence draw on the boosted trait (any draw,
for the natural armour) shows the bonus as its own line and uses one of the draws. A new boost replaces the one
running. Tests and draws ask ``boost_amount`` and, once rolled, ``boost_use``.
"""

from __future__ import annotations

from django.contrib.auth.models import User
from django.db import transaction

from characters.models import Character
from characters.rules import psychic
from characters.rules.errors import RuleViolation
from characters.selectors import trait_value
from characters.services.changes import _append, _bump, _lock, _refuse
from characters.services.powers import power_use


def boost_amount(character: Character, target: str) -> int:
    """The running boost's bonus for ``target`` (a trait code, or ``armour`` for defence cards); 0 if none."""
    boost = character.power_boost or {}
    return int(boost.get("amount", 0)) if boost.get("target") == target and boost.get("left", 0) > 0 else 0


@transaction.atomic
def power_boost_start(*, character: Character, actor: User, power: str, natural_armour: bool = False) -> Character:
    try:
        rank = {p.code: p.rank for p in psychic.powers()}[power]
        boost = psychic.boost_for(power, natural_armour=natural_armour, presence=trait_value(character, "presence"),
                                  conscience=trait_value(character, "conscience", fed=False))  # fmt: skip
    except KeyError:
        raise _refuse(RuleViolation("psychic.not_a_boost", power=power)) from None
    except RuleViolation as violation:
        raise _refuse(violation) from violation
    use = power_use(character=character, actor=actor, domain="conscience", power_rank=rank)
    character = _lock(character)
    character.power_boost = {"power": boost.power, "target": boost.target, "amount": boost.amount, "left": boost.left}
    _bump(character, "power_boost")
    _append(character, "character.power_boost", actor,
                     {**character.power_boost, "difficulty": use.difficulty})  # fmt: skip
    return character


def boost_use(character: Character, target: str) -> bool:
    """One draw (or Test) of the boost spent, if it applied to ``target``; the caller is in its transaction."""
    if not boost_amount(character, target):
        return False
    locked = Character.objects.select_for_update().get(pk=character.pk)
    left = int(locked.power_boost.get("left", 0)) - 1
    locked.power_boost = {**locked.power_boost, "left": left} if left > 0 else {}
    locked.version += 1
    locked.save(update_fields=["power_boost", "version"])
    character.power_boost = locked.power_boost
    return True
