"""Healing: cards and blood markers, « il ne peut pas se redonner plus de point de Santé qu'il en avait au début du jeu »."""

from __future__ import annotations

from .base import Action, Event
from .errors import IllegalAction
from .movement import Movement


class Healing(Movement):
    """Regaining Santé."""

    def _heal(self, player: int, points: int, events: list[Event]) -> None:
        """« il ne peut pas se redonner plus de point de Santé qu'il en avait au début du jeu »"""
        fighter = self.fighters[player]
        before = fighter.hp
        fighter.hp = min(fighter.health, fighter.hp + points)
        events.append({"type": "healed", "player": player, "points": fighter.hp - before, "hp": fighter.hp})
        if self.pending is not None and self.pending["player"] == player and fighter.hp > 0:
            resume = self.pending["resume"]
            self.pending = None
            events.append({"type": "survived", "player": player})
            if resume:
                self._walk(player, resume, events)


def do_spend_blood(state: Healing, player: int, action: Action, events: list[Event]) -> None:
    """« Quand il le souhaite, il peut le dépenser pour récupérer un point de santé perdu. »"""
    fighter = state.fighters[player]
    if not fighter.blood:
        raise IllegalAction("you have no blood marker")
    if state.pending is None:
        state._on_board(player)
    if fighter.hp >= fighter.health:
        raise IllegalAction("healing never goes above the starting Santé")
    fighter.blood -= 1
    events.append({"type": "spent_blood", "player": player})
    state._heal(player, 1, events)
