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
from .codes import (
    A_SHIFT,
    ACCEPT_FRAG,
    B_SHIFT,
    DROP,
    END_TURN,
    KIND_MASK,
    MOVE,
    PLACE,
    PLAY,
    ROLL,
    SPEND_BLOOD,
)
from .codes import DISCARD as DISCARD_CODE
from .decoding import decode
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
        if player != self._current_player():
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

    def _current_player(self) -> int | None:
        """``current_players()``'s one seat, without building the list (asked at every step)."""
        if self.pending is not None:
            return int(self.pending["player"])
        if self.phase == PLACEMENT:
            return self.placement_order[0]
        return None if self.phase == OVER else self.turn.player

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

    def legal_actions(self, player: int) -> list[Action]:
        """What ``player`` may do now: everything on its turn (or while dying), healing in another's turn."""
        actions: list[Action] = []
        for group in self.legal_groups(player):
            if group[0] & KIND_MASK == MOVE:
                place = self.fighters[player].place
                assert place is not None  # moves are offered only to a fighter on the board
                paths = self.board.path_to
                actions.extend({"type": "move", "player": player, "path": paths(place, c >> B_SHIFT)} for c in group)
            else:
                actions.extend(decode(self, player, code) for code in group)
        return actions

    def legal_codes(self, player: int) -> list[int]:
        """``legal_actions`` as integer codes, in the same order (``decoding.decode`` turns one into its action)."""
        return [code for group in self.legal_groups(player) for code in group]

    def apply_code(self, player: int, code: int) -> list[Event]:
        """``apply`` the action a code stands for (every check made, as for any action)."""
        return self.apply(decode(self, player, code))

    def legal_groups(self, player: int) -> list[list[int]]:
        """The legal actions as codes, grouped by the random bot's kinds (``codes.group_key``: each kind of action,
        each card played), in ``legal_actions`` order. The lists may be the board's caches: never mutate them."""
        groups: list[list[int]] = []
        if self.phase == OVER:
            return groups
        if player != self._current_player():
            if self.may_heal_out_of_turn(player):
                self._healing_groups(player, groups)
            return groups
        if self.pending is not None:
            groups.append([ACCEPT_FRAG])
            self._healing_groups(player, groups)
            return groups
        if self.phase == PLACEMENT:
            taken = self.occupied()
            places = [PLACE | p << B_SHIFT for p in self.board.respawn.values() if p not in taken]
            return [places] if places else groups
        me = self.fighters[player]
        if self.phase == DISCARD:
            # « il doit les défausser ou les jouer » : each card may go to the discard or, where it can be, into play.
            if me.hand:
                groups.append([DISCARD_CODE | uid << B_SHIFT for uid in me.hand])
            self._play_groups(player, groups)
            return groups
        if self.phase == MOVEMENT:
            groups.append([ROLL])
        else:
            held = self._held_by_others(player)
            for codes in (self._move_codes(player, held), self._jump_codes(player, held), self._teleport_codes(player)):
                if codes:
                    groups.append(codes)
            self._pickup_groups(player, groups)
            attacks = self._attack_codes(player)
            if attacks:
                groups.append(attacks)
            groups.append([END_TURN])
        self._play_groups(player, groups)
        if me.blood and not me.out and me.hp < me.health:
            groups.append([SPEND_BLOOD])
        if me.weapons or me.armour is not None or self.modifiers:  # most steps: nothing in play to drop
            drops = [DROP | uid << B_SHIFT for uid, _ in me.weapons]
            if me.armour is not None:
                drops.append(DROP | me.armour[0] << B_SHIFT)
            drops.extend(DROP | m["uid"] << B_SHIFT for m in self.gadgets_in_play(player))
            if drops:
                groups.append(drops)
        return groups

    def _healing_groups(self, player: int, groups: list[list[int]]) -> None:
        """A blood marker spent, then each healing card (in another's turn, or while dying)."""
        me = self.fighters[player]
        if me.blood:
            groups.append([SPEND_BLOOD])
        groups.extend([PLAY | uid << A_SHIFT] for uid in me.hand if self.card(uid).effect == "heal")


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
