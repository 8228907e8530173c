"""How many cards a participant draws, and how they may split them.

« Chaque participant tire alors le nombre de cartes approprié, selon son Rang dans la Caractéristique
utilisée » (V, 2); « Lorsqu'un personnage affronte plusieurs adversaires, il doit répartir ses cartes
(pas nécessairement équitablement) entre ses opposants »; and the modifiers of « Modificateurs
applicables aux conflits » and VII « Equipement ».
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from enum import StrEnum

from .equipment import SHIELD_DEFENCE, TWO_WEAPONS
from .errors import RuleError
from .fudge import Modifier


class Use(StrEnum):
    ANY = "any"
    ATTACK = "attack"
    DEFENCE = "defence"


@dataclass(frozen=True)
class CardItem:
    modifier: Modifier
    use: Use = Use.ANY


@dataclass(frozen=True)
class ParticipantSetup:
    """Everything that changes a participant's card count for one draw. Penalties are positive numbers."""

    trait_value: int
    relatedness: int = 0
    revers_penalty: int = 0
    # Ranks the trait lost feeding a power domain until rest (VI), positive.
    fed: int = 0
    weapon: int = 0
    weapon_use: Use = Use.ATTACK
    armour: int = 0
    shield: bool = False
    two_weapons: bool = False
    two_weapons_use: Use = Use.ATTACK
    surprise: int = 0
    conditions: int = 0
    scale: int = 0
    vehicle: int = 0
    vehicle_as_armour: bool = False
    telekinesis_mind: int = 0
    atout_card: int = 0
    help_cards: int = 0
    upper_hand_cards: int = 0
    range_defence: int = 0
    cover_defence: int = 0
    other: int = 0
    # Lines other parts of the game add (a Conscience boost, the Savage-style states' bridge): shown and counted
    # like any other line.
    extra: tuple[CardItem, ...] = ()


def card_items(setup: ParticipantSetup, *, first_draw: bool) -> list[CardItem]:
    """The breakdown shown to the table, one line per source."""
    items = [CardItem(Modifier("trait", setup.trait_value))]
    any_mods = (
        # « Liés mais pas central – … réduit d'un Rang … Distants – … de deux Rangs (Rang Faible minimum) »,
        # applied « Avant le tirage des cartes ou dés Fudge » (appendix 2): a penalty of 0, −1 or −2 cards.
        ("relatedness", -setup.relatedness),
        ("revers", -setup.revers_penalty),
        # « Le Rang de la Caractéristique concerné est alors réduit d'un cran jusqu'à ce que le personnage
        # puisse prendre du repos » (VI): a trait that fed a power domain, read at each draw like a Revers.
        ("fed", -setup.fed),
        # « Etre pris au dépourvu : de -1 à -2 cartes, pour le premier tirage de la Séquence seulement ».
        ("surprise", -min(2, setup.surprise) if first_draw else 0),
        ("conditions", -min(2, setup.conditions)),
        ("scale", setup.scale),
        ("vehicle", 0 if setup.vehicle_as_armour else setup.vehicle),
        # « la Caractéristique Esprit … peut servir de modificateur » to Télékinésie in a conflict (appendix 1).
        ("telekinesis_mind", setup.telekinesis_mind),
        ("atout", setup.atout_card),
        ("help", setup.help_cards),
        ("upper_hand", setup.upper_hand_cards),
        ("other", setup.other),
    )
    items += [CardItem(Modifier(code, amount)) for code, amount in any_mods if amount]
    if setup.weapon:
        items.append(CardItem(Modifier("weapon", setup.weapon), Use(setup.weapon_use)))
    if setup.two_weapons:
        items.append(CardItem(Modifier("two_weapons", TWO_WEAPONS), Use(setup.two_weapons_use)))
    if setup.armour:
        items.append(CardItem(Modifier("armour", setup.armour), Use.DEFENCE))
    if setup.vehicle_as_armour and setup.vehicle:
        # « Lorsque l'on tire sur les occupants d'un véhicule, le Narrateur peut permettre que le modificateur
        # de Robustesse soit utilisé comme une Armure (… des cartes supplémentaires utilisables en défense) ».
        items.append(CardItem(Modifier("vehicle", setup.vehicle), Use.DEFENCE))
    if setup.shield:
        items.append(CardItem(Modifier("shield", SHIELD_DEFENCE), Use.DEFENCE))
    if setup.range_defence:
        items.append(CardItem(Modifier("range", setup.range_defence), Use.DEFENCE))
    if setup.cover_defence:
        items.append(CardItem(Modifier("cover", min(2, setup.cover_defence)), Use.DEFENCE))
    items += [item for item in setup.extra if item.modifier.amount]
    return items


