"""Turn flow: placement, the movement roll, the start and end of turns, respawns and ejections, the end of the game."""

from __future__ import annotations

from .base import ACTION, DISCARD, MOVEMENT, OVER, Action, Event, StateBase
from .errors import IllegalAction
from .fighters import Turn


class Turns(StateBase):
    """Placement, rolls, turns starting and ending, respawns, ejections and the end of the game."""

    def _start_turn(self, player: int, events: list[Event]) -> None:
        """« Souvenez vous bien de vérifier toutes les cartes Spéciales en jeu avant de commencer votre tour. »"""
        self.turn = Turn(player=player, number=self.turn.number + 1)
        self._expire(player, "round", events)
        self.phase = MOVEMENT
        events.append({"type": "turn_started", "player": player, "number": self.turn.number})
        fighter = self.fighters[player]
        if fighter.out:
            self._respawn(player, events)

    def _expire(self, owner: int, duration: str, events: list[Event]) -> None:
        keep = []
        for m in self.modifiers:
            if m["owner"] == owner and m["duration"] == duration:
                self._discard(m["uid"])
                events.append({"type": "card_expired", "player": owner, "card": self.card_ids[m["uid"]]})
            else:
                keep.append(m)
        self.modifiers = keep

    def _respawn(self, player: int, events: list[Event]) -> None:
        """« lancez un dé, et remettez le en jeu sur la case comportant le même n° »"""
        fighter = self.fighters[player]
        roll = self.dice.d6()
        events.append({"type": "dice", "purpose": "respawn", "player": player, "dice": [roll]})
        # « Votre nouveau combattant n'a pas de blessures » ; a disconnected fighter kept its armour.
        fighter.hp = fighter.health + (fighter.armour[1] if fighter.armour else 0)
        self._arrive(player, self.board.respawn[roll], events, how="respawn")

    def _arrive(self, player: int, place: int, events: list[Event], *, how: str) -> None:
        """« Ejecté : si un joueur revient en jeu ou se téléporte sur une case déjà occupée par un autre joueur,
        celui-ci est éjecté ; il lance immédiatement un dé et se déplace jusqu'à la case de numéro identique.
        Si il y a un joueur dessus, celui-ci est éjecté et ainsi de suite. »"""
        incoming, target = player, place
        while True:
            occupant = self.occupant(target)
            fighter = self.fighters[incoming]
            fighter.place, fighter.out = target, False
            events.append({"type": "arrived", "player": incoming, "place": target, "how": how})
            if occupant is None or occupant == incoming:
                return
            self.fighters[occupant].out = True
            events.append({"type": "ejected", "player": occupant, "place": target})
            incoming, how, origin = occupant, "ejected", target
            occupied = self.occupied()
            if all(p in occupied for p in self.board.respawn.values()):
                # Every respawn square held: the chain would never end, so the ejected lands nearby.
                target = self._nearest_free(origin)
                continue
            while True:
                roll = self.dice.d6()
                events.append({"type": "dice", "purpose": "ejection", "player": occupant, "dice": [roll]})
                target = self.board.respawn[roll]
                if target != origin:
                    break

    def _nearest_free(self, start: int) -> int:
        occupied = self.occupied()
        costs = self.board.walk_costs(start, 10_000)
        free = [p for p in costs if p not in occupied]
        return min(free, key=lambda p: (costs[p][0], p))

    def _finish_turn(self, events: list[Event]) -> None:
        player = self.turn.player
        self._expire(player, "turn", events)
        events.append({"type": "turn_ended", "player": player, "number": self.turn.number})
        limit = self.config["turn_limit"]
        if limit and self.turn.number >= limit:
            self._end_game(events, reason="turn_limit")
            return
        self._start_turn((player + 1) % len(self.fighters), events)

    def _end_turn_or_discard(self, events: list[Event]) -> None:
        """« à la fin de son tour, il ne doit pas en avoir plus de 5 »"""
        player = self.turn.player
        if len(self.fighters[player].hand) > self.stat(player, "hand_limit"):
            self.phase = DISCARD
            events.append({"type": "must_discard", "player": player, "down_to": self.stat(player, "hand_limit")})
            return
        self._finish_turn(events)

    def _end_game(self, events: list[Event], *, reason: str, winner: int | None = None) -> None:
        self.phase = OVER
        self.pending = None
        if winner is not None:
            self.winner_seat = winner
        else:
            best = max(f.frags for f in self.fighters)
            leaders = [s for s, f in enumerate(self.fighters) if f.frags == best]
            self.winner_seat = leaders[0] if len(leaders) == 1 else None
        events.append({"type": "game_over", "winner": self.winner_seat, "reason": reason})


# --- action handlers -------------------------------------------------------------------------
def do_place(state: Turns, player: int, action: Action, events: list[Event]) -> None:
    """« Le premier joueur place ensuite son combattant sur n'importe quelle case numérotée »"""
    place = state._place_arg(action)
    if place not in state.board.respawn.values():
        raise IllegalAction("fighters start on a numbered respawn square")
    if state.occupant(place) is not None:
        raise IllegalAction("that respawn square is taken")
    fighter = state.fighters[player]
    fighter.place, fighter.out, fighter.hp = place, False, fighter.health
    state.placement_order.pop(0)
    events.append({"type": "arrived", "player": player, "place": place, "how": "placement"})
    if not state.placement_order:
        state._start_turn(state.turn.player, events)


def do_roll(state: Turns, player: int, action: Action, events: list[Event]) -> None:
    """« lancer autant de dé que votre capacité Vitesse pour voir les points de mouvement »"""
    dice = state.dice.roll(state.stat(player, "speed"))
    state.turn.mp = sum(dice)
    state.turn.rolled = True
    state.phase = ACTION
    events.append({"type": "dice", "purpose": "movement", "player": player, "dice": dice})
    events.append({"type": "movement_points", "player": player, "mp": state.turn.mp})


def do_discard(state: Turns, player: int, action: Action, events: list[Event]) -> None:
    uid = state._hand_card(player, action)
    state.fighters[player].hand.remove(uid)
    state._discard(uid)
    events.append({"type": "discarded", "player": player, "card": state.card_ids[uid]})
    if len(state.fighters[player].hand) <= state.stat(player, "hand_limit"):
        state._finish_turn(events)


def do_end_turn(state: Turns, player: int, action: Action, events: list[Event]) -> None:
    """« Si les points de mouvement ne sont pas entièrement utilisés à la fin du tour, ils ne seront pas reportés »"""
    occupant = state.occupied()
    me = state.fighters[player]
    if not me.out and me.place is not None and occupant.get(me.place) != player:
        raise IllegalAction("a fighter cannot end its turn on an occupied square")
    state.turn.mp = 0
    state._end_turn_or_discard(events)
