"""The search bot: determinized rollouts over the engine's own API, with a time budget per action.

For each decision worth thinking about, the bot picks a handful of candidate actions (the heuristic bot's choice,
every attack, card and pick-up action, and the most promising moves), then, until its budget runs out, plays each
candidate in a *determinization* of the game and lets heuristic bots play on to the end of the next opponent's
turn; the candidate with the best average outcome wins.

It never peeks at hidden information: a determinization is a clone of the state in which every card the bot
cannot see (the other fighters' hands, the decks' order, cards under a marker it does not stand on) is dealt again
at random among the same places, keeping each hand's size per deck (draws are public, the cards are not), and
whose dice are a fresh generator (the real one's position would tell the next rolls).
"""

from __future__ import annotations

import time

from .base import Action
from .bots import Bot, heuristic_bot
from .rng import Dice
from .state import State

DEFAULT_SECONDS = 0.5
MAX_CANDIDATES = 5
MIN_ROUNDS = 3  # below this many rollouts each, the heuristic's own choice stands
MARGIN = 2.0  # and another candidate must beat it by this much on average (dice make rollouts noisy)
ROLLOUT_ACTIONS = 120  # a safety cap: rollouts stop at the end of the next opponent's turn long before


def determinize(state: State, player: int, dice: Dice) -> State:
    """A copy of ``state`` as ``player`` may imagine it: hidden cards dealt again, fresh dice."""
    world = state.clone()
    me = world.fighters[player]
    for deck in world.decks:
        slots: list[tuple[list[int], int]] = []  # (list, index) of every hidden card of this deck
        pool: list[int] = []
        for seat, fighter in enumerate(world.fighters):
            if seat == player:
                continue
            for index, uid in enumerate(fighter.hand):
                if world.card(uid).deck == deck:
                    slots.append((fighter.hand, index))
                    pool.append(uid)
        for index, uid in enumerate(world.decks[deck]):
            slots.append((world.decks[deck], index))
            pool.append(uid)
        for pile in world.piles.values():
            if me.out or me.place != pile["place"]:
                for index, uid in enumerate(pile["cards"]):
                    if world.card(uid).deck == deck:
                        slots.append((pile["cards"], index))
                        pool.append(uid)
        # Sorted first: the shuffle must not depend on where the hidden cards really are.
        pool.sort()
        dice.shuffle(pool)
        for (cards, index), uid in zip(slots, pool, strict=True):
            cards[index] = uid
    world.dice = Dice(dice.next64())
    return world


def _value(state: State, player: int) -> float:
    """How good the position is for ``player``: frags first, then Santé and what it holds."""
    if state.is_over():
        winner = state.winner()
        return 1000.0 if winner == player else -1000.0 if winner is not None else 0.0
    value = 0.0
    best_other = max((f.frags for s, f in enumerate(state.fighters) if s != player), default=0)
    for seat, fighter in enumerate(state.fighters):
        standing = 0.0 if fighter.out else max(0, fighter.hp) / max(1, fighter.health)
        worth = 40.0 * fighter.frags + 6.0 * standing + 1.5 * len(fighter.weapons) + 0.6 * len(fighter.hand)
        worth += 2.0 * fighter.blood + (2.0 if fighter.armour else 0.0)
        value += worth if seat == player else -worth / max(1, len(state.fighters) - 1)
    me = state.fighters[player]
    return value + 20.0 * (me.frags - best_other)


def _candidates(state: State, player: int, actions: list[Action], dice: Dice) -> list[Action]:
    """A few actions worth comparing: the heuristic's own choice, every non-move action, the best-looking moves."""
    chosen: list[Action] = [heuristic_bot(state, player, dice)]
    moves = [a for a in actions if a["type"] in ("move", "jump") or (a["type"] == "play" and "to" in a)]
    others = [a for a in actions if not (a["type"] in ("move", "jump") or (a["type"] == "play" and "to" in a))]
    for action in others:
        if action not in chosen:
            chosen.append(action)
    if moves:
        board = state.board
        pickups = board.weapon_pickups | board.gadget_pickups
        enemies = [f.place for s, f in enumerate(state.fighters) if s != player and not f.out and f.place is not None]
        occupied = {p: s for p, s in state.occupied().items() if s != player}

        def promise(action: Action) -> float:
            passed = action.get("path") or [action["to"]]
            end = passed[-1]
            score = 3.0 * len({p for p in passed if p in pickups and p not in state.turn.pickups_used})
            score -= 3.0 * sum(1 for p in passed if p in board.acid)
            score += 2.0 * sum(1 for e in enemies if state.line_of_sight(end, e, occupied))
            score += 2.0 if state.blood.get(end) or any(p["place"] == end for p in state.piles.values()) else 0.0
            return score

        ranked = sorted(moves, key=promise, reverse=True)
        for action in ranked[: max(2, MAX_CANDIDATES - len(chosen))]:
            if action not in chosen:
                chosen.append(action)
    return chosen[: max(MAX_CANDIDATES, 2)]


def _rollout(world: State, player: int, action: Action, dice: Dice) -> float:
    """Play ``action`` in one determinization, then heuristic bots until the next opponent's turn is over."""
    world.apply(action)
    turns_left = 2 if world.turn.player == player else 1
    last_turn = world.turn.number
    for _ in range(ROLLOUT_ACTIONS):
        if world.is_over():
            break
        if world.turn.number != last_turn:
            last_turn = world.turn.number
            turns_left -= 1
            if turns_left <= 0:
                break
        seat = world.current_players()[0]
        world.apply(heuristic_bot(world, seat, dice))
    return _value(world, player)


def search_bot_with(seconds: float = DEFAULT_SECONDS, rounds: int | None = None) -> Bot:
    """A search bot that spends about ``seconds`` of wall time per decision (at least one round of rollouts), or
    exactly ``rounds`` rounds when given (reproducible whatever the machine's load: tests)."""

    def search_bot(state: State, player: int, dice: Dice) -> Action:
        actions = state.legal_actions(player)
        if len(actions) == 1 or state.phase == "placement" or state.pending is not None:
            return heuristic_bot(state, player, dice)
        candidates = _candidates(state, player, actions, dice)
        fallback = candidates[0]  # the heuristic's choice
        if len(candidates) == 1:
            return fallback
        totals = [0.0] * len(candidates)
        counts = [0] * len(candidates)
        deadline = time.perf_counter() + seconds
        while True:
            # Common random numbers: in one round every candidate meets the same imagined world and dice.
            seed, began = dice.next64(), time.perf_counter()
            for index, action in enumerate(candidates):
                if rounds is None and time.perf_counter() > deadline:
                    # Out of time in the middle of a round: the completed rounds decide (or the heuristic).
                    del totals[index:], counts[index:], candidates[index:]
                    break
                world = determinize(state, player, Dice(seed))
                totals[index] += _rollout(world, player, action, Dice(seed ^ 0x5EED))
                counts[index] += 1
            if len(counts) < 2:
                return fallback
            done, now = counts[0], time.perf_counter()
            if rounds is not None:
                if done >= rounds:
                    break
            elif now + (now - began) > deadline:
                break  # another round would overrun the budget (the machine may be slow: one round is measured)
        if min(counts) < MIN_ROUNDS:
            return fallback
        means = [total / count for total, count in zip(totals, counts, strict=True)]
        best = max(range(len(candidates)), key=lambda i: (means[i], -i))
        return candidates[best] if means[best] >= means[0] + MARGIN else fallback

    return search_bot


search_bot = search_bot_with()
