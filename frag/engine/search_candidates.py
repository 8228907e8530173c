"""The few actions the search bot compares at one decision.

Rollouts are the costly part of the search, so the candidates are chosen to differ in kind rather than to be the
heuristic's top few of one kind: the heuristic's own choice, the actions that change the fight (each target with
its two strongest weapons, pick-ups, cards, healing, ending the turn), and moves picked by different aims — the
richest path (pick-ups and markers on the way, a shot when one is left), the best shot, and the best cover (out of
every enemy's sight, as far from them as the move allows). The heuristic never looks for cover: after its attack it
keeps walking towards pick-ups and the nearest enemy, and often ends its turn in the enemy's sight; the cover move
lets the rollouts say when that costs a frag.
"""

from __future__ import annotations

from . import combat
from .base import Action
from .bots import _weapon_strength, heuristic_bot
from .rng import Dice
from .state import State

MAX_CANDIDATES = 6  # the heuristic's choice and the other actions that are not moves
RICH_MOVES = 2  # the richest paths
COVER_MOVES = 1  # the best cover
SHOT_MOVES = 1  # the best shot, when an attack is left


def candidates(state: State, player: int, actions: list[Action], dice: Dice) -> list[Action]:
    """The heuristic's choice first (the yardstick the others must beat), then the other kinds of action, then the
    moves. Dropping a card in play is left to the heuristic: it is almost never worth a rollout."""
    chosen: list[Action] = [heuristic_bot(state, player, dice)]
    moves = [a for a in actions if a["type"] in ("move", "jump") or (a["type"] == "play" and "to" in a)]
    attacks: dict[int, list[Action]] = {}
    for action in actions:
        kind = action["type"]
        if kind == "attack":
            attacks.setdefault(action["target"], []).append(action)
        elif kind not in ("move", "jump", "drop") and not (kind == "play" and "to" in action) and action not in chosen:
            chosen.append(action)
    for choices in attacks.values():
        for action in sorted(choices, key=lambda a: -_weapon_strength(state, a))[:2]:
            if action not in chosen:
                chosen.append(action)
    chosen = chosen[:MAX_CANDIDATES]
    for action in _moves(state, player, moves):
        if action not in chosen:
            chosen.append(action)
    return chosen


def _end(action: Action) -> tuple[int, list[int]]:
    passed = action.get("path") or [action["to"]]
    return passed[-1], passed


def _moves(state: State, player: int, moves: list[Action]) -> list[Action]:
    """The moves worth a rollout, each aim's best in turn (a move may serve two aims: it is then proposed once)."""
    me = state.fighters[player]
    if not moves or me.place is None:
        return []
    board = state.board
    pickups = board.weapon_pickups | board.gadget_pickups
    used = state.turn.pickups_used
    marked = {p["place"] for p in state.piles.values()}
    enemies = [f for s, f in enumerate(state.fighters) if s != player and not f.out and f.place is not None]
    occupied = {p: s for p, s in state.occupied().items() if s != player}
    attacks_left = state.turn.attacks < state.attacks_allowed(player)
    accuracy = state.stat(player, "accuracy") + state.stat(player, "accuracy_dice")

    shot: dict[int, float] = {}  # per end square: the best chance to hit an enemy in sight, -1 when none is
    nearest: dict[int, int] = {}  # per end square: the distance to the nearest enemy
    for action in moves:
        end, _passed = _end(action)
        if end in shot:
            continue
        best, closest = -1.0, 10_000
        for enemy in enemies:
            distance = board.distance(end, enemy.place)  # type: ignore[arg-type]  # enemies are on the board
            closest = min(closest, distance)
            if state.line_of_sight(end, enemy.place, occupied):  # type: ignore[arg-type]  # as above
                best = max(best, combat.win_chance(accuracy, distance) / max(1, enemy.hp))
        shot[end], nearest[end] = best, closest

    def riches(action: Action) -> float:
        end, passed = _end(action)
        score = 3.0 * len({p for p in passed if p in pickups and p not in used})
        score -= 3.0 * sum(1 for p in passed if p in board.acid)
        if end not in state.turn.looted and (state.blood.get(end) or end in marked):
            score += 2.0
        if shot[end] >= 0:
            # In sight: a chance to shoot while an attack is left, the enemy's first shot otherwise.
            score += 4.0 * shot[end] if attacks_left else -2.0
        return score

    ranked = sorted(moves, key=riches, reverse=True)
    picked = ranked[:RICH_MOVES]
    if attacks_left:
        aiming = [a for a in moves if shot[_end(a)[0]] >= 0]
        picked += sorted(aiming, key=lambda a: (shot[_end(a)[0]], riches(a)), reverse=True)[:SHOT_MOVES]
    if enemies:
        hidden = [a for a in moves if shot[_end(a)[0]] < 0]
        picked += sorted(hidden, key=lambda a: nearest[_end(a)[0]] + riches(a), reverse=True)[:COVER_MOVES]
    return picked
