"""The search bot: determinized rollouts over the engine's own API, within a time budget per move.

For each decision it keeps the heuristic bot's best few candidates, then, until the budget is spent,
plays each candidate in a *determinization* of the game — a copy in which everything the player cannot
see has been redrawn from what they know — and lets heuristic bots play on for a short horizon; the
candidate with the best average outcome is chosen.

It never peeks at hidden information. In a determinization:
- each opponent's hand and library (sizes are public) are refilled with cards drawn from what that
  opponent has shown so far (their discard, their cards in play, equipment, SPECIAL zone and destroyed
  zone), or, before they have shown anything, from the library cards of the card pool;
- the player's own library (contents known: it is their own deck, order unknown) is shuffled;
- the copy gets a fresh random generator, so no die roll or shuffle of the real game is foreseen.
"""

from __future__ import annotations

import random
import time

from .bots import Bot, HeuristicBot
from .cards import LIBRARY_TYPES
from .evaluation import evaluate
from .game import State
from .legal import Action
from .openings import book_choice

SETUP_KINDS = ("choose_traits", "choose_skills", "mulligan", "keep")
# How a rollout's last position is scored: "life", the life race (the golden game's), or "model", the fitted
# logistic model of ``evaluation.py``.
EVALUATIONS = ("life", "model")
LIBRARY_POOL = "search.library_pool"  # the pool's memo: every library card id, sorted


