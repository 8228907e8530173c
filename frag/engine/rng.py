"""The game's own random generator: SplitMix64, whose whole position is one integer.

Keeping the position to a single integer makes ``to_json`` small and copying a state cheap,
while every die and shuffle stays reproducible from the seed.
"""

from __future__ import annotations

from typing import Any

MASK = (1 << 64) - 1


class Dice:
    __slots__ = ("position",)

    def __init__(self, position: int) -> None:
        self.position = position & MASK

    def next64(self) -> int:
        self.position = (self.position + 0x9E3779B97F4A7C15) & MASK
        z = self.position
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK
        return z ^ (z >> 31)

    def below(self, n: int) -> int:
        """A uniform integer in [0, n): rejection sampling keeps it unbiased."""
        limit = (1 << 64) - ((1 << 64) % n)
        while True:
            value = self.next64()
            if value < limit:
                return value % n

    def d6(self) -> int:
        return self.below(6) + 1

    def roll(self, count: int) -> list[int]:
        return [self.d6() for _ in range(max(0, count))]

    def shuffle(self, items: list[Any]) -> None:
        for i in range(len(items) - 1, 0, -1):
            j = self.below(i + 1)
            items[i], items[j] = items[j], items[i]
