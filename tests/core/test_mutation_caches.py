"""A mutation run's forked sessions start with the rules' caches empty (tests/conftest.py, ``empty_rules_caches``;
docs/rules-coverage.md, « Mutation testing of the rules »): otherwise a mutant in a map's, a card pool's or a
passive part's code is never run, the result of the unmutated code being already there."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent.parent

# Run apart: emptying the caches in this process would hand the other tests new objects for the ones they hold.
PROBE = """
from characters.rules.traits import default_traits
from frag.engine.board import load_board
from tragic.engine import passives
from tragic.engine.card_files import default_pool
from tests.conftest import empty_rules_caches

board, pool, traits = load_board("entrepot"), default_pool(), default_traits()
for card in pool.cards.values():
    passives.passive_part(card, malus=False)
assert passives._PARTS
# A mutant of the Frag engine changes nothing TRAGIC keeps: the packages import nothing from one another.
empty_rules_caches(("frag.engine",))
assert passives._PARTS and default_pool() is pool and load_board("entrepot") is not board
board = load_board("entrepot")
empty_rules_caches()
assert not passives._PARTS
assert load_board("entrepot") is not board
assert default_pool() is not pool
assert default_traits() is not traits
print("emptied")
"""


def test_a_mutants_session_finds_the_maps_card_pools_and_memos_empty() -> None:
    done = subprocess.run([sys.executable, "-c", PROBE], cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert done.stdout.strip() == "emptied", done.stderr


class _Item:
    def __init__(self, nodeid: str) -> None:
        self.nodeid = nodeid
        self.keywords: dict[str, object] = {}
        self.fixturenames = ["db", "django_db_setup"] if "durations" in nodeid else []

    def get_closest_marker(self, name: str) -> None:
        return None


def test_a_mutants_session_runs_the_quick_tests_first_and_the_database_s_last(monkeypatch) -> None:  # type: ignore[no-untyped-def]
    """It stops at its first failure: a quick rules test that catches the mutant spares the slow ones and the
    test database."""
    from tests import conftest

    names = [
        "tests/states/test_rule_durations.py::test_a",
        "tests/tragic/test_codes.py::test_b",
        "tests/tragic/test_turns.py::test_c",
        "tests/tragic/test_turns.py::test_d",
    ]
    items = [_Item(name) for name in names]
    conftest.pytest_collection_modifyitems(None, items)
    assert [item.nodeid for item in items] == names[1:2] + names[0:1] + names[2:]  # an ordinary run: long first
    monkeypatch.setenv("MUTANT_UNDER_TEST", "tragic.engine.turns.x_f__mutmut_1")
    monkeypatch.setattr(conftest, "_CONFTEST_PID", -1)  # as in a fork of the process that imported it
    conftest.pytest_collection_modifyitems(None, items)
    assert [item.nodeid for item in items] == names[2:] + names[1:2] + names[0:1]
