"""Setup (Phase 0) and the turn's phases (000, III; 001, Les différentes phases); the stack is in stack.py."""

from __future__ import annotations

from typing import Any

from .cards import ANY, ATTRIBUTES
from .stack import Stack
from .state import payments_memo

NOTHING_ENGAGED = dict.fromkeys(ATTRIBUTES, 0)


class Turns(Stack):
    # -- Phase 0 : Mise en Place ----------------------------------------------------------------------

    def reveal_traits(self) -> None:
        """« ils révèlent en même temps ces derniers » ; « Sans Trait » sends the other chosen Trait out."""
        for p in self.players:
            chosen = list(p.hidden_choice or [])
            if any(self._card_table[c].passive.get("no_trait") for c in chosen):
                chosen = [c for c in chosen if self._card_table[c].passive.get("no_trait")]
            for cid in chosen:
                self.new_instance(cid, p.index, "trait")
            p.hidden_choice = None
        self.invalidate()
        for p in self.players:
            mods = self.mods(p.index)
            # « 100 pour un Humain, 70 pour une Goule »: Traits scale the profile's base life.
            p.max_life = max(1, self.profile.base_life * mods.max_life_pct // 100)
            p.life = max(1, p.max_life * mods.life_start_pct // 100)
        self.emit(
            "traits_revealed",
            traits={p.index: [self.cards[u].cid for u in p.zones["trait"]] for p in self.players},
            life={p.index: [p.life, p.max_life] for p in self.players},
        )
        self.phase = "choose_skills"

    def skill_slots(self, player: int) -> int:
        return 3 + max(0, self.mods(player).skill_slots)

    def reveal_skills(self) -> None:
        for p in self.players:
            for cid in p.hidden_choice or []:
                self.new_instance(cid, p.index, "skill")
            p.hidden_choice = None
        self.invalidate()
        self.emit(
            "skills_revealed", skills={p.index: [self.cards[u].cid for u in p.zones["skill"]] for p in self.players}
        )
        self.choose_first_player()
        self.initial_draw()

    def choose_first_player(self) -> None:
        """« chacun d'entre eux lance un dé (D4 minimum), le plus haut score débute. Cette étape est ignorée
        si l'un des joueurs possède le Trait Kamikazé, et ce même Trait est ignoré … si tous les joueurs le
        possèdent »."""
        everyone = [p.index for p in self.players]
        kamikaze = [i for i in everyone if "kamikaze" in self.mods(i).flags]
        contenders = kamikaze if kamikaze and len(kamikaze) < len(everyone) else everyone
        rolls: list[dict[int, int]] = []
        while len(contenders) > 1:
            roll = {i: self.rng.randint(1, 4) for i in contenders}
            rolls.append(roll)
            best = max(roll.values())
            contenders = [i for i in contenders if roll[i] == best]
        self.first_player = contenders[0]
        self.emit("first_player", player=self.first_player, rolls=rolls, kamikaze=kamikaze)

    def initial_draw(self) -> None:
        """« trois fois la quantité de carte … la Pioche Initiale s'étale de 3 à 9 cartes »."""
        for p in self.players:
            self.draw(p.index, self.initial_hand_size(p.index))
        mulligan_allowed = self.profile.mulligan_by_default or bool(self.config.get("mulligan_agreed"))
        for p in self.players:
            p.mulligan_done = not (mulligan_allowed and "mulligan" in self.mods(p.index).flags)
        if any(not p.mulligan_done for p in self.players):
            self.phase = "mulligan"
        else:
            self.start_turn(self.first_player, first=True)

    def initial_hand_size(self, player: int) -> int:
        return min(9, max(3, 3 * self.draw_count(player)))

    def mulligan_player(self) -> int | None:
        """Who declares now: « le premier joueur déclare s'il va prendre un mulligan. Ensuite, chaque autre
        joueur dans l'ordre du tour fait la même chose » (001, quoting MTG 103.4)."""
        for i in self.clockwise_from(self.first_player):
            p = self.players[i]
            if not p.mulligan_done and not p.mulligan_declared:
                return i
        return None

    def declare_mulligan(self, player: int) -> None:
        self.players[player].mulligan_declared = True
        self.emit("mulligan_declared", player=player)
        self.settle_mulligans()

    def settle_mulligans(self) -> None:
        """« Une fois que chaque joueur a fait une déclaration, tous les joueurs qui ont décidé de prendre
        des mulligans le font en même temps … Ce processus est ensuite répété jusqu'à ce qu'aucun joueur ne
        prenne un mulligan. »"""
        if self.mulligan_player() is not None:
            return
        for p in self.players:
            if p.mulligan_declared:
                p.mulligan_declared = False
                if not p.eliminated:
                    self.take_mulligan(p.index)
        if self.mulligan_player() is None:
            self.start_turn(self.first_player, first=True)

    def take_mulligan(self, player: int) -> None:
        """London mulligan (001, Pioche initiale, quoting MTG 103.4): shuffle the hand back, draw anew."""
        p = self.players[player]
        for uid in list(p.zones["hand"]):
            self.move(uid, "library")
        self.shuffle_library(player)
        p.mulligans += 1
        self.emit("mulligan", player=player, count=p.mulligans)
        self.draw(player, self.initial_hand_size(player))

    def keep_hand(self, player: int, bottom: list[int]) -> None:
        """« place un nombre de ces cartes égal au nombre de fois qu'il a pris un mulligan au-dessous »."""
        for uid in bottom:
            self.move(uid, "library", bottom=True)
        self.players[player].mulligan_done = True
        self.emit("kept", player=player, bottom=len(bottom))
        self.settle_mulligans()

    # -- a turn ---------------------------------------------------------------------------------------------

    def start_turn(self, player: int, *, first: bool = False) -> None:
        p = self.players[player]
        self.active = player
        self.turn += 1
        p.turns_played += 1
        self.window = ""
        self.ending = False
        self.phase = "main"
        self.events.append({"t": "turn", "player": player, "number": p.turns_played})
        if not first:
            self.disengage(player)
            # « Si un joueur ne peut plus piocher à cette Phase (et seulement à cette Phase), il perd »
            if not p.zones["library"]:
                p.eliminated = True
                p.lost_reason = "library"
                self.emit("eliminated", player=player, reason="library")
                self.check_end()
                if not self.over:
                    self.next_turn()
                return
            mods = self._mods.get(player) or self.mods(player)
            self.draw(player, max(1, 2 + mods.draw), phase=True)  # draw_count
        self.start_upkeep(player)

    def disengage(self, player: int) -> None:
        """Phase 1: SPECIAL, ZONE DE JEU and COMPÉTENCE; « ATTENTION : Il ne doit pas désengager de carte …
        dans sa ZONE D'ÉQUIPEMENT » (and, in the wiki, « ni dans sa ZONE DE TRAIT »)."""
        p = self.players[player]
        p.engaged_points.update(NOTHING_ENGAGED)  # every attribute (the player's keys) back to 0, in one call
        zones = ("play", "skill") if self.profile.traits_stay_engaged else ("play", "skill", "trait")
        woken: list[int] = []
        cards, with_effect = self.cards, self.cids_with("disengage")
        for zone in zones:
            for uid in p.zones[zone]:
                inst = cards[uid]
                if inst.engaged and inst.cid in with_effect:
                    woken.append(uid)
                inst.engaged = False
        for uid in p.guarded:
            inst = self.cards[uid]
            if inst.granted.get("EN_DEFENSE"):
                inst.granted["EN_DEFENSE"] -= 1
                if not inst.granted["EN_DEFENSE"]:
                    del inst.granted["EN_DEFENSE"]
        p.guarded = []
        # Only the engaged points changed a derived value: equipment, the one zone whose engagement counts in
        # the Mods, is never disengaged here. Nothing engaged, the disengaged points are the points themselves
        # (never below 0): set from them when known, as available_points would.
        points = self._points.get(player)
        if points is None:
            self._available.pop(player, None)
        else:
            available = self._available[player] = points.copy()
            self._payments[player] = payments_memo(available)
        # RadAway (erratum 4): « il faut bien la désengager pour obtenir l'effet de la drogue ».
        for uid in woken:
            self.emit("disengage_effect", player=player, card=self.cards[uid].cid)
            self.run_effects(self.card(uid).effects_at("disengage"), player, uid)

    def start_upkeep(self, player: int) -> None:
        """Phase 3: « certaines cartes possèdent une Capacité « ENTRETIEN » … Vous pouvez résoudre les effets
        d'entretien de ces cartes dans l'ordre de votre choix »."""
        p = self.players[player]
        todo: list[dict[str, Any]] = []
        cards, table = self.cards, self._card_table
        with_effect = self.cids_with("upkeep")
        zones = p.zones
        for zone in self.effect_zones("upkeep") if with_effect else ():
            for uid in zones[zone]:
                inst = cards[uid]
                if inst.cid not in with_effect or zone == "equipment" and inst.engaged:
                    continue
                upkeep = table[inst.cid].effects_at("upkeep")
                if not upkeep:
                    continue
                if any(e.op == "upkeep_engage" for e in upkeep):
                    # « lorsque cette carte est désengagée, payez son cout pour l'engager » (erratum 4)
                    if not inst.engaged:
                        todo.append({"id": len(todo), "kind": "engage_cost", "card": uid})
                else:
                    todo.append({"id": len(todo), "kind": "effect", "card": uid})
        if p.addictions:
            for name, index in sorted(p.addictions.items()):
                todo.append({"id": len(todo), "kind": "accro", "name": name, "n": index})
        if p.sheltered is not None:
            todo.append({"id": len(todo), "kind": "shelter_exit", "card": p.sheltered, "optional": True})
        self.upkeep_todo = todo
        if todo or self._upkeep_skill(player):
            self.phase = "upkeep"
        else:
            self.enter_main()

    def _upkeep_skill(self, player: int) -> bool:
        """Whether a Compétence's capacity can be used in this upkeep (``ability_usable``, asked only of the
        capacities timed for the upkeep: it refuses any other)."""
        cards, table = self.cards, self._card_table
        for uid in self.players[player].zones["skill"]:
            ability = table[cards[uid].cid].ability
            if ability is not None and ability.timing == "upkeep" and self.ability_usable(player, uid, "upkeep"):
                return True
        return False

    def enter_main(self) -> None:
        self.phase = "main"
        self.upkeep_todo = []
        if self.window == "open" and self.profile.special_after_stack:
            self.window = ""  # the wiki's placements follow main-phase costs only

    def resolve_upkeep(self, player: int, entry: dict[str, Any], action: dict[str, Any]) -> None:
        self.upkeep_todo = [e for e in self.upkeep_todo if e["id"] != entry["id"]]
        if entry["kind"] == "effect":
            card = self.card(entry["card"])
            self.emit("upkeep", player=player, card=card.id)
            self.run_effects(card.effects_at("upkeep"), player, entry["card"])
        elif entry["kind"] == "accro":
            # ACCRO: « payer un cout « Accro » en défaussant une carte ou en payant en Point d'Action ».
            choice = action.get("discard")
            if choice is not None:
                self.move(choice, "discard")
                self.emit("accro_paid", player=player, name=entry["name"], discarded=self.cards[choice].cid)
                self.cost_paid(player)
            elif action.get("pay"):
                self.emit("accro_paid", player=player, name=entry["name"])
                self.pay(player, action["pay"])
            else:
                self.emit("accro_withdrawal", player=player, name=entry["name"], amount=2 * entry["n"])
                self.lose_life(player, 2 * entry["n"])
        elif entry["kind"] == "shelter_exit":
            self.pay(player, action.get("pay", {}))
            self.players[player].sheltered = None
            self.emit("shelter_left", player=player)
        elif entry["kind"] == "engage_cost":
            uid = entry["card"]
            if "pay" in action:
                self.pay(player, action["pay"])
                self.cards[uid].engaged = True
                self.emit("upkeep_paid", player=player, card=self.cards[uid].cid)
            else:
                self.move(uid, "discard")
                self.emit("discarded", player=player, card=self.cards[uid].cid)

    def end_turn(self) -> None:
        """Phase 7: « FIN DE TOUR » effects, then « les deux joueurs soignent leurs Alliés »."""
        player = self.active
        p = self.players[player]
        cards, table = self.cards, self._card_table
        with_effect = self.cids_with("end_of_turn")
        for zone in self.effect_zones("end_of_turn") if with_effect else ():
            uids = p.zones[zone]
            if not uids:
                continue
            # The zone's cards with such an effect, as the zone was: an effect may move cards.
            for uid in [u for u in uids if cards[u].cid in with_effect]:
                inst = cards[uid]
                if inst.zone != zone or (zone == "equipment" and inst.engaged):
                    continue
                card = table[inst.cid]
                self.emit("end_of_turn_effect", player=player, card=card.id)
                self.run_effects(card.effects_at("end_of_turn"), player, uid)
                if self.over:
                    return
        # Every ally on the battlefield (``allies``, read in place) is healed and loses its turn's buffs.
        for other in self.players:
            zones = other.zones
            for uid in (*zones["play"], *zones["combat"]):
                inst = cards[uid]
                if table[inst.cid].is_ally:
                    inst.damage = 0
                    inst.power_buff = inst.life_buff = 0
        self.events.append({"t": "end_turn", "player": player})
        self.window = ""
        self.ending = False
        self.check_end()
        if self.over:
            return
        if self.timer_due():
            self.finish_on_timer()
            return
        self.next_turn()

    def next_turn(self) -> None:
        players, active = self.players, self.active
        if len(players) == 2 and not players[1 - active].eliminated:
            following = 1 - active  # the usual table: the other player, without clockwise_from's lists
        else:
            order = self.clockwise_from(active)
            following = ([i for i in order if i != active] or order)[0]
        self.stack = []
        self.priority = []
        self.pending = None
        self.start_turn(following)

    # -- with three or four players, the fallen leave the table ---------------------------------------

    def settle_eliminations(self) -> None:
        """« Ces derniers peuvent continuer à jouer sans lui » (000, V.10.a): an eliminated player's cards
        leave play, they are asked nothing more, and if it was their turn the next player begins."""
        for _ in range(len(self.players)):
            gone = {p.index for p in self.players if p.eliminated}
            if self.over or not self.needs_settling(gone):
                return
            for index in gone:
                for zone in ("play", "combat", "equipment"):
                    for uid in list(self.zone(index, zone)):
                        self.move(uid, "discard")
                self.players[index].sheltered = None
            for item in [i for i in self.stack if i["player"] in gone]:
                self.stack.remove(item)
                self.drop_item(item)
            self.priority = [i for i in self.priority if i not in gone]
            pending = self.pending
            if pending is not None and (pending["player"] in gone or pending.get("item", {}).get("player") in gone):
                self.pending = None
                if "item" in pending:
                    self.drop_item(pending["item"])
            if self.active in gone:
                self.clear_stack()
                self.next_turn()
            elif self.stack and not self.priority and self.pending is None:
                self.resolve_top()
            else:
                self.resume()

    def needs_settling(self, gone: set[int]) -> bool:
        if not gone:
            return False
        if self.active in gone or any(i in gone for i in self.priority):
            return True
        if self.pending is not None and (
            self.pending["player"] in gone or self.pending.get("item", {}).get("player") in gone
        ):
            return True
        if any(item["player"] in gone for item in self.stack):
            return True
        return any(self.zone(i, z) for i in gone for z in ("play", "combat", "equipment"))

    def drop_item(self, item: dict[str, Any]) -> None:
        """A stack item that will never resolve: its card goes to the discard, attacking allies go home."""
        if item["kind"] == "ally_attack":
            self.return_attackers(item["allies"])
        elif item["kind"] != "ability":
            self.to_discard(item["card"])

    def clear_stack(self) -> None:
        for item in list(self.stack):
            self.drop_item(item)
        if self.pending is not None and "item" in self.pending:
            self.drop_item(self.pending["item"])
        self.stack, self.priority, self.pending = [], [], None

    # -- Chronomètre --------------------------------------------------------------------------------------

    def timer_due(self) -> bool:
        """« le jeu s'arrête lorsque les 2 joueurs ont joué très exactement le même nombre de tour »."""
        # (asked at every end of turn: one pass, no set) the players still in the game, all with as many turns
        played = -1
        for p in self.players:
            if not p.eliminated:
                if played < 0:
                    played = p.turns_played
                elif p.turns_played != played:
                    return False
        if played < 0:
            return False
        if self.timer:
            return True
        limit = self.config.get("max_turns")
        return limit is not None and played >= limit

    def finish_on_timer(self) -> None:
        """« Le vainqueur est celui ayant le moins de blessure » — damage taken, not life left."""
        alive = [self.players[i] for i in self.alive()]
        least = min(p.damage_taken for p in alive)
        best = [p.index for p in alive if p.damage_taken == least]
        self.emit("timer", damage={p.index: p.damage_taken for p in alive})
        self.finish(best[0] if len(best) == 1 else None)

    # -- helpers used by legal moves ------------------------------------------------------------------

    def ability_usable(self, player: int, uid: int, phase: str) -> bool:
        inst = self.cards[uid]
        ability = self._card_table[inst.cid].ability
        if ability is None:
            return False
        if ability.engage and inst.engaged:
            return False
        if inst.zone == "equipment" and inst.engaged:
            return False
        if ability.attack and inst.used_turn == self.turn:
            return False
        if phase == "upkeep" and ability.timing != "upkeep":
            return False
        if phase == "main" and ability.timing == "upkeep":
            return False
        if phase == "interrupt" and ability.timing != "any":
            return False
        if ability.life_for_missing:
            return self.can_pay(player, {"any": ability.cost.get("any", 0)})
        return self.can_pay(player, ability.cost)

    def special_placeable(self, player: int) -> bool:
        if self.window != "open" or player != self.active:
            return False
        cards, table = self.cards, self._card_table
        for u in self.players[player].zones["hand"]:
            card = table[cards[u].cid]
            if card.type == "special" and self.points(player, card.attribute or "S") < 10:
                return True
        return False

    def cost_of(self, card_cost: dict[str, int]) -> dict[str, int]:
        return {k: v for k, v in card_cost.items() if k != ANY or v}
