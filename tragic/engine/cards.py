"""Cards as data: the TOML schema (docs/tragic.md), its validation and the loaded card pool.

A card is read once from ``tragic/cards/*.toml`` into a frozen :class:`Card`. Every error names
the file, the card and the field, so a broken card is fixed without reading Python.
"""

from __future__ import annotations

import tomllib
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
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


class _Reader:
    """Reads one card table, raising CardError that names where the problem is."""

    def __init__(self, file: str, table: Mapping[str, Any], entry: int | None = None) -> None:
        self.file = file
        self.table = table
        # A card without an id is named by its place in the file (« entry 3 »).
        self.card = str(table.get("id", f"entry {entry + 1}" if entry is not None else "?"))

    def only(self, fields: frozenset[str], table: Mapping[str, Any], prefix: str = "") -> None:
        unknown = sorted(set(table) - fields)
        if unknown:
            raise self.fail(prefix + unknown[0], f"unknown field; known: {', '.join(sorted(fields))}")

    def passive(self, name: str) -> dict[str, Any]:
        """A ``passive`` or ``malus`` table: known keys, each of its type, tables of whole numbers."""
        values = dict(self.get(name, dict, {}))
        for key, value in values.items():
            if key not in PASSIVE_KEYS:
                raise self.fail(f"{name}.{key}", f"unknown passive; known: {', '.join(PASSIVE_KEYS)}")
            expected = PASSIVE_KEYS[key]
            if not isinstance(value, expected) or (expected is int and isinstance(value, bool)):
                raise self.fail(f"{name}.{key}", f"must be {_kind_name(expected)}")
            if key in ("armour", "special") and isinstance(value, dict):  # their type is dict (PASSIVE_KEYS)
                allowed = ARMOUR_TYPES if key == "armour" else ATTRIBUTES
                for sub, points in value.items():
                    if sub not in allowed:
                        raise self.fail(f"{name}.{key}.{sub}", f"must be one of {', '.join(allowed)}")
                    if not isinstance(points, int) or isinstance(points, bool):
                        raise self.fail(f"{name}.{key}.{sub}", "must be a whole number")
        return values

    def fail(self, field_name: str, problem: str) -> CardError:
        return CardError(self.file, self.card, field_name, problem)

    def get(
        self,
        key: str,
        kind: type | tuple[type, ...],
        default: Any = ...,
        table: Mapping[str, Any] | None = None,
        prefix: str = "",
    ) -> Any:
        source = self.table if table is None else table
        if key not in source:
            if default is ...:
                raise self.fail(prefix + key, "is required")
            return default
        value = source[key]
        if isinstance(value, bool) and kind in (int, (int,)):
            raise self.fail(prefix + key, f"must be {_kind_name(kind)}, not {type(value).__name__}")
        if not isinstance(value, kind):
            raise self.fail(prefix + key, f"must be {_kind_name(kind)}, not {type(value).__name__}")
        return value

    def cost(self, raw: Any, name: str) -> dict[str, int]:
        if not isinstance(raw, dict):
            raise self.fail(name, "must be a table like { S = 1, any = 2 }")
        cost: dict[str, int] = {}
        for key, value in raw.items():
            if key not in ATTRIBUTES and key != ANY:
                raise self.fail(f"{name}.{key}", f"unknown attribute; use one of {', '.join(ATTRIBUTES)} or any")
            if not isinstance(value, int) or isinstance(value, bool) or value < 0:
                raise self.fail(f"{name}.{key}", "must be a whole number ≥ 0")
            if value:
                cost[key] = value
        return cost

    def effects(self, raw: Any, name: str, default_when: str) -> tuple[Effect, ...]:
        if not isinstance(raw, list):
            raise self.fail(name, "must be an array of tables")
        result = []
        for index, item in enumerate(raw):
            where = f"{name}[{index}]"
            if not isinstance(item, dict):
                raise self.fail(where, "must be a table")
            op = item.get("op")
            if op not in EFFECT_OPS:
                raise self.fail(f"{where}.op", f"unknown effect {op!r}; known: {', '.join(sorted(EFFECT_OPS))}")
            when = item.get("when", default_when)
            if when not in EFFECT_TIMINGS:
                raise self.fail(f"{where}.when", f"must be one of {', '.join(EFFECT_TIMINGS)}")
            params = {k: v for k, v in item.items() if k not in {"op", "when"}}
            unknown = set(params) - EFFECT_OPS[op]
            if unknown:
                raise self.fail(f"{where}.{sorted(unknown)[0]}", f"is not a parameter of {op}")
            missing = EFFECT_REQUIRED.get(op, frozenset()) - set(params)
            if missing:
                raise self.fail(f"{where}.{sorted(missing)[0]}", f"is required by {op}")
            if "n" in params and (not isinstance(params["n"], int) or params["n"] < 0):
                raise self.fail(f"{where}.n", "must be a whole number ≥ 0")
            if "damage_type" in params and params["damage_type"] not in DAMAGE_TYPES:
                raise self.fail(f"{where}.damage_type", f"must be one of {', '.join(DAMAGE_TYPES)}")
            if op == "grant_keyword" and params["keyword"] not in KEYWORDS:
                raise self.fail(f"{where}.keyword", "unknown keyword")
            result.append(Effect(op=op, when=when, params=params))
        return tuple(result)


