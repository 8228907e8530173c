"""Reading the card files: the TOML schema's validation (docs/tragic.md), the card pool and the ready libraries.

A card is read once from ``tragic/cards/*.toml`` into a frozen :class:`~tragic.engine.cards.Card`. Every error
names the file, the card and the field, so a broken card is fixed without reading Python. The vocabulary the
schema accepts (types, keywords, effects, passives) is in :mod:`tragic.engine.cards`, beside the card itself.
"""

from __future__ import annotations

import tomllib
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

from .cards import (
    ABILITY_FIELDS,
    ALLY_TYPES,
    ANY,
    ARMOUR_TYPES,
    ATTACK_FIELDS,
    ATTRIBUTES,
    CARD_FIELDS,
    CARD_TYPES,
    DAMAGE_TYPES,
    EFFECT_OPS,
    EFFECT_PARAM_TYPES,
    EFFECT_REQUIRED,
    EFFECT_TIMINGS,
    FACTIONS,
    KEYWORDS,
    PASSIVE_KEYS,
    REACTION_TRIGGERS,
    SLOTS,
    Ability,
    AttackProfile,
    Card,
    CardError,
    CardPool,
    Effect,
)


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

    def effect_param(self, where: str, expected: str | tuple[str, ...], value: Any) -> None:
        """One effect parameter against its type (``EFFECT_PARAM_TYPES``); true/false is never a number."""
        number = isinstance(value, int) and not isinstance(value, bool)
        if expected == "int>=0" and not (number and value >= 0):
            raise self.fail(where, "must be a whole number ≥ 0")
        if expected == "int" and not number:
            raise self.fail(where, "must be a whole number")
        if expected == "bool" and not isinstance(value, bool):
            raise self.fail(where, "must be true or false")
        if isinstance(expected, tuple) and (not isinstance(value, str) or value not in expected):
            raise self.fail(where, f"must be one of {', '.join(expected)}")

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
            for key, value in params.items():
                self.effect_param(f"{where}.{key}", EFFECT_PARAM_TYPES[key], value)
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
