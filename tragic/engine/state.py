"""The game state: its fields, zone moves, derived values and serialisation (the records it holds are in
``pieces``). Rules that change it live in the sibling modules (``turns``, ``combat``, ``effects``,
``legal``) and are reached through :meth:`State.apply`."""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from .card_files import default_pool, parse_card
from .cards import ATTRIBUTES, Card, CardPool
from .passives import inert, passive_part
from .pieces import (
    LIBRARY_ZONES,
    MAX_ATTRIBUTE,
    PASSIVE_ZONES,
    ZONES,
    Instance,
    Mods,
    Player,
    copy_instance,
    copy_plain,
    copy_player,
)
from .profiles import PROFILES, Profile

__all__ = [
    "LIBRARY_ZONES",
    "MAX_ATTRIBUTE",
    "PASSIVE_ZONES",
    "ZONES",
    "Instance",
    "Mods",
    "Player",
    "StateData",
    "copy_instance",
    "copy_plain",
    "copy_player",
    "pool_for",
]

# The Mods of every combination of passive cards met so far, in the card pool's memo: a player's Mods are asked
# for at every step and their cards change at most a few times a turn, so most combinations recur (in a game,
# across the games of a simulation and in the search bot's rollouts). Keyed by the source cards' ids in the
# order they are read, with whether each one's malus applies; shared Mods are never changed.
ModsKey = tuple[tuple[str, bool], ...]
MODS_MEMO_LIMIT = 50_000
# The memo's entry for the ids of the pool's cards that add nothing to any Mods (passives.inert).
INERT_IDS = "inert card ids"
# The memo's entry for the ids of the pool's cards that add SPECIAL points (``mods_changed``).
SPECIAL_IDS = "special-point card ids"
# The zones a card keeps its engagement, damage, buffs and granted keywords in (``move`` resets them elsewhere).
KEPT_ZONES = frozenset({"play", "combat", "equipment"})
# cids_with's memo keys for the moments asked at every turn or cast, made once.
_CIDS_KEYS = {when: ("cids with effects", when) for when in ("cast", "disengage", "upkeep", "end_of_turn")}
# Suggested payments (base.known_payment) per disengaged points, then per cost: never changed once made.
_PAYMENTS: dict[tuple[int, ...], dict[tuple[tuple[str, int], ...], dict[str, int]]] = {}
PAYMENTS_LIMIT = 20_000


def payments_memo(available: dict[str, int]) -> dict[tuple[tuple[str, int], ...], dict[str, int]]:
    """The shared memo of suggested payments for these disengaged points (``base.known_payment``)."""
    memo = _PAYMENTS.get(values := tuple(available.values()))
    if memo is None:
        if len(_PAYMENTS) >= PAYMENTS_LIMIT:
            _PAYMENTS.clear()
        memo = _PAYMENTS[values] = {}
    return memo


def pool_for(config: dict[str, Any]) -> CardPool:
    extra = config.get("extra_cards") or []
    if not extra:
        return default_pool()
    cards = dict(default_pool().cards)
    for entry, table in enumerate(extra):
        card = parse_card(table, "config", entry)
        cards[card.id] = card
    return CardPool(cards)


