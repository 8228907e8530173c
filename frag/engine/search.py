"""The search bot: determinized rollouts over the engine's own API, with a budget of rollouts per action.

For each decision worth thinking about, the bot picks a handful of candidate actions (``search_candidates``: the
heuristic bot's choice, the attacks, card and pick-up actions, and moves of different aims), then plays each
candidate in *determinizations* of the game and lets heuristic bots play on to the end of the next opponent's turn,
where the position is valued by its fitted chance to win (``leaf``: frags, Santé, gear, blood markers, sight).
Candidates are compared by successive halving: the budget is spread over phases, and after each phase the worse
half is dropped, so that the last rollouts go to the close contenders. The heuristic's choice stands unless another beats it by ``MARGIN``.

The budget is a number of rollouts, not seconds: with the same seed the bot plays the same game on a quiet machine
and on a loaded one. A clock cap (one second of wall time by default) only keeps a person from waiting; a
simulation may cap process time instead, so that the machine's load does not weaken the bot.

It never peeks at hidden information: a determinization is a clone of the state in which every card the bot
cannot see (the other fighters' hands, the decks' order, cards under a marker it does not stand on) is dealt again
at random among the same places, keeping each hand's size per deck (draws are public, the cards are not), and
whose dice are a fresh generator (the real one's position would tell the next rolls).
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable
from dataclasses import dataclass

from .base import Action
from .bots import Bot, heuristic_bot
from .codes import B_MASK, B_SHIFT, END_TURN, JUMP, KIND_MASK, MOVE
from .heuristic import heuristic_code
from .leaf import win_chance
from .rng import Dice
from .search_candidates import candidates as _candidates
from .state import State

ROLLOUTS = 480  # the budget per decision, in rollouts (about 0.4 s of CPU here)
ROLLOUTS_PER_CANDIDATE = 64  # a decision between few candidates spends less than the whole budget
CAP_SECONDS = 1.0  # the clock's safety cap per decision: a rollout cut short is left out
MIN_ROUNDS = 3  # below this many rollouts each, the heuristic's own choice stands
# And another candidate must beat it by this much on average, in points of win chance out of 100 (dice make rollouts
# noisy). A frag in mid-game is worth about ten points; the hand-set leaf's margin was a thirtieth of a frag too.
MARGIN = 0.5
ROLLOUT_ACTIONS = 120  # a safety cap: rollouts stop at the end of the next opponent's turn long before


@dataclass
class SearchStats:
    """What a search bot did, for ``frag_sim``: decisions searched, rollouts played, decisions the cap cut short."""

    decisions: int = 0
    rollouts: int = 0
    capped: int = 0


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
    """How good the position is for ``player``: its fitted chance to win (``leaf``), in points out of 100."""
    return 100.0 * win_chance(state, player)


def _rollout(
    world: State, player: int, action: Action, dice: Dice, deadline: float | None, clock: Callable[[], float]
) -> float | None:
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
        if deadline is not None and clock() > deadline:
            return None
        seat = world.current_players()[0]
        chosen = heuristic_code(world, seat, dice)  # the heuristic bot's choice, undecoded until it is applied
        if seat == player and COVER_IN_ROLLOUTS:
            chosen = _take_cover(world, seat, chosen)
        world.apply_code(seat, chosen)
    return _value(world, player)


COVER_IN_ROLLOUTS = True


def _take_cover(world: State, seat: int, code: int) -> int:
    """The bot's own turn in a rollout: the heuristic's choice, except that once its attacks are spent it walks out
    of every enemy's sight (the farthest such square, no acid on the way) rather than stay in it, as the search itself
    does when the cover move wins its rollouts. Without this, a move that sets up a shot was judged as if the bot then
    walked up to the enemy and gave it the first shot of its turn. Codes in, code out (``codes``)."""
    kind = code & KIND_MASK
    if kind not in (MOVE, JUMP, END_TURN) or world.phase != "action":
        return code
    me = world.fighters[seat]
    if me.out or me.place is None or world.turn.attacks < world.attacks_allowed(seat) or world.turn.mp <= 0:
        return code
    enemies = [f.place for s, f in enumerate(world.fighters) if s != seat and not f.out and f.place is not None]
    if not enemies:
        return code
    occupied = {p: s for p, s in world.occupied().items() if s != seat}

    def seen(place: int) -> bool:
        return any(world.line_of_sight(place, enemy, occupied) for enemy in enemies)

    end = code >> B_SHIFT & B_MASK if kind != END_TURN else me.place
    if not seen(end):
        return code
    board, start = world.board, me.place
    walks = [c for c in world.legal_codes(seat) if c & KIND_MASK == MOVE]
    walks.sort(key=lambda c: -min(board.distance(c >> B_SHIFT & B_MASK, enemy) for enemy in enemies))
    for walk in walks:
        place = walk >> B_SHIFT & B_MASK
        if not board.path_features(board.path_to(start, place))[0] and not seen(place):
            return walk
    return code


def _phases(alive: int) -> int:
    """Phases left for ``alive`` candidates: one per halving down to two, and the last between those two."""
    return 1 + max(0, math.ceil(math.log2(alive / 2)))


def search_bot_with(
    rollouts: int = ROLLOUTS,
    cap: float | None = CAP_SECONDS,
    clock: Callable[[], float] = time.perf_counter,
    stats: SearchStats | None = None,
) -> Bot:
    """A search bot that plays at most ``rollouts`` rollouts per decision, and stops when ``clock`` has run ``cap``
    seconds (``None``: never, for tests that must not depend on the machine)."""

    def search_bot(state: State, player: int, dice: Dice) -> Action:
        deadline = None if cap is None else clock() + cap
        actions = state.legal_actions(player)
        if len(actions) == 1 or state.phase == "placement" or state.pending is not None:
            return heuristic_bot(state, player, dice)
        candidates = _candidates(state, player, actions, dice)
        fallback = candidates[0]  # the heuristic's choice
        if len(candidates) == 1:
            return fallback
        budget = min(rollouts, ROLLOUTS_PER_CANDIDATE * len(candidates))
        totals = [0.0] * len(candidates)
        alive = list(range(len(candidates)))  # the candidates still compared
        done = spent = 0
        capped = False
        while not capped:
            phases = _phases(len(alive))
            rounds = (budget - spent) // phases // len(alive)
            if rounds == 0:
                break
            for _ in range(rounds):
                # Common random numbers: in one round every candidate meets the same imagined world and dice.
                seed = dice.next64()
                imagined = determinize(state, player, Dice(seed))  # dealt once, copied for each candidate
                outcomes: list[float] = []
                for index in alive:
                    world = imagined.clone()
                    value = _rollout(world, player, candidates[index], Dice(seed ^ 0x5EED), deadline, clock)
                    if value is None:
                        break
                    outcomes.append(value)
                spent += len(outcomes)
                if len(outcomes) < len(alive):
                    capped = True  # out of time in the middle of a round: the completed rounds decide
                    break
                for index, value in zip(alive, outcomes, strict=True):
                    totals[index] += value
                done += 1
                if deadline is not None and clock() > deadline:
                    # Also here, not only inside the rollouts: a rollout that ends the game at once (the last
                    # turn's discard) never reaches their check.
                    capped = True
                    break
            if len(alive) > 2:
                # The worse half goes; the heuristic's choice stays, as the yardstick of MARGIN.
                challengers = sorted((i for i in alive if i != 0), key=lambda i: (-totals[i], i))
                alive = [0, *sorted(challengers[: (len(alive) + 1) // 2 - 1])]
            elif phases == 1:
                break
        if stats is not None:
            stats.decisions += 1
            stats.rollouts += spent
            stats.capped += capped
        if done < MIN_ROUNDS:
            return fallback
        best = max(alive, key=lambda i: (totals[i], -i))
        return candidates[best] if (totals[best] - totals[0]) / done >= MARGIN else fallback

    return search_bot


search_bot = search_bot_with()
