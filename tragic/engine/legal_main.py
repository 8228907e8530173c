"""The main phase's choices: the cards of the hand to play, the capacities to activate, the equipment to change,
the SPECIAL cards to place (the hot path of random playouts and search rollouts), on the checks of
``checks.Checks``; ``legal.Choices`` adds who may act and the other steps' choices.

The codes path (``State.legal_codes``) keeps these choices as :data:`Entry` tuples and builds an action dict
only for the one decoded or applied: most of a step's list is never read, and the suggested payment of a card
(``base.known_payment``) is then asked for the chosen card alone. ``legal_actions`` builds every dict.
"""

from __future__ import annotations

from typing import Any

from .cards import AIM_PARTS, ANY, PERMANENT_TYPES, Card
from .checks import Action, effect_aims
from .effects import TARGETED_OPS
from .legal_attacks import AttackChoices

# A choice before its action dict is built: either the dict itself, or ``(kind, card, cost_key, target, aim)`` for
# the actions on one card — ``{"kind", "player", "card"}``, with ``"pay"`` (the suggested payment of the cost
# ``cost_key``) unless it is None, ``"target"`` and ``"aim"`` unless they are None, in that order — or
# ``("ally_attack", allies, None, target, None)`` for ``{"kind", "player", "allies", "target"}``, or
# ``("activate", card, cost_key, None, None, choice)`` for a recycling capacity (``"choice"`` after ``"pay"``).
CardEntry = tuple[str, Any, Any, Any, Any]
RecycleEntry = tuple[str, int, Any, None, None, int]
Entry = Action | CardEntry | RecycleEntry

# The pool memo's key of StateData.special_columns (read inline: special_entries asks at most steps).
SPECIAL_COLUMNS = ("special columns",)
# The pool memo's entry for what main_entries reads of each card in hand, by card id (see hand_row).
HAND_ROWS = "hand rows"
HandRow = tuple[
    int, tuple[tuple[str, int], ...], tuple[tuple[str, int], ...], bool, Any, Any, Any, int, Card, bool, bool
]


def wide_only(effects: tuple[Any, ...]) -> bool:
    """Whether ``effects`` aim only at « an opponent » (damage, radiation): ``effect_targets`` then finds no
    target at a table of two, where there is one opponent at most."""
    return not any(effect.op in TARGETED_OPS for effect in effects)


def hand_row(card: Card) -> HandRow | None:
    """What deciding whether a card of the hand can be played reads, once per card: None for a SPECIAL card or
    a reaction (never played from the hand), else its cost total, named part and key, whether it is of the
    Confrérie de l'Acier, its name if a Companion, the reach of an attack (the key of the targets it shares with
    other attacks), the effects whose targets are to be found (None when it aims at nothing: a permanent, or
    effects that never aim), its CIBLAGE, the card, whether its effects aim only at an opponent among several
    (:func:`wide_only`) and whether it is plain: its cost paid, nothing else to check or find (not of the
    Confrérie, no Companion, no target)."""
    kind = card.type
    if kind == "special" or kind == "reaction":
        return None
    keywords = card.keywords
    attack_key = effects = None
    if kind == "attack" and card.attack is not None:
        attack_key = (card.attack.targets, keywords.get("INCAPACITE", 0), keywords.get("EXPLOSION_DE_ZONE", 0))
    elif kind not in PERMANENT_TYPES:
        played = card.effects_at("play")
        if any(effect_aims(effect) for effect in played):
            effects = played
    companion = card.name if kind == "companion" else None
    return (
        card.cost_total,
        card.cost_named,
        card.cost_key,
        card.faction == "confrerie",
        companion,
        attack_key,
        effects,
        keywords.get("CIBLAGE", 0),
        card,
        effects is not None and wide_only(effects),
        card.faction != "confrerie" and companion is None and attack_key is None and effects is None,
    )


# The pool memo's entry for the zones ability_sources looks in (see MainChoices._source_zones).
SOURCE_ZONES = "capacity source zones"
# The pool memo's entry for what _main_activations reads of each card with a capacity, by card id (source_row).
SOURCE_ROWS = "capacity source rows"
SourceRow = tuple[
    bool,
    bool,
    bool,
    bool,
    tuple[tuple[str, int], ...],
    tuple[tuple[str, int], ...],
    int,
    Any,
    Any,
    int,
    Card,
    bool,
    bool,
]


