"""Damage, armour, dying and frags, and the weapon markers a frag or a drop leaves."""

from __future__ import annotations

from . import combat
from .base import OVER, Action, Event
from .cards import GADGET, SPECIAL
from .turns import Turns


class Wounds(Turns):
    """Damage rolls, armour, dying and frags."""

    def _damage(self, victim: int, points: int, events: list[Event]) -> None:
        """« Une armure est défaussée quand le joueur qui la possède perd un nombre de points de Santé égal au
        nombre de points de Santé que l'armure ajoute quand elle est en jeu. »"""
        fighter = self.fighters[victim]
        if points <= 0:
            return
        fighter.hp -= points
        events.append({"type": "wounded", "player": victim, "points": points, "hp": fighter.hp})
        if fighter.armour is not None:
            fighter.armour[1] -= points
            if fighter.armour[1] <= 0:
                uid = fighter.armour[0]
                fighter.armour = None
                self._discard(uid)
                events.append({"type": "armour_destroyed", "player": victim, "card": self.card_ids[uid]})

    def _healing_available(self, player: int) -> int:
        fighter = self.fighters[player]
        cards = sum(self.card(uid).value for uid in fighter.hand if self.card(uid).effect == "heal")
        return fighter.blood + cards

    def _after_wound(
        self, victim: int, attacker: int | None, events: list[Event], resume: list[int] | None = None
    ) -> bool:
        """« Si le niveau de santé d'un joueur atteint 0 ou moins et si il ne peut se redonner immédiatement des
        points de santé, il est fragué ». Returns True when the victim is down (dying or fragged)."""
        fighter = self.fighters[victim]
        if fighter.hp > 0:
            return False
        cap = fighter.health
        if min(cap, fighter.hp + self._healing_available(victim)) > 0:
            self.pending = {"player": victim, "attacker": attacker, "resume": resume or []}
            events.append({"type": "dying", "player": victim, "attacker": attacker})
            return True
        self._frag(victim, attacker, events)
        return True

    def _frag(self, victim: int, attacker: int | None, events: list[Event]) -> None:
        """« L'attaquant marque 1 Frag [...] et il pioche une carte Spéciale. » ; « il place immédiatement sur la case
        où il était un Marqueur de Sang et (probablement) un Marqueur Arme » ; « les cartes Gadget du joueur fragué
        sont défaussées, mais ses cartes Armes ne le sont pas »."""
        fighter = self.fighters[victim]
        place = fighter.place
        assert place is not None
        events.append({"type": "fragged", "player": victim, "by": attacker, "place": place})
        self.blood[place] = self.blood.get(place, 0) + 1
        if fighter.weapons:
            self._new_pile(place, [uid for uid, _ in fighter.weapons], dropped_by=None, events=events)
        fighter.weapons = []
        if fighter.armour is not None:
            self._discard(fighter.armour[0])
            fighter.armour = None
        # Gadgets still in play (a shield, a scope) go too; the victim's Specials stay.
        for m in [m for m in self.modifiers if m["owner"] == victim and self.card(m["uid"]).deck == GADGET]:
            self.modifiers.remove(m)
            self._discard(m["uid"])
        fighter.out = True
        fighter.hp = 0
        if attacker is not None and attacker != victim:
            self.fighters[attacker].frags += 1
            events.append({"type": "scored", "player": attacker, "frags": self.fighters[attacker].frags})
            self._draw(SPECIAL, attacker, events, reason="frag")
            if self.fighters[attacker].frags >= self.config["frags_to_win"]:
                self._end_game(events, reason="frags", winner=attacker)
                return
        if victim == self.turn.player and self.phase != OVER:
            # A fighter fragged on its own turn (acid) is out until its next turn: its turn ends.
            self.pending = None
            self._end_turn_or_discard(events)

    def _new_pile(self, place: int, cards: list[int], *, dropped_by: int | None, events: list[Event]) -> int:
        pile_id = self.next_pile
        self.next_pile += 1
        self.piles[pile_id] = {"place": place, "cards": list(cards), "dropped_by": dropped_by}
        if dropped_by is not None:
            self.turn.dropped_piles.append(pile_id)
        events.append(
            {"type": "weapon_marker", "pile": pile_id, "place": place, "cards": [self.card_ids[u] for u in cards]}
        )
        return pile_id

    def _attack_roll(
        self, attacker: int | None, victim: int, dice_count: int, extra: int, events: list[Event], purpose: str
    ) -> int:
        """« L'attaquant lance autant de dés que lui permet l'arme [...] et le défenseur lance autant de dés que son
        niveau de Santé (éventuellement modifié par des cartes ou dommages antérieurs). »"""
        attack = self.dice.roll(dice_count)
        defence_count = max(0, self.fighters[victim].hp) + self.stat(victim, "defence_dice")
        defence = self.dice.roll(defence_count)
        lost = combat.health_lost(sum(attack), sum(defence), extra)
        events.append(
            {
                "type": "damage_roll",
                "purpose": purpose,
                "attacker": attacker,
                "target": victim,
                "attack_dice": attack,
                "defence_dice": defence,
                "extra_damage": extra,
                "lost": lost,
            }
        )
        return lost


def do_accept_frag(state: Wounds, player: int, action: Action, events: list[Event]) -> None:
    assert state.pending is not None
    attacker = state.pending["attacker"]
    state.pending = None
    state._frag(player, attacker, events)
