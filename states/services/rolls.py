"""Trait rolls and the Ruse (trick) roll, with every penalty and situation applied."""

from __future__ import annotations

from django.contrib.auth.models import User
from django.db import transaction
from django.utils.translation import gettext as _

from characters.models import Character
from core.errors import ServiceError
from states.models import SavageState
from states.rules import states as rules
from states.rules.dice import TARGET, Modifier, TraitDie, TraitRoll
from states.rules.situations import (
    AttackContext,
    AttackKind,
    Situation,
    attack_modifiers,
    surprise_damage_bonus,
)
from states.selectors import card_state, trait_die
from states.services.changes import Rng, _lock, _log, _rng, _roll, _store, _translated_refusals
from states.services.situations import parry_of


@transaction.atomic
def savage_trait_roll(
    *,
    character: Character,
    actor: User,
    trait: str,
    expected_version: int | None,
    die: str = "",
    modifier: int = 0,
    attack: str = "",
    target: Character | None = None,
    distance: int = 1,
    surprise: bool = False,
    rng: Rng | None = None,
) -> TraitRoll:
    """A trait roll from the roll dialog: the dialog applies wounds, fatigue and situations itself."""
    state = _lock(character, expected_version)
    card = card_state(state)
    with _translated_refusals():
        rules.ensure_can_act(card)
    if die:
        try:
            rolled_die = TraitDie.parse(die)
        except ValueError as exc:
            raise ServiceError(_("“%(die)s” is not a trait die (d4 … d12, d12+1).") % {"die": die}) from exc
    elif trait in ("vigor", "spirit", "agility", "smarts"):
        rolled_die = trait_die(state, trait)
    else:
        raise ServiceError(_("Choose a trait or enter its die."))
    extra: list[Modifier] = []
    if attack:
        target_situations: frozenset[Situation] = frozenset()
        if target is not None:
            target_state = SavageState.objects.filter(character=target).first()
            if target_state is not None:
                target_situations = frozenset(Situation(s) for s in target_state.situations)
        context = AttackContext(
            kind=AttackKind(attack),
            attacker=frozenset(Situation(s) for s in state.situations),
            target=target_situations,
            distance_squares=distance,
            surprise=surprise,
        )
        extra.extend(attack_modifiers(context))
    if modifier:
        extra.append(Modifier("other", modifier))
    target_number = TARGET
    parry_payload = None
    if attack == AttackKind.MELEE and target is not None:
        # A melee attack must reach the target's Parade, with Défense, À terre and Ruse applied.
        target_state = SavageState.objects.filter(character=target).first()
        if target_state is not None:
            breakdown = parry_of(target_state)
            target_number = breakdown.value
            parry_payload = {
                "base": breakdown.base,
                "value": breakdown.value,
                "modifiers": [{"key": m.key, "value": m.value} for m in breakdown.modifiers],
            }
    roll = _roll(state, trait, _rng(rng), card=card, extra=extra, die=rolled_die, target=target_number)
    if attack and Situation.AIM.value in state.situations and attack in (AttackKind.RANGED, AttackKind.THROWN):
        # « son prochain jet de Tir ou de Lancer »: the aim is spent by the shot.
        state.situations = [s for s in state.situations if s != Situation.AIM.value]
    state.version += 1
    state.save(update_fields=["situations", "version"])
    _log(
        state,
        kind="savage.roll",
        actor=actor,
        payload={
            "trait": trait,
            "roll": roll.to_json(),
            "attack": attack,
            "target": target.name if target else "",
            "damage_bonus": surprise_damage_bonus(surprise) if attack else 0,
            "parry": parry_payload,
        },
        characters=[target] if target else (),
    )
    return roll


@transaction.atomic
def savage_trick(
    *,
    character: Character,
    target: Character,
    actor: User,
    attribute: str,
    expected_version: int | None,
    rng: Rng | None = None,
) -> SavageState:
    """Ruse: an opposed Agilité or Intellect roll (the narrator picks the attribute)."""
    if attribute not in ("agility", "smarts"):
        raise ServiceError(_("A trick is an Agility or a Smarts roll."))
    if target.pk == character.pk or target.campaign_id != character.campaign_id:
        raise ServiceError(_("Choose another character of this campaign as the target."))
    rng = _rng(rng)
    # Two rows are locked: always in the same order, so two crossing tricks cannot deadlock.
    if target.pk < character.pk:
        victim = _lock(target, None)
        trickster = _lock(character, expected_version)
    else:
        trickster = _lock(character, expected_version)
        victim = _lock(target, None)
    trickster_card = card_state(trickster)
    with _translated_refusals():
        rules.ensure_can_act(trickster_card)
    victim_card = card_state(victim)
    attacker_roll = _roll(trickster, attribute, rng, card=trickster_card)
    defender_roll = _roll(victim, attribute, rng, card=victim_card)
    with _translated_refusals():
        victim_card, result = rules.trick_resolve(victim_card, attacker_roll, defender_roll)
    _store(victim, victim_card)
    trickster.version += 1
    trickster.save(update_fields=["version"])
    _log(
        victim,
        kind="savage.trick",
        actor=actor,
        payload={
            "trickster": character.name,
            "attribute": attribute,
            "attacker_roll": attacker_roll.to_json(),
            "defender_roll": defender_roll.to_json(),
            "result": result.value,
        },
        characters=[character],
    )
    return victim
