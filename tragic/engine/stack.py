"""The stack and priority: acts put on the stack, each other player in turn order may answer (or is
passed for, when they cannot), the top resolves last in first out, and attacks leave the stack into
blocks and damage. Phase 5 (« Interrompre et se faire Interrompre ») and Phase 6 (« Réagir, et Réagir à
une Réaction »).
"""

from __future__ import annotations

from abc import abstractmethod
from typing import Any

from .combat import Combat


class Stack(Combat):
    # The turn's rules (turns.Turns, built on this class) decide these; every State has them. Declared here as
    # abstract methods, not in a TYPE_CHECKING block: the compiled engine (native.py) binds calls to them here.
    @abstractmethod
    def special_placeable(self, player: int) -> bool:
        """Whether ``player`` may place a SPECIAL card now (``turns.Turns``)."""

    @abstractmethod
    def end_turn(self) -> None:
        """The end of the active player's turn (``turns.Turns``)."""

    # -- the stack ----------------------------------------------------------------------------------------

    def push(self, item: dict[str, Any], *, unanswerable: bool = False) -> None:
        """« la résolution de la « Pile » … se fait du dernier effet lancé au plus ancien »."""
        item["id"] = self.next_stack_id
        self.next_stack_id += 1
        self.stack.append(item)
        if unanswerable:
            # « Les Attaques lancées sous cet effet … ne sont pas évitables par l'adversaire, même par les
            # cartes Réactions » (Discrétion).
            self.priority = []
            self.resolve_top()
            return
        self.give_priority(item["player"])
        if not self.priority:
            self.resolve_top()

    # -- priority: who may respond, and automatic passing ----------------------------------------------

    def give_priority(self, actor: int) -> None:
        """After ``actor``'s act, « l'adversaire peut alors consommer des ressources et utiliser des
        Capacités » (Phase 5): each other player in turn order may respond, except those who would only be
        asked to pass (:meth:`stops_for`)."""
        players = self.players
        if len(players) == 2:  # clockwise_from without the actor, at the usual table, and skip_idle inlined
            other = 1 - actor
            if players[other].eliminated:
                self.priority = []
            else:
                self.priority = [other]
                if not self.stops_for(other):
                    self.priority = []
            return
        self.priority = [i for i in self.clockwise_from(actor) if i != actor]
        self.skip_idle()

    def skip_idle(self) -> None:
        while self.priority and not self.stops_for(self.priority[0]):
            self.priority.pop(0)

    def stops_for(self, player: int) -> bool:
        """Whether ``player`` is asked now; ``legal.Choices`` answers from their legal responses."""
        return True

    def open_interrupts(self, actor: int) -> None:
        """FAQ 16: a card that does not say « pendant votre tour » may be used « pendant le tour adverse après
        l'avoir interrompu, et ce, à n'importe quel moment de sa phase de jeu »: after an act that puts
        nothing on the stack (an ally or object called, equipment changed, a SPECIAL card placed), the
        other players get the same chance to interrupt as after an act on the stack."""
        if self.over or self.stack or self.pending is not None or actor != self.active:
            return
        self.give_priority(actor)

    def pass_priority(self, player: int) -> None:
        self.priority.pop(0)
        self.events.append({"t": "passed", "player": player})
        self.skip_idle()
        if not self.priority:
            self.resolve_top()

    def stopped(self) -> bool:
        """Whether a choice is pending. A method, not ``self.pending is not None`` inline in ``resolve_top``:
        there mypy keeps the loop condition's narrowing (``pending is None``) across ``resolve_item``, which may
        set it, and the compiled engine would check the value against that narrowed type."""
        return self.pending is not None

    def resolve_top(self) -> None:
        while self.stack and not self.priority and self.pending is None and not self.over:
            item = self.stack.pop()
            self.resolve_item(item)
            self.check_end()
            if self.over or self.stopped():
                return
            if self.stack:
                top = self.stack[-1]
                self.give_priority(top["player"])
        self.after_stack()

    def after_stack(self) -> None:
        if self.stack or self.pending is not None or self.over:
            return
        if self.window == "pending":
            self.window = "open"
        if self.ending and not self.special_placeable(self.active):
            self.end_turn()

    def resolve_item(self, item: dict[str, Any]) -> None:
        kind = item["kind"]
        if kind == "ally_attack":
            self.begin_ally_attack(item)
            return
        uid = item["card"]
        card = self._card_table[self.cards[uid].cid]
        if kind == "ability":
            ability = card.ability
            assert ability is not None
            self.events.append({"t": "ability", "player": item["player"], "card": card.id})
            if ability.attack:
                self.begin_attack(item)
            else:
                self.run_effects(ability.effects, item["player"], uid, item)
            return
        if self.cards[uid].zone not in ("stack", "combat"):
            return
        if card.type == "attack" or (card.type == "reaction" and card.attack is not None):
            if card.type == "reaction":
                self.resolve_reaction(item)
            self.begin_attack(item)
            return
        if card.type == "reaction":
            self.resolve_reaction(item)
            self.to_discard(uid)
            return
        self.events.append({"t": "resolved", "player": item["player"], "card": card.id})
        self.run_effects(card.effects_at("play"), item["player"], uid, item)
        keywords = card.keywords
        if keywords.get("DECOUVERTE"):
            self.start_discover(
                item["player"], keywords["DECOUVERTE"] + (1 if "bon_vivant" in self.mods(item["player"]).flags else 0)
            )
        if keywords.get("ACCRO"):
            p = self.players[item["player"]]
            p.addictions[card.name] = p.addictions.get(card.name, 0) + keywords["ACCRO"]
            self.emit("addicted", player=item["player"], name=card.name, n=p.addictions[card.name])
        self.to_discard(uid)

    def to_discard(self, uid: int) -> None:
        if self.cards[uid].zone in ("stack", "combat"):
            self.move(uid, "discard")

    def find_item(self, stack_id: int) -> dict[str, Any] | None:
        return next((i for i in self.stack if i["id"] == stack_id), None)

    def resolve_reaction(self, item: dict[str, Any]) -> None:
        """« Réaction : Carte qui interrompt le tour adverse en répondant à un acte opposé »."""
        card = self.card(item["card"])
        target = self.find_item(item["responds_to"])
        self.emit("reaction", player=item["player"], card=card.id)
        for effect in card.effects_at("play"):
            if target is None:
                break
            if effect.op == "counter" or (effect.op == "dodge" and self.aimed_at(target, item["player"])):
                self.cancel_item(target)
                target = None
            elif effect.op == "reduce_damage":
                target["reduce"] = target.get("reduce", 0) + effect.get("n", 0)
            elif effect.op not in ("dodge",):
                self.run_effect(effect, item["player"], item["card"], item)
        if card.attack is not None:
            # A reaction that strikes back answers the one it interrupts, or the attacking allies.
            original = target or {}
            if card.kw("EXPLOSION_DE_ZONE") and original.get("kind") == "ally_attack":
                item["target"] = {"player": original["player"]}
            else:
                item["target"] = {"player": item.get("reacted_player", original.get("player"))}

    def aimed_at(self, item: dict[str, Any], player: int) -> bool:
        target = item.get("target") or {}
        if target.get("player") == player:
            return True
        return "card" in target and self.cards[target["card"]].owner == player

    def cancel_item(self, item: dict[str, Any]) -> None:
        self.stack.remove(item)
        self.emit("cancelled", player=item["player"], card=self.cards[item["card"]].cid if "card" in item else None)
        if item["kind"] == "ally_attack":
            self.return_attackers(item["allies"])
        elif item["kind"] != "ability":
            self.to_discard(item["card"])

    # -- attacks leave the stack ------------------------------------------------------------------------

    def begin_attack(self, item: dict[str, Any]) -> None:
        target = item.get("target") or {}
        card = self._card_table[self.cards[item["card"]].cid]
        victim = target.get("player")
        options: list[int] = []
        if "card" in target and self.cards[target["card"]].zone in ("play", "combat"):
            if self.card(target["card"]).is_ally:
                options = self.chargers(self.cards[target["card"]].owner, exclude=target["card"])
        elif victim is not None and not card.kw("EXPLOSION_DE_ZONE") and not self.players[victim].stealth:
            options = self.chargers(victim)
        if options and not self.players[item["player"]].stealth:
            defender = victim if victim is not None else self.cards[target["card"]].owner
            self.pending = {"kind": "protect", "player": defender, "item": item, "options": options}
            return
        self.finish_attack(item, None)

    def finish_attack(self, item: dict[str, Any], redirect: int | None) -> None:
        if not self.attack_still_valid(item):
            self.emit("fizzled", player=item["player"], card=self.cards[item["card"]].cid)
        else:
            self.resolve_attack(item, redirect)
        if item["kind"] != "ability":
            self.to_discard(item["card"])
        else:
            self.cards[item["card"]].used_turn = self.turn

    def attack_still_valid(self, item: dict[str, Any]) -> bool:
        """« si l'action du Joueur 1 est toujours valide (il se peut que ça ne soit plus le cas) »."""
        target = item.get("target") or {}
        if "card" in target:
            return self.cards[target["card"]].zone in ("play", "combat", "equipment")
        if "player" in target:
            p = self.players[target["player"]]
            return not p.eliminated and p.sheltered is None
        return False

    def begin_ally_attack(self, item: dict[str, Any]) -> None:
        target = item["target"]
        attackers = [u for u in item["allies"] if self.cards[u].zone == "combat"]
        if not attackers:
            return
        if "player" in target:
            defender = target["player"]
            if self.players[defender].eliminated:
                self.return_attackers(attackers)
                return
            options = self.blockers(defender)
            if options:
                self.pending = {"kind": "block", "player": defender, "item": item, "options": options}
                return
        elif self.cards[target["card"]].zone not in ("play", "combat"):
            self.return_attackers(attackers)
            return
        else:
            options = self.chargers(self.cards[target["card"]].owner, exclude=target["card"])
            if options:
                defender = self.cards[target["card"]].owner
                self.pending = {"kind": "protect", "player": defender, "item": item, "options": options}
                return
        self.resolve_ally_attack(item, [], [])

    def defend(self, player: int, blockers: list[int], split: list[int]) -> None:
        pending = self.pending
        assert pending is not None
        self.pending = None
        item = pending["item"]
        if blockers:
            self.emit("defended", player=player, blockers=[self.cards[u].cid for u in blockers])
        if item["kind"] == "ally_attack":
            if pending["kind"] == "protect" and blockers:
                item = {**item, "target": {"card": blockers[0]}}
                self.resolve_ally_attack(item, [], [])
            else:
                self.resolve_ally_attack(item, blockers, split)
        else:
            self.finish_attack(item, blockers[0] if blockers else None)
        self.check_end()
        if not self.over:
            self.resume()

    def resume(self) -> None:
        if self.pending is not None or self.over:
            return
        if self.stack and not self.priority:
            top = self.stack[-1]
            self.give_priority(top["player"])
            if not self.priority:
                self.resolve_top()
                return
        if not self.stack:
            self.after_stack()
