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
from .bots import Bot, _weapon_strength, heuristic_bot
from .rng import Dice
from .state import State

DEFAULT_SECONDS = 0.7  # wall time per decision: a whole decision stays under the second
MAX_CANDIDATES = 6  # the heuristic's choice and the other actions that are not moves
MOVE_CANDIDATES = 3  # and this many of the most promising moves
HALVING_ROUNDS = 4  # after this many rounds, then twice as many, the worse half of the candidates is dropped
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
    """A few actions worth comparing: the heuristic's own choice first, then the actions that change the fight
    (each target with its two strongest weapons, pick-ups, cards, healing, ending the turn) and the most promising
    moves. Dropping a card in play is left to the heuristic (it is almost never worth a rollout), so that it no
    longer crowds the moves out of the candidates."""
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
        for action in ranked[:MOVE_CANDIDATES]:
            if action not in chosen:
                chosen.append(action)
    return chosen


def _rollout(world: State, player: int, action: Action, dice: Dice, deadline: float | None) -> float | None:
    """Play ``action`` in one determinization, then heuristic bots until the next opponent's turn is over; None when
    the deadline passes first (the round is then left out: a rollout cut short would be judged on half a turn)."""
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
        if deadline is not None and time.perf_counter() > deadline:
            return None
        seat = world.current_players()[0]
        world.apply(heuristic_bot(world, seat, dice))
    return _value(world, player)


def search_bot_with(seconds: float = DEFAULT_SECONDS, rounds: int | None = None) -> Bot:
    """A search bot that spends at most about ``seconds`` of wall time per decision, or exactly ``rounds`` rounds
    when given (reproducible whatever the machine's load: tests)."""

    def search_bot(state: State, player: int, dice: Dice) -> Action:
        deadline = None if rounds is not None else time.perf_counter() + seconds
        actions = state.legal_actions(player)
        if len(actions) == 1 or state.phase == "placement" or state.pending is not None:
            return heuristic_bot(state, player, dice)
        candidates = _candidates(state, player, actions, dice)
        fallback = candidates[0]  # the heuristic's choice
        if len(candidates) == 1:
            return fallback
        totals = [0.0] * len(candidates)
        alive = list(range(len(candidates)))  # the candidates still compared (successive halving)
        done, prune_at = 0, HALVING_ROUNDS
        while rounds is None or done < rounds:
            # Common random numbers: in one round every candidate meets the same imagined world and dice.
            seed = dice.next64()
            outcomes: list[float] = []
            for index in alive:
                world = determinize(state, player, Dice(seed))
                value = _rollout(world, player, candidates[index], Dice(seed ^ 0x5EED), deadline)
                if value is None:
                    break
                outcomes.append(value)
            if len(outcomes) < len(alive):
                break  # out of time in the middle of a round: the completed rounds decide
            for index, value in zip(alive, outcomes, strict=True):
                totals[index] += value
            done += 1
            if done == prune_at and len(alive) > 2:
                # The worse half goes; the heuristic's choice stays, as the yardstick of MARGIN.
                ranked = sorted(alive, key=lambda i: (-totals[i], i))
                alive = sorted({0, *ranked[: (len(alive) + 1) // 2]})
                prune_at *= 2
            if deadline is not None and time.perf_counter() > deadline:
                # Also here, not only inside the rollouts: a rollout that ends the game at once (the last turn's
                # discard) never reaches their check, and the search went on forever.
                break
        if done < MIN_ROUNDS:
            return fallback
        best = max(alive, key=lambda i: (totals[i], -i))
        return candidates[best] if (totals[best] - totals[0]) / done >= MARGIN else fallback

    return search_bot


search_bot = search_bot_with()
