"""The three decks as data: Weapons, Gadgets and Specials, read from TOML and validated.

« Il y a 3 paquets de cartes différents. Il faut bien séparer leur défausse et quand le paquet est
terminé, on mélange la défausse. »
"""

from __future__ import annotations

import tomllib
from collections.abc import Collection
from dataclasses import dataclass, replace
from functools import cache, partial
from pathlib import Path

from .errors import ContentError

CARDS_DIR = Path(__file__).resolve().parent.parent / "cards"

WEAPON, GADGET, SPECIAL = "weapon", "gadget", "special"
DECKS = (WEAPON, GADGET, SPECIAL)
GADGET_LETTERS = {"A": "armour", "W": "weapon", "M": "movement", "H": "health"}

# Stats a modifier may change, with the value before any card.
STATS = {
    "speed": None,  # the fighter's Vitesse
    "accuracy": None,  # the fighter's Précision
    "attacks": 0,  # attacks added to ceil(Précision / 2)
    "accuracy_dice": 0,  # dice added to the accuracy roll
    "damage_dice": 0,  # an attack's damage dice: its weapon's dice, multiplied, then added to, by cards
    "defence_dice": 0,  # dice added to the Santé roll when defending
    "jump_length": 0,  # squares added to the jump length (Vitesse)
    "jump_cost": 2,  # movement points per square jumped
    "ammo_cost": 1,  # multiplies the ammunition a shot spends
    "hand_limit": 5,  # cards allowed in hand at the end of one's turn
}
OPS = ("add", "mul", "set")
SCOPES = ("self", "others", "all")
DURATIONS = ("turn", "round")
EFFECTS = {
    "armour": {"value"},
    "reload": set(),
    "heal": {"value"},
    "movement": {"value"},
    "teleport": set(),
    "modifier": {"stat", "op", "value", "scope", "duration"},
    "disconnect": set(),
    "draw": {"deck", "value"},
}
# When a card may be played: in the movement phase (before the roll) or after it.
EFFECT_TIMING = {
    "armour": "any",
    "reload": "any",
    "heal": "any",
    "movement": "after_roll",
    "teleport": "before_roll",
    "modifier": "any",
    "disconnect": "any",
    "draw": "any",
}


@dataclass(frozen=True)
class Card:
    id: str
    deck: str
    name: dict[str, str]
    text: dict[str, str]
    copies: int = 1
    letter: str = ""  # gadgets: A, W, M or H
    # weapons
    dice: int = 0
    ammo: int = 0  # 0: unlimited
    shot_cost: int = 1
    extra_damage: int = 0
    # gadgets and specials
    effect: str = ""
    value: int = 0
    stat: str = ""
    op: str = ""
    scope: str = ""
    duration: str = ""
    target_deck: str = ""

    @property
    def is_weapon(self) -> bool:
        return self.deck == WEAPON

    @property
    def needs_target(self) -> bool:
        return self.effect == "disconnect"


PISTOL = Card(
    id="pistol",
    deck=WEAPON,
    name={"fr": "Pistolet de base", "en": "Base pistol"},
    text={"fr": "2 dés de dommage, munitions illimitées.", "en": "2 damage dice, unlimited ammunition."},
    dice=2,
)


@dataclass(frozen=True)
class CardSet:
    name: str
    cards: dict[str, Card]

    def deck(self, deck: str) -> list[str]:
        """The card ids of one deck, one entry per copy, in file order."""
        return [c.id for c in self.cards.values() if c.deck == deck for _ in range(c.copies)]


def _need(source: str, card_id: str, entry: dict[str, object], key: str, kind: type | tuple[type, ...]) -> object:
    if key not in entry:
        raise ContentError(f"{source}: card '{card_id}': field '{key}' is missing")
    value = entry[key]
    if not isinstance(value, kind) or (kind is int and isinstance(value, bool)):
        raise ContentError(f"{source}: card '{card_id}': field '{key}' has the wrong type")
    return value


def _texts(source: str, card_id: str, entry: dict[str, object], key: str) -> dict[str, str]:
    value = _need(source, card_id, entry, key, dict)
    assert isinstance(value, dict)
    for lang in ("fr", "en"):
        if not isinstance(value.get(lang), str) or not value[lang].strip():
            raise ContentError(f"{source}: card '{card_id}': field '{key}.{lang}' is missing or empty")
    return {"fr": value["fr"], "en": value["en"]}


