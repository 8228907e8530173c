"""Bots: one picks any legal action, the other goes for pick-ups and weak targets.

Both read only what their seat may know (positions, cards in play, their own hand) and choose
among ``legal_actions``; neither clones the state.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from . import combat
from .board import Board
from .cards import PISTOL
from .rng import Dice
from .state import MOVEMENT, Action, State

Bot = Callable[[State, int, Dice], Action]


def random_bot(state: State, player: int, dice: Dice) -> Action:
    """A uniformly random legal action, chosen by kind first so that long lists (moves) do not drown the rest."""
    actions = state.legal_actions(player)
    by_kind: dict[str, list[Action]] = {}
    for action in actions:
        by_kind.setdefault(action["type"], []).append(action)
    kinds = sorted(by_kind)
    choices = by_kind[kinds[dice.below(len(kinds))]]
    return choices[dice.below(len(choices))]


_pickup_distance: dict[str, dict[int, int]] = {}


def _distance_to_pickups(board: Board) -> dict[int, int]:
    cached = _pickup_distance.get(board.name)
    if cached is None:
        cached = {}
        for pickup in board.weapon_pickups | board.gadget_pickups:
            for place, (steps, _acid, _prev) in board.walk_costs(pickup, 10_000).items():
                cached[place] = min(cached.get(place, steps), steps)
        _pickup_distance[board.name] = cached
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

        return min(actions, key=keep_value)

    # Cards worth playing at once: armour, weapons into play, healing when hurt, useful modifiers.
    for action in actions:
        if action["type"] != "play":
            continue
        card = state.card(action["card"])
        if card.effect == "teleport" or card.effect == "disconnect":
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
    if _first(actions, "spend_blood") and me.hp < me.health:
        return _first(actions, "spend_blood")  # type: ignore[return-value]
    if state.phase == MOVEMENT:
        return _first(actions, "roll") or actions[0]

    # Loot where we stand.
    for kind in ("take_weapon", "take_blood", "pick_up"):
        found = _first(actions, kind)
        if found is not None and (kind != "take_blood" or me.hp < me.health or me.blood < 2):
            return found

    # Shoot the weakest target when the accuracy roll is likely enough.
    attacks = [a for a in actions if a["type"] == "attack"]
    if attacks and me.place is not None:
        accuracy = state.stat(player, "accuracy") + state.stat(player, "accuracy_dice")

        def attack_score(action: Action) -> float:
            target = state.fighters[action["target"]]
            chance = combat.win_chance(accuracy, state.board.distance(me.place, target.place))  # type: ignore[arg-type]
            return chance * _weapon_strength(state, action) / max(1, target.hp)

        best = max(attacks, key=attack_score)
        target = state.fighters[best["target"]]
        if combat.win_chance(accuracy, state.board.distance(me.place, target.place)) >= 0.5:  # type: ignore[arg-type]
            return best

    moves = [a for a in actions if a["type"] in ("move", "jump", "teleport")]
    if moves and me.place is not None:
        best_move = _best_move(state, player, moves)
        if best_move is not None:
            return best_move
    return _first(actions, "end_turn") or actions[0]


def _best_move(state: State, player: int, moves: list[Action]) -> Action | None:
    board = state.board
    me = state.fighters[player]
    pickup_distance = _distance_to_pickups(board)
    accuracy = state.stat(player, "accuracy")
    occupied = state.occupied()
    del occupied[me.place]  # type: ignore[arg-type]
    enemies = [f for s, f in enumerate(state.fighters) if s != player and not f.out and f.place is not None]
    attacks_left = state.turn.attacks < state.attacks_allowed(player)

    def score(place: int, acid: int) -> float:
        value = -0.3 * pickup_distance.get(place, 20) - 4 * acid
        if (place in board.weapon_pickups or place in board.gadget_pickups) and place not in state.turn.pickups_used:
            value += 6
        if place not in state.turn.looted and (
            state.blood.get(place) or any(p["place"] == place for p in state.piles.values())
        ):
            value += 7
        if attacks_left:
            for enemy in enemies:
                if state.line_of_sight(place, enemy.place, occupied):  # type: ignore[arg-type]
                    chance = combat.win_chance(accuracy, board.distance(place, enemy.place))  # type: ignore[arg-type]
                    value += 5 * chance / max(1, enemy.hp)
        return value

    current = score(me.place, 0)  # type: ignore[arg-type]
    best, best_value = None, current + 0.5
    for move in moves:
        if move["type"] == "move":
            place = move["path"][-1]
            acid = sum(1 for p in move["path"] if p in board.acid)
        else:
            place, acid = move["to"], int(move["to"] in board.acid)
        value = score(place, acid) - (0.5 if move["type"] == "jump" else 0)
        if value > best_value:
            best, best_value = move, value
    return best


BOTS: dict[str, Bot] = {"random": random_bot, "heuristic": heuristic_bot}


def play_out(state: State, bots: list[Bot], dice: Dice, *, max_actions: int = 20_000) -> list[Action]:
    """Let the bots play until the game ends; return the actions they took, in order."""
    taken: list[Action] = []
    while not state.is_over() and len(taken) < max_actions:
        player = state.current_players()[0]
        action = bots[player](state, player, dice)
        state.apply(action)
        taken.append(action)
    return taken
