"""The heuristic bot as it was before it read codes (main at ebece48, ``frag/engine/bots.py``), kept verbatim as the
yardstick of ``tests/frag/test_heuristic_codes.py``: the code-reading bot must make exactly its choices."""

from __future__ import annotations

from typing import Any

from frag.engine import combat
from frag.engine.base import MOVEMENT, Action
from frag.engine.board import Board
from frag.engine.cards import PISTOL
from frag.engine.rng import Dice
from frag.engine.state import State

_pickup_distance: dict[tuple[str, tuple[str, ...]], dict[int, int]] = {}


def _distance_to_pickups(board: Board) -> dict[int, int]:
    """Steps from each place to the nearest pick-up square other than itself: a square is searched by passing over
    it (« Si un joueur passe sur une case »), so standing on one is worth no more than standing beside it."""
    # Keyed by the grid too: two boards may share a name (test boards do).
    key = (board.name, tuple(board.grid))
    cached = _pickup_distance.get(key)
    if cached is None:
        cached = {}
        for pickup in board.weapon_pickups | board.gadget_pickups:
            for place, (steps, _acid, _prev) in board.walk_costs(pickup, 10_000).items():
                if place != pickup:
                    cached[place] = min(cached.get(place, steps), steps)
        _pickup_distance[key] = cached
    return cached


_walk_distance: dict[tuple[str, tuple[str, ...], int], dict[int, int]] = {}


def _steps_to(board: Board, target: int) -> dict[int, int]:
    """Steps on foot from every place to ``target``, one-way doors honoured (a breadth-first search backwards along
    the board's steps; the board does not change, so it is cached per board and target)."""
    key = (board.name, tuple(board.grid), target)
    cached = _walk_distance.get(key)
    if cached is None:
        backwards: dict[int, list[int]] = {}
        for place, steps in enumerate(board.steps):
            for nxt in steps.values():
                backwards.setdefault(nxt, []).append(place)
        cached, frontier = {target: 0}, [target]
        while frontier:
            following = []
            for place in frontier:
                for previous in backwards.get(place, ()):
                    if previous not in cached:
                        cached[previous] = cached[place] + 1
                        following.append(previous)
            frontier = following
        _walk_distance[key] = cached
    return cached


def _first(actions: list[Action], kind: str, **match: Any) -> Action | None:
    for action in actions:
        if action["type"] == kind and all(action.get(k) == v for k, v in match.items()):
            return action
    return None


def _weapon_strength(state: State, action: Action) -> float:
    weapon = action["weapon"]
    card = PISTOL if weapon == PISTOL.id else state.card(weapon)
    return card.dice + card.extra_damage * 3.5


def heuristic_bot(state: State, player: int, dice: Dice) -> Action:
    """Heals when dying, shoots when the odds are good, loots, then walks towards pick-ups and weak targets."""
    actions = state.legal_actions(player)
    me = state.fighters[player]
    kinds = {a["type"] for a in actions}

    if state.pending is not None:
        heal = _first(actions, "play") or _first(actions, "spend_blood")
        return heal or actions[0]
    if "place" in kinds:
        return actions[dice.below(len(actions))]
    if "discard" in kinds:
        # Keep weapons and healing; let the rest go first.
        def keep_value(action: Action) -> int:
            card = state.card(action["card"])
            return 3 if card.is_weapon else 2 if card.effect in ("heal", "armour") else 1

        return min((a for a in actions if a["type"] == "discard"), key=keep_value)

    # Cards worth playing at once: armour, weapons into play, healing when hurt, useful modifiers.
    for action in actions:
        if action["type"] != "play":
            continue
        card = state.card(action["card"])
        if card.effect == "disconnect":
            # Off the board until its next turn, the leader one frag from victory cannot score on anyone's turn.
            target = state.fighters[action["target"]]
            if target.frags > me.frags and target.frags >= state.config["frags_to_win"] - 1:
                return action
            continue
        if card.effect == "teleport":
            continue
        if card.is_weapon or card.effect in ("armour", "draw", "reload"):
            return action
        if card.effect == "heal" and me.hp < me.health:
            return action
        if card.effect == "movement" and state.phase != MOVEMENT:
            return action
        if card.effect == "modifier" and card.scope != "self" and card.value > 0 and card.op != "set":
            continue
        if (
            card.effect == "modifier"
            and card.stat in ("speed", "defence_dice", "hand_limit")
            and state.phase == MOVEMENT
        ):
            return action
    if (spend := _first(actions, "spend_blood")) and me.hp < me.health:
        return spend
    if state.phase == MOVEMENT:
        return _teleport_choice(state, player, actions) or _first(actions, "roll") or actions[0]

    # Loot where we stand.
    for kind in ("take_weapon", "take_blood"):
        found = _first(actions, kind)
        if found is not None and (kind != "take_blood" or me.hp < me.health or me.blood < 2):
            return found

    # Shoot the weakest target when the accuracy roll is likely enough.
    attacks = [a for a in actions if a["type"] == "attack"]
    if attacks and me.place is not None:
        accuracy = state.stat(player, "accuracy") + state.stat(player, "accuracy_dice")

        def attack_score(action: Action) -> float:
            target = state.fighters[action["target"]]
            chance = combat.win_chance(accuracy, state.board.distance(me.place, target.place))  # type: ignore[arg-type]  # attacker and target are on the board
            return chance * _weapon_strength(state, action) / max(1, target.hp)

        best = max(attacks, key=attack_score)
        target = state.fighters[best["target"]]
        if combat.win_chance(accuracy, state.board.distance(me.place, target.place)) >= 0.5:  # type: ignore[arg-type]  # both on the board
            return best

    moves = [a for a in actions if a["type"] in ("move", "jump", "teleport")]
    if moves and me.place is not None:
        best_move = _best_move(state, player, moves)
        if best_move is not None:
            return best_move
    return _first(actions, "end_turn") or actions[0]


