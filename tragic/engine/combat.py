"""Attacks: ATTAQUE cards and weapons against players, allies and buildings; allies against allies and
players; blockers, CHARGE DE PROTECTION and the counter-attack (000, III.6.b–c and V.8–9). Who can be attacked
is in ``targeting``."""

from __future__ import annotations

from typing import Any

from .cards import AttackProfile, Card
from .damage import (
    BASE_CRIT_CHANCES,
    armour_against,
    base_damage,
    critical_factor,
    excess_split,
    raw_damage,
    roll_criticals,
)
from .targeting import Targeting

AIM_SLOT = {"head": "head", "torso": "torso", "arms": "arms", "legs": "legs", "hand": "weapon"}


class Combat(Targeting):
    # -- attack numbers ------------------------------------------------------------------------------

    def attack_raw(self, player: int, profile: AttackProfile) -> int:
        bonus = self.mods(player).attack_bonus
        points = self.points(player, profile.scale) if profile.scale else 0
        extra = (bonus.get(profile.scale, 0) if profile.scale else 0) + bonus.get("all", 0)
        if profile.scale is None:
            return max(0, profile.flat + extra)
        return raw_damage(points, extra, profile.multiplier, profile.flat)

    def attack_criticals(self, player: int, profile: AttackProfile) -> tuple[int, dict[str, Any]]:
        """Radiation damage « ne peuvent cependant pas être Critique »."""
        if profile.damage_type == "radiation":
            return 1, {}
        mods = self.mods(player)
        roll = roll_criticals(BASE_CRIT_CHANCES + mods.crit_chances, self.rng)
        factor = critical_factor(roll.criticals, mods.crit_multiplier)
        return factor, {"dice": list(roll.chance_dice), "confirmation": roll.confirmation, "criticals": roll.criticals}

    def penetration(self, player: int, card: Card) -> tuple[int, bool]:
        return card.kw("PENETRANT") + self.mods(player).penetration, bool(card.kw("TRANSPERCANT"))

    def ally_armour(self, uid: int, damage_type: str, penetration: int = 0, piercing: bool = False) -> int:
        if piercing or damage_type in ("radiation", "poison"):
            return 0
        return max(0, self.keyword(uid, "ARMURE") - penetration)

    # -- ATTAQUE cards and weapons ----------------------------------------------------------------------

    def resolve_attack(self, item: dict[str, Any], redirect: int | None = None) -> None:
        """« Le premier joueur peut donc lancer ses Dés de Critique, puis résout la suite de l'effet »."""
        controller = item["player"]
        source = item["card"]
        card = self._card_table[self.cards[source].cid]
        profile = card.attack
        assert profile is not None
        target = item.get("target") or {}
        raw = self.attack_raw(controller, profile)
        penetration, piercing = self.penetration(controller, card)
        reduce = item.get("reduce", 0)
        dealt_total = 0
        if card.kw("EXPLOSION_DE_ZONE"):
            victim = target.get("player")
            if victim is None:
                return
            attacking = [u for u in self.allies(victim) if self.cards[u].zone == "combat"]
            factor, dice = self.attack_criticals(controller, profile)
            self.events.append(
                {
                    "t": "attack",
                    "player": controller,
                    "card": card.id,
                    "area": victim,
                    "raw": raw,
                    "factor": factor,
                    **dice,
                }
            )
            for uid in attacking or self.allies(victim):
                armour = self.ally_armour(uid, profile.damage_type, penetration, piercing)
                dealt_total += self.hurt_ally(uid, max(0, (raw - armour) * factor - reduce), by=controller)
        elif redirect is not None or "card" in target:
            uid = redirect if redirect is not None else target["card"]
            dealt_total = self.attack_card_on_card(item, uid, raw, penetration, piercing, counter=redirect is None)
        elif "player" in target:
            dealt_total = self.attack_card_on_player(item, target["player"], raw, penetration, piercing)
        if card.kw("VAMPIRISME") and dealt_total > 0:
            # « rendra des points de vie au joueur (et pas à l'Allié) lorsqu'elle infligera ses dégats finaux »
            healed = self.heal_player(controller, dealt_total)
            self.emit("vampirism", player=controller, amount=healed)
        self.after_attack(controller, source)

    def attack_card_on_player(
        self, item: dict[str, Any], victim: int, raw: int, penetration: int, piercing: bool
    ) -> int:
        controller = item["player"]
        card = self._card_table[self.cards[item["card"]].cid]
        profile = card.attack
        assert profile is not None
        if self.harmful_immune(victim) or self.players[victim].eliminated:
            return 0
        if "gas" in card.subtypes and self.equipped_keyword(victim, "RESPIRATEUR"):
            self.emit("attack_ignored", player=victim, card=card.id, reason="respirator")
            return 0
        armour = armour_against(self.armour(victim), profile.damage_type)
        base = base_damage(raw, armour, penetration=penetration, piercing=piercing)
        factor, dice = self.attack_criticals(controller, profile)
        aim = item.get("aim")
        applications = 2 if aim == "hand" and "unidextrous" in self.mods(victim).flags else 1
        final = max(0, base * factor * applications - int(item.get("reduce", 0)))
        self.events.append(
            {
                "t": "attack",
                "player": controller,
                "card": card.id,
                "target": victim,
                "raw": raw,
                "armour": armour,
                "base": base,
                "factor": factor,
                "applications": applications,
                "final": final,
                **dice,
            }
        )
        self.lose_life(victim, final, radiation=profile.damage_type == "radiation", source=controller)
        self.extra_radiation(controller, victim, card)
        if aim:
            self.damage_aimed_piece(victim, aim)
        return final

    def extra_radiation(self, controller: int, victim: int, card: Card) -> None:
        """LUMINESCENT: « infligent 1 Point de Radiation supplémentaire avec les cartes ATTAQUE en Mêlée »."""
        profile = card.attack
        assert profile is not None
        extra = profile.radiation
        if "melee" in card.subtypes and "luminous" in self.mods(controller).flags:
            extra += 1
        if extra and not self.harmful_immune(victim):
            dealt = max(0, extra - armour_against(self.armour(victim), "radiation"))
            self.lose_life(victim, dealt, radiation=True)

    def damage_aimed_piece(self, victim: int, aim: str) -> None:
        """CIBLAGE: « viser une partie du corps de l'adversaire et d'endommager toute pièce d'armure qui
        se trouverait à cet emplacement » — the piece is broken (discarded)."""
        slot = AIM_SLOT[aim]
        for uid in list(self.zone(victim, "equipment")):
            if self.card(uid).slot == slot and not self.cards[uid].engaged:
                self.move(uid, "discard")
                self.emit("equipment_broken", player=victim, card=self.cards[uid].cid)

    def equipped_keyword(self, player: int, keyword: str) -> bool:
        return any(
            self.card(u).kw(keyword) and not self.cards[u].engaged for u in self.zone(player, "equipment")
        ) or any(self.card(u).kw(keyword) for u in self.zone(player, "play") if not self.card(u).is_ally)

    def attack_card_on_card(
        self, item: dict[str, Any], uid: int, raw: int, penetration: int, piercing: bool, *, counter: bool
    ) -> int:
        controller = item["player"]
        card = self._card_table[self.cards[item["card"]].cid]
        profile = card.attack
        assert profile is not None
        inst = self.cards[uid]
        if inst.zone not in ("play", "combat", "equipment"):
            return 0
        target_card = self._card_table[inst.cid]
        if (
            card.kw("INCAPACITE")
            and not target_card.is_ally
            or card.kw("INCAPACITE")
            and target_card.is_ally
            and self.incapacitable(uid)
        ):
            # « Les Alliés dans ce cas-là sont simplement défaussé, sans Phase de calcul de dégat. Excès de
            # dégat et Vampirisme ne s'applique pas »
            self.emit("incapacitated", player=controller, card=card.id, target=target_card.id)
            self.destroy_card(uid, by=controller)
            return 0
        factor, dice = self.attack_criticals(controller, profile)
        if not target_card.is_ally:
            final = max(0, raw * factor - item.get("reduce", 0))
            self.events.append(
                {
                    "t": "attack",
                    "player": controller,
                    "card": card.id,
                    "target_card": target_card.id,
                    "raw": raw,
                    "factor": factor,
                    "final": final,
                    **dice,
                }
            )
            inst.damage += final
            if inst.damage >= target_card.life:
                self.destroy_card(uid, by=controller)
            return 0
        owner = inst.owner
        armour = self.ally_armour(uid, profile.damage_type, penetration, piercing)
        life = self.ally_life(uid)
        counter_damage = self.ally_power(uid) if counter else 0
        to_player = 0
        if card.kw("EXCES_DE_DEGATS"):
            player_armour = armour_against(self.armour(owner), profile.damage_type)
            player_armour = 0 if piercing else max(0, player_armour - penetration)
            split = excess_split(
                raw,
                factor,
                ally_life=life,
                ally_armour=armour,
                player_armour=player_armour,
                absorb_all=bool(self.keyword(uid, "ABSORPTION_TOTALE")),
            )
            to_ally, to_player = split.to_ally, split.to_player
        else:
            to_ally = max(0, raw - armour) * factor
        to_ally = max(0, to_ally - item.get("reduce", 0))
        self.events.append(
            {
                "t": "attack",
                "player": controller,
                "card": card.id,
                "target_card": target_card.id,
                "raw": raw,
                "armour": armour,
                "factor": factor,
                "final": to_ally,
                "excess": to_player,
                **dice,
            }
        )
        # « l'Allié riposte et inflige sa valeur d'attaque au joueur … au même moment » (000, V.9)
        dealt = self.hurt_ally(uid, to_ally, by=controller)
        if to_player and not self.harmful_immune(owner):
            self.lose_life(owner, to_player, source=controller)
            dealt += to_player
        if counter_damage:
            taken = max(0, counter_damage - armour_against(self.armour(controller), "generic"))
            self.events.append({"t": "counter_attack", "card": target_card.id, "target": controller, "amount": taken})
            self.lose_life(controller, taken, source=owner)
        return dealt

    def hurt_ally(self, uid: int, amount: int, *, by: int) -> int:
        inst = self.cards[uid]
        if amount <= 0 or inst.zone not in ("play", "combat"):
            return 0
        life = self.ally_life(uid)
        inst.damage += amount
        self.events.append(
            {"t": "ally_hurt", "card": inst.cid, "owner": inst.owner, "amount": amount, "life": max(0, life - amount)}
        )
        if amount >= life:
            self.remove_ally(uid, defeated_by=by)
        return amount

    def after_attack(self, controller: int, source: int) -> None:
        """DISCRÉTION « disparait après que le Joueur sous cet effet utilise une carte Attaque … sauf s'il
        utilise un silencieux … engagez toutes les cartes lui procurant cet effet »."""
        p = self.players[controller]
        if not p.stealth:
            return
        if self.card(source).kw("SILENCIEUX") or self.equipped_keyword(controller, "SILENCIEUX"):
            return
        p.stealth = False
        for uid in p.stealth_sources:
            inst = self.cards[uid]
            if inst.zone == "play":
                inst.engaged = True  # in play, engaged changes no derived value
            elif inst.zone == "equipment":
                inst.engaged = True
                self.mods_changed(inst.owner, inst.cid, equipment=True)  # an engaged piece is no longer equipped
        p.stealth_sources = []
        self.emit("stealth_lost", player=controller)

    # -- allies attacking -------------------------------------------------------------------------------

    def blockers(self, defender: int) -> list[int]:
        """Disengaged allies block; a CHARGE DE PROTECTION ally steps in « même s'il est engagé »."""
        return [
            u
            for u in self.allies(defender)
            if self.cards[u].zone == "play" and (not self.cards[u].engaged or self.keyword(u, "CHARGE_DE_PROTECTION"))
        ]

    def chargers(self, defender: int, exclude: int | None = None) -> list[int]:
        return [u for u in self.allies(defender) if self.keyword(u, "CHARGE_DE_PROTECTION") and u != exclude]

    def resolve_ally_attack(self, item: dict[str, Any], blockers: list[int], split: list[int]) -> None:
        controller = item["player"]
        attackers = [u for u in item["allies"] if self.cards[u].zone == "combat"]
        target = item["target"]
        if not attackers:
            return
        total = sum(self.ally_power(u) for u in attackers)
        # A reaction such as Parade lowers what the attack deals (« modifier les paramètres »).
        reduce = item.get("reduce", 0)
        if "card" in target:
            # EXCÈS DE DÉGATS « infligera le surplus de dégat au joueur subissant l'attaque »: the owner of
            # the ally attacked.
            victim_card = target["card"]
            self.ally_clash(
                controller,
                attackers,
                [victim_card],
                [max(0, total - reduce)],
                excess_to=self.cards[victim_card].owner,
            )
        elif "player" in target and blockers:
            shares = []
            for share in split:
                taken = min(share, reduce)
                reduce -= taken
                shares.append(share - taken)
            self.ally_clash(controller, attackers, blockers, shares, excess_to=target["player"])
        elif "player" in target:
            victim = target["player"]
            if not self.harmful_immune(victim):
                final = max(0, total - armour_against(self.armour(victim), "generic") - reduce)
                self.events.append({"t": "ally_attack_hit", "player": controller, "target": victim, "amount": final})
                self.lose_life(victim, final, source=controller)
                for uid in attackers:
                    if self.keyword(uid, "LUMINESCENT"):
                        self.lose_life(
                            victim, max(0, 1 - armour_against(self.armour(victim), "radiation")), radiation=True
                        )
        self.return_attackers(attackers)

    def ally_clash(
        self,
        controller: int,
        attackers: list[int],
        defenders: list[int],
        split: list[int],
        excess_to: int | None = None,
    ) -> None:
        """Simultaneous damage: « l'Allié A 1/3 affronte l'Allié B 2/1 … A est à présent considéré comme un
        Allié 1/1 » (000, V.8). The defender chooses how the attack is split among blockers."""
        hits_on_attackers = 0
        damage_to: dict[int, int] = {}
        overflow = 0
        excess = any(self.keyword(u, "EXCES_DE_DEGATS") for u in attackers)
        for uid, share in zip(defenders, split, strict=True):
            if any(self.same_faction(a, uid) for a in attackers):
                continue  # « ils ne s'infligeront pas de dégat mutuellement »
            bonus = (
                1
                if any(self.card(a).faction == "confrerie" for a in attackers) and self.card(uid).is_brotherhood_enemy
                else 0
            )
            dealt = max(0, share + bonus - self.ally_armour(uid, "generic"))
            life = self.ally_life(uid)
            if excess and dealt > life and not self.keyword(uid, "ABSORPTION_TOTALE"):
                overflow += dealt - life
                dealt = life
            damage_to[uid] = dealt
            hits_on_attackers += self.ally_power(uid)
        # The defenders' blows fall on the attackers in the order they attacked. « Les ennemis de la
        # Confrérie subissent 1 Point de Dégat supplémentaire »: from a Confrérie blocker too, not only
        # from a Confrérie attacker.
        remaining = hits_on_attackers
        brotherhood_blocks = any(self.card(d).faction == "confrerie" and d in damage_to for d in defenders)
        for uid in attackers:
            if remaining <= 0:
                break
            if any(self.same_faction(uid, d) for d in defenders):
                continue
            bonus = 1 if brotherhood_blocks and self.card(uid).is_brotherhood_enemy else 0
            dealt = max(0, remaining + bonus - self.ally_armour(uid, "generic"))
            need = self.ally_life(uid)
            take = min(dealt, need)
            damage_to[uid] = damage_to.get(uid, 0) + take
            remaining -= take + self.ally_armour(uid, "generic")
        owners = {uid: self.cards[uid].owner for uid in damage_to}
        for uid, amount in damage_to.items():
            by = controller if owners[uid] != controller else self.cards[defenders[0]].owner
            self.hurt_ally(uid, amount, by=by)
        if overflow and excess_to is not None and not self.harmful_immune(excess_to):
            final = max(0, overflow - armour_against(self.armour(excess_to), "generic"))
            self.emit("excess_damage", target=excess_to, amount=final)
            self.lose_life(excess_to, final, source=controller)

    def return_attackers(self, attackers: list[int]) -> None:
        for uid in attackers:
            if self.cards[uid].zone == "combat":
                self.move(uid, "play")
