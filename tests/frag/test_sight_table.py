"""The precomputed sight lines of a map (``frag/engine/sight_table.py``): always the very lines the trace gives, and
ignored as soon as anything a trace reads has changed."""

from __future__ import annotations

import zlib
from io import StringIO
from pathlib import Path

import pytest

from frag.engine import board as board_module
from frag.engine import sight_table
from frag.engine.board import MAPS_DIR, available_maps, load_board
from frag.engine.sight import trace
from frag.engine.sight_table import FORMAT, read_table, table_bytes, table_key
from tests.frag.arena import board_from

MAPS = sorted(available_maps())

# A door, a diagonal wall, open floor: lines that cross places, touch the door, or are cut by either wall.
ROOMS = """
#########
#1..\\..2#
#..../..#
###D#####
#3.....4#
#5..../6#
#########
"""


@pytest.mark.parametrize("name", MAPS)
def test_every_shipped_map_has_a_current_table(name: str) -> None:
    """Run ``python manage.py frag_sight_tables`` after changing a map or ``sight.py`` when this fails: the game stays
    right with a stale table (it traces instead), only a new process's first games are slower."""
    board = load_board(name)
    header = (MAPS_DIR / f"{name}.sight").read_bytes().partition(b"\n")[0]
    assert header == f"{FORMAT} {table_key(board)}".encode()
    assert board.sight_table is not None


# Every pair of the small map in the fast suite; the large one (96,141 pairs) under `make test-slow`.
@pytest.mark.parametrize("name", [n if n != "raffinerie" else pytest.param(n, marks=pytest.mark.slow) for n in MAPS])
def test_a_shipped_table_holds_exactly_the_traced_line_of_every_pair(name: str) -> None:
    """All pairs (18,528 and 96,141 on the two maps: about a second), not a sample: the table replaces the trace."""
    board = load_board(name)
    table = board.sight_table
    assert table is not None
    places = len(board.places)
    wrong = [(a, b) for a in range(places) for b in range(a + 1, places) if table.line(a, b) != trace(board, a, b)]
    assert wrong == []


def test_the_board_reads_a_pair_from_its_table_once_then_from_its_memory() -> None:
    board = load_board("raffinerie")
    pairs = [(a, b) for a in range(0, len(board.places), 37) for b in range(5, len(board.places), 41) if a != b]
    for a, b in pairs:
        assert board.sight_line(a, b) == board.sight_line(b, a) == trace(board, min(a, b), max(a, b))
        assert board.sight_line(a, b) is board.sight_line(a, b)
    assert any(not board.sight_line(a, b)[0] for a, b in pairs) and any(board.sight_line(a, b)[0] for a, b in pairs)


def test_a_table_round_trips_doors_crossed_places_and_diagonal_halves(tmp_path: Path) -> None:
    board = board_from(ROOMS)
    path = tmp_path / "rooms.sight"
    path.write_bytes(table_bytes(board))
    table = read_table(path, board)
    assert table is not None
    places = len(board.places)
    lines = {(a, b): trace(board, a, b) for a in range(places) for b in range(a + 1, places)}
    assert all(table.line(a, b) == line for (a, b), line in lines.items())
    assert any(line[1] for line in lines.values()), "a line touching the door"
    assert any(len(line[2]) > 2 for line in lines.values()), "a line crossing places"
    assert any(line[0] for line in lines.values()), "a line the walls cut"


def test_the_table_of_a_map_that_changed_is_ignored_and_the_lines_are_traced(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A wall added in La Raffinerie's open middle renumbers every place after it: the old table would answer for the
    wrong pairs, so it must not be read."""
    text = (MAPS_DIR / "raffinerie.toml").read_text(encoding="utf-8")
    rows = text.split("\n")
    row = next(i for i, line in enumerate(rows) if line.startswith("#3...."))  # the grid's row 10 (1-based)
    rows[row + 1] = rows[row + 1][:10] + "#" + rows[row + 1][11:]
    (tmp_path / "changed.toml").write_text("\n".join(rows), encoding="utf-8")
    (tmp_path / "changed.sight").write_bytes((MAPS_DIR / "raffinerie.sight").read_bytes())
    monkeypatch.setattr(board_module, "MAPS_DIR", tmp_path)

    changed = load_board.__wrapped__("changed")  # not the process's cache of boards

    assert changed.sight_table is None
    left, right = changed.place_at[(row + 1, 1, 0)], changed.place_at[(row + 1, 20, 0)]
    assert changed.sight_line(left, right)[0], "the new wall blocks the row"
    stale = load_board("raffinerie").sight_table
    assert stale is not None
    on_row = [p.id for p in changed.places if p.row == row + 1]
    assert any(stale.line(a, b) != trace(changed, a, b) for a in on_row for b in on_row if a < b)


def test_a_table_from_another_geometry_is_ignored(monkeypatch: pytest.MonkeyPatch) -> None:
    board = load_board("entrepot")
    assert read_table(MAPS_DIR / "entrepot.sight", board) is not None
    monkeypatch.setattr(sight_table, "_geometry_source", lambda: b"def trace(): ...")
    assert read_table(MAPS_DIR / "entrepot.sight", board) is None


@pytest.mark.parametrize(
    "body",
    [b"", b"not zlib", zlib.compress(b"\x01\x00\x00\x00"), zlib.compress(b"\xff" * 64)],
    ids=["empty", "garbage", "too short", "wrong place count"],
)
def test_a_damaged_table_is_ignored(tmp_path: Path, body: bytes) -> None:
    board = board_from(ROOMS)
    path = tmp_path / "rooms.sight"
    path.write_bytes(f"{FORMAT} {table_key(board)}\n".encode() + body)
    assert read_table(path, board) is None
    assert read_table(tmp_path / "missing.sight", board) is None


def test_the_command_writes_a_missing_table_and_check_fails_while_one_is_stale(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from django.core.management import CommandError, call_command

    from frag.management.commands import frag_sight_tables

    (tmp_path / "entrepot.toml").write_bytes((MAPS_DIR / "entrepot.toml").read_bytes())
    monkeypatch.setattr(board_module, "MAPS_DIR", tmp_path)
    monkeypatch.setattr(frag_sight_tables, "MAPS_DIR", tmp_path)
    with pytest.raises(CommandError, match="stale sight tables: entrepot"):
        call_command("frag_sight_tables", "--check", stdout=StringIO())
    call_command("frag_sight_tables", stdout=StringIO())
    assert read_table(tmp_path / "entrepot.sight", load_board("entrepot")) is not None
    call_command("frag_sight_tables", "--check", stdout=StringIO())
