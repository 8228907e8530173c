"""What one seat may see of the game, and of each event."""

from __future__ import annotations

import copy
from dataclasses import asdict
from typing import Any

from .base import Event, StateBase
from .cards import DECKS


class Observation(StateBase):
    """One seat's view."""

    def observation(self, player: int | None) -> dict[str, Any]:
        """What one seat may see: its own hand, the others' hand sizes, never a deck's order.

        « La main de carte de chaque joueur est cachée. » Weapons under a marker are seen only by
        a fighter standing on it (« peut regarder toutes les cartes Armes qui s'y trouvent »).
        ``player=None`` is a spectator's view.
        """
        me = self.fighters[player] if player is not None else None
        fighters = []
        for seat, f in enumerate(self.fighters):
            fighters.append(
                {
                    "seat": seat,
                    "name": f.name,
                    "health": f.health,
                    "speed": f.speed,
                    "accuracy": f.accuracy,
                    "hp": f.hp,
                    "place": None if f.out else f.place,
                    "out": f.out,
                    "frags": f.frags,
                    "blood": f.blood,
                    "hand_size": len(f.hand),
                    "hand": [self._card_view(uid) for uid in f.hand] if seat == player else None,
                    "weapons": [{**self._card_view(uid), "ammo_left": ammo} for uid, ammo in f.weapons],
                    "armour": None if f.armour is None else {**self._card_view(f.armour[0]), "left": f.armour[1]},
                    "effective": {"speed": self.stat(seat, "speed"), "accuracy": self.stat(seat, "accuracy")},
                }
            )
        piles = []
        for pile_id, pile in sorted(self.piles.items()):
            visible = me is not None and not me.out and me.place == pile["place"]
            piles.append(
                {
                    "id": pile_id,
                    "place": pile["place"],
                    "count": len(pile["cards"]),
                    "cards": [self._card_view(uid) for uid in pile["cards"]] if visible else None,
                }
            )
        turn = asdict(self.turn)
        turn["attacks_allowed"] = self.attacks_allowed(self.turn.player) if self.fighters else 0
        return {
            "viewer": player,
            "map": self.board.name,
            "phase": self.phase,
            "pending": copy.deepcopy(self.pending),
            "current_players": self.current_players(),
            "turn": turn,
            "fighters": fighters,
            "decks": {d: len(self.decks[d]) for d in DECKS},
            "discards": {d: [self.card_ids[uid] for uid in self.discards[d]] for d in DECKS},
            "modifiers": copy.deepcopy(self.modifiers),
            "blood": {str(k): v for k, v in self.blood.items()},
            "piles": piles,
            "frags_to_win": self.config["frags_to_win"],
            "winner": self.winner_seat,
        }

    def _card_view(self, uid: int) -> dict[str, Any]:
        return {"uid": uid, "id": self.card_ids[uid]}


def visible_event(event: Event, viewer: int | None) -> Event:
    """An event as one seat may read it: the card someone else drew stays hidden."""
    if event.get("type") in ("drew", "took_weapon") and event.get("player") != viewer:
        return {k: v for k, v in event.items() if k not in ("card", "uid")}
    return event