class StateData:
    """Fields and low-level zone moves; the game methods are mixed in up to :class:`tragic.engine.game.State`."""

    config: dict[str, Any]
    pool: CardPool
    profile: Profile
    rng: random.Random
    cards: list[Instance]
    players: list[Player]
    phase: str
    active: int
    first_player: int
    turn: int
    stack: list[dict[str, Any]]
    priority: list[int]
    pending: dict[str, Any] | None
    window: str  # "", "pending" or "open": the right to place one SPECIAL card
    upkeep_todo: list[dict[str, Any]]
    ending: bool
    timer: bool
    over: bool
    winner_index: int | None
    steps: int
    next_stack_id: int
    _card_table: Mapping[str, Card]
    _mods: dict[int, Mods]
    _points: dict[int, dict[str, int]]
    _sources: dict[int, list[int]]
    _available: dict[int, dict[str, int]]
    _payments: dict[int, dict[tuple[tuple[str, int], ...], dict[str, int]]]

    def _init_fields(self, config: dict[str, Any], pool: CardPool) -> None:
        # A state has 29 attributes (these, ``rng``, ``_coded`` and ``events``). In pure Python (no compiled
        # build, native.py) CPython 3.11 shares one key table among instances of a class, and its fast attribute
        # reads, up to 30 keys: two more attributes cost the coded random playouts 7 % (callgrind, issue 15).
        # Keep new derived values in these dicts or in the pool's memo rather than in new attributes; a new
        # attribute is declared in the class body above (the compiled class has a fixed set of fields).
        self.config = config
        self.pool = pool
        self._card_table = pool.cards
        self.profile = PROFILES[config.get("profile", "wiki")]
        self.cards = []
        self.players = []
        self.phase = "choose_traits"
        self.active = 0
        self.first_player = 0
        self.turn = 0
        self.stack = []
        self.priority = []
        self.pending = None
        self.window = ""
        self.upkeep_todo = []
        self.ending = False
        self.timer = False
        self.over = False
        self.winner_index = None
        self.steps = 0
        self.next_stack_id = 1
        self._mods = {}
        self._points = {}
        # Each player's cards with an activated capacity, in the zones they act from: those zones are the
        # PASSIVE_ZONES, so the list is forgotten with the player's Mods (``invalidate``).
        self._sources = {}
        self._available = {}
        # Suggested payments per player and cost: the shared memo of the player's disengaged points, chosen
        # again with them in ``available_points`` (``legal_actions`` prices every playable card at every step; the
        # codes path, the chosen one).
        self._payments = {}

    # -- cards and zones -------------------------------------------------------------------------

    def card(self, uid: int) -> Card:
        return self._card_table[self.cards[uid].cid]

    def inst(self, uid: int) -> Instance:
        return self.cards[uid]

    def new_instance(self, cid: str, owner: int, zone: str) -> int:
        uid = len(self.cards)
        self.cards.append(Instance(uid=uid, cid=cid, owner=owner, zone=zone))
        self.players[owner].zones[zone].append(uid)
        return uid

    def move(self, uid: int, zone: str, *, bottom: bool = False, attribute: str | None = None) -> None:
        """Move a card to one of its owner's zones (cards always return to their owner's zones)."""
        inst = self.cards[uid]
        old = inst.zone
        owner = inst.owner
        player = self.players[owner]
        placed = False  # an inert card placed in a SPECIAL column: its points are raised below
        if old in PASSIVE_ZONES or zone in PASSIVE_ZONES:
            card = self._card_table[inst.cid]
            if card.is_ally:
                # An ally adds nothing to its player's Mods or points (``_mods_key`` skips allies): only
                # the list of capacity sources changes, if it has a capacity.
                if card.ability is not None:
                    self._sources.pop(owner, None)
            elif old == "equipment" or zone == "equipment" or inst.cid not in self._inert_ids():
                if old == "special":
                    self.invalidate(owner)
                else:
                    if card.ability is not None:
                        self._sources.pop(owner, None)
                    self.mods_changed(owner, inst.cid, equipment=old == "equipment" or zone == "equipment")
                    # A SPECIAL card placed: one more point in its column, as for an inert one, if the points
                    # outlived its Mods (``_placed_point`` forgets the disengaged points otherwise).
                    placed = zone == "special"
            else:
                # An inert card (most placed SPECIAL cards) is left out of ``_mods_key``, equipment apart (a
                # piece's malus reads the others): the Mods stay; the points change with the SPECIAL columns,
                # the capacity sources with a card that has one.
                if card.ability is not None:
                    self._sources.pop(owner, None)
                if old == "special":
                    self._points.pop(owner, None)
                    self._available.pop(owner, None)
                elif zone == "special":
                    placed = True
        if old == "special":
            for column in player.special.values():
                if uid in column:
                    column.remove(uid)
                    break
        left = player.zones[old]
        if left[-1] == uid:  # a draw takes the top of the library, the end of its list: no search
            left.pop()
        else:
            left.remove(uid)
        inst.zone = zone
        if bottom and zone == "library":
            player.zones[zone].insert(0, uid)
        else:
            player.zones[zone].append(uid)
        if zone == "special":
            assert attribute is not None
            player.special[attribute].append(uid)
            if placed:
                self._placed_point(owner, attribute)
        if zone not in KEPT_ZONES:
            inst.engaged = False
            inst.damage = 0
            inst.power_buff = inst.life_buff = inst.perm_power = inst.perm_life = 0
            if inst.granted:
                inst.granted = {}

    def _placed_point(self, player: int, attribute: str) -> None:
        """One more card in a SPECIAL column, the Mods' SPECIAL part unchanged: the cached points of the column are one more
        (``_all_points``: at most MAX_ATTRIBUTE) and its disengaged points read again, rather than both forgotten
        (a SPECIAL card is placed every few steps; the legal moves read both at once)."""
        points = self._points.get(player)
        if points is None:
            self._available.pop(player, None)
            return
        n = points[attribute]
        points[attribute] = n + 1 if n < MAX_ATTRIBUTE else MAX_ATTRIBUTE
        available = self._available.get(player)
        if available is not None:
            left = points[attribute] - self.players[player].engaged_points[attribute]
            available[attribute] = left if left > 0 else 0
            self._payments[player] = payments_memo(available)

    def zone(self, player: int, zone: str) -> list[int]:
        return self.players[player].zones[zone]

    def steal(self, uid: int, thief: int) -> None:
        """« elle permet de voler une seule et unique carte » (000, FAQ 13): a card of a hand passes to the
        thief's hand and becomes the thief's for the rest of the game; ``origin`` remembers its library."""
        inst = self.cards[uid]
        assert inst.zone == "hand"
        victim = inst.owner
        self.players[victim].zones["hand"].remove(uid)
        if inst.origin is None:
            inst.origin = victim
        elif inst.origin == thief:
            inst.origin = None  # stolen back: it is home again
        inst.owner = thief
        self.players[thief].zones["hand"].append(uid)

    def allies(self, player: int) -> list[int]:
        """Allies and Companions on the battlefield (ZONE DE JEU and, while attacking, ZONE DE COMBAT)."""
        zones, cards, table = self.players[player].zones, self.cards, self._card_table
        return [u for zone in (zones["play"], zones["combat"]) for u in zone if table[cards[u].cid].is_ally]

    def alive(self) -> list[int]:
        return [p.index for p in self.players if not p.eliminated]

    def opponents(self, player: int) -> list[int]:
        """The other players still in the game, clockwise from ``player``'s left."""
        players = self.players
        n = len(players)
        if n == 2:  # the usual table, asked several times a step: the same list without the arithmetic
            return [] if players[1 - player].eliminated else [1 - player]
        return [(player + k) % n for k in range(1, n) if not players[(player + k) % n].eliminated]

    def clockwise_from(self, player: int) -> list[int]:
        """« L'ordre de jeu autour de la table est toujours dans le sens horaire » (001)."""
        players = self.players
        n = len(players)
        if n == 2:
            return [i for i in (player, 1 - player) if not players[i].eliminated]
        return [(player + k) % n for k in range(n) if not players[(player + k) % n].eliminated]

    # -- SPECIAL resources -----------------------------------------------------------------------

    def points(self, player: int, attribute: str) -> int:
        """« contient par défaut une carte Point d'Action SPECIAL de base … maximum … 10 par catégorie »."""
        known = self._points.get(player)
        if known is None:
            known = self._all_points(player)
        return known[attribute]

    def _all_points(self, player: int) -> dict[str, int]:
        special, columns = (self._mods.get(player) or self.mods(player)).special, self.players[player].special
        if special:
            known = {a: min(MAX_ATTRIBUTE, max(0, 1 + special.get(a, 0)) + len(columns[a])) for a in ATTRIBUTES}
        else:  # the usual case: one base point per attribute and the cards placed
            known = {a: n if (n := 1 + len(columns[a])) < MAX_ATTRIBUTE else MAX_ATTRIBUTE for a in ATTRIBUTES}
        self._points[player] = known
        return known

    def available(self, player: int, attribute: str) -> int:
        return self.available_points(player)[attribute]

    def total_available(self, player: int) -> int:
        return sum(self.available(player, a) for a in ATTRIBUTES)

    # -- derived values ----------------------------------------------------------------------------

    def invalidate(self, player: int | None = None) -> None:
        """Forget derived values after a change of zones, equipment, Traits or engaged resources
        (a player's Mods only ever come from that player's own cards)."""
        if player is None:
            self._mods.clear()
            self._points.clear()
            self._sources.clear()
            self._available.clear()
        else:
            self._mods.pop(player, None)
            self._points.pop(player, None)
            self._sources.pop(player, None)
            self._available.pop(player, None)

    def mods_changed(self, player: int, cid: str, *, equipment: bool) -> None:
        """Forget the player's Mods after a passive card ``cid`` entered or left a passive zone other than the
        SPECIAL columns, or a piece was equipped or engaged (``equipment``), and their points and disengaged
        points only if that can change the Mods' SPECIAL part: the points are the base point, that part and the
        columns (``_all_points``), few cards of a pool add to that part, and equipment changes every few steps
        while the legal moves read the points at every one. The capacity sources are the caller's (a card
        moved between zones changes them, an engaged one does not)."""
        self._mods.pop(player, None)
        ids, by_malus = self.pool.memo.get(SPECIAL_IDS) or self._special_ids()
        # A piece equipped or not may switch another card's malus (``_mods_key``): with equipment, the
        # points are kept only if no card's malus reaches the SPECIAL part.
        if cid in ids or (equipment and by_malus):
            self._points.pop(player, None)
            self._available.pop(player, None)

    def _special_ids(self) -> tuple[frozenset[str], bool]:
        """The ids of the pool's cards whose passive part (with or without its malus) adds SPECIAL points, and
        whether one of them has a malus unless something is equipped; in the pool's memo."""
        table = self._card_table
        ids = frozenset(
            c.id
            for c in table.values()
            if any((part := passive_part(c, malus=m)) is not None and part.special for m in (False, True))
        )
        known = self.pool.memo[SPECIAL_IDS] = (ids, any(table[c].unless_equipped and table[c].slot for c in ids))
        return known

    def available_points(self, player: int) -> dict[str, int]:
        """Disengaged points per attribute (cached until the next change)."""
        cached = self._available.get(player)
        if cached is None:
            points = self._points.get(player) or self._all_points(player)
            # The points less the engaged ones, never below 0: copied, then only the attributes engaged changed
            # (a few at most; a conditional, not max(): this runs after every payment).
            cached = self._available[player] = points.copy()
            for a, n in self.players[player].engaged_points.items():
                if n:
                    cached[a] = left if (left := points[a] - n) > 0 else 0
            self._payments[player] = payments_memo(cached)
        return cached

    def mods(self, player: int) -> Mods:
        cached = self._mods.get(player)
        if cached is not None:
            return cached
        key: ModsKey = self._mods_key(player)
        memo = self.pool.memo
        mods = memo.get(key)
        if mods is None:
            mods = self._sum_mods(key)
            if len(memo) >= MODS_MEMO_LIMIT:
                memo.clear()
            memo[key] = mods
        self._mods[player] = mods
        return mods

    def _sum_mods(self, key: ModsKey) -> Mods:
        mods = Mods()
        table = self._card_table
        for cid, malus in key:
            part = passive_part(table[cid], malus=malus)
            if part is None:
                continue
            mods.max_life_pct += part.max_life_pct
            mods.life_start_pct += part.life_start_pct
            mods.draw += part.draw
            for kind, value in part.armour:
                mods.armour[kind] = mods.armour.get(kind, 0) + value
            mods.crit_chances += part.crit_chances
            mods.crit_multiplier = max(mods.crit_multiplier, part.crit_multiplier)
            if part.attack_bonus is not None:
                attribute, value = part.attack_bonus
                mods.attack_bonus[attribute] = mods.attack_bonus.get(attribute, 0) + value
            mods.penetration += part.penetration
            mods.ally_power += part.ally_power
            mods.ally_life += part.ally_life
            mods.skill_slots += part.skill_slots
            for attribute, value in part.special:
                mods.special[attribute] = mods.special.get(attribute, 0) + value
            mods.flags.update(part.flags)
        return mods

    def _has_equipped_subtype(self, player: int, subtype: str) -> bool:
        return any(
            subtype in self._card_table[self.cards[u].cid].subtypes and not self.cards[u].engaged
            for u in self.players[player].zones["equipment"]
        )

    def _inert_ids(self) -> frozenset[str]:
        """The ids of the pool's cards that add nothing to any Mods (``passives.inert``), in the pool's memo."""
        known: frozenset[str] | None = self.pool.memo.get(INERT_IDS)
        if known is None:
            known = self.pool.memo[INERT_IDS] = frozenset(c.id for c in self._card_table.values() if inert(c))
        return known

    def _mods_key(self, player: int) -> ModsKey:
        """The ids of the player's passive cards in their order (Traits, Compétences, SPECIAL cards, what is
        in play but allies, equipped pieces), each with whether its malus applies."""
        p = self.players[player]
        cards, table = self.cards, self._card_table
        key: list[tuple[str, bool]] = []
        inert_ids = self._inert_ids()
        for zone in ("trait", "skill", "special", "play", "equipment"):
            for uid in p.zones[zone]:
                inst = cards[uid]
                card = table[inst.cid]
                if zone == "equipment":
                    if inst.engaged:  # « Les équipements désengagés sont équipés »
                        continue
                elif card.is_ally:
                    continue
                if card.id in inert_ids:
                    # Left out of the key: it adds nothing, and the fewer cards a key names, the more often
                    # the combination recurs (placed SPECIAL cards, many of them inert, would make most keys new).
                    continue
                malus = bool(
                    card.unless_equipped and card.slot and not self._has_equipped_subtype(player, card.unless_equipped)
                )
                key.append((card.id, malus))
        return tuple(key)

    def cids_with(self, when: str) -> frozenset[str]:
        """The ids of the pool's cards with effects ``when`` (``Card.effects_at``), kept in the pool's memo: each
        turn's end, disengagement and upkeep look for them among every card of several zones."""
        key = _CIDS_KEYS.get(when) or ("cids with effects", when)
        known: frozenset[str] | None = self.pool.memo.get(key)
        if known is None:
            known = self.pool.memo[key] = frozenset(c.id for c in self._card_table.values() if c.effects_at(when))
        return known

    def effect_zones(self, when: str) -> tuple[str, ...]:
        """The zones a turn's step looks in for cards with effects ``when`` (``cids_with``): play, SPECIAL columns,
        Traits, Compétences, equipment, the SPECIAL columns left out when no SPECIAL card of the pool has such an
        effect — only a SPECIAL card is ever placed there (``_run_place_special``), and the columns hold most of a
        player's cards late in a game. Kept in the pool's memo."""
        key = ("effect zones", when)
        known: tuple[str, ...] | None = self.pool.memo.get(key)
        if known is None:
            table = self._card_table
            special = any(table[cid].type == "special" for cid in self.cids_with(when))
            zones = ("play", "special", "trait", "skill", "equipment")
            known = self.pool.memo[key] = zones if special else tuple(z for z in zones if z != "special")
        return known

    def special_columns(self) -> dict[str, str]:
        """Each SPECIAL card of the pool by id: the column it is placed in (its attribute, else S), in the memo."""
        key = ("special columns",)
        known: dict[str, str] | None = self.pool.memo.get(key)
        if known is None:
            table = self._card_table
            known = self.pool.memo[key] = {c.id: c.attribute or "S" for c in table.values() if c.type == "special"}
        return known

    def armour(self, player: int) -> dict[str, int]:
        return (self._mods.get(player) or self.mods(player)).armour

    def ally_power(self, uid: int) -> int:
        inst = self.cards[uid]
        card = self._card_table[inst.cid]
        mods = self._mods.get(inst.owner) or self.mods(inst.owner)
        return max(0, card.power + inst.power_buff + inst.perm_power + mods.ally_power)

    def ally_max_life(self, uid: int) -> int:
        inst = self.cards[uid]
        card = self._card_table[inst.cid]
        mods = self._mods.get(inst.owner) or self.mods(inst.owner)
        return max(1, card.life + inst.life_buff + inst.perm_life + mods.ally_life)

    def ally_life(self, uid: int) -> int:
        return self.ally_max_life(uid) - self.cards[uid].damage

    def keyword(self, uid: int, name: str) -> int:
        """« les indices s'additionnent lorsqu'ils sont « obtenus » » (000, VI.6)."""
        inst = self.cards[uid]
        return self._card_table[inst.cid].keywords.get(name, 0) + inst.granted.get(name, 0)

    def draw_count(self, player: int) -> int:
        """« par défaut : 2 … cette quantité s'étale de 1 à 3, jamais moins, mais potentiellement plus »."""
        return max(1, 2 + (self._mods.get(player) or self.mods(player)).draw)

    # -- serialisation ------------------------------------------------------------------------------

    def to_json(self) -> dict[str, Any]:
        version, internal, gauss = self.rng.getstate()
        return {
            "config": self.config,
            "rng": [version, list(internal), gauss],
            "cards": [c.to_json() for c in self.cards],
            "players": [p.to_json() for p in self.players],
            "phase": self.phase,
            "active": self.active,
            "first_player": self.first_player,
            "turn": self.turn,
            "stack": self.stack,
            "priority": self.priority,
            "pending": self.pending,
            "window": self.window,
            "upkeep_todo": self.upkeep_todo,
            "ending": self.ending,
            "timer": self.timer,
            "over": self.over,
            "winner": self.winner_index,
            "steps": self.steps,
            "next_stack_id": self.next_stack_id,
        }

    def _load_json(self, data: dict[str, Any]) -> None:
        import copy

        data = copy.deepcopy(data)
        self._init_fields(data["config"], pool_for(data["config"]))
        version, internal, gauss = data["rng"]
        self.rng = random.Random()
        self.rng.setstate((version, tuple(internal), gauss))
        self.cards = [Instance.from_json(c) for c in data["cards"]]
        self.players = [Player.from_json(p) for p in data["players"]]
        self.phase = data["phase"]
        self.active = data["active"]
        self.first_player = data["first_player"]
        self.turn = data["turn"]
        self.stack = data["stack"]
        self.priority = data["priority"]
        self.pending = data["pending"]
        self.window = data["window"]
        self.upkeep_todo = data["upkeep_todo"]
        self.ending = data["ending"]
        self.timer = data["timer"]
        self.over = data["over"]
        self.winner_index = data["winner"]
        self.steps = data["steps"]
        self.next_stack_id = data["next_stack_id"]