class SearchBot(Bot):
    """Flat Monte-Carlo over the heuristic's top candidates, each rollout in a fresh determinization.

    ``paired``: every candidate is played in the same determinization, with the same dice and the same
    rollout policy (common random numbers), round after round, so that what separates two candidates is
    the candidates and not the luck of their worlds; ties go to the heuristic's order. The roster seats it
    so (``roster.SEARCH_SEATED``); without it, the round-robin of independent worlds that the golden game recorded.

    How much it thinks is a number of *rounds* (every candidate still in play rolled out once), so that a
    seeded game plays the same on a quiet machine and a loaded one: its strength does not depend on the
    load. ``budget`` (seconds of CPU) and ``wall_cap`` (seconds of wall-clock) are safety caps checked after
    each round; a decision they cut is counted in :attr:`cuts`, so a run can say whether it stayed
    load-independent. Without ``rounds`` nor ``max_rollouts`` the CPU budget is the only limit.

    ``halving``: after each of these rounds the worse half of the candidates still in play is dropped, and
    the search stops early once no candidate could catch up with the leader in the rounds left (values lie
    in [-1, 1]): the CPU goes to the candidates that can still win the comparison.
    """

    name = "search"

    def __init__(
        self,
        seed: int = 0,
        *,
        budget: float | None = 0.5,
        candidates: int = 4,
        horizon: int = 60,
        rounds: int | None = None,
        max_rollouts: int | None = None,
        paired: bool = False,
        halving: tuple[int, ...] = (),
        wall_cap: float | None = None,
        evaluation: str = "life",
        openings: bool = False,
    ) -> None:
        super().__init__(seed)
        self.budget = budget  # seconds of CPU per decision: the limit, or a cap when the work is counted
        self.candidates = candidates
        self.horizon = horizon  # engine steps a rollout plays before the position is scored
        self.rounds = rounds
        self.max_rollouts = max_rollouts  # a fixed number of rollouts (the golden game's plain search)
        self.paired = paired
        self.halving = halving
        self.wall_cap = wall_cap
        if evaluation not in EVALUATIONS:
            raise ValueError(f"evaluation: one of {', '.join(EVALUATIONS)}")
        self.evaluation = evaluation
        self.openings = openings  # the setup from the opening book (``openings.BOOK``) when its library is in it
        self.policy = HeuristicBot(seed)
        self.cuts = 0  # decisions a cap stopped before their rounds were done

    def choose(self, state: State, player: int) -> Action:
        legal = [a for a in state.legal_actions(player) if a["kind"] != "concede"]
        if not legal:
            return state.legal_actions(player)[0]
        if len(legal) == 1 or legal[0]["kind"] in SETUP_KINDS:
            booked = book_choice(state, player, legal) if self.openings else None
            return booked if booked is not None else self.policy.choose(state, player)
        ranked = sorted(legal, key=lambda a: (self.policy.score(state, player, a), self.rng.random()), reverse=True)
        options = ranked[: self.candidates]
        return options[self.search(state, player, options)]

    def search(self, state: State, player: int, options: list[Action]) -> int:
        """The round driver of both searches: the position in ``options`` of the best average outcome."""
        totals = [0.0] * len(options)
        alive = list(range(len(options)))
        cpu, wall = time.process_time(), time.monotonic()
        rounds = rollouts = 0
        while True:
            if self.paired:
                # One determinization per round, every candidate played in its own copy of it.
                world = self.determinize(state, player, canonical=True)
                seed = self.rng.randrange(1 << 30)
                for i in alive:
                    copy = world.clone()
                    copy.rng = random.Random(seed)
                    totals[i] += self.play_on(copy, player, options[i], seed)
            else:
                for i in alive:
                    totals[i] += self.rollout(state, player, options[i])
            rounds += 1
            rollouts += len(alive)
            if rounds in self.halving and len(alive) > 1:
                alive = sorted(alive, key=lambda i: (totals[i], -i), reverse=True)[: (len(alive) + 1) // 2]
                alive.sort()
            if self.rounds is not None:
                if rounds >= self.rounds or self.settled(totals, alive, self.rounds - rounds):
                    break
            elif self.max_rollouts is not None:
                if rollouts >= self.max_rollouts:
                    break
            elif self.budget is not None and time.process_time() - cpu >= self.budget:
                break
            if self.over_cap(cpu, wall):
                self.cuts += 1
                break
        # Every candidate still in play has had the same number of rollouts: totals rank as averages would.
        return max(alive, key=lambda i: (totals[i], -i))

    @staticmethod
    def settled(totals: list[float], alive: list[int], left: int) -> bool:
        """Whether no candidate can overtake the leader in ``left`` more rounds: each round moves a gap by 2 at
        most. A halving still to come keeps the leader, so the choice is the one the full search would make."""
        if len(alive) < 2:
            return True
        ordered = sorted((totals[i] for i in alive), reverse=True)
        return ordered[0] - ordered[1] > 2 * left

    def over_cap(self, cpu: float, wall: float) -> bool:
        if self.rounds is None and self.max_rollouts is None:
            return False  # the CPU budget is then the limit itself, not a cap
        if self.budget is not None and time.process_time() - cpu >= self.budget:
            return True
        return self.wall_cap is not None and time.monotonic() - wall >= self.wall_cap

    # -- one rollout --------------------------------------------------------------------------------------

    def rollout(self, state: State, player: int, action: Action) -> float:
        return self.play_on(self.determinize(state, player), player, action, self.rng.randrange(1 << 30))

    def play_on(self, world: State, player: int, action: Action, seed: int) -> float:
        """Play ``action`` in ``world``, then heuristic bots (seeded with ``seed``) for the horizon; the value."""
        world.apply(action)
        policy = HeuristicBot(seed)
        for _ in range(self.horizon):
            if world.is_over():
                break
            acting = world.current_players()
            if not acting:
                break
            actions = world.offer(acting[0])
            world.apply_code(policy.pick(world, acting[0], actions))
        if self.evaluation == "model":
            return evaluate(world, player)
        return self.value(world, player)

    def determinize(self, state: State, player: int, *, canonical: bool = False) -> State:
        """``canonical``: the player's own library is put in a fixed order (by card) before it is shuffled, so
        that the world drawn depends on nothing the player cannot see, not even through the shuffle's input
        (the paired search; the golden game recorded the other way)."""
        world = state.clone()
        world.rng = random.Random(self.rng.randrange(1 << 30))
        library_pool = world.pool.memo.get(LIBRARY_POOL)
        if library_pool is None:
            library_pool = world.pool.memo[LIBRARY_POOL] = sorted(
                c.id for c in world.pool.cards.values() if c.type in LIBRARY_TYPES
            )
        for p in world.players:
            if p.index == player:
                if canonical:
                    p.zones["library"].sort()
                world.rng.shuffle(p.zones["library"])
                continue
            shown = [
                world.cards[u].cid
                for zone in ("discard", "play", "combat", "equipment", "special", "destroyed")
                for u in p.zones[zone]
                if world.cards[u].born_to == p.index
            ]
            source = [c for c in shown if world.pool[c].type in LIBRARY_TYPES] or library_pool
            for zone in ("hand", "library"):
                for uid in p.zones[zone]:
                    world.cards[uid].cid = world.rng.choice(source)
        world.invalidate()
        return world

    @staticmethod
    def value(world: State, player: int) -> float:
        """+1 for a win, -1 for a loss, else the life race: my share of life left minus the best opponent's,
        with a little for the allies on each side."""
        if world.is_over():
            winner = world.winner()
            return 0.0 if winner is None else (1.0 if winner == player else -1.0)

        def standing(index: int) -> float:
            p = world.players[index]
            if p.eliminated:
                return 0.0
            allies = sum(world.ally_power(u) for u in world.allies(index))
            return max(0, p.life) / max(1, p.max_life) + 0.01 * allies

        mine = standing(player)
        theirs = max((standing(o) for o in world.opponents(player)), default=0.0)
        return mine - theirs
