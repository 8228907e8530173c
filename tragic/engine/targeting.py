"""Who and what can be attacked: players, allies (EN DÉFENSE, INCIBLABLE, factions), buildings and items; the
targets of ATTAQUE cards, weapons and attacking allies (000, III.6.b–c and V.8–9). ``combat.Combat`` resolves the
attacks on top of these checks."""

from __future__ import annotations

from typing import Any

from .cards import Card
from .effects import Effects


class Targeting(Effects):
    # -- who can be attacked ---------------------------------------------------------------------------

    def defenders_first(self, player: int) -> list[int]:
        """EN DÉFENSE: « pour que le joueur ou les autres Alliés puissent être Attaqués, il ne doit pas être
        défendu par des Allié possédant cette Capacité, ces derniers doivent d'abord être éliminés »."""
        return [u for u in self.allies(player) if self.keyword(u, "EN_DEFENSE")]

    def player_targetable(self, attacker: int, victim: int) -> bool:
        p = self.players[victim]
        if victim == attacker or p.eliminated or p.stealth or p.sheltered is not None:
            return False
        return not self.defenders_first(victim)

    def ally_targetable(self, attacker: int, uid: int, *, by_ally: int | None = None) -> bool:
        """INCIBLABLE « empêche un Allié adverse de cibler une telle cible »; factions never fight their own."""
        inst = self.cards[uid]
        if inst.owner == attacker or inst.zone not in ("play", "combat"):
            return False
        if self.keyword(uid, "INCIBLABLE"):
            return False
        if not self.keyword(uid, "EN_DEFENSE") and self.defenders_first(inst.owner):
            return False
        return not (by_ally is not None and self.same_faction(by_ally, uid))

    def ally_attack_choices(self, player: int) -> list[dict[str, Any]]:
        actions: list[dict[str, Any]] = []
        horde_done = False
        cards, table = self.cards, self._card_table
        ready = []
        for u in self.players[player].zones["play"]:
            inst = cards[u]
            # can_ally_attack, read inline (asked at every step of a turn with allies in play)
            if inst.zone == "play" and not inst.engaged:
                card = table[inst.cid]
                if card.is_ally and not card.keywords.get("EN_DEFENSE", 0) + inst.granted.get("EN_DEFENSE", 0):
                    ready.append(u)
        if not ready:
            return actions
        victims = self._ally_victims(player)
        for uid in ready:
            group = [uid]
            if self.keyword(uid, "HORDE"):
                # HORDE « force les Alliés la possédant à attaquer tous en même temps la même cible »
                if horde_done:
                    continue
                horde_done = True
                group = [u for u in ready if self.keyword(u, "HORDE")]
            for target in self._ally_targets_among(victims, group):
                actions.append({"kind": "ally_attack", "player": player, "allies": group, "target": target})
        return actions

    def can_ally_attack(self, uid: int) -> bool:
        inst = self.cards[uid]
        return (
            inst.zone == "play"
            and not inst.engaged
            and self._card_table[inst.cid].is_ally
            and not self.keyword(uid, "EN_DEFENSE")
        )

    def ally_targets(self, player: int, group: list[int]) -> list[dict[str, Any]]:
        """:meth:`player_targetable`, then each ally :meth:`ally_targetable` by every attacker of ``group``,
        with the victim's EN DÉFENSE allies found once."""
        return self._ally_targets_among(self._ally_victims(player), group)

    def _ally_victims(self, player: int) -> list[tuple[int, bool, list[int]]]:
        """Each opponent: whether the player can be attacked, and the allies an ally may aim at, whatever
        its faction (INCIBLABLE left out; only the EN DÉFENSE ones while any guards)."""
        victims: list[tuple[int, bool, list[int]]] = []
        for victim in self.opponents(player):
            allies = self.allies(victim)
            guards = [u for u in allies if self.keyword(u, "EN_DEFENSE")] if allies else allies
            p = self.players[victim]
            open_ = not (p.eliminated or p.stealth or p.sheltered is not None or guards)
            aimable = [u for u in allies if not self.keyword(u, "INCIBLABLE") and (not guards or u in guards)]
            victims.append((victim, open_, aimable))
        return victims

    def _ally_targets_among(self, victims: list[tuple[int, bool, list[int]]], group: list[int]) -> list[dict[str, Any]]:
        targets: list[dict[str, Any]] = []
        cards, table = self.cards, self._card_table
        # same_faction(a, uid) for some attacker a: uid's faction is one of theirs that never fights itself.
        barred = {f for a in group if (f := table[cards[a].cid].faction) is not None and f != "belluaire"}
        for victim, open_, aimable in victims:
            if open_:
                targets.append({"player": victim})
            for uid in aimable:
                if table[cards[uid].cid].faction not in barred:
                    targets.append({"card": uid})
        return targets

    def same_faction(self, a: int, b: int) -> bool:
        """« Une faction ne peut pas affronter ni infliger de dégat à un Allié adverse de la même Faction »,
        except « les Belluaires peuvent affronter d'autres membres de leurs Faction »."""
        fa, fb = self.card(a).faction, self.card(b).faction
        return fa is not None and fa == fb and fa != "belluaire"

    def attack_targets(self, player: int, card: Card) -> list[dict[str, Any]]:
        """Who ``card`` may attack: :meth:`player_targetable` and :meth:`ally_targetable` for each opponent, with
        the victim's allies and their EN DÉFENSE guards found once (the legal-move generator asks at every
        step)."""
        assert card.attack is not None
        targets: list[dict[str, Any]] = []
        zone_blast, at_player, at_allies = card.zone_blast, card.attacks_players, card.attacks_allies
        cards, table = self.cards, self._card_table
        for victim in self.opponents(player):
            allies = self.allies(victim)
            p = self.players[victim]
            if zone_blast:
                if allies and not p.stealth:
                    targets.append({"player": victim})
                continue
            guards = [u for u in allies if self.keyword(u, "EN_DEFENSE")] if allies else allies
            if at_player and not (p.stealth or p.sheltered is not None or guards):
                targets.append({"player": victim})
            if at_allies and allies:
                targets.extend(
                    {"card": u} for u in allies if not self.keyword(u, "INCIBLABLE") and (not guards or u in guards)
                )
            targets.extend(
                {"card": uid}
                for uid in p.zones["play"]
                if table[cards[uid].cid].type in ("building", "item") and self.object_targetable(card, uid)
            )
        return targets

    def object_targetable(self, card: Card, uid: int) -> bool:
        """Buildings and Items are hit by attacks that say so (« les Batiments sont considérés un sous-genre
        des Objets », FAQ 10), or disabled by INCAPACITÉ."""
        profile = card.attack
        assert profile is not None
        kind = self.card(uid).type
        if kind not in ("building", "item") or self.keyword(uid, "INCIBLABLE"):
            return False
        if kind in profile.targets:
            return True
        return bool(card.kw("INCAPACITE")) and self.incapacitable(uid)

    def incapacitable(self, uid: int) -> bool:
        """INCAPACITÉ reaches a card « qui possède une Capacité ou une condition » (000, VII)."""
        card = self.card(uid)
        return not card.kw("INCIBLABLE") and bool(card.ability or card.effects or card.keywords)