def _kind_name(kind: type | tuple[type, ...]) -> str:
    kinds = kind if isinstance(kind, tuple) else (kind,)
    names = {int: "a whole number", str: "a string", bool: "true or false", list: "an array", dict: "a table"}
    return " or ".join(names.get(k, k.__name__) for k in kinds)


def parse_card(table: Mapping[str, Any], file: str, entry: int | None = None) -> Card:
    """``entry``: the table's place in its file (0-based), to name a card that has no id."""
    if not isinstance(table, Mapping):
        raise CardError(file, f"entry {entry + 1}" if entry is not None else "?", "?", "must be a table ([[cards]])")
    r = _Reader(file, table, entry)
    r.only(CARD_FIELDS, table)
    card_id = r.get("id", str)
    card_type = r.get("type", str)
    if card_type not in CARD_TYPES:
        raise r.fail("type", f"must be one of {', '.join(CARD_TYPES)}")
    level = r.get("level", int, 1)
    if not 1 <= level <= 3:
        raise r.fail("level", "must be 1, 2 or 3")
    attribute = r.get("attribute", str, None)
    if attribute is not None and attribute not in ATTRIBUTES:
        raise r.fail("attribute", f"must be one of {', '.join(ATTRIBUTES)}")
    if card_type == "special" and attribute is None:
        raise r.fail("attribute", "is required for a SPECIAL card")
    cost = r.cost(r.get("cost", dict, {}), "cost")
    keywords: dict[str, int] = {}
    for key, value in r.get("keywords", dict, {}).items():
        if key not in KEYWORDS:
            raise r.fail(f"keywords.{key}", f"unknown keyword; known: {', '.join(KEYWORDS)}")
        if isinstance(value, bool):
            value = 1 if value else 0
        if not isinstance(value, int) or value < 1:
            raise r.fail(f"keywords.{key}", "must be true or an index ≥ 1")
        if value > 1 and not KEYWORDS[key]:
            raise r.fail(f"keywords.{key}", "takes no index")
        keywords[key] = value
    attack = None
    if "attack" in table:
        raw = r.get("attack", dict)
        r.only(ATTACK_FIELDS, raw, "attack.")
        scale = r.get("scale", str, None, raw, "attack.")
        if scale is not None and scale not in ATTRIBUTES:
            raise r.fail("attack.scale", f"must be one of {', '.join(ATTRIBUTES)}")
        damage_type = r.get("damage_type", str, "generic", raw, "attack.")
        if damage_type not in DAMAGE_TYPES:
            raise r.fail("attack.damage_type", f"must be one of {', '.join(DAMAGE_TYPES)}")
        targets = tuple(r.get("targets", list, ["player", "ally"], raw, "attack."))
        for target in targets:
            if target not in ("player", "ally", "building", "item"):
                raise r.fail("attack.targets", f"unknown target {target!r}")
        attack = AttackProfile(
            scale=scale,
            multiplier=r.get("multiplier", int, 1, raw, "attack."),
            flat=r.get("flat", int, 0, raw, "attack."),
            damage_type=damage_type,
            radiation=r.get("radiation", int, 0, raw, "attack."),
            targets=targets,
        )
    if card_type == "attack" and attack is None:
        raise r.fail("attack", "is required for an attack card")
    power = r.get("power", int, 0)
    life = r.get("life", int, 0)
    if card_type in ALLY_TYPES and life < 1:
        raise r.fail("life", "an ally needs at least 1 life")
    if card_type == "building" and life < 1:
        raise r.fail("life", "a building needs at least 1 point of structure")
    faction = r.get("faction", str, None)
    if faction is not None and faction not in FACTIONS:
        raise r.fail("faction", f"must be one of {', '.join(FACTIONS)}")
    slot = r.get("slot", str, None)
    if slot is not None and slot not in SLOTS:
        raise r.fail("slot", f"must be one of {', '.join(SLOTS)}")
    if slot is not None and card_type != "item":
        raise r.fail("slot", "only items are equipped")
    armour: dict[str, int] = {}
    for key, value in r.get("armour", dict, {}).items():
        if key not in ARMOUR_TYPES:
            raise r.fail(f"armour.{key}", f"must be one of {', '.join(ARMOUR_TYPES)}")
        if not isinstance(value, int):
            raise r.fail(f"armour.{key}", "must be a whole number")
        armour[key] = value
    passive = r.passive("passive")
    malus = r.passive("malus")
    effects = r.effects(r.get("effects", list, []), "effects", "play")
    ability = None
    if "ability" in table:
        raw = r.get("ability", dict)
        r.only(ABILITY_FIELDS, raw, "ability.")
        timing = r.get("timing", str, "your_turn", raw, "ability.")
        if timing not in ("your_turn", "upkeep", "any"):
            raise r.fail("ability.timing", "must be your_turn, upkeep or any")
        ability = Ability(
            cost=r.cost(raw.get("cost", {}), "ability.cost"),
            effects=r.effects(raw.get("effects", []), "ability.effects", "activate"),
            engage=r.get("engage", bool, True, raw, "ability."),
            timing=timing,
            attack=r.get("attack", bool, False, raw, "ability."),
            life_for_missing=r.get("life_for_missing", bool, False, raw, "ability."),
        )
        if ability.attack and attack is None:
            raise r.fail("ability.attack", "needs the card's [attack] profile")
    reacts_to = tuple(r.get("reacts_to", list, []))
    for trigger in reacts_to:
        if trigger not in REACTION_TRIGGERS:
            raise r.fail("reacts_to", f"unknown trigger {trigger!r}; known: {', '.join(REACTION_TRIGGERS)}")
    if card_type == "reaction" and not reacts_to:
        raise r.fail("reacts_to", "a reaction names what it answers")
    return Card(
        id=card_id,
        name=r.get("name", str),
        name_en=r.get("name_en", str),
        type=card_type,
        level=level,
        attribute=attribute,
        cost=cost,
        text=r.get("text", str),
        text_en=r.get("text_en", str),
        subtypes=tuple(r.get("subtypes", list, [])),
        keywords=keywords,
        attack=attack,
        power=power,
        life=life,
        faction=faction,
        tags=tuple(r.get("tags", list, [])),
        slot=slot,
        armour=armour,
        passive=passive,
        effects=effects,
        ability=ability,
        reacts_to=reacts_to,
        legendary=r.get("legendary", bool, False),
        unless_equipped=r.get("unless_equipped", str, None),
        malus=malus,
        file=file,
    )


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


