"""Walking, jumping and teleporters: « Les déplacements sont orthogonaux », acid on the way."""

from __future__ import annotations

from typing import Any

from .base import Action, Event
from .cards import GADGET, WEAPON
from .codes import B_SHIFT, JUMP, MOVE, TELEPORT
from .errors import IllegalAction
from .legend import DIRECTIONS
from .wounds import Wounds


class Movement(Wounds):
    """Where a fighter can go, and going there."""

    def reachable(self, player: int) -> dict[int, list[int]]:
        """Free places the fighter can walk to with its movement points left, with the path to each."""
        me = self.fighters[player]
        if me.out or me.place is None or self.turn.mp <= 0:
            return {}
        mp = self.turn.mp
        occupied = self.occupied()
        found: dict[int, list[int]] = {}
        for place, path in self.board.walk_within(me.place, mp):
            if place not in occupied:
                found[place] = path  # shared with the board's cache: never mutated (do_move copies it)
        return found

    def jumps(self, player: int) -> dict[int, list[int]]:
        """« Un saut se fait en ligne droite ; On ne peut pas sauter un mur. » Landing place -> line flown over."""
        me = self.fighters[player]
        if me.out or me.place is None:
            return {}
        cost = self.stat(player, "jump_cost")
        occupied = self.occupied()
        found: dict[int, list[int]] = {}
        longest, mp = self.jump_length(player), self.turn.mp
        for direction in DIRECTIONS:
            for length, line in enumerate(self.board.jump_lines(me.place, direction, longest), start=1):
                if length * cost > mp:
                    break
                if line[-1] not in occupied:
                    found.setdefault(line[-1], line)  # shared with the board's cache: never mutated
        return found

    def _move_codes(self, player: int, held: list[int]) -> list[int]:
        """``reachable`` as move codes, in the same order, without the places in ``held`` (the other fighters'):
        the board's cached list, copied only when a fighter stands on one of its places (never mutate it). Whether
        a held place is among them is read from the walk (within the points, not the start) instead of scanning
        the list, up to 300 codes on the larger map."""
        me, mp = self.fighters[player], self.turn.mp
        start = me.place
        if me.out or start is None or mp <= 0:
            return []
        codes = self.board.move_codes(start, mp)
        walk = self.board.walk_order(start)[2]
        for place in held:
            reached = walk.get(place)
            if reached is not None and reached[0] <= mp and place != start:
                at = codes.index(MOVE | place << B_SHIFT)
                codes = codes[:at] + codes[at + 1 :]  # each place once in the list: the same as filtering it out
        return codes

    def _jump_codes(self, player: int, held: list[int]) -> list[int]:
        """``jumps`` as jump codes, in the same order, without the places in ``held`` (never mutate the list)."""
        me = self.fighters[player]
        if me.out or me.place is None:
            return []
        cost, longest = self.stat(player, "jump_cost"), self.jump_length(player)
        reach = longest if cost <= 0 else min(longest, self.turn.mp // cost)
        if reach <= 0:
            return []
        return _without(self.board.landing_codes(me.place, longest, reach), JUMP, held)

    def _jump_line(self, player: int, to: int) -> list[int] | None:
        """``jumps(player).get(to)``: the first line (in ``DIRECTIONS`` then length order) landing on ``to`` if it is
        free, without listing every landing (a jump applied checks only its own)."""
        me = self.fighters[player]
        if me.out or me.place is None or self.occupant(to) is not None:
            return None
        cost = self.stat(player, "jump_cost")
        longest, mp = self.jump_length(player), self.turn.mp
        for direction in DIRECTIONS:
            for length, line in enumerate(self.board.jump_lines(me.place, direction, longest), start=1):
                if length * cost > mp:
                    break
                if line[-1] == to:
                    return line
        return None

    def _held_by_others(self, player: int) -> list[int]:
        """The places the other fighters on the board stand on."""
        return [f.place for s, f in enumerate(self.fighters) if s != player and not f.out and f.place is not None]

    def _teleport_codes(self, player: int) -> list[int]:
        me = self.fighters[player]
        if me.place not in self.board.teleporters or self.turn.mp < 1:
            return []
        return [TELEPORT | pad << B_SHIFT for pad in self.board.teleporters if pad != me.place]

    # --- moving helpers -------------------------------------------------------------------
    def _walk(self, player: int, path: list[int], events: list[Event]) -> None:
        """« A chaque fois qu'un combattant traverse une case contenant de l'acide, celui-ci subit une attaque de 2D. »"""
        fighter = self.fighters[player]
        for index, place in enumerate(path):
            fighter.place = place
            self.turn.mp -= 1
            events.append({"type": "stepped", "player": player, "place": place, "mp": self.turn.mp})
            if place in self.board.acid:
                lost = self._attack_roll(None, player, 2, 0, events, purpose="acid")
                self._damage(player, lost, events)
                if self._after_wound(player, None, events, resume=path[index + 1 :]):
                    return
            self._search_in_passing(player, place, events)

    def _land(self, player: int, place: int, events: list[Event]) -> None:
        """Landing from a jump or a teleport card: acid, then the pick-up square landed on."""
        if place in self.board.acid:
            lost = self._attack_roll(None, player, 2, 0, events, purpose="acid")
            self._damage(player, lost, events)
            if self._after_wound(player, None, events):
                return
        self._search_in_passing(player, place, events)

    def _search_in_passing(self, player: int, place: int, events: list[Event]) -> None:
        """« Si un joueur passe sur une case comportant un symbole d'arme (bleu) ou de gadget (vert), il a 50% de chance
        de piocher une carte. Il lance alors immédiatement 1D et si il fait 4-5-6, il pioche une carte. Un joueur peut
        activer autant de case « objet » qu'il le souhaite, mais il ne peut activer 2 fois la même case dans un même
        tour. » Passing is what activates a square (a square another fighter holds too): standing on one does not."""
        if place in self.board.weapon_pickups:
            deck = WEAPON
        elif place in self.board.gadget_pickups:
            deck = GADGET
        else:
            return
        if place in self.turn.pickups_used:
            return
        self.turn.pickups_used.append(place)
        roll = self.dice.d6()
        events.append({"type": "dice", "purpose": "pick_up", "player": player, "dice": [roll], "place": place})
        if roll >= 4:
            self._draw(deck, player, events, reason="pick_up")

    def _free_to_stop(self, place: int, player: int) -> None:
        occupant = self.occupant(place)
        if occupant is not None and occupant != player:
            raise IllegalAction("a fighter may pass through an occupied square but not stop on it")

    def _check_path(self, player: int, path: Any) -> list[int]:
        if (
            not isinstance(path, list)
            or not path
            or not all(isinstance(p, int) and not isinstance(p, bool) for p in path)
        ):
            raise IllegalAction("a move needs a path of squares")
        fighter = self.fighters[player]
        if len(path) > self.turn.mp:
            raise IllegalAction(
                "too far: {needed} movement points needed, {left} left", needed=len(path), left=self.turn.mp
            )
        at = fighter.place
        for place in path:
            if not 0 <= place < len(self.board.places):
                raise IllegalAction("no such square")
            if place not in self.board.steps[at].values():  # type: ignore[index]  # moving: the fighter is on the board
                raise IllegalAction("moves are orthogonal, one square at a time, never through a wall or a closed door")
            at = place
        self._free_to_stop(path[-1], player)
        return path


def _without(codes: list[int], kind: int, held: list[int]) -> list[int]:
    """``codes`` (a cached list of places as codes of ``kind``, each place once) without the places in ``held``."""
    for place in held:
        code = kind | place << B_SHIFT
        if code in codes:
            at = codes.index(code)
            codes = codes[:at] + codes[at + 1 :]
    return codes


def do_move(state: Movement, player: int, action: Action, events: list[Event]) -> None:
    """« Les déplacements sont orthogonaux » ; « Un combattant peut passer sur une case occupée [...] mais ne peut
    s'arrêter dessus. »"""
    state._on_board(player)
    path = state._check_path(player, action.get("path"))
    state._walk(player, list(path), events)


def do_jump(state: Movement, player: int, action: Action, events: list[Event]) -> None:
    """« Un saut coûte le double en déplacement » ; « Un saut se fait en ligne droite ; On ne peut pas sauter un mur. »"""
    state._on_board(player)
    to = state._place_arg(action)
    line = state._jump_line(player, to)
    if line is None:
        me = state.fighters[player].place
        assert me is not None
        a, b = state.board.places[me], state.board.places[to]
        if a.row != b.row and a.col != b.col:
            raise IllegalAction("a jump goes in a straight line")
        length = abs(a.row - b.row) + abs(a.col - b.col)
        if length == 0:
            raise IllegalAction("a jump needs a direction")
        if length > state.jump_length(player):
            raise IllegalAction("too far: a jump is at most {limit} squares (Vitesse)", limit=state.jump_length(player))
        if length * state.stat(player, "jump_cost") > state.turn.mp:
            raise IllegalAction(
                "too far: the jump costs {needed} movement points, {left} left",
                needed=length * state.stat(player, "jump_cost"),
                left=state.turn.mp,
            )
        state._free_to_stop(to, player)
        raise IllegalAction("a jump never goes over a wall or through a closed door")
    state.turn.mp -= len(line) * state.stat(player, "jump_cost")
    state.fighters[player].place = to
    events.append({"type": "jumped", "player": player, "over": line[:-1], "place": to, "mp": state.turn.mp})
    state._land(player, to, events)


def do_teleport(state: Movement, player: int, action: Action, events: list[Event]) -> None:
    """« Téléporteur : permet de se téléporter d'une case téléporteur à une autre pour 1 point de mouvement. »"""
    here = state._on_board(player)
    to = state._place_arg(action)
    if here not in state.board.teleporters or to not in state.board.teleporters or to == here:
        raise IllegalAction("teleporters lead from one teleporter to another")
    if state.turn.mp < 1:
        raise IllegalAction("too far: teleporting costs 1 movement point")
    state.turn.mp -= 1
    state._arrive(player, to, events, how="teleporter")
