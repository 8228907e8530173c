"""The actions that use a card: play it from the hand, react with it, activate its capacity, equip or
unequip it, and answer its search or discovery (each a ``_check_`` / ``_run_`` pair, see setup_actions).
"""

from __future__ import annotations

from typing import Any

from .cards import AIM_PARTS, ALLY_TYPES, PERMANENT_TYPES, Card
from .errors import refuse
from .legal import Action
from .turn_actions import TurnActions


class CardActions(TurnActions):
    def _check_play(self, action: Action) -> tuple[Card, dict[str, Any] | None]:
        player = action["player"]
        uid = action.get("card")
        if self.stack or self.pending or self.phase != "main" or self.ending:
            raise refuse("wrong_phase", "cards are played in your main phase, with nothing on the stack")
        if self.players[player].sheltered is not None:
            raise refuse("sheltered", "you are inside the shelter")
        if not isinstance(uid, int) or not 0 <= uid < len(self.cards):
            raise refuse("unknown_card", "no such card")
        card = self.card(uid)
        problem = self.play_problem(player, uid)
        if problem:
            raise refuse("unpaid_cost" if "cost" in problem else "not_allowed", problem)
        problem = self.payment_problem(player, card.cost, action.get("pay", {}))
        if problem:
            raise refuse("unpaid_cost", problem)
        target = action.get("target")
        if target not in self.play_targets(player, card):
            raise refuse("bad_target", "that is not a legal target")
        aim = action.get("aim")
        if aim is not None and (not card.kw("CIBLAGE") or aim not in AIM_PARTS or not target or "player" not in target):
            raise refuse("bad_target", "only CIBLAGE aims at a body part of a player")
        return card, target

    def _run_play(self, action: Action, plan: tuple[Card, dict[str, Any] | None]) -> None:
        card, target = plan
        player = action["player"]
        uid = action["card"]
        self.window = ""  # close_window(): the active player's act
        self.pay(player, action.get("pay", {}))
        described = self.describe_target(target) if target else None
        self.events.append({"t": "played", "player": player, "card": card.id, "target": described})
        self.cast_triggers(player)
        kind = card.type
        if kind in ALLY_TYPES:
            self.summon(player, uid)
        elif kind == "item" or kind == "building":
            self.move(uid, "equipment" if card.slot else "play")
            if card.slot or card.effects_at("disengage"):
                # « en général, ils y arrivent engagés (déséquipés) »; a RadAway waits to be disengaged.
                self.cards[uid].engaged = True
            self.unique_check(uid)
            self.run_effects(card.effects_at("play"), player, uid, {"target": target})
        else:
            zone = "combat" if card.type == "attack" else "stack"
            self.move(uid, zone)
            item = {"kind": "card", "player": player, "card": uid, "target": target, "aim": action.get("aim")}
            self.push(item, unanswerable=card.type == "attack" and self.players[player].stealth)
        self.check_end()
        self.after_stack()
        if kind in PERMANENT_TYPES:
            self.open_interrupts(player)

    def describe_target(self, target: dict[str, Any] | None) -> Any:
        if not target:
            return None
        if "card" in target:
            return {"card": self.cards[target["card"]].cid, "owner": self.cards[target["card"]].owner}
        return target

    def summon(self, player: int, uid: int) -> None:
        """« ils se rendent directement dans la ZONE DE JEU, et peuvent attaquer dès leurs arrivés »."""
        card = self._card_table[self.cards[uid].cid]
        self.move(uid, "play")
        self.unique_check(uid)
        if card.faction == "confrerie" or card.is_brotherhood_enemy:
            # « Appeler un Allié ou ennemi de la Confrérie de l'Acier défausse immédiatement toutes les cartes
            # Confrérie de l'Acier » — read as: the two never serve the same player.
            for other in list(self.allies(player)):
                other_card = self.card(other)
                clash = (card.faction == "confrerie" and other_card.is_brotherhood_enemy) or (
                    card.is_brotherhood_enemy and other_card.faction == "confrerie"
                )
                if other != uid and clash:
                    self.remove_ally(other, defeated_by=player)
        self.run_effects(card.effects_at("play"), player, uid)

    def unique_check(self, uid: int) -> None:
        """UNIQUE: « Une nouvelle carte identique en nom et en niveau défausserait immédiatement son homonyme »."""
        card = self._card_table[self.cards[uid].cid]
        if not card.kw("UNIQUE"):
            return
        owner = self.cards[uid].owner
        for zone in ("play", "equipment", "combat"):
            for other in list(self.zone(owner, zone)):
                if other != uid and self.card(other).copy_key == card.copy_key:
                    if self.card(other).is_ally:
                        self.remove_ally(other, defeated_by=owner)
                    else:
                        self.move(other, "discard")

    def cast_triggers(self, player: int) -> None:
        """« Lorsque vous lancez une carte depuis votre main » skills (FAQ 17), SPECIAL placement included."""
        with_effect = self.cids_with("cast")
        if not with_effect:
            return
        cards = self.cards
        for uid in self.players[player].zones["skill"]:
            if cards[uid].cid not in with_effect:
                continue
            for effect in self.card(uid).effects_at("cast"):
                if effect.op == "gain_life_on_cast":
                    healed = self.heal_player(player, int(effect.get("n", 1)))
                    if healed:
                        self.emit("healed", player=player, amount=healed, card=self.cards[uid].cid)

    def _check_react(self, action: Action) -> Card:
        player = action["player"]
        uid = action.get("card")
        if not self.stack or self.pending:
            raise refuse("wrong_phase", "there is nothing to react to")
        if not isinstance(uid, int) or not 0 <= uid < len(self.cards):
            raise refuse("unknown_card", "no such card")
        problem = self.reaction_problem(player, uid, self.stack[-1])
        if problem:
            raise refuse("unpaid_cost" if "cost" in problem else "not_allowed", problem)
        card = self.card(uid)
        problem = self.payment_problem(player, card.cost, action.get("pay", {}))
        if problem:
            raise refuse("unpaid_cost", problem)
        return card

    def _run_react(self, action: Action, card: Card) -> None:
        player = action["player"]
        uid = action["card"]
        top = self.stack[-1]
        self.pay(player, action.get("pay", {}))
        self.emit(
            "reacted", player=player, card=card.id, to=self.cards[top["card"]].cid if "card" in top else "ally_attack"
        )
        self.move(uid, "stack")
        self.push(
            {"kind": "card", "player": player, "card": uid, "responds_to": top["id"], "reacted_player": top["player"]}
        )
        self.check_end()
        self.resume()

    def _check_activate(self, action: Action) -> Card:
        player = action["player"]
        uid = action.get("card")
        if not isinstance(uid, int) or uid not in self.ability_sources(player):
            raise refuse("not_allowed", "that card has no ability you can use")
        if self.pending or self.ending:
            raise refuse("wrong_phase", "not now")
        if self.stack or self.priority:
            moment = "interrupt"
        elif self.phase == "upkeep":
            moment = "upkeep"
        else:
            moment = "main"
        if moment == "main" and self.players[player].sheltered is not None:
            raise refuse("sheltered", "you are inside the shelter")
        if not self.ability_usable(player, uid, moment):
            raise refuse("not_allowed", "that ability cannot be used now")
        card = self.card(uid)
        ability = card.ability
        assert ability is not None
        if ability.life_for_missing:
            problem = self.life_payment_problem(player, ability.cost, action.get("pay", {}))
        else:
            problem = self.payment_problem(player, ability.cost, action.get("pay", {}))
        if problem:
            raise refuse("unpaid_cost", problem)
        legal = self.activation_actions(player, uid)
        wanted = {k: action.get(k) for k in ("target", "aim", "choice")}
        if not any({k: a.get(k) for k in ("target", "aim", "choice")} == wanted for a in legal):
            raise refuse("bad_target", "that is not a legal target")
        return card

    def _run_activate(self, action: Action, card: Card) -> None:
        player = action["player"]
        uid = action["card"]
        ability = card.ability
        assert ability is not None
        if player == self.active:  # close_window(player)
            self.window = ""
        if ability.engage:
            inst = self.cards[uid]
            inst.engaged = True
            if inst.zone == "equipment":
                # An engaged piece is no longer equipped: its owner's Mods change. Elsewhere engaging a card
                # changes no derived value (Mods read equipment only, points the engaged points).
                self.mods_changed(inst.owner, inst.cid, equipment=True)
        if ability.attack:
            self.cards[uid].used_turn = self.turn
        self.pay(player, action.get("pay", {}))
        self.events.append({"t": "activated", "player": player, "card": card.id})
        if ability.life_for_missing:
            missing = self.missing_points(ability.cost, action.get("pay", {}))
            if missing:
                self.emit("affliction", player=player, card=card.id, amount=missing)
                self.lose_life(player, missing)
        item = {
            "kind": "ability",
            "player": player,
            "card": uid,
            "target": action.get("target"),
            "aim": action.get("aim"),
            "choice": action.get("choice"),
        }
        self.push(item, unanswerable=ability.attack and self.players[player].stealth)
        self.check_end()
        self.resume()

    def _check_equip(self, action: Action) -> Card:
        return self._check_equipment(action, equip=True)

    def _check_unequip(self, action: Action) -> Card:
        return self._check_equipment(action, equip=False)

    def _check_equipment(self, action: Action, *, equip: bool) -> Card:
        player = action["player"]
        uid = action.get("card")
        if self.stack or self.pending or self.ending:
            raise refuse("wrong_phase", "not with something on the stack")
        if not isinstance(uid, int) or not 0 <= uid < len(self.cards):
            raise refuse("unknown_card", "no such card")
        problem = self.equip_problem(player, uid, equip=equip)
        if problem:
            raise refuse("unpaid_cost" if "cost" in problem else "not_allowed", problem)
        card = self.card(uid)
        problem = self.payment_problem(player, card.cost, action.get("pay", {}))
        if problem:
            raise refuse("unpaid_cost", problem)
        return card

    def _run_equip(self, action: Action, card: Card) -> None:
        self.close_window()
        self.pay(action["player"], action.get("pay", {}))
        inst = self.cards[action["card"]]
        inst.engaged = False
        # Only the owner's Mods read the piece (and a piece stays in its zone: its capacity sources stay).
        self.mods_changed(inst.owner, inst.cid, equipment=True)
        self.emit("equipped", player=action["player"], card=card.id)
        self.after_stack()
        self.open_interrupts(action["player"])

    def _run_unequip(self, action: Action, card: Card) -> None:
        self.close_window()
        self.pay(action["player"], action.get("pay", {}))
        inst = self.cards[action["card"]]
        inst.engaged = True
        # Only the owner's Mods read the piece (and a piece stays in its zone: its capacity sources stay).
        self.mods_changed(inst.owner, inst.cid, equipment=True)
        self.emit("unequipped", player=action["player"], card=card.id)
        self.after_stack()
        self.open_interrupts(action["player"])

    def _check_search(self, action: Action) -> str | None:
        pending = self.pending
        if pending is None or pending["kind"] != "search":
            raise refuse("wrong_phase", "you are not searching")
        cid = action.get("card")
        if cid is not None and cid not in self.search_matches(
            action["player"], pending["card_type"], pending["attribute"]
        ):
            raise refuse("bad_choice", "no such card can be found")
        return cid

    def _run_search(self, action: Action, cid: str | None) -> None:
        self.finish_search(action["player"], cid)
        self.resume()

    def _check_discover(self, action: Action) -> list[list[Any]]:
        pending = self.pending
        if pending is None or pending["kind"] != "discover":
            raise refuse("wrong_phase", "you are not discovering")
        placements = action.get("placements")
        if not isinstance(placements, list) or sorted(p[0] for p in placements if isinstance(p, list) and p) != sorted(
            pending["cards"]
        ):
            raise refuse("bad_choice", "place every discovered card once")
        if any(len(p) != 2 or p[1] not in ("top", "bottom", "discard") for p in placements):
            raise refuse("bad_choice", "each card goes on top, under the library or to the discard")
        return [list(p) for p in placements]

    def _run_discover(self, action: Action, placements: list[list[Any]]) -> None:
        self.finish_discover(action["player"], placements)
        self.resume()
