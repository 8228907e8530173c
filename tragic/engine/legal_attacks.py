"""The attacks of the main phase on the codes path: the targets of attack cards and weapons, and the ally attacks,
from each opponent's facts found once a step (``targeting.Targeting`` answers the same questions one card at a
time: ``attack_targets``, ``ally_attack_choices``; ``tests/tragic/test_legal_rebuild.py`` compares them)."""

from __future__ import annotations

from typing import Any

from .cards import Card
from .checks import Checks

# One opponent: its seat, its player target, whether it can be attacked (no stealth, not in the Abri, no
# EN DÉFENSE ally), the allies an attacker may aim at (INCIBLABLE left out, only the EN DÉFENSE ones while any
# guards), their targets and their factions, whether it has allies, its stealth, its buildings and items in play.
Victim = tuple[int, dict[str, Any], bool, list[int], list[dict[str, Any]], bool, bool, list[int], list[str | None]]

# The pool memo's entry for what ally attacks read of each card, by card id (see ally_row).
ALLY_ROWS = "ally attack rows"
AllyRow = tuple[int, int, int, str | None, frozenset[str]]


def ally_row(card: Card) -> AllyRow | None:
    """None for a card that is not an ally, else its printed EN DÉFENSE, HORDE and INCIBLABLE, its faction and
    the factions it may not fight (its own, unless none or Belluaire: ``same_faction``)."""
    if not card.is_ally:
        return None
    keywords, faction = card.keywords, card.faction
    return (
        keywords.get("EN_DEFENSE", 0),
        keywords.get("HORDE", 0),
        keywords.get("INCIBLABLE", 0),
        faction,
        frozenset((faction,)) if faction is not None and faction != "belluaire" else frozenset(),
    )


class AttackChoices(Checks):
    def _ally_rows(self) -> dict[str, AllyRow | None]:
        """:func:`ally_row` of every card of the pool, kept in the pool's memo."""
        rows: dict[str, AllyRow | None] = {cid: ally_row(card) for cid, card in self._card_table.items()}
        self.pool.memo[ALLY_ROWS] = rows
        return rows

    def victims(self, player: int) -> list[Victim]:
        """What :meth:`attack_targets` and :meth:`ally_attack_choices` read of each opponent, their target
        dicts made once (shared by the step's entries, as targets shared by similar cards always were)."""
        found: list[Victim] = []
        cards, players = self.cards, self.players
        rows = self.pool.memo.get(ALLY_ROWS) or self._ally_rows()
        table = None
        # opponents(), read inline at the usual table of two
        opponents = ([] if players[1 - player].eliminated else [1 - player]) if len(players) == 2 else None
        for victim in self.opponents(player) if opponents is None else opponents:
            p = players[victim]
            zones = p.zones
            play, combat = zones["play"], zones["combat"]
            stealth = p.stealth
            if not play and not combat:  # nothing in play (a third of the calls): no ally, no guard, no object
                found.append(
                    (
                        victim,
                        {"player": victim},
                        not (stealth or p.sheltered is not None),
                        [],
                        [],
                        False,
                        stealth,
                        [],
                        [],
                    )
                )
                continue
            # allies (ZONE DE JEU, then ZONE DE COMBAT) with their factions and whether INCIBLABLE, their EN
            # DÉFENSE guards, and the buildings and items, in one pass (keyword() read inline)
            allies: list[tuple[int, bool, str | None]] = []
            guards: list[tuple[int, bool, str | None]] = []
            objects: list[int] = []
            for zone in (play, combat) if combat else (play,):
                for u in zone:
                    inst = cards[u]
                    row = rows[inst.cid]
                    if row is not None:
                        granted = inst.granted
                        if granted:
                            ally = (u, bool(row[2] + granted.get("INCIBLABLE", 0)), row[3])
                            guard = row[0] + granted.get("EN_DEFENSE", 0)
                        else:
                            ally = (u, bool(row[2]), row[3])
                            guard = row[0]
                        allies.append(ally)
                        if guard:
                            guards.append(ally)
                    elif zone is play:
                        if table is None:
                            table = self._card_table
                        kind = table[inst.cid].type
                        if kind == "building" or kind == "item":
                            objects.append(u)
            aimable: list[int] = []
            targets: list[dict[str, Any]] = []
            factions: list[str | None] = []
            for u, untargetable, faction in guards or allies:
                if not untargetable:
                    aimable.append(u)
                    targets.append({"card": u})
                    factions.append(faction)
            open_ = not (stealth or p.sheltered is not None or guards)
            found.append(
                (victim, {"player": victim}, open_, aimable, targets, bool(allies), stealth, objects, factions)
            )
        return found

    def victim_targets(self, card: Card, victims: list[Victim]) -> list[dict[str, Any]]:
        """:meth:`attack_targets` of ``card`` from the step's :meth:`victims`."""
        assert card.attack is not None
        targets: list[dict[str, Any]] = []
        zone_blast, at_player, at_allies = card.zone_blast, card.attacks_players, card.attacks_allies
        for _, target, open_, _, ally_targets, has_allies, stealth, objects, _ in victims:
            if zone_blast:
                if has_allies and not stealth:
                    targets.append(target)
                continue
            if at_player and open_:
                targets.append(target)
            if at_allies and ally_targets:
                targets.extend(ally_targets)
            for uid in objects:
                if self.object_targetable(card, uid):
                    targets.append({"card": uid})
        return targets

    def ally_attack_entries(self, player: int, victims: list[Victim] | None, entries: list[Any]) -> None:
        """:meth:`ally_attack_choices` as entries ``("ally_attack", allies, None, target, None)``, appended to
        ``entries``."""
        cards = self.cards
        rows = self.pool.memo.get(ALLY_ROWS) or self._ally_rows()
        ready: list[int] = []
        horde: list[int] = []
        barriers: list[frozenset[str]] = []
        for u in self.players[player].zones["play"]:
            inst = cards[u]
            # can_ally_attack, read inline, and keyword(u, "HORDE")
            if inst.zone == "play" and not inst.engaged:
                row = rows[inst.cid]
                if row is None:
                    continue
                granted = inst.granted
                if granted:
                    if row[0] + granted.get("EN_DEFENSE", 0):
                        continue
                    if row[1] + granted.get("HORDE", 0):
                        horde.append(u)
                elif row[0]:
                    continue
                elif row[1]:
                    horde.append(u)
                ready.append(u)
                barriers.append(row[4])
        if not ready:
            return
        if victims is None:
            victims = self.victims(player)
        append = entries.append
        # HORDE « force les Alliés la possédant à attaquer tous en même temps la même cible »
        horde_done = False
        for uid, barred in zip(ready, barriers, strict=True):
            group = [uid]
            if horde and uid in horde:
                if horde_done:
                    continue
                horde_done = True
                group = horde
                # same_faction(a, uid) for some attacker a: uid's faction is one of theirs that never fights itself.
                barred = frozenset().union(*(rows[cards[a].cid][4] for a in group))  # type: ignore[index]  # rows are Any-typed tuples built per pool
            for _, target, open_, _, ally_targets, _, _, _, factions in victims:
                if open_:
                    append(("ally_attack", group, None, target, None))
                if not barred:
                    for ally_target in ally_targets:
                        append(("ally_attack", group, None, ally_target, None))
                else:
                    for ally_target, faction in zip(ally_targets, factions, strict=True):
                        if faction not in barred:
                            append(("ally_attack", group, None, ally_target, None))