def load_cards(paths: Iterable[Path]) -> CardPool:
    cards: dict[str, Card] = {}
    for path in sorted(paths):
        try:
            data = tomllib.loads(path.read_text(encoding="utf-8"))
        except tomllib.TOMLDecodeError as error:
            raise CardError(path.name, "?", "?", f"not valid TOML: {error}") from error
        tables = data.get("cards", [])
        if not isinstance(tables, list):
            raise CardError(path.name, "?", "cards", "must be an array of tables ([[cards]])")
        for entry, table in enumerate(tables):
            card = parse_card(table, path.name, entry)
            if card.id in cards:
                raise CardError(path.name, card.id, "id", f"already defined in {cards[card.id].file}")
            cards[card.id] = card
    return CardPool(cards)


CARDS_DIR = Path(__file__).resolve().parent.parent / "cards"


@cache
def default_pool() -> CardPool:
    return load_cards(CARDS_DIR.glob("*.toml"))


@dataclass(frozen=True)
class DeckList:
    """A ready library (``tragic/cards/decks/*.toml``) with the Traits and Compétences it suggests."""

    id: str
    name: str
    name_en: str
    copy_mode: str
    cards: tuple[str, ...]
    traits: tuple[str, ...]
    skills: tuple[str, ...]


def load_decklists(directory: Path | None = None, pool: CardPool | None = None) -> dict[str, DeckList]:
    directory = directory or CARDS_DIR / "decks"
    pool = pool or default_pool()
    decks: dict[str, DeckList] = {}
    for path in sorted(directory.glob("*.toml")):
        data = tomllib.loads(path.read_text(encoding="utf-8"))
        deck_id = str(data.get("id", path.stem))
        cards: list[str] = []
        for card_id, count in data.get("cards", {}).items():
            if card_id not in pool:
                raise CardError(path.name, deck_id, f"cards.{card_id}", "no such card")
            if not isinstance(count, int) or count < 1:
                raise CardError(path.name, deck_id, f"cards.{card_id}", "a count ≥ 1 is needed")
            cards.extend([card_id] * count)
        for key in ("traits", "skills"):
            for card_id in data.get(key, []):
                if card_id not in pool:
                    raise CardError(path.name, deck_id, f"{key}.{card_id}", "no such card")
        decks[deck_id] = DeckList(
            id=deck_id,
            name=data["name"],
            name_en=data["name_en"],
            copy_mode=data.get("copy_mode", "quad"),
            cards=tuple(cards),
            traits=tuple(data.get("traits", [])),
            skills=tuple(data.get("skills", [])),
        )
    return decks