# The values an effect accepts: a card that adds no armour, heals nothing or moves nobody is a mistake in the file.
VALUE_RANGES = {"armour": (1, 6), "heal": (1, 12), "movement": (1, 12), "draw": (1, 6), "modifier": (-6, 12)}


def parse_card(source: str, deck: str, entry: object, number: int = 1) -> Card:
    """One ``[[card]]`` entry (``number``: its place in the file, from 1, to name an entry without an id)."""
    if not isinstance(entry, dict):
        raise ContentError(
            f"{source}: entry {number}: a card is a table of fields ([[card]]), not {type(entry).__name__}"
        )
    card_id = entry.get("id")
    if not isinstance(card_id, str) or not card_id:
        raise ContentError(f"{source}: entry {number}: field 'id' is missing or empty")

    def integer(key: str, low: int, high: int, default: int | None = None) -> int:
        if key not in entry and default is not None:
            return default
        value = _need(source, card_id, entry, key, int)
        assert isinstance(value, int)
        if not low <= value <= high:
            raise ContentError(f"{source}: card '{card_id}': field '{key}' must be between {low} and {high}")
        return value

    def choice(key: str, allowed: Collection[str]) -> str:
        value = _need(source, card_id, entry, key, str)
        if value not in allowed:
            raise ContentError(f"{source}: card '{card_id}': field '{key}' must be one of {', '.join(sorted(allowed))}")
        return str(value)

    common = partial(
        Card,
        id=card_id,
        deck=deck,
        name=_texts(source, card_id, entry, "name"),
        text=_texts(source, card_id, entry, "text"),
        copies=integer("copies", 1, 6, default=1),
    )
    if deck == WEAPON:
        extra = set(entry) - {"id", "name", "text", "copies", "dice", "ammo", "shot_cost", "extra_damage"}
        if extra:
            raise ContentError(f"{source}: card '{card_id}': unknown field '{sorted(extra)[0]}'")
        return common(
            dice=integer("dice", 1, 12),
            ammo=integer("ammo", 0, 20),
            shot_cost=integer("shot_cost", 1, 5, default=1),
            extra_damage=integer("extra_damage", 0, 5, default=0),
        )
    letter = choice("letter", GADGET_LETTERS) if deck == GADGET else ""
    effect = choice("effect", EFFECTS)
    card = common(letter=letter, effect=effect)
    fields = EFFECTS[effect]
    if "value" in fields:
        card = replace(card, value=integer("value", *VALUE_RANGES[effect]))
    if effect == "modifier":
        card = replace(
            card,
            stat=choice("stat", STATS),
            op=choice("op", OPS),
            scope=choice("scope", SCOPES),
            duration=choice("duration", DURATIONS),
        )
    if effect == "draw":
        card = replace(card, target_deck=choice("deck", DECKS))
    # « Les cartes Gadget sont marquées d'une lettre » : only gadgets carry one.
    extra = set(entry) - {"id", "name", "text", "copies", "effect"} - ({"letter"} if deck == GADGET else set()) - fields
    if extra:
        raise ContentError(f"{source}: card '{card_id}': unknown field '{sorted(extra)[0]}'")
    return card


def parse_card_file(text: str, *, source: str, deck: str) -> list[Card]:
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise ContentError(f"{source}: not valid TOML: {exc}") from exc
    entries = data.get("card")
    if not isinstance(entries, list) or not entries:
        raise ContentError(f"{source}: no [[card]] entries")
    return [parse_card(source, deck, entry, number) for number, entry in enumerate(entries, start=1)]


@cache
def load_cards(name: str = "standard") -> CardSet:
    """Load ``frag/cards/<name>/{weapons,gadgets,specials}.toml``."""
    cards: dict[str, Card] = {}
    for deck, filename in ((WEAPON, "weapons.toml"), (GADGET, "gadgets.toml"), (SPECIAL, "specials.toml")):
        path = CARDS_DIR / name / filename
        if not path.is_file():
            raise ContentError(f"{path}: no such card file")
        for card in parse_card_file(path.read_text(encoding="utf-8"), source=str(path), deck=deck):
            if card.id in cards or card.id == PISTOL.id:
                raise ContentError(f"{path}: card '{card.id}': the id is used twice")
            cards[card.id] = card
    return CardSet(name=name, cards=cards)
