"""The engine's draws from its ``random.Random``, made without a method call per draw: the same calls to
``getrandbits`` in the same order as ``Random.shuffle`` and ``Random.randint`` make (CPython's
``_randbelow_with_getrandbits`` inlined), so a seeded game is the same game. A generator that draws otherwise (a
subclass with its own ``randint``, as the tests' loaded dice, or its own ``random`` without ``getrandbits``) is
left to its own methods.
"""

from __future__ import annotations

import random
from collections.abc import MutableSequence
from typing import Any

_RANDBELOW = random.Random._randbelow_with_getrandbits  # type: ignore[attr-defined]  # CPython's private helper, not in typeshed
_RANDINT = random.Random.randint


def shuffle(rng: random.Random, x: MutableSequence[Any]) -> None:
    """``rng.shuffle(x)`` (a playout shuffles two 60-card libraries)."""
    if type(rng)._randbelow is not _RANDBELOW:  # type: ignore[attr-defined]  # private in typeshed: read to detect overrides
        rng.shuffle(x)
        return
    getrandbits = rng.getrandbits
    for i, n, k in _shuffle_steps(len(x)):
        j = getrandbits(k)
        while j >= n:
            j = getrandbits(k)
        x[i], x[j] = x[j], x[i]


_STEPS: dict[int, tuple[tuple[int, int, int], ...]] = {}


def _shuffle_steps(size: int) -> tuple[tuple[int, int, int], ...]:
    """``Random.shuffle``'s steps for a list of ``size``: the place ``i`` swapped, the bound ``n = i + 1`` drawn
    below and its bit length, last place first (made once per size: a game shuffles 60-card libraries)."""
    steps = _STEPS.get(size)
    if steps is None:
        steps = tuple((i, i + 1, (i + 1).bit_length()) for i in range(size - 1, 0, -1))
        if len(_STEPS) < 1000:
            _STEPS[size] = steps
    return steps


def rolls(rng: random.Random, count: int, sides: int) -> list[int]:
    """``[rng.randint(1, sides) for _ in range(count)]``."""
    kind = type(rng)
    if kind.randint is not _RANDINT or kind._randbelow is not _RANDBELOW:  # type: ignore[attr-defined]  # as in shuffle
        return [rng.randint(1, sides) for _ in range(count)]
    getrandbits = rng.getrandbits
    k = sides.bit_length()
    faces = []
    for _ in range(count):
        r = getrandbits(k)
        while r >= sides:
            r = getrandbits(k)
        faces.append(r + 1)
    return faces
