"""The checks that ``legal_actions`` and ``apply`` share: whether a card can be played, reacted with or
(un)equipped, and the targets a card or capacity may aim at (``legal.Choices`` builds on them)."""

from __future__ import annotations

from typing import Any

from .cards import PERMANENT_TYPES, Card
from .effects import TARGETED_OPS
from .errors import Problem
from .setup_choices import SetupChoices

Action = dict[str, Any]
# The one target of a card that asks for none (shared: never changed).
NO_TARGET: list[dict[str, Any] | None] = [None]


# id(effects) -> (effects, whether none of them asks for a target): most cards and capacities ask for none,
# and the legal-move generator asks at every step. The tuple is kept so that its id is never reused.
_AIMLESS: dict[int, tuple[tuple[Any, ...], bool]] = {}
AIMLESS_LIMIT = 10_000


def effect_aims(effect: Any) -> bool:
    """Whether :meth:`Choices.effect_targets` may find targets for ``effect``."""
    return effect.op in TARGETED_OPS or (
        effect.op in ("damage", "radiation") and effect.get("target", "opponent") == "opponent"
    )


class Checks(SetupChoices):
    def companion_present(self, name: str) -> bool:
        """« un joueur ne peut poser un Compagnons avec le même nom s'il y a déjà un Compagnons similaire »."""
        cards, table = self.cards, self._card_table
        for p in self.players:
            for zone in ("play", "combat"):
                for u in p.zones[zone]:
                    card = table[cards[u].cid]
                    if card.type == "companion" and card.name == name:
                        return True
        return False

    def play_problem(
        self, player: int, uid: int, *, check_targets: bool = True, check_cost: bool = True
    ) -> Problem | None:
        card = self.card(uid)
        if self.cards[uid].zone != "hand" or self.cards[uid].owner != player:
            return Problem("that card is not in your hand")
        if card.type == "special":
            return Problem("a SPECIAL card is placed after paying a cost")
        if card.type == "reaction":
            return Problem("a reaction answers something on the stack")
        if self.phase != "main":
            return Problem("cards are played in the main phase")
        if card.faction == "confrerie" and "no_brotherhood" in self.mods(player).flags:
            return Problem("your Traits are incompatible with the Confrérie de l'Acier")
        if card.type == "companion" and any(
            self.card(u).type == "companion" and self.card(u).name == card.name
            for p in self.players
            for u in p.zones["play"] + p.zones["combat"]
        ):
            # « un joueur ne peut poser un Compagnons avec le même nom s'il y a déjà un Compagnons similaire »
            return Problem("that companion is already on the battlefield")
        if check_cost and not self.can_pay(player, card.cost):
            return Problem("you cannot pay its cost")
        if check_targets and not self.play_targets(player, card):
            return Problem("it has no legal target")
        return None

    def play_targets(self, player: int, card: Card) -> list[dict[str, Any] | None]:
        if card.type == "attack":
            return list(self.attack_targets(player, card))
        if card.type in PERMANENT_TYPES:
            return [None]
        return self.effect_targets(player, card.effects_at("play"))

    def effect_targets(self, player: int, effects: tuple[Any, ...]) -> list[dict[str, Any] | None]:
        known = _AIMLESS.get(id(effects))
        if known is None or known[0] is not effects:
            if len(_AIMLESS) >= AIMLESS_LIMIT:  # games with cards of their own make new tuples
                _AIMLESS.clear()
            known = _AIMLESS[id(effects)] = (effects, not any(effect_aims(effect) for effect in effects))
        if known[1]:
            return [None]
        # card(), zone(), allies() and keyword() read inline: asked at most steps with such a card in hand
        cards, table = self.cards, self._card_table
        for effect in effects:
            need = TARGETED_OPS.get(effect.op)
            if need == "opponent_card":
                wanted = effect.get("card_type")
                found: list[dict[str, Any] | None] = []
                for victim in self.opponents(player):
                    zones = self.players[victim].zones
                    for zone in (zones["play"], zones["equipment"]):
                        for uid in zone:
                            inst = cards[uid]
                            card = table[inst.cid]
                            kind = "ally" if card.is_ally else card.type
                            if (wanted in (kind, "any") or wanted == "item" and kind == "building") and not (
                                card.keywords.get("INCIBLABLE", 0) + inst.granted.get("INCIBLABLE", 0)
                            ):
                                found.append({"card": uid})
                return found
            if need == "own_ally":
                zones = self.players[player].zones
                return [
                    {"card": u}
                    for zone in (zones["play"], zones["combat"])
                    for u in zone
                    if (card := table[(inst := cards[u]).cid]).is_ally
                    and not card.keywords.get("INCIBLABLE", 0) + inst.granted.get("INCIBLABLE", 0)
                ]
            if need == "opponent_hand":
                # « Vous ciblez un adversaire »: any opponent with a card in hand and not in the Abri.
                return [
                    {"player": o} for o in self.opponents(player) if self.zone(o, "hand") and not self.harmful_immune(o)
                ]
            if effect.op in ("damage", "radiation") and effect.get("target", "opponent") == "opponent":
                opponents = [o for o in self.opponents(player) if not self.players[o].stealth]
                if len(opponents) > 1:
                    return [{"player": o} for o in opponents]
        return [None]

    def reaction_problem(self, player: int, uid: int, top: dict[str, Any]) -> Problem | None:
        card = self.card(uid)
        if self.cards[uid].zone != "hand" or self.cards[uid].owner != player:
            return Problem("that card is not in your hand")
        if card.type != "reaction":
            return Problem("only reactions answer the stack")
        if top["player"] == player:
            return Problem("a reaction answers an opponent's act")
        if self.stack_trigger(top) not in card.reacts_to:
            return Problem("this reaction does not answer that")
        if card.attack is not None and (self.players[top["player"]].stealth or self.harmful_immune(top["player"])):
            return Problem("the attacker cannot be struck")
        if not self.can_pay(player, card.cost):
            return Problem("you cannot pay its cost")
        return None

    def stack_trigger(self, item: dict[str, Any]) -> str:
        if item["kind"] in ("ally_attack", "ability"):
            return str(item["kind"])
        kind = self.card(item["card"]).type
        return kind if kind in ("action", "attack", "reaction", "quest") else "action"

    def equip_problem(self, player: int, uid: int, *, equip: bool) -> Problem | None:
        """« elles peuvent l'être [déséquipées] en payant leurs couts, comme n'importe quelle autre objet
        équipable » (000, IV.3); two pieces never share a slot (FAQ 15)."""
        inst = self.cards[uid]
        card = self.card(uid)
        if inst.zone != "equipment" or inst.owner != player:
            return Problem("that card is not in your equipment zone")
        if self.phase != "main":
            return Problem("equipment changes in the main phase")
        if equip != inst.engaged:
            return Problem("it is already equipped" if equip else "it is already unequipped")
        if equip and any(
            self.card(u).slot == card.slot and not self.cards[u].engaged
            for u in self.zone(player, "equipment")
            if u != uid
        ):
            return Problem("something is already equipped on the {slot}", slot=card.slot)
        if not self.can_pay(player, card.cost):
            return Problem("you cannot pay its cost")
        return None