def source_row(card: Card) -> SourceRow | None:
    """What activating a card's capacity in the main phase reads, once per card: None without a capacity, else
    whether it goes through ``ability_usable`` and ``activation_actions`` (life for missing points, an attack
    without a profile, a recycling attack), whether it engages, whether it is an upkeep capacity, whether it attacks, its cost
    key, named part and total, the effects whose targets are to be found (None when they never aim), the reach
    of its attack (None if it does not attack), the card's CIBLAGE, the card and whether its effects aim only at
    an opponent among several (:func:`wide_only`), and whether it recycles (the card to recycle then chosen from
    the hand)."""
    ability = card.ability
    if ability is None:
        return None
    attack = bool(ability.attack)
    slow = bool(ability.life_for_missing or attack and (card.attack is None or ability.recycles))
    cost_key = ability.cost_key
    keywords = card.keywords
    attack_key = None
    if attack and card.attack is not None:
        attack_key = (card.attack.targets, keywords.get("INCAPACITE", 0), keywords.get("EXPLOSION_DE_ZONE", 0))
    effects = ability.effects if any(effect_aims(effect) for effect in ability.effects) else None
    return (
        slow,
        bool(ability.engage),
        ability.timing == "upkeep",
        attack,
        cost_key,
        tuple((a, n) for a, n in cost_key if a != ANY),
        sum(n for _, n in cost_key),
        effects,
        attack_key,
        keywords.get("CIBLAGE", 0),
        card,
        effects is not None and wide_only(effects),
        bool(ability.recycles) and not slow,
    )


