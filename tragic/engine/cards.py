"""Cards as data: the vocabulary of the TOML schema (docs/tragic.md), the frozen :class:`Card` and the pool.

Reading and validating the files is :mod:`tragic.engine.card_files`; what is here is what the engine reads
while it plays (types, keywords, effects, the derived fields the legal-move generator uses at every step).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

# « S.P.E.C.I.A.L. »: Force, Perception, Endurance, Charisme, Intelligence, Agilité, Chance.
ATTRIBUTES: tuple[str, ...] = ("S", "P", "E", "C", "I", "A", "L")
ATTRIBUTE_NAMES: dict[str, tuple[str, str]] = {
    "S": ("Force", "Strength"),
    "P": ("Perception", "Perception"),
    "E": ("Endurance", "Endurance"),
    "C": ("Charisme", "Charisma"),
    "I": ("Intelligence", "Intelligence"),
    "A": ("Agilité", "Agility"),
    "L": ("Chance", "Luck"),
}
ANY = "any"

CARD_TYPES = (
    "special", "action", "attack", "reaction", "item", "building",
    "ally", "companion", "quest", "trait", "skill",
)  # fmt: skip
# The 60-card library holds every type but Traits and Compétences, which are chosen at setup.
LIBRARY_TYPES = frozenset(CARD_TYPES) - {"trait", "skill"}
STACK_TYPES = frozenset({"action", "attack", "reaction", "quest"})
PERMANENT_TYPES = frozenset({"item", "building", "ally", "companion"})
ALLY_TYPES = frozenset({"ally", "companion"})

DAMAGE_TYPES = (
    "generic", "radiation", "explosion", "poison", "bacteriological", "fire",
    "energy", "laser", "plasma", "cryo", "electric",
)  # fmt: skip
ARMOUR_TYPES = ("generic", "radiation", "explosion", "bacteriological", "fire", "energy", "polished_metal")
SLOTS = ("head", "torso", "arms", "legs", "weapon")
# CIBLAGE aims at a body part; the weapon hand is "hand".
AIM_PARTS = ("head", "torso", "arms", "legs", "hand")
FACTIONS = ("confrerie", "enclave", "institut", "belluaire")
# « Les ennemis de la Confrérie sont : les Super-Mutant, les Goules, les Synthétiques, l'Enclave,
# l'Institut, les Griffemorts/Ecorcheurs, les Robots Humanoïdes C-27 et les Pillards « Démons de la
# Rouille » » (000, VII Glossaire).
BROTHERHOOD_ENEMY_TAGS = frozenset(
    {"super_mutant", "ghoul", "synth", "enclave", "institut", "deathclaw", "robot_c27", "rust_devil"}
)

# Keyword -> whether it carries an index (« xN »).
KEYWORDS: dict[str, bool] = {
    "ABSORPTION_TOTALE": False,
    "ACCRO": True,
    "ARMURE": True,
    "CHARGE_DE_PROTECTION": False,
    "CIBLAGE": False,
    "DECOUVERTE": True,
    "DISCRETION": False,
    "EN_DEFENSE": False,
    "ENTRETIEN": False,
    "EXCES_DE_DEGATS": False,
    "EXPLOSION_DE_ZONE": False,
    "FIN_DE_TOUR": False,
    "HORDE": False,
    "INCAPACITE": False,
    "INCIBLABLE": False,
    "LUMINESCENT": False,
    "MARTYR": True,
    "PENETRANT": True,
    "RECYCLAGE": False,
    "RESPIRATEUR": False,
    "SILENCIEUX": False,
    "TRANSPERCANT": False,
    "UNIQUE": False,
    "VAMPIRISME": False,
}

EFFECT_TIMINGS = ("play", "upkeep", "end_of_turn", "defeated", "cast", "activate", "disengage")
# The effect vocabulary: op -> allowed parameters (all optional unless listed in EFFECT_REQUIRED).
EFFECT_OPS: dict[str, frozenset[str]] = {
    "draw": frozenset({"n"}),
    "heal": frozenset({"n"}),
    "damage": frozenset({"n", "damage_type", "target"}),
    "radiation": frozenset({"n", "target"}),
    "cure_radiation": frozenset({"n"}),
    "search": frozenset({"card_type", "attribute", "n"}),
    "discover": frozenset({"n"}),
    "opponent_discards": frozenset({"n"}),
    "stealth": frozenset(),
    "shelter": frozenset(),
    "buff_allies": frozenset({"power", "life", "until"}),
    "grant_keyword": frozenset({"keyword", "n"}),
    "destroy": frozenset({"card_type", "irrevocably"}),
    "end_turn": frozenset(),
    "counter": frozenset(),
    "dodge": frozenset(),
    "reduce_damage": frozenset({"n"}),
    "recycle": frozenset(),
    "return_from_discard": frozenset({"card_type"}),
    "gain_life_on_cast": frozenset({"n"}),
    "upkeep_engage": frozenset(),
    "guard_allies": frozenset(),
    "reveal_reaction": frozenset(),
    "steal": frozenset({"n"}),
}
EFFECT_REQUIRED: dict[str, frozenset[str]] = {
    "draw": frozenset({"n"}),
    "heal": frozenset({"n"}),
    "damage": frozenset({"n"}),
    "radiation": frozenset({"n"}),
    "cure_radiation": frozenset({"n"}),
    "discover": frozenset({"n"}),
    "opponent_discards": frozenset({"n"}),
    "reduce_damage": frozenset({"n"}),
    "grant_keyword": frozenset({"keyword", "n"}),
    "destroy": frozenset({"card_type"}),
    "gain_life_on_cast": frozenset({"n"}),
}
# The type of every effect parameter, checked at loading (docs/tragic.md: a value of the wrong type names the file
# and the field): "int" (a whole number, never true/false), "int>=0", "bool", or the tuple of allowed strings.
# Without it ``buff_allies`` with ``power = "lots"`` loaded and raised a TypeError when an ally was on the table.
EFFECT_TARGETS = ("opponent", "each_opponent", "self")
EFFECT_PARAM_TYPES: dict[str, str | tuple[str, ...]] = {
    "n": "int>=0",
    "power": "int",
    "life": "int",
    "damage_type": DAMAGE_TYPES,
    "target": EFFECT_TARGETS,
    "card_type": (*CARD_TYPES, "any"),
    "attribute": ATTRIBUTES,
    "until": ("turn", "permanent"),
    "keyword": tuple(KEYWORDS),
    "irrevocably": "bool",
}
# « Ces effets bénéfiques ne s'appliquent pas aux agressions de toute sorte » (000, V.5): the ops
# that Bon Vivant / Bon Fond raises by one.
BENEFICIAL_OPS = frozenset({"draw", "heal", "search", "discover", "cure_radiation"})

PASSIVE_KEYS: dict[str, type] = {
    "max_life_pct": int,
    "life_start_pct": int,
    "draw": int,
    "armour": dict,
    "crit_chances": int,
    "crit_multiplier": int,
    "attack_bonus": int,
    "penetration": int,
    "ally_power": int,
    "ally_life": int,
    "skill_slots": int,
    "special": dict,
    "mulligan": bool,
    "kamikaze": bool,
    "bon_vivant": bool,
    "unidextrous": bool,
    "luminous": bool,
    "no_brotherhood": bool,
    "no_trait": bool,
}
REACTION_TRIGGERS = ("action", "attack", "reaction", "ability", "ally_attack", "quest")
# Every field a card table may hold: a misspelt one (`powr = 5`) is refused, never silently ignored.
CARD_FIELDS = frozenset(
    {
        "id", "name", "name_en", "text", "text_en", "type", "level", "attribute", "cost", "subtypes",
        "keywords", "attack", "power", "life", "faction", "tags", "slot", "armour", "passive", "malus",
        "effects", "ability", "reacts_to", "legendary", "unless_equipped",
    }
)  # fmt: skip
ATTACK_FIELDS = frozenset({"scale", "multiplier", "flat", "damage_type", "radiation", "targets"})
ABILITY_FIELDS = frozenset({"cost", "effects", "engage", "timing", "attack", "life_for_missing"})


class CardError(ValueError):
    """A card file that does not follow the schema; the message names file, card and field."""

    def __init__(self, file: str, card: str, field_name: str, problem: str) -> None:
        super().__init__(f"{file}: card {card!r}: field {field_name!r}: {problem}")
        self.file, self.card, self.field, self.problem = file, card, field_name, problem


@dataclass(frozen=True, slots=True)
class Effect:
    op: str
    when: str = "play"
    params: Mapping[str, Any] = field(default_factory=dict)

    def get(self, key: str, default: Any = None) -> Any:
        return self.params.get(key, default)


@dataclass(frozen=True, slots=True)
class AttackProfile:
    """« (points of the scaling attribute + bonuses) × multiplier + flat » damage of the given type."""

    scale: str | None = None
    multiplier: int = 1
    flat: int = 0
    damage_type: str = "generic"
    radiation: int = 0
    targets: tuple[str, ...] = ("player", "ally")


@dataclass(frozen=True, slots=True)
class Ability:
    """An activated capacity: engage the card (if ``engage``), pay ``cost``, resolve ``effects``."""

    cost: Mapping[str, int]
    effects: tuple[Effect, ...]
    engage: bool = True
    timing: str = "your_turn"  # your_turn | upkeep | any
    attack: bool = False  # a weapon's attack: resolves the card's attack profile
    # « perdez 1 Point de Vie par Point d'Endurance que vous n'avez pas payé » (Affliction du Stealth Boy):
    # the named points may be left unpaid, one life each.
    life_for_missing: bool = False
    # Derived once at load, as Card's (read by the legal-move generator at every step).
    cost_key: tuple[tuple[str, int], ...] = field(init=False, repr=False, compare=False)
    recycles: bool = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "cost_key", tuple(self.cost.items()))
        object.__setattr__(self, "recycles", any(e.op == "recycle" for e in self.effects))


@dataclass(frozen=True, slots=True)
class Card:
    id: str
    name: str
    name_en: str
    type: str
    level: int
    attribute: str | None
    cost: Mapping[str, int]
    text: str
    text_en: str
    subtypes: tuple[str, ...] = ()
    keywords: Mapping[str, int] = field(default_factory=dict)
    attack: AttackProfile | None = None
    power: int = 0
    life: int = 0
    faction: str | None = None
    tags: tuple[str, ...] = ()
    slot: str | None = None
    armour: Mapping[str, int] = field(default_factory=dict)
    passive: Mapping[str, Any] = field(default_factory=dict)
    effects: tuple[Effect, ...] = ()
    ability: Ability | None = None
    reacts_to: tuple[str, ...] = ()
    legendary: bool = False
    # A piece that needs another (« lorsque le casque est équipé sans Chassis que le malus s'applique »,
    # erratum 2): while no equipped item has the subtype ``unless_equipped``, ``malus`` applies too.
    unless_equipped: str | None = None
    malus: Mapping[str, Any] = field(default_factory=dict)
    file: str = ""
    # Derived once at load (the legal-move generator reads them for every card in hand at every step).
    is_ally: bool = field(init=False, repr=False, compare=False)
    cost_total: int = field(init=False, repr=False, compare=False)
    cost_named: tuple[tuple[str, int], ...] = field(init=False, repr=False, compare=False)
    cost_key: tuple[tuple[str, int], ...] = field(init=False, repr=False, compare=False)
    _when: Mapping[str, tuple[Effect, ...]] = field(init=False, repr=False, compare=False)
    # An attack's reach, read by the attack targets' two finders (``targeting.attack_targets``, the check, and
    # ``legal_attacks.victim_targets``, the listing): EXPLOSION DE ZONE hits a whole side; INCAPACITE lets an
    # attack aimed at players reach allies too.
    zone_blast: bool = field(init=False, repr=False, compare=False)
    attacks_players: bool = field(init=False, repr=False, compare=False)
    attacks_allies: bool = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        when: dict[str, tuple[Effect, ...]] = {}
        for effect in self.effects:
            when[effect.when] = (*when.get(effect.when, ()), effect)
        set_field = object.__setattr__
        set_field(self, "is_ally", self.type in ALLY_TYPES)
        set_field(self, "cost_total", sum(self.cost.values()))
        set_field(self, "cost_named", tuple((a, n) for a, n in self.cost.items() if a != ANY))
        set_field(self, "cost_key", tuple(self.cost.items()))
        set_field(self, "_when", when)
        targets = self.attack.targets if self.attack is not None else ()
        set_field(self, "zone_blast", bool(self.keywords.get("EXPLOSION_DE_ZONE", 0)))
        set_field(self, "attacks_players", "player" in targets)
        set_field(self, "attacks_allies", "ally" in targets or bool(self.keywords.get("INCAPACITE", 0)))

    @property
    def copy_key(self) -> tuple[str, int]:
        """« Le nombre de carte d'un même nom et d'un même niveau est limité » (000, III.2.d)."""
        return (self.name, self.level)

    def kw(self, name: str) -> int:
        return self.keywords.get(name, 0)

    def effects_at(self, when: str) -> tuple[Effect, ...]:
        return self._when.get(when, ())

    @property
    def is_brotherhood_enemy(self) -> bool:
        return bool(BROTHERHOOD_ENEMY_TAGS.intersection(self.tags)) or self.faction in {"enclave", "institut"}

    def label(self, language: str = "fr") -> str:
        name = self.name if language == "fr" else self.name_en
        return f"{name} – {self.level}"


@dataclass(frozen=True)
class CardPool:
    cards: Mapping[str, Card]
    # What the game derives from these cards alone, kept as long as the pool (state.Mods per combination of
    # passive cards): the default pool lives as long as the process, a game's own pool (extra cards) with it.
    memo: dict[Any, Any] = field(default_factory=dict, compare=False, repr=False)

    def __getitem__(self, card_id: str) -> Card:
        return self.cards[card_id]

    def __contains__(self, card_id: object) -> bool:
        return card_id in self.cards

    def of_type(self, *types: str) -> list[Card]:
        return [c for c in self.cards.values() if c.type in types]
