"""The choices of Phase 0: « jusqu'à deux » Traits, then the Compétences (3, more with some Traits), each an
action listing the cards chosen (« Mise en Place », 001).

Every combination of a pool is a legal action: 92 for 13 Traits, 364 for 14 Compétences, made twice per game
and read once. :class:`Combinations` builds each action only when it is read, so that
``State.legal_codes`` can count them without building them all (built, the four setup steps of a random playout
cost about as much as ten of its other steps); ``legal_actions`` lists them all, in the same order.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from math import comb
from typing import Any, overload

from .turns import Turns

Action = dict[str, Any]


class Combinations(Sequence[Action]):
    """The actions ``{"kind": kind, "player": player, field: [...]}`` for every combination of ``pool`` (sorted)
    of each size of ``sizes``, smallest size first, each size in ``itertools.combinations`` order."""

    def __init__(self, kind: str, field: str, player: int, pool: list[str], sizes: range) -> None:
        self.kind, self.field, self.player, self.pool = kind, field, player, pool
        self.blocks = [(size, comb(len(pool), size)) for size in sizes]
        self.length = sum(count for _, count in self.blocks)

    def __len__(self) -> int:
        return self.length

    @overload
    def __getitem__(self, index: int) -> Action: ...

    @overload
    def __getitem__(self, index: slice) -> list[Action]: ...

    def __getitem__(self, index: int | slice) -> Action | list[Action]:
        if isinstance(index, slice):
            return [self[i] for i in range(*index.indices(self.length))]
        if index < 0:
            index += self.length
        if not 0 <= index < self.length:
            raise IndexError(index)
        for size, count in self.blocks:
            if index < count:
                return {"kind": self.kind, "player": self.player, self.field: self.unrank(index, size)}
            index -= count
        raise IndexError(index)  # not reached: the blocks add up to the length

    def __iter__(self) -> Iterator[Action]:
        for i in range(self.length):
            yield self[i]

    def unrank(self, rank: int, size: int) -> list[str]:
        """The ``rank``-th combination of ``size`` cards in lexicographic order (``itertools.combinations``'):
        at each place, skip the first cards while the combinations they begin are fewer than the rank."""
        pool, chosen, x, n = self.pool, [], 0, len(self.pool)
        for place in range(size):
            while True:
                starting_here = comb(n - x - 1, size - place - 1)
                if rank < starting_here:
                    chosen.append(pool[x])
                    x += 1
                    break
                rank -= starting_here
                x += 1
        return chosen


class SetupChoices(Turns):
    def trait_offer(self, player: int) -> Combinations:
        """No Trait, one, or two different ones (« jusqu'à deux »)."""
        return Combinations("choose_traits", "traits", player, sorted(set(self.players[player].trait_pool)), range(3))

    def skill_offer(self, player: int) -> Combinations:
        pool = sorted(set(self.players[player].skill_pool))
        return Combinations("choose_skills", "skills", player, pool, range(3, self.skill_slots(player) + 1))

    def trait_choices(self, player: int) -> list[Action]:
        return list(self.trait_offer(player))

    def skill_choices(self, player: int) -> list[Action]:
        return list(self.skill_offer(player))

    def mulligan_choices(self, player: int) -> list[Action]:
        p = self.players[player]
        hand = p.zones["hand"]
        actions: list[Action] = [
            {"kind": "keep", "player": player, "bottom": hand[len(hand) - p.mulligans :] if p.mulligans else []}
        ]
        if p.mulligans < self.initial_hand_size(player):
            actions.append({"kind": "mulligan", "player": player})
        return actions
