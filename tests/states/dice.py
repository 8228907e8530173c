"""Scripted dice for rule tests: a Random whose randint returns the given faces in order."""

from __future__ import annotations

import random


class ScriptedDice(random.Random):
    def __init__(self, *faces: int) -> None:
        super().__init__(0)
        self.faces = list(faces)

    def randint(self, a: int, b: int) -> int:
        if not self.faces:
            raise AssertionError("The test ran out of scripted faces.")
        face = self.faces.pop(0)
        assert a <= face <= b, f"scripted face {face} outside {a}..{b}"
        return face