@dataclass(frozen=True)
class Budget:
    items: tuple[CardItem, ...]
    free: int
    attack_only: int
    defence_only: int

    @property
    def total(self) -> int:
        return self.free + self.attack_only + self.defence_only

    def to_place(self, *, can_attack: bool = True) -> int:
        """The cards the participant must place. One who may not attack (Secoué: « ne peut faire que des actions
        gratuites »; out of range: « il doit adopter un Jeu défensif ») places every card that can defend, and
        the attack-only cards (a weapon the narrator set to attack) stay out of the draw: they can go nowhere
        (docs/rules-decisions.md, « A Shaken character's attack-only cards »)."""
        return self.total if can_attack else self.free + self.defence_only


def card_budget(setup: ParticipantSetup, *, first_draw: bool) -> Budget:
    items = tuple(card_items(setup, first_draw=first_draw))

    def total(use: Use) -> int:
        return sum(i.modifier.amount for i in items if i.use is use)

    return Budget(items, max(0, total(Use.ANY)), max(0, total(Use.ATTACK)), max(0, total(Use.DEFENCE)))


@dataclass(frozen=True)
class Split:
    """Attack cards per opponent, defence cards per protected participant (oneself, or a teammate)."""

    attack: Mapping[str, int] = field(default_factory=dict)
    defence: Mapping[str, int] = field(default_factory=dict)
    upper_hand: bool = False

    @property
    def attack_cards(self) -> int:
        return sum(self.attack.values())

    @property
    def defence_cards(self) -> int:
        return sum(self.defence.values())

    @property
    def cards(self) -> int:
        return self.attack_cards + self.defence_cards


def validate_split(
    budget: Budget,
    split: Split,
    *,
    me: str,
    opponents: set[str],
    teammates: set[str],
    out_of_range: bool = False,
    shaken: bool = False,
    collective: bool = False,
    cover_reasons: Mapping[str, str] | None = None,
) -> None:
    """Refuse any split the participant cannot make, with the reason. Every card that may be placed must be:
    a participant who may not attack (``out_of_range``, ``shaken``) places every card that can defend."""
    if any(n < 0 for n in (*split.attack.values(), *split.defence.values())):
        raise RuleError("negative_cards")
    for target, n in split.attack.items():
        if n and target not in opponents:
            raise RuleError("not_an_opponent", target=target)
    if out_of_range and split.attack_cards:
        # « le personnage hors de portée ne peut pas infliger de Revers … il doit adopter un Jeu défensif ».
        raise RuleError("out_of_range_attack")
    if shaken and split.attack_cards:
        # Secoué: « ne peut faire que des actions gratuites »; defending is no action (states.rules.bridge).
        raise RuleError("shaken_attack")
    reasons = cover_reasons or {}
    for protected, n in split.defence.items():
        if not n or protected == me:
            continue
        if protected not in teammates:
            raise RuleError("protect_not_teammate", target=protected)
        if not collective:
            raise RuleError("protect_needs_collective")
        # « Le personnage doit avoir une explication logique justifiant un tel usage ».
        if not reasons.get(protected, "").strip():
            raise RuleError("protect_needs_reason", target=protected)
    to_place = budget.to_place(can_attack=bool(opponents) and not (out_of_range or shaken))
    if split.cards > to_place:
        raise RuleError("too_many_cards", used=split.cards, have=to_place)
    if split.attack_cards > budget.free + budget.attack_only:
        raise RuleError("too_many_attack", used=split.attack_cards, have=budget.free + budget.attack_only)
    if split.defence_cards > budget.free + budget.defence_only:
        raise RuleError("too_many_defence", used=split.defence_cards, have=budget.free + budget.defence_only)
    if split.cards < to_place:
        raise RuleError("cards_left", left=to_place - split.cards)
