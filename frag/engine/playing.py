"""Cards from the hand into play (weapons, gadgets, Specials), and dropping what is in play."""

from __future__ import annotations

from typing import Any

from .base import ACTION, DISCARD, MOVEMENT, Action, Event
from .cards import EFFECT_TIMING, GADGET
from .codes import A_SHIFT, B_SHIFT, PLAY
from .errors import IllegalAction, Refusal, refusal
from .healing import Healing

NOT_ON_BOARD = refusal("your fighter is not on the board")


class CardPlay(Healing):
    """Playing cards from the hand."""

    def _play_groups(self, player: int, groups: list[list[int]]) -> None:
        """Each card of the hand that may be played now, one group per card (with its every target)."""
        me = self.fighters[player]
        for uid in me.hand:
            card = self.card(uid)
            base = PLAY | uid << A_SHIFT
            if card.effect == "teleport":
                if self.phase == MOVEMENT:
                    mine = None if me.out else me.place
                    codes = [base | p << B_SHIFT for p in range(len(self.board.places)) if p != mine]
                    if codes:
                        groups.append(codes)
                continue
            if card.effect == "disconnect":
                codes = [base | s << B_SHIFT for s, f in enumerate(self.fighters) if s != player and not f.out]
            elif card.effect == "reload":
                codes = [base | w << B_SHIFT for w, ammo in me.weapons if ammo < self.card(w).ammo]
            else:
                codes = [base] if self._play_refusal(player, uid, {}) is None else []
            if codes:
                groups.append(codes)

    def gadgets_in_play(self, player: int) -> list[dict[str, Any]]:
        """The gadget modifiers ``player`` has in play (its Specials are not gadgets: they cannot be dropped)."""
        return [m for m in self.modifiers if m["owner"] == player and self.card(m["uid"]).deck == GADGET]

    def _check_weapon_into_play(self, player: int) -> None:
        if len(self.fighters[player].weapons) >= self.weapon_limit(player):
            raise IllegalAction("at most {limit} weapons in play (Santé + 1)", limit=self.weapon_limit(player))

    def _check_play(self, player: int, uid: int, action: Action) -> None:
        """Everything that could refuse playing this card, checked before it is played."""
        refusal = self._play_refusal(player, uid, action)
        if refusal is not None:
            raise IllegalAction(refusal[0], **refusal[1])

    def _play_refusal(self, player: int, uid: int, action: Action) -> Refusal | None:
        """Why this card may not be played now (a template and its blanks), or None: returned rather than raised,
        since the legal plays ask it of every card in the hand at every step."""
        card = self.card(uid)
        fighter = self.fighters[player]
        pending = self.pending is not None
        off_board = fighter.out or fighter.place is None
        if pending and card.effect != "heal":
            return refusal("only healing can be played while dying")
        if card.is_weapon:
            if off_board:
                return NOT_ON_BOARD
            if len(fighter.weapons) >= self.weapon_limit(player):
                return refusal("at most {limit} weapons in play (Santé + 1)", limit=self.weapon_limit(player))
            return None
        timing = EFFECT_TIMING[card.effect]
        if timing == "before_roll" and self.phase != MOVEMENT:
            return refusal("a teleport card is played instead of rolling for movement")
        if timing == "after_roll" and self.phase != ACTION:
            return refusal("play this card after rolling for movement")
        if card.effect == "armour":
            if off_board:
                return NOT_ON_BOARD
            if fighter.armour is not None:
                return refusal("a fighter cannot wear more than one armour")
        elif card.effect == "heal":
            if not pending and off_board:
                return NOT_ON_BOARD
            if fighter.hp >= fighter.health:
                return refusal("healing never goes above the starting Santé")
        elif card.effect == "reload":
            weapon = action.get("weapon")
            if not any(w[0] == weapon for w in fighter.weapons):
                return refusal("choose a weapon in play to reload")
        elif card.effect == "teleport":
            if off_board:
                return NOT_ON_BOARD
            place = action.get("to")
            if not isinstance(place, int) or isinstance(place, bool) or not 0 <= place < len(self.board.places):
                return refusal("no such square")
        elif card.effect == "disconnect":
            target = action.get("target")
            if not isinstance(target, int) or isinstance(target, bool) or not 0 <= target < len(self.fighters):
                return refusal("choose a fighter to disconnect")
            if target == player or self.fighters[target].out:
                return refusal("that fighter is not on the board")
        elif card.effect == "movement" and off_board:
            return NOT_ON_BOARD
        return None

    def _play(self, player: int, uid: int, action: Action, events: list[Event]) -> None:
        card = self.card(uid)
        fighter = self.fighters[player]
        fighter.hand.remove(uid)
        events.append({"type": "played", "player": player, "card": card.id, "uid": uid})
        if card.is_weapon:
            fighter.weapons.append([uid, card.ammo])
            return
        effect = card.effect
        if effect == "armour":
            fighter.armour = [uid, card.value]
            fighter.hp += card.value
            return
        if effect == "modifier":
            self.modifiers.append(
                {
                    "uid": uid,
                    "owner": player,
                    "stat": card.stat,
                    "op": card.op,
                    "value": card.value,
                    "scope": card.scope,
                    "duration": card.duration,
                }
            )
            return
        self._discard(uid)
        if effect == "heal":
            self._heal(player, card.value, events)
        elif effect == "reload":
            for weapon in fighter.weapons:
                if weapon[0] == action["weapon"]:
                    weapon[1] = self.card(weapon[0]).ammo
            events.append({"type": "reloaded", "player": player, "weapon": self.card_ids[action["weapon"]]})
        elif effect == "movement":
            self.turn.mp += card.value
            events.append({"type": "movement_points", "player": player, "mp": self.turn.mp})
        elif effect == "teleport":
            # « à moins que vous ne décidez de jouer une carte de téléportation » : instead of the roll.
            self.phase = ACTION
            self.turn.rolled = True
            self.turn.mp = 0
            self._arrive(player, action["to"], events, how="teleport")
            self._land(player, action["to"], events)
        elif effect == "disconnect":
            target = action["target"]
            self.fighters[target].out = True
            events.append({"type": "disconnected", "player": target, "by": player})
        elif effect == "draw":
            for _ in range(card.value):
                self._draw(card.target_deck, player, events, reason=card.id)