GOOD_SHOT = 0.5


def _best_shot(state: State, player: int, place: int) -> float:
    """The best chance to hit a fighter in sight from ``place`` (0 when none is in sight or no attack is left)."""
    if state.turn.attacks >= state.attacks_allowed(player):
        return 0.0
    accuracy = state.stat(player, "accuracy") + state.stat(player, "accuracy_dice")
    occupied = {p: s for p, s in state.occupied().items() if s != player}
    best = 0.0
    for seat, enemy in enumerate(state.fighters):
        if seat == player or enemy.out or enemy.place is None or enemy.place == place:
            continue
        if state.line_of_sight(place, enemy.place, occupied):
            best = max(best, combat.win_chance(accuracy, state.board.distance(place, enemy.place)))
    return best


def _teleport_choice(state: State, player: int, actions: list[Action]) -> Action | None:
    """« à moins que vous ne décidez de jouer une carte de téléportation » : a teleport card replaces the movement
    roll and leaves no movement point, so it is played only when the square it leads to offers clearly more than
    an ordinary roll would: an unsearched pick-up square, markers to loot, a likely shot, or several of these."""
    teleports = [a for a in actions if a["type"] == "play" and "to" in a]
    me = state.fighters[player]
    if not teleports or me.place is None:
        return None
    board = state.board

    def value(place: int, *, pickup: bool) -> float:
        worth = 6.0 if pickup else 0.0
        if state.blood.get(place) or any(p["place"] == place for p in state.piles.values()):
            worth += 7
        shot = _best_shot(state, player, place)
        return worth + (5 * shot if shot >= GOOD_SHOT else 0.0)

    # An ordinary roll brings about 3 points per die of Vitesse: a pick-up square within that is as good as reached.
    reach = 3 * state.stat(player, "speed")
    rolling = value(me.place, pickup=_distance_to_pickups(board).get(me.place, 10_000) <= reach)
    # Never onto acid nor onto another fighter (the ejected fighter would land who knows where).
    occupied = state.occupied()
    candidates = [a for a in teleports if a["to"] not in board.acid and a["to"] not in occupied]
    if not candidates:
        return None
    pickups = board.weapon_pickups | board.gadget_pickups

    def worth(action: Action) -> tuple[float, int]:
        return value(action["to"], pickup=action["to"] in pickups), -action["to"]

    best = max(candidates, key=worth)
    return best if worth(best)[0] >= rolling + 2 else None


def _best_move(state: State, player: int, moves: list[Action]) -> Action | None:
    board = state.board
    me = state.fighters[player]
    pickup_distance = _distance_to_pickups(board)
    accuracy = state.stat(player, "accuracy")
    occupied = state.occupied()
    del occupied[me.place]  # type: ignore[arg-type]  # a fighter offered moves is on the board
    enemies = [f for s, f in enumerate(state.fighters) if s != player and not f.out and f.place is not None]
    enemy_places = [e.place for e in enemies if e.place is not None]
    attacks_left = state.turn.attacks < state.attacks_allowed(player)

    pickups = board.weapon_pickups | board.gadget_pickups

    # A full hand makes another card worth little (it would be discarded): then the bot goes looking for a fight.
    card_worth = 6.0 if len(me.hand) < state.stat(player, "hand_limit") else 1.0

    # Read once per decision rather than once per move (the same numbers, in the same order).
    enemy_steps = [_steps_to(board, target) for target in enemy_places]
    used = state.turn.pickups_used
    marked = {p["place"] for p in state.piles.values()}

    def score(place: int, acid: int, passed: tuple[int, ...]) -> float:
        value = -0.3 * pickup_distance.get(place, 20) * card_worth / 6 - 4 * acid
        # Every unsearched pick-up square on the way is searched in passing.
        value += card_worth * len({p for p in passed if p in pickups and p not in used})
        # Closing in on the nearest enemy: games are won by frags, not by cards.
        if enemies:
            value -= 0.25 * min(steps.get(place, 60) for steps in enemy_steps)
        if place not in state.turn.looted and (state.blood.get(place) or place in marked):
            value += 7
        if attacks_left:
            for enemy in enemies:
                if state.line_of_sight(place, enemy.place, occupied):  # type: ignore[arg-type]  # enemies are on the board
                    chance = combat.win_chance(accuracy, board.distance(place, enemy.place))  # type: ignore[arg-type]  # enemies are on the board
                    value += 5 * chance / max(1, enemy.hp)
        return value

    current = score(me.place, 0, ())  # type: ignore[arg-type]  # on the board, as above
    best, best_value = None, current + 0.5
    for move in moves:
        if move["type"] == "move":
            # The acid and pick-up squares on the path, as the board keeps them per path (the same counts).
            place, (acid, passed) = move["path"][-1], board.path_features(move["path"])
        else:
            place, acid, passed = move["to"], int(move["to"] in board.acid), (move["to"],)
        value = score(place, acid, passed) - (0.5 if move["type"] == "jump" else 0)
        if value > best_value:
            best, best_value = move, value
    return best
