"""The attacks of the main phase on the codes path: the targets of attack cards and weapons, and the ally attacks,
from each opponent's facts found once a step (``targeting.Targeting`` answers the same questions one card at a
time: ``attack_targets``, ``ally_attack_choices``; ``tests/tragic/test_legal_rebuild.py`` compares them)."""

from __future__ import annotations

from typing import Any

from .cards import Card
from .checks import Checks

# One opponent: its seat, its player target, whether it can be attacked (no stealth, not in the Abri, no
# EN DÉFENSE ally), the allies an attacker may aim at (INCIBLABLE left out, only the EN DÉFENSE ones while any
# guards) and their targets, whether it has allies, its stealth, its buildings and items in play.
Victim = tuple[int, dict[str, Any], bool, list[int], list[dict[str, Any]], bool, bool, list[int]]


class AttackChoices(Checks):
    def victims(self, player: int) -> list[Victim]:
        """What :meth:`attack_targets` and :meth:`ally_attack_choices` read of each opponent, their target
        dicts made once (shared by the step's entries, as targets shared by similar cards always were)."""
        found: list[Victim] = []
        cards, table = self.cards, self._card_table
        for victim in self.opponents(player):
            p = self.players[victim]
            zones = p.zones
            # allies (ZONE DE JEU, then ZONE DE COMBAT), their EN DÉFENSE guards and the buildings and items, in
            # one pass (keyword() read inline)
            allies: list[int] = []
            guards: list[int] = []
            objects: list[int] = []
            for zone in (zones["play"], zones["combat"]):
                for u in zone:
                    inst = cards[u]
                    card = table[inst.cid]
                    if card.is_ally:
                        allies.append(u)
                        if card.keywords.get("EN_DEFENSE", 0) + inst.granted.get("EN_DEFENSE", 0):
                            guards.append(u)
                    elif zone is zones["play"] and (card.type == "building" or card.type == "item"):
                        objects.append(u)
            aimable = [u for u in (guards or allies) if not self.keyword(u, "INCIBLABLE")] if allies else allies
            stealth = p.stealth
            open_ = not (stealth or p.sheltered is not None or guards)
            found.append(
                (
                    victim,
                    {"player": victim},
                    open_,
                    aimable,
                    [{"card": u} for u in aimable],
                    bool(allies),
                    stealth,
                    objects,
                )
            )
        return found

    def victim_targets(self, card: Card, victims: list[Victim]) -> list[dict[str, Any]]:
        """:meth:`attack_targets` of ``card`` from the step's :meth:`victims`."""
        profile = card.attack
        assert profile is not None
        targets: list[dict[str, Any]] = []
        keywords = card.keywords
        zone_blast = keywords.get("EXPLOSION_DE_ZONE", 0)
        at_player = "player" in profile.targets
        at_allies = "ally" in profile.targets or keywords.get("INCAPACITE", 0)
        for _, target, open_, _, ally_targets, has_allies, stealth, objects in victims:
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

    def ally_attack_entries(self, player: int, victims: list[Victim] | None) -> list[Any]:
        """:meth:`ally_attack_choices` as entries ``("ally_attack", allies, None, target, None)``."""
        entries: list[Any] = []
        cards, table = self.cards, self._card_table
        ready = []
        for u in self.players[player].zones["play"]:
            inst = cards[u]
            # can_ally_attack, read inline
            if inst.zone == "play" and not inst.engaged:
                card = table[inst.cid]
                if card.is_ally and not card.keywords.get("EN_DEFENSE", 0) + inst.granted.get("EN_DEFENSE", 0):
                    ready.append(u)
        if not ready:
            return entries
        if victims is None:
            victims = self.victims(player)
        # HORDE « force les Alliés la possédant à attaquer tous en même temps la même cible »
        horde = [u for u in ready if self.keyword(u, "HORDE")]
        horde_done = False
        for uid in ready:
            group = [uid]
            if horde and uid in horde:
                if horde_done:
                    continue
                horde_done = True
                group = horde
            # same_faction(a, uid) for some attacker a: uid's faction is one of theirs that never fights itself.
            barred = {f for a in group if (f := table[cards[a].cid].faction) is not None and f != "belluaire"}
            for _, target, open_, aimable, ally_targets, _, _, _ in victims:
                if open_:
                    entries.append(("ally_attack", group, None, target, None))
                for u, ally_target in zip(aimable, ally_targets, strict=True):
                    if table[cards[u].cid].faction not in barred:
                        entries.append(("ally_attack", group, None, ally_target, None))
        return entries