class MainChoices(AttackChoices):
    # -- entries to actions ----------------------------------------------------------------------------

    def action_of(self, player: int, entry: Entry) -> Action:
        """The action dict of an entry (a dict entry is the action itself, not copied)."""
        if entry.__class__ is dict:
            return entry  # type: ignore[return-value]  # a dict entry: mypy does not narrow on __class__
        if len(entry) == 6:  # a recycling capacity and the card it recycles
            recycle: RecycleEntry = entry  # type: ignore[assignment]  # six items: mypy does not narrow on len()
            pay = dict(self.known_payment(player, recycle[2]))
            return {"kind": recycle[0], "player": player, "card": recycle[1], "pay": pay, "choice": recycle[5]}
        card_entry: CardEntry = entry  # type: ignore[assignment]  # not a dict, not a recycling entry (see above)
        kind, uid, cost_key, target, aim = card_entry
        if cost_key is None:
            if target is None:
                return {"kind": kind, "player": player, "card": uid}
            return {"kind": kind, "player": player, "allies": uid, "target": target}  # an ally attack
        # the memo of the player's disengaged points (base.known_payment), read inline as in actions_of
        payments = self._payments.get(player) if player in self._available else None
        known = payments.get(cost_key) if payments is not None else None
        pay = dict(known if known is not None else self.known_payment(player, cost_key))
        if target is None:
            return {"kind": kind, "player": player, "card": uid, "pay": pay}
        if aim is None:
            return {"kind": kind, "player": player, "card": uid, "pay": pay, "target": target}
        return {"kind": kind, "player": player, "card": uid, "pay": pay, "target": target, "aim": aim}

    def actions_of(self, player: int, entries: list[Entry]) -> list[Action]:
        """Every entry's action dict (:meth:`action_of`), the actions on one card sharing their payment, as
        the list built dicts before entries (the web table and the bots' path)."""
        actions: list[Action] = []
        append = actions.append
        last_uid, last_key, pay = -1, None, None
        payments = self._payments.get(player) if player in self._available else None
        for entry in entries:
            if entry.__class__ is dict:
                append(entry)  # type: ignore[arg-type]  # a dict entry: mypy does not narrow on __class__
                continue
            if len(entry) == 6:  # a recycling capacity (checked first: the compiled engine checks the tuple's size)
                append(self.action_of(player, entry))
                continue
            card_entry: CardEntry = entry  # type: ignore[assignment]  # not a dict, not a recycling entry (see above)
            if card_entry[2] is None:
                append(self.action_of(player, entry))
                continue
            kind, uid, cost_key, target, aim = card_entry
            if uid != last_uid or cost_key is not last_key:
                # the memo of the player's disengaged points (base.known_payment), read inline
                known = payments.get(cost_key) if payments is not None else None
                pay = dict(known if known is not None else self.known_payment(player, cost_key))
                last_uid, last_key = uid, cost_key
            if target is None:
                append({"kind": kind, "player": player, "card": uid, "pay": pay})
            elif aim is None:
                append({"kind": kind, "player": player, "card": uid, "pay": pay, "target": target})
            else:
                append({"kind": kind, "player": player, "card": uid, "pay": pay, "target": target, "aim": aim})
        return actions

    # -- the main phase ----------------------------------------------------------------------------------

    def special_entries(self, player: int) -> list[Entry]:
        """Placing each SPECIAL card of the hand whose column is not full, once per card id."""
        seen: set[str] = set()
        entries: list[Entry] = []
        cards = self.cards
        columns = self.pool.memo.get(SPECIAL_COLUMNS) or self.special_columns()
        points = self._points.get(player) or self._all_points(player)
        for uid in self.players[player].zones["hand"]:
            cid = cards[uid].cid
            column = columns.get(cid)
            if column is not None and cid not in seen and points[column] < 10:
                seen.add(cid)
                entries.append(("place_special", uid, None, None, None))
        return entries

    def _shared_targets(
        self, player: int, card: Card, key: tuple[Any, ...], shared: dict[tuple[Any, ...], Any]
    ) -> list[dict[str, Any]]:
        """``attack_targets(player, card)``, kept in ``shared`` under the attack's reach ``key``."""
        victims = shared.get(())
        if victims is None:
            victims = shared[()] = self.victims(player)
        found: list[dict[str, Any]] = self.victim_targets(card, victims)
        shared[key] = found
        return found

    def _hand_rows(self) -> dict[str, HandRow | None]:
        """:func:`hand_row` of every card of the pool, kept in the pool's memo."""
        rows: dict[str, HandRow | None] = {cid: hand_row(card) for cid, card in self._card_table.items()}
        self.pool.memo[HAND_ROWS] = rows
        return rows

    def _source_rows(self) -> dict[str, SourceRow | None]:
        """:func:`source_row` of every card of the pool, kept in the pool's memo."""
        rows: dict[str, SourceRow | None] = {cid: source_row(card) for cid, card in self._card_table.items()}
        self.pool.memo[SOURCE_ROWS] = rows
        return rows

    def main_choices(self, player: int) -> list[Action]:
        """:meth:`main_entries` as action dicts."""
        return self.actions_of(player, self.main_entries(player))

    def main_entries(self, player: int, placing: bool = False) -> list[Entry]:
        """Every card of the hand that can be played, each capacity, equipment change and ally attack, then
        ending the turn; first, with ``placing``, the SPECIAL cards to place (:meth:`special_entries`, found in
        the same pass over the hand). The hot path of random playouts and search rollouts: the checks of
        ``play_problem`` (cost and targets apart, known here) are made once per distinct card, from its
        precomputed cost, and the small helpers (points, keywords) are read inline; payments are suggested when
        an entry is built."""
        entries: list[Entry] = []
        append = entries.append
        placed: list[Entry] = []
        cards = self.cards
        zones = self.players[player].zones
        available = self._available.get(player) or self.available_points(player)
        # Attacks with the same reach share their targets (cards in hand and weapons' capacities), and all the
        # attacks the opponents' facts (legal_attacks.victims, under the key ()).
        attack_targets: dict[tuple[Any, ...], Any] = {}
        hand = zones["hand"]
        if self.phase == "main" and hand:
            seen: set[str] = set()
            spare = sum(available.values())
            barred: bool | None = None  # the Mods' « no Confrérie » flag, read at the first card of the Confrérie
            rows = self.pool.memo.get(HAND_ROWS) or self._hand_rows()
            duel = len(self.players) == 2
            if placing:
                columns = self.pool.memo.get(SPECIAL_COLUMNS) or self.special_columns()
                points = self._points.get(player) or self._all_points(player)
            for uid in hand:
                cid = cards[uid].cid
                row = rows[cid]
                # Cheap refusals first: most cards in hand are SPECIAL cards, reactions or too dear.
                if row is None:
                    # special_entries' test, one entry per card id whose column is not full
                    if placing and cid not in seen:
                        column = columns.get(cid)
                        if column is not None and points[column] < 10:
                            seen.add(cid)
                            placed.append(("place_special", uid, None, None, None))
                    continue
                if row[0] > spare or cid in seen:
                    continue
                seen.add(cid)
                for a, n in row[1]:
                    if available[a] < n:
                        break
                else:
                    if row[10]:  # plain: nothing but the cost to check, no target
                        append(("play", uid, row[2], None, None))
                        continue
                    _, _, cost_key, brotherhood, companion, attack_key, effects, aims, card, wide, _ = row
                    # play_problem without its cost (checked just above) and targets (found below).
                    if brotherhood:
                        if barred is None:
                            barred = "no_brotherhood" in (self._mods.get(player) or self.mods(player)).flags
                        if barred:
                            continue
                    if companion is not None and self.companion_present(companion):
                        continue
                    if attack_key is not None:
                        found = attack_targets.get(attack_key)
                        if found is None:
                            found = self._shared_targets(player, card, attack_key, attack_targets)
                        for target in found:
                            append(("play", uid, cost_key, target, None))
                            if aims and "player" in target:
                                # « permet de viser une partie du corps de l'adversaire »: every part is a choice.
                                entries.extend(("play", uid, cost_key, target, part) for part in AIM_PARTS)
                    elif effects is None or wide and duel:
                        append(("play", uid, cost_key, None, None))
                    else:
                        for target in self.effect_targets(player, effects):
                            append(("play", uid, cost_key, target, None))
                            if aims and target is not None and "player" in target:
                                entries.extend(("play", uid, cost_key, target, part) for part in AIM_PARTS)
        elif placing:
            placed = self.special_entries(player)
        sources = self._sources.get(player) or self.ability_sources(player)
        if sources:
            self._main_activations(player, sources, entries, available, attack_targets)
        if zones["equipment"] and self.phase == "main":
            self._equipment_choices(player, entries, available)

        if zones["play"]:
            self.ally_attack_entries(player, attack_targets.get(()), entries)
        append({"kind": "end_turn", "player": player})
        if placed:
            placed.extend(entries)
            return placed
        return entries

    def _main_activations(
        self,
        player: int,
        sources: list[int],
        entries: list[Entry],
        available: dict[str, int],
        attack_targets: dict[tuple[Any, ...], Any],
    ) -> None:
        """``ability_usable(player, uid, "main")`` then ``activation_actions`` for each source, inline for the
        usual capacities (engage, pay, then resolve effects or a weapon's attack, its targets shared with the
        attacks in hand, or recycling); life-for-missing capacities and attacks without a profile go through the two
        methods."""
        cards, turn = self.cards, self.turn
        rows = self.pool.memo.get(SOURCE_ROWS) or self._source_rows()
        spare = -1
        for uid in sources:
            inst = cards[uid]
            row = rows[inst.cid]
            if row is None:
                continue
            if row[0]:  # slow: through ability_usable and activation_actions
                if self.ability_usable(player, uid, "main"):
                    entries.extend(self.activation_actions(player, uid))
                continue
            # ability_usable's checks for the main phase (engage, upkeep, attack used), before reading the rest
            if inst.engaged and (row[1] or inst.zone == "equipment") or row[2]:
                continue
            if row[3] and inst.used_turn == turn:
                continue
            # can_pay(player, ability.cost)
            for a, n in row[5]:
                if available[a] < n:
                    break
            else:
                _, _, _, _, cost_key, _, total, effects, attack_key, aims, card, wide, recycles = row
                if spare < 0:
                    spare = sum(available.values())
                if spare < total:
                    continue
                if recycles:
                    # activation_actions' recycling: the card to recycle is chosen among the others, one per
                    # card id.
                    seen: set[str] = set()
                    for h in self.players[player].zones["hand"]:
                        cid = cards[h].cid
                        if cid not in seen:
                            seen.add(cid)
                            entries.append(("activate", uid, cost_key, None, None, h))
                elif attack_key is not None:
                    found = attack_targets.get(attack_key)
                    if found is None:
                        found = self._shared_targets(player, card, attack_key, attack_targets)
                    for t in found:
                        entries.append(("activate", uid, cost_key, t, None))
                    if aims:
                        entries.extend(
                            ("activate", uid, cost_key, t, part) for t in found if "player" in t for part in AIM_PARTS
                        )
                elif effects is None or wide and len(self.players) == 2:
                    entries.append(("activate", uid, cost_key, None, None))
                else:
                    for target in self.effect_targets(player, effects):
                        entries.append(("activate", uid, cost_key, target, None))

    def _equipment_choices(self, player: int, entries: list[Entry], available: dict[str, int]) -> None:
        """Equipping or unequipping each piece of the equipment zone: :meth:`equip_problem` for pieces known to
        be the player's, in the main phase, the cost checked from the card's precomputed sums."""
        equipment = self.players[player].zones["equipment"]
        if not equipment:
            return
        cards, table = self.cards, self._card_table
        spare = sum(available.values())
        taken: set[str | None] | None = None
        for uid in equipment:
            inst = cards[uid]
            card = table[inst.cid]
            if card.cost_total > spare:
                continue
            for a, n in card.cost_named:
                if available[a] < n:
                    break
            else:
                if inst.engaged:
                    # Two pieces never share a slot (FAQ 15): only a piece to equip (engaged) can collide with one
                    # equipped (disengaged, so never the piece itself); the slots taken are found once.
                    if taken is None:
                        taken = {table[cards[u].cid].slot for u in equipment if not cards[u].engaged}
                    if card.slot in taken:
                        continue
                    entries.append(("equip", uid, card.cost_key, None, None))
                else:
                    entries.append(("unequip", uid, card.cost_key, None, None))

    def ability_sources(self, player: int) -> list[int]:
        """The player's cards with an activated capacity (kept until their zones change: not to be changed)."""
        known = self._sources.get(player)
        if known is None:
            zones, cards, table = self.players[player].zones, self.cards, self._card_table
            known = self._sources[player] = [
                u
                for zone in self.pool.memo.get(SOURCE_ZONES) or self._source_zones()
                for u in zones[zone]
                if table[cards[u].cid].ability
            ]
        return known

    def _source_zones(self) -> tuple[str, ...]:
        """The zones :meth:`ability_sources` looks in, in its order, the SPECIAL columns left out when no SPECIAL
        card of the pool has a capacity (only a SPECIAL card is ever placed there, and the columns hold most of a
        player's cards late in a game: the sources are found again whenever a zone changes). In the pool memo."""
        zones: tuple[str, ...] = ("skill", "play", "equipment", "special", "trait")
        if not any(card.type == "special" and card.ability for card in self._card_table.values()):
            zones = tuple(z for z in zones if z != "special")
        self.pool.memo[SOURCE_ZONES] = zones
        return zones

    def activation_actions(self, player: int, uid: int) -> list[Action]:
        card = self.card(uid)
        ability = card.ability
        assert ability is not None
        if ability.life_for_missing:
            affordable = self.affordable_part(player, ability.cost)
            generic = (
                self.suggest_payment(player, {"any": ability.cost.get("any", 0)}) if ability.cost.get("any") else {}
            )
            pay = {a: affordable.get(a, 0) + generic.get(a, 0) for a in {*affordable, *generic}}
        else:
            pay = dict(self.known_payment(player, ability.cost_key))
        base: Action = {"kind": "activate", "player": player, "card": uid, "pay": pay}
        if ability.attack:
            targets = self.attack_targets(player, card)
            actions = [{**base, "target": t} for t in targets]
            if card.kw("CIBLAGE"):
                actions += [{**base, "target": t, "aim": part} for t in targets if "player" in t for part in AIM_PARTS]
            return actions
        if ability.recycles:
            # The card to recycle is chosen among the others: paying may not use it.
            seen: set[str] = set()
            actions = []
            for h in self.zone(player, "hand"):
                if self.cards[h].cid not in seen:
                    seen.add(self.cards[h].cid)
                    actions.append({**base, "choice": h})
            return actions
        return [{**base, "target": t} if t is not None else base for t in self.effect_targets(player, ability.effects)]
