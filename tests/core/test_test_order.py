"""The test run's own order (``tests/conftest.py``): the parts of a test meant to run at once start on two workers."""

from __future__ import annotations

from types import SimpleNamespace

from tests import conftest
from tests.core.test_mutation_caches import _Item

LONG = conftest.SPREAD[0]


def _ordered(workers: int, names: list[str]) -> list[str]:
    items = [_Item(name) for name in names]
    config = SimpleNamespace(workerinput={"workercount": workers})
    conftest._SpreadOverWorkers().pytest_collection_modifyitems(config, items)  # noqa: SLF001
    return [item.nodeid for item in items]


def test_the_long_hunts_halves_each_head_another_workers_first_share() -> None:
    """``--dist worksteal`` hands each worker one consecutive share first (``_first_shares``) and never steals a
    worker's next test: side by side, the two halves ran one after the other on one worker (CI's slow tests, 4 min
    38 s)."""
    names = [f"{LONG}[0]", f"{LONG}[1]", *(f"tests/x.py::test_{i}" for i in range(8))]
    ordered = _ordered(2, names)
    assert sorted(ordered) == sorted(names)  # nothing lost, nothing doubled
    assert ordered[0] == f"{LONG}[0]" and ordered[len(names) // 2] == f"{LONG}[1]"
    assert _ordered(1, names) == names  # one worker: nothing to spread


def test_the_shares_start_where_worksteal_starts_them() -> None:
    # 6 tests on 4 workers: 6 // 4 = 1, then 5 // 3 = 1, then 4 // 2 = 2, then 2 (k * n // workers would put the
    # third share at 3).
    assert conftest._first_shares(6, 4) == [0, 1, 2, 4]  # noqa: SLF001
    assert conftest._first_shares(11, 3) == [0, 3, 7]  # noqa: SLF001
    assert conftest._first_shares(151, 2) == [0, 75]  # noqa: SLF001
