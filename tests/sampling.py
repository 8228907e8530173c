"""Sweeps that sample in the fast suite and enumerate under the ``slow`` marker (`make test-slow`, CI).

The fast suite (`make test`) must still reach every rule and view a sweep reaches, so a sample keeps every kind
the sweep walks (every move kind, every profile, every view) and drops repetitions; the exhaustive run is the
same test with the whole list, marked ``slow``.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import pytest

SAMPLE = "sample"
WHOLE = "whole"


def sample_and_whole(argname: str = "extent") -> pytest.MarkDecorator:
    """Parametrize a test with ``extent`` in ("sample", "whole"), the whole one marked slow."""
    return pytest.mark.parametrize(argname, [SAMPLE, pytest.param(WHOLE, marks=pytest.mark.slow)])


def spread(items: Sequence[Any], count: int) -> list[Any]:
    """``count`` items spread evenly over ``items`` (first and last included), in order."""
    if count >= len(items):
        return list(items)
    if count <= 1:
        return [items[0]]
    step = (len(items) - 1) / (count - 1)
    return [items[round(i * step)] for i in range(count)]