def do_play(state: CardPlay, player: int, action: Action, events: list[Event]) -> None:
    uid = state._hand_card(player, action)
    state._check_play(player, uid, action)
    state._play(player, uid, action, events)
    if (
        state.phase == DISCARD
        and player == state.turn.player
        and len(state.fighters[player].hand) <= state.stat(player, "hand_limit")
    ):
        state._finish_turn(events)


def do_drop(state: CardPlay, player: int, action: Action, events: list[Event]) -> None:
    """« Un combattant peut se débarrasser d'une arme ou d'un gadget qui étaient en jeu [...] Un Marqueur Arme de
    couleur est alors placé sur la case »"""
    here = state._on_board(player)
    fighter = state.fighters[player]
    uid = action.get("card")
    if not isinstance(uid, int):
        raise IllegalAction("that card is not in play in front of you")
    if fighter.armour is not None and fighter.armour[0] == uid:
        fighter.hp -= fighter.armour[1]
        fighter.hp = max(1, fighter.hp)
        fighter.armour = None
    elif any(w[0] == uid for w in fighter.weapons):
        fighter.weapons = [w for w in fighter.weapons if w[0] != uid]
    elif any(m["uid"] == uid for m in state.gadgets_in_play(player)):
        # A gadget in play (a helmet, a shield, a scope) stops acting on its owner as it leaves.
        state.modifiers = [m for m in state.modifiers if m["uid"] != uid]
    else:
        raise IllegalAction("that card is not in play in front of you")
    events.append({"type": "dropped", "player": player, "card": state.card_ids[uid]})
    state._new_pile(here, [uid], dropped_by=player, events=events)
