"""One game of Frag: its state, the actions it accepts and the events they produce.

The API follows OpenSpiel and boardgame.io (design.md, rule 7): ``new_game(config, seed)``,
``current_players()``, ``legal_actions(player)``, ``apply(action) -> events`` (in place, refusing
with ``IllegalAction`` before changing anything), ``observation(player)``, ``is_over()``,
``winner()``, ``to_json()`` and ``State.from_json()``.

Actions are plain dicts with a ``type`` and the acting ``player`` (a seat number from 0).
"""

from __future__ import annotations

from .attacks import Attacks, do_attack
from .base import ACTION, DISCARD, MOVEMENT, OVER, PLACEMENT, Action, Event
from .errors import IllegalAction
from .healing import do_spend_blood
from .movement import do_jump, do_move, do_teleport
from .observation import Observation
from .pickups import do_take_blood, do_take_weapon
from .playing import do_drop, do_play
from .turns import do_discard, do_end_turn, do_place, do_roll
from .wounds import do_accept_frag


class State(Attacks, Observation):
    """The whole game: every part (see ``base``) and the API. Build it with ``setup.new_game`` or ``State.from_json``."""

    def apply(self, action: Action) -> list[Event]:
        """Apply one action in place. Everything is checked before anything changes."""
        if not isinstance(action, dict):
            raise IllegalAction("an action is a mapping with a type and a player")
        if self.phase == OVER:
            raise IllegalAction("the game is over")
        player = action.get("player")
        if not isinstance(player, int) or isinstance(player, bool) or not 0 <= player < len(self.fighters):
            raise IllegalAction("unknown player")
        kind = action.get("type")
        if player not in self.current_players():
            if kind in ("spend_blood", "play") and self.may_heal_out_of_turn(player):
                return self._heal_out_of_turn(player, action)
            raise IllegalAction("it is not your turn")
        if not isinstance(kind, str) or (handler := _HANDLERS.get(kind)) is None:
            raise IllegalAction("unknown action {name}", name=repr(kind))
        phases = _PHASES[kind]
        in_phase = "pending" if self.pending is not None else self.phase
        if in_phase not in phases:
            raise IllegalAction("{action} is not allowed now ({phase})", action=kind, phase=in_phase)
        events: list[Event] = []
        handler(self, player, action, events)
        self.actions_applied += 1
        return events

    def may_heal_out_of_turn(self, player: int) -> bool:
        """« Le Marqueur de Sang : [...] Quand il le souhaite, il peut le dépenser pour récupérer un point de santé
        perdu » and « il peut utiliser une carte ou un Marqueur de Sang pour se redonner de la Santé » : a hurt fighter
        on the board may heal in another's turn too (between two attacks, say), not only while dying."""
        fighter = self.fighters[player]
        return (
            self.phase in (MOVEMENT, ACTION, DISCARD)
            and player != self.turn.player
            and not fighter.out
            and fighter.place is not None
            and 0 < fighter.hp < fighter.health
        )

    def _heal_out_of_turn(self, player: int, action: Action) -> list[Event]:
        events: list[Event] = []
        if action["type"] == "play":
            uid = self._hand_card(player, action)
            if self.card(uid).effect != "heal":
                raise IllegalAction("in another's turn, only healing can be played")
            self._check_play(player, uid, action)
            self._play(player, uid, action, events)
        else:
            do_spend_blood(self, player, action, events)
        self.actions_applied += 1
        return events

    def _legal_out_of_turn(self, player: int) -> list[Action]:
        if not self.may_heal_out_of_turn(player):
            return []
        me = self.fighters[player]
        actions: list[Action] = [{"type": "spend_blood", "player": player}] if me.blood else []
        actions.extend(
            {"type": "play", "player": player, "card": uid} for uid in me.hand if self.card(uid).effect == "heal"
        )
        return actions

    def legal_actions(self, player: int) -> list[Action]:
        """What ``player`` may do now: everything on its turn (or while dying), healing in another's turn."""
        if player not in self.current_players():
            return self._legal_out_of_turn(player)
        if self.pending is not None:
            return self._legal_pending(player)
        if self.phase == PLACEMENT:
            taken = self.occupied()
            return [
                {"type": "place", "player": player, "to": place}
                for place in self.board.respawn.values()
                if place not in taken
            ]
        if self.phase == DISCARD:
            # « il doit les défausser ou les jouer » : each card may go to the discard or, where it can be, into play.
            discards = [{"type": "discard", "player": player, "card": uid} for uid in self.fighters[player].hand]
            return discards + self._legal_plays(player)
        actions: list[Action] = []
        if self.phase == MOVEMENT:
            actions.append({"type": "roll", "player": player})
        else:
            actions.extend({"type": "move", "player": player, "path": path} for path in self.reachable(player).values())
            actions.extend({"type": "jump", "player": player, "to": to} for to in self.jumps(player))
            actions.extend(self._legal_teleports(player))
            actions.extend(self._legal_pickups(player))
            actions.extend(self._legal_attacks(player))
            actions.append({"type": "end_turn", "player": player})
        actions.extend(self._legal_plays(player))
        me = self.fighters[player]
        if me.blood and not me.out and me.hp < me.health:
            actions.append({"type": "spend_blood", "player": player})
        actions.extend({"type": "drop", "player": player, "card": uid} for uid, _ in me.weapons)
        if me.armour is not None:
            actions.append({"type": "drop", "player": player, "card": me.armour[0]})
        actions.extend({"type": "drop", "player": player, "card": m["uid"]} for m in self.gadgets_in_play(player))
        return actions

    def _legal_pending(self, player: int) -> list[Action]:
        me = self.fighters[player]
        actions: list[Action] = [{"type": "accept_frag", "player": player}]
        if me.blood:
            actions.append({"type": "spend_blood", "player": player})
        actions.extend(
            {"type": "play", "player": player, "card": uid} for uid in me.hand if self.card(uid).effect == "heal"
        )
        return actions


_HANDLERS = {
    "place": do_place,
    "roll": do_roll,
    "move": do_move,
    "jump": do_jump,
    "teleport": do_teleport,
    "take_blood": do_take_blood,
    "take_weapon": do_take_weapon,
    "spend_blood": do_spend_blood,
    "accept_frag": do_accept_frag,
    "attack": do_attack,
    "play": do_play,
    "drop": do_drop,
    "discard": do_discard,
    "end_turn": do_end_turn,
}
_ANY_TIME = {MOVEMENT, ACTION}
_PHASES = {
    "place": {PLACEMENT},
    "roll": {MOVEMENT},
    "move": {ACTION},
    "jump": {ACTION},
    "teleport": {ACTION},
    "take_blood": {ACTION},
    "take_weapon": {ACTION},
    "spend_blood": _ANY_TIME | {"pending"},
    "accept_frag": {"pending"},
    "attack": {ACTION},
    "play": _ANY_TIME | {"pending", DISCARD},
    "drop": _ANY_TIME,
    "discard": {DISCARD},
    "end_turn": {ACTION},
}
