"""Pick-up squares and the markers a frag or a drop leaves: « Ramasser des objets », « Fouiller les restes »."""

from __future__ import annotations

from .base import Action, Event
from .codes import A_SHIFT, B_SHIFT, TAKE_BLOOD, TAKE_WEAPON
from .errors import IllegalAction
from .playing import CardPlay


class PickUps(CardPlay):
    """What the legal pick-ups are."""

    def _pickup_groups(self, player: int, groups: list[list[int]]) -> None:
        """The markers ``player`` may take where it stands: the blood, then each card of each weapon marker."""
        me, turn = self.fighters[player], self.turn
        place = me.place
        if me.out or place is None or place in turn.looted:
            return
        if self.blood.get(place):
            groups.append([TAKE_BLOOD])
        if not self.piles:
            return
        cards = [
            TAKE_WEAPON | uid << B_SHIFT | pile_id << A_SHIFT
            for pile_id, pile in self.piles.items()
            if pile["place"] == place and pile_id not in turn.dropped_piles
            for uid in pile["cards"]
        ]
        if cards:
            groups.append(cards)


def _check_loot(state: PickUps, player: int) -> int:
    here = state._on_board(player)
    if here in state.turn.looted:
        raise IllegalAction("one marker per square: “prendre un des Marqueur mais pas les 2”")
    return here


def do_take_blood(state: PickUps, player: int, action: Action, events: list[Event]) -> None:
    """« Le Marqueur de Sang : quand un joueur le ramasse, il le place sur sa fiche de combattant. »"""
    here = _check_loot(state, player)
    if not state.blood.get(here):
        raise IllegalAction("there is no blood marker here")
    state.turn.looted.append(here)
    state.blood[here] -= 1
    if not state.blood[here]:
        del state.blood[here]
    state.fighters[player].blood += 1
    events.append({"type": "took_blood", "player": player, "place": here})


def do_take_weapon(state: PickUps, player: int, action: Action, events: list[Event]) -> None:
    """« en choisir UNE, et la mettre dans sa main de cartes. Vous ne pouvez pas prendre plus d'une carte par pile dans
    le même tour. [...] Vous ne pouvez pas ramasser un objet que vous avez jeté dans le même tour. »"""
    here = _check_loot(state, player)
    pile_id, uid = action.get("pile"), action.get("card")
    if not isinstance(pile_id, int) or (pile := state.piles.get(pile_id)) is None or pile["place"] != here:
        raise IllegalAction("there is no such weapon marker here")
    if pile_id in state.turn.dropped_piles:
        raise IllegalAction("you cannot pick up what you dropped this turn")
    if pile_id in state.turn.piles_taken:
        raise IllegalAction("one card per pile per turn")
    if not isinstance(uid, int) or uid not in pile["cards"]:
        raise IllegalAction("that card is not under this marker")
    state.turn.looted.append(here)
    state.turn.piles_taken.append(pile_id)
    pile["cards"].remove(uid)
    if not pile["cards"]:
        del state.piles[pile_id]
    state.fighters[player].hand.append(uid)
    events.append({"type": "took_weapon", "player": player, "card": state.card_ids[uid], "pile": pile_id})
