"""The records a TRAGIC state is made of: the zones, one physical card (:class:`Instance`), a seat
(:class:`Player`), what a player's passive cards add up to (:class:`Mods`), and their fast copies
(``State.clone``). ``state.StateData`` holds them and moves cards between zones."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from .cards import ATTRIBUTES

ZONES = (
    "library",
    "hand",
    "discard",
    "destroyed",
    "play",
    "combat",
    "equipment",
    "special",
    "stack",
    "trait",
    "skill",
    "removed",
)
# The zones a player's 60 library cards can be in (traits and skills are chosen apart).
LIBRARY_ZONES = ("library", "hand", "discard", "destroyed", "play", "combat", "equipment", "special", "stack")
MAX_ATTRIBUTE = 10
# Zones whose cards change a player's derived values (Mods).
PASSIVE_ZONES = frozenset({"trait", "skill", "special", "play", "equipment"})


@dataclass(slots=True)
class Instance:
    """One physical card in a game."""

    uid: int
    cid: str
    owner: int
    zone: str = "library"
    engaged: bool = False
    damage: int = 0
    power_buff: int = 0  # until end of turn
    life_buff: int = 0
    perm_power: int = 0
    perm_life: int = 0
    granted: dict[str, int] = field(default_factory=dict)
    used_turn: int = -1
    # The seat whose library the card came from when it was stolen (« Voleur – Appropriation », FAQ 13):
    # ``owner`` is then the thief, who keeps it for the rest of the game. None: never stolen.
    origin: int | None = None

    @property
    def born_to(self) -> int:
        """The seat whose 60-card library this card belongs to."""
        return self.owner if self.origin is None else self.origin

    def to_json(self) -> list[Any]:
        return [
            self.uid,
            self.cid,
            self.owner,
            self.zone,
            self.engaged,
            self.damage,
            self.power_buff,
            self.life_buff,
            self.perm_power,
            self.perm_life,
            self.granted,
            self.used_turn,
            *([self.origin] if self.origin is not None else []),
        ]

    @classmethod
    def from_json(cls, data: list[Any]) -> Instance:
        origin = data[12] if len(data) > 12 else None
        uid, cid, owner, zone, engaged, damage, power_buff, life_buff, perm_power, perm_life = data[:10]
        return cls(
            uid, cid, owner, zone, engaged, damage, power_buff, life_buff, perm_power, perm_life,
            granted=dict(data[10]), used_turn=data[11], origin=origin,
        )  # fmt: skip


@dataclass
class Mods:
    """Everything a player's Traits, Compétences, SPECIAL cards and equipment add up to."""

    max_life_pct: int = 100
    life_start_pct: int = 100
    draw: int = 0
    armour: dict[str, int] = field(default_factory=dict)
    crit_chances: int = 0
    crit_multiplier: int = 2
    attack_bonus: dict[str, int] = field(default_factory=dict)
    penetration: int = 0
    ally_power: int = 0
    ally_life: int = 0
    skill_slots: int = 0
    special: dict[str, int] = field(default_factory=dict)
    flags: set[str] = field(default_factory=set)


@dataclass
class Player:
    index: int
    name: str
    deck: list[str]
    trait_pool: list[str]
    skill_pool: list[str]
    zones: dict[str, list[int]] = field(default_factory=dict)
    special: dict[str, list[int]] = field(default_factory=dict)
    engaged_points: dict[str, int] = field(default_factory=dict)
    hidden_choice: list[str] | None = None
    life: int = 0
    max_life: int = 0
    radiation: int = 0
    stealth: bool = False
    stealth_sources: list[int] = field(default_factory=list)
    sheltered: int | None = None  # uid of the building the player is in
    addictions: dict[str, int] = field(default_factory=dict)
    turns_played: int = 0
    eliminated: bool = False
    lost_reason: str = ""
    mulligans: int = 0
    mulligan_done: bool = True
    mulligan_declared: bool = False  # declared a mulligan this round, taken once everyone has declared
    stop: bool = True  # « stop me when I can respond » (False: only about what is aimed at me)
    guarded: list[int] = field(default_factory=list)  # allies EN DÉFENSE until this player's next turn

    def __post_init__(self) -> None:
        for zone in ZONES:
            self.zones.setdefault(zone, [])
        for attribute in ATTRIBUTES:
            self.special.setdefault(attribute, [])
            self.engaged_points.setdefault(attribute, 0)

    @property
    def damage_taken(self) -> int:
        """« blessures » for the timer: life lost from the maximum as it would be without the irradiation
        track (which lowers the maximum by one per level, our own card): radiation damage counts once, as
        the points it took, not again as the maximum it lowered."""
        return self.max_life + self.radiation - max(0, self.life)

    def to_json(self) -> dict[str, Any]:
        return {
            "index": self.index,
            "name": self.name,
            "deck": self.deck,
            "trait_pool": self.trait_pool,
            "skill_pool": self.skill_pool,
            "zones": self.zones,
            "special": self.special,
            "engaged_points": self.engaged_points,
            "hidden_choice": self.hidden_choice,
            "life": self.life,
            "max_life": self.max_life,
            "radiation": self.radiation,
            "stealth": self.stealth,
            "stealth_sources": self.stealth_sources,
            "sheltered": self.sheltered,
            "addictions": self.addictions,
            "turns_played": self.turns_played,
            "eliminated": self.eliminated,
            "lost_reason": self.lost_reason,
            "mulligans": self.mulligans,
            "mulligan_done": self.mulligan_done,
            "mulligan_declared": self.mulligan_declared,
            "stop": self.stop,
            "guarded": self.guarded,
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Player:
        data = dict(data)
        zones = {k: list(v) for k, v in data.pop("zones").items()}
        special = {k: list(v) for k, v in data.pop("special").items()}
        player = cls(**data, zones=zones, special=special)
        return player


def copy_plain(value: Any) -> Any:
    """A deep copy of plain data (dicts, lists, tuples of numbers and strings), faster than ``copy.deepcopy``."""
    if isinstance(value, dict):
        return {k: copy_plain(v) for k, v in value.items()}
    if isinstance(value, list):
        return [copy_plain(v) for v in value]
    if isinstance(value, tuple):
        return tuple(copy_plain(v) for v in value)
    return value


def copy_instance(inst: Instance) -> Instance:
    return Instance(
        inst.uid,
        inst.cid,
        inst.owner,
        inst.zone,
        inst.engaged,
        inst.damage,
        inst.power_buff,
        inst.life_buff,
        inst.perm_power,
        inst.perm_life,
        dict(inst.granted),
        inst.used_turn,
        inst.origin,
    )


def copy_player(p: Player) -> Player:
    return Player(
        p.index,
        p.name,
        list(p.deck),
        list(p.trait_pool),
        list(p.skill_pool),
        {zone: list(uids) for zone, uids in p.zones.items()},
        {attribute: list(uids) for attribute, uids in p.special.items()},
        dict(p.engaged_points),
        None if p.hidden_choice is None else list(p.hidden_choice),
        p.life,
        p.max_life,
        p.radiation,
        p.stealth,
        list(p.stealth_sources),
        p.sheltered,
        dict(p.addictions),
        p.turns_played,
        p.eliminated,
        p.lost_reason,
        p.mulligans,
        p.mulligan_done,
        p.mulligan_declared,
        p.stop,
        list(p.guarded),
    )
