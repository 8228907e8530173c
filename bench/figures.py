from __future__ import annotations

import statistics
import time
from collections.abc import Callable
from dataclasses import dataclass


@dataclass(frozen=True)
class Figure:
    name: str
    value: float
    unit: str


def per_second(name: str, func: Callable[[], object], *, seconds: float = 2.0, unit: str = "per s") -> Figure:
    """Call ``func`` repeatedly for about ``seconds`` and report calls per second."""
    count, start = 0, time.perf_counter()
    while time.perf_counter() - start < seconds:
        func()
        count += 1
    return Figure(name, count / (time.perf_counter() - start), unit)


def median_ms(name: str, func: Callable[[], object], *, repeat: int = 200) -> Figure:
    timings = []
    for _ in range(repeat):
        start = time.perf_counter()
        func()
        timings.append((time.perf_counter() - start) * 1000)
    return Figure(name, statistics.median(timings), "ms")
