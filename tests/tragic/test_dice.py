"""The engine's inlined draws (``tragic.engine.dice``) take the very numbers ``random.Random`` would: a seeded
game must stay the same game (the golden games and scripts/tragic_fingerprint.py rest on it)."""

from __future__ import annotations

import random

from tragic.engine.dice import rolls, shuffle

from .helpers import Dice


def test_shuffle_draws_as_random_shuffle() -> None:
    for seed in range(300):
        size = seed % 70
        mine, theirs = list(range(size)), list(range(size))
        ours, reference = random.Random(seed), random.Random(seed)
        shuffle(ours, mine)
        reference.shuffle(theirs)
        assert mine == theirs
        assert ours.getstate() == reference.getstate()


def test_rolls_draw_as_randint() -> None:
    for seed in range(300):
        ours, reference = random.Random(seed), random.Random(seed)
        for sides in (1, 2, 4, 6, 7, 8, 20):
            count = seed % 5
            assert rolls(ours, count, sides) == [reference.randint(1, sides) for _ in range(count)]
        assert ours.getstate() == reference.getstate()


def test_loaded_dice_keep_their_own_randint() -> None:
    assert rolls(Dice([1, 1, 3]), 3, 6) == [1, 1, 3]
    faces = list(range(10))
    shuffle(Dice([]), faces)  # Dice draws its shuffles as Random does
    reference = list(range(10))
    random.Random(0).shuffle(reference)
    assert faces == reference


class _OwnRandom(random.Random):
    """A generator with its own ``random`` and no ``getrandbits``: Random then draws through ``random()``."""

    def random(self) -> float:
        return super().random()


def test_a_generator_without_getrandbits_keeps_its_own_draws() -> None:
    mine, theirs = list(range(30)), list(range(30))
    shuffle(_OwnRandom(5), mine)
    _OwnRandom(5).shuffle(theirs)
    assert mine == theirs
    ours, reference = _OwnRandom(5), _OwnRandom(5)
    assert rolls(ours, 4, 6) == [reference.randint(1, 6) for _ in range(4)]
