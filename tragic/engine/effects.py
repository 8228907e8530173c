"""The effect vocabulary cards are written in (docs/tragic.md, « Effects »)."""

from __future__ import annotations

from typing import Any

from .base import Base
from .cards import BENEFICIAL_OPS, Effect
from .damage import armour_against
from .dice import shuffle

# Targets an effect asks for when it is played: (kind of target, whose).
TARGETED_OPS: dict[str, str] = {
    "destroy": "opponent_card",
    "grant_keyword": "own_ally",
    "steal": "opponent_hand",
}


class Effects(Base):
    def amount(self, player: int, effect: Effect) -> int:
        """Bon Vivant / Bon Fond: « à chaque fois qu'un effet qui vous est bénéfique s'applique … ajoutez 1 »
        (000, V.5) — never to aggressions, never to the draw phase (FAQ 13)."""
        n = int(effect.params.get("n", 1))
        if effect.op in BENEFICIAL_OPS and "bon_vivant" in (self._mods.get(player) or self.mods(player)).flags:
            n += 1
        return n

    def harmful_immune(self, player: int) -> bool:
        """In the Abri Vault-Tec Inachevé « c'est le joueur qui est immunisé aux effets néfastes » (FAQ 10)."""
        return self.players[player].sheltered is not None

    def draw(self, player: int, n: int, *, phase: bool = False) -> list[int]:
        zones = self.players[player].zones
        library, hand = zones["library"], zones["hand"]
        cards = self.cards
        drawn: list[int] = []
        cids: list[str] = []
        for _ in range(n):
            if not library:
                break
            # move(uid, "hand") inlined: the top of the library (whose cards are all the player's own) goes to
            # the hand, neither zone counting in the Mods or points, and the card is reset as any move out of play.
            uid = library.pop()
            inst = cards[uid]
            inst.zone = "hand"
            hand.append(uid)
            inst.engaged = False
            inst.damage = 0
            inst.power_buff = inst.life_buff = inst.perm_power = inst.perm_life = 0
            if inst.granted:
                inst.granted = {}
            drawn.append(uid)
            cids.append(inst.cid)
        if drawn:
            self.events.append({"t": "drew", "player": player, "count": len(drawn), "cards": cids, "private": player})
        return drawn

    def shuffle_library(self, player: int) -> None:
        shuffle(self.rng, self.players[player].zones["library"])

    def run_effects(
        self, effects: tuple[Effect, ...], controller: int, source: int, params: dict[str, Any] | None = None
    ) -> None:
        for effect in effects:
            if self.over:
                return
            self.run_effect(effect, controller, source, params or {})

    def run_effect(self, effect: Effect, controller: int, source: int, params: dict[str, Any]) -> None:
        op = effect.op
        n = self.amount(controller, effect)
        target = params.get("target")
        if op == "draw":
            self.draw(controller, n)
        elif op == "heal":
            healed = self.heal_player(controller, n)
            self.events.append({"t": "healed", "player": controller, "amount": healed, "card": self.cards[source].cid})
        elif op in ("damage", "radiation"):
            for victim in self.effect_victims(controller, effect, target):
                self.effect_damage(
                    victim, n, "radiation" if op == "radiation" else effect.get("damage_type", "generic")
                )
        elif op == "cure_radiation":
            p = self.players[controller]
            cured = min(p.radiation, n)
            p.radiation -= cured
            p.max_life += cured
            self.emit("radiation_cured", player=controller, levels=cured)
        elif op == "search":
            self.start_search(controller, effect, n)
        elif op == "discover":
            self.start_discover(controller, n)
        elif op == "opponent_discards":
            for victim in self.opponents(controller):
                if self.harmful_immune(victim):
                    continue
                hand = self.zone(victim, "hand")
                for _ in range(min(n, len(hand))):
                    uid = hand[self.rng.randrange(len(hand))]
                    self.move(uid, "discard")
                    self.emit("discarded", player=victim, card=self.cards[uid].cid)
        elif op == "stealth":
            p = self.players[controller]
            p.stealth = True
            if self.cards[source].zone in ("play", "equipment"):
                p.stealth_sources.append(source)
            self.emit("stealth", player=controller)
        elif op == "shelter":
            self.players[controller].sheltered = source
            self.emit("sheltered", player=controller, card=self.cards[source].cid)
        elif op == "buff_allies":
            permanent = effect.get("until", "turn") == "permanent"
            for uid in self.allies(controller):
                inst = self.cards[uid]
                if permanent:
                    inst.perm_power += effect.get("power", 0)
                    inst.perm_life += effect.get("life", 0)
                else:
                    inst.power_buff += effect.get("power", 0)
                    inst.life_buff += effect.get("life", 0)
            self.emit("allies_buffed", player=controller, power=effect.get("power", 0), life=effect.get("life", 0))
        elif op == "grant_keyword":
            if target and "card" in target and self.cards[target["card"]].zone in ("play", "combat"):
                inst = self.cards[target["card"]]
                inst.granted[effect.get("keyword")] = inst.granted.get(effect.get("keyword"), 0) + n
                self.emit("keyword_granted", card=inst.cid, keyword=effect.get("keyword"), n=n)
        elif op == "destroy":
            if target and "card" in target:
                # « ZONE DE DESTRUCTION … ces cartes ne pourront plus jamais revenir en jeu »
                to = "destroyed" if effect.get("irrevocably") else "discard"
                self.destroy_card(target["card"], by=controller, to=to)
        elif op == "end_turn":
            # « Terminez immédiatement votre tour » (000, V.7): only the SPECIAL placement is still allowed.
            if controller == self.active:
                self.ending = True
                self.emit("turn_cut_short", player=controller)
        elif op == "recycle":
            choice = params.get("choice")
            if choice is not None and self.cards[choice].zone == "hand":
                self.move(choice, "discard")
                self.emit("discarded", player=controller, card=self.cards[choice].cid)
                self.draw(controller, n)
        elif op == "return_from_discard":
            wanted = effect.get("card_type")
            for uid in reversed(self.zone(controller, "discard")):
                if wanted is None or self.card(uid).type == wanted:
                    self.move(uid, "hand")
                    self.emit("returned", player=controller, card=self.cards[uid].cid)
                    break
        elif op == "steal":
            # FAQ 13: « dans un premier temps, elle permet de voler une seule et unique carte, et ne profite
            # donc pas du bonus » — an aggression: never raised by Bon Vivant (not in BENEFICIAL_OPS).
            victims = self.effect_victims(controller, effect, target)
            if victims:
                self.steal_from(controller, victims[0], n)
        elif op == "reveal_reaction":
            # FAQ 14: « je lui ai dit avoir au moins une carte Réaction, dois-je le lui prouver ? Oui »
            for victim in self.opponents(controller):
                reactions = [u for u in self.zone(victim, "hand") if self.card(u).type == "reaction"]
                shown = self.cards[reactions[self.rng.randrange(len(reactions))]].cid if reactions else None
                self.emit("reaction_revealed", player=victim, card=shown)
        elif op == "guard_allies":
            # « de sorte que les Alliés conservent « En Défense » pendant le tour adverse » (erratum 1)
            p = self.players[controller]
            for uid in self.allies(controller):
                inst = self.cards[uid]
                inst.granted["EN_DEFENSE"] = inst.granted.get("EN_DEFENSE", 0) + 1
                p.guarded.append(uid)
            self.emit("allies_guarded", player=controller)
        # counter, dodge and reduce_damage act on the stack (Stack.resolve_reaction); gain_life_on_cast is a trigger.

    def effect_victims(self, controller: int, effect: Effect, target: dict[str, Any] | None) -> list[int]:
        who = effect.get("target", "opponent")
        if who == "self":
            return [controller]
        if who == "each_opponent":
            victims = self.opponents(controller)
        elif target and "player" in target:
            victims = [target["player"]]
        else:
            victims = self.opponents(controller)[:1]
        if effect.op in ("damage", "radiation") and who != "self":
            # DISCRÉTION: the player « n'est pas attaquable directement (et donc immunisé aux Réactions qui
            # lui ferait subir des dégats) » — nor to any other card that deals them damage.
            victims = [v for v in victims if not self.players[v].stealth]
        return [v for v in victims if not self.harmful_immune(v) and not self.players[v].eliminated]

    def steal_from(self, thief: int, victim: int, n: int) -> None:
        """Take n cards at random from the victim's hand into the thief's; both see which, the others how many."""
        hand = self.zone(victim, "hand")
        taken = []
        for _ in range(min(n, len(hand))):
            uid = hand[self.rng.randrange(len(hand))]
            self.steal(uid, thief)
            taken.append(self.cards[uid].cid)
        self.emit("stole", player=thief, victim=victim, count=len(taken), cards=taken, private=[thief, victim])

    def effect_damage(self, victim: int, n: int, damage_type: str) -> None:
        dealt = max(0, n - armour_against(self.armour(victim), damage_type))
        self.lose_life(victim, dealt, radiation=damage_type == "radiation")

    # -- searches and discoveries ----------------------------------------------------------------

    def search_matches(self, player: int, card_type: str | None, attribute: str | None) -> list[str]:
        """« Quête : … ne peut pas être cherché dans la Bibliothèque comme tel » (an action search skips quests)."""
        found: set[str] = set()
        cards, table = self.cards, self._card_table
        for uid in self.players[player].zones["library"]:
            card = table[cards[uid].cid]
            if card_type is not None and card.type != card_type:
                continue
            if attribute is not None and card.attribute != attribute:
                continue
            found.add(card.id)
        return sorted(found)

    def start_search(self, player: int, effect: Effect, n: int) -> None:
        """« Cherchez » : take the card, put it in hand, reveal it, then shuffle the library (000, VII)."""
        options = self.search_matches(player, effect.get("card_type"), effect.get("attribute"))
        if not options:
            self.shuffle_library(player)
            self.emit("searched", player=player, card=None)
            return
        self.pending = {
            "kind": "search",
            "player": player,
            "left": n,
            "card_type": effect.get("card_type"),
            "attribute": effect.get("attribute"),
        }

    def finish_search(self, player: int, cid: str | None) -> None:
        pending = self.pending
        assert pending is not None
        if cid is not None:
            uid = next(u for u in reversed(self.zone(player, "library")) if self.cards[u].cid == cid)
            self.move(uid, "hand")
            self.emit("searched", player=player, card=cid)
            pending["left"] -= 1
        left = self.search_matches(player, pending["card_type"], pending["attribute"])
        if cid is None or pending["left"] <= 0 or not left:
            self.shuffle_library(player)
            self.pending = None

    def start_discover(self, player: int, n: int) -> None:
        """DÉCOUVERTE xN: look at N cards, then send each to the discard, under or on top of the library."""
        library = self.zone(player, "library")
        top = list(reversed(library[-n:])) if n else []
        if top:
            self.pending = {"kind": "discover", "player": player, "cards": top}

    def finish_discover(self, player: int, placements: list[list[Any]]) -> None:
        library = self.zone(player, "library")
        tops: list[int] = []
        for uid, destination in placements:
            if destination == "discard":
                self.move(uid, "discard")
            elif destination == "bottom":
                library.remove(uid)
                library.insert(0, uid)
            else:
                library.remove(uid)
                tops.append(uid)
        # The first card listed for the top ends up on top.
        library.extend(reversed(tops))
        self.emit(
            "discovered",
            player=player,
            discarded=[self.cards[u].cid for u, d in placements if d == "discard"],
            count=len(placements),
        )
        self.pending = None

    # -- leaving play -------------------------------------------------------------------------------

    def destroy_card(self, uid: int, *, by: int, to: str = "discard") -> None:
        inst = self.cards[uid]
        card = self._card_table[inst.cid]
        if card.is_ally:
            self.remove_ally(uid, defeated_by=by, to=to)
            return
        owner = self.players[inst.owner]
        if owner.sheltered == uid:
            owner.sheltered = None
            self.emit("shelter_left", player=inst.owner)
        if uid in owner.stealth_sources:
            owner.stealth_sources.remove(uid)
        self.move(uid, to)
        self.emit("destroyed", card=inst.cid, owner=inst.owner, irrevocably=to == "destroyed")

    def remove_ally(self, uid: int, *, defeated_by: int, to: str = "discard") -> None:
        """« Lorsqu'un effet indique « Lorsque cet Allié est vaincu », quel que soit la manière dont il quitte
        le champ de bataille … son effet se résout normalement » (000, VI.5). MARTYR xN: « attaquent une
        dernière fois … sous forme d'une Attaque d'Explosion directe au joueur qui les a vaincus »."""
        inst = self.cards[uid]
        if inst.zone not in ("play", "combat"):
            return
        card = self._card_table[inst.cid]
        owner = inst.owner
        power = self.ally_power(uid)
        martyr = self.keyword(uid, "MARTYR")
        self.move(uid, to)
        self.events.append({"t": "ally_defeated", "card": card.id, "owner": owner, "by": defeated_by})
        if martyr and not self.players[defeated_by].eliminated:
            amount = power * martyr
            if not self.harmful_immune(defeated_by):
                dealt = max(0, amount - armour_against(self.armour(defeated_by), "explosion"))
                self.emit("martyr", card=card.id, target=defeated_by, amount=dealt)
                self.lose_life(defeated_by, dealt)
        self.run_effects(card.effects_at("defeated"), owner, uid)
