"""Line of sight: « Tracez une ligne droite passant entre le centre de la case de l'attaquant et le centre
de la case de la cible – s'il n'y a pas d'obstacles ou d'autres combattants dans cette ligne, la cible est
alors en Ligne de Vue. »"""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from frag.engine.board import load_board
from frag.engine.sight import trace
from tests.frag.arena import arena, place

# The rule's diagram, around the green fighter (G): each number is the distance to that square,
# « on compte la case du défenseur mais pas de l'attaquant ».
DIAGRAM = """
7654323
6543212
54321G1
6543212
"""

FIELD = """
###########
#1...2....#
#.........#
#.........#
#3...4....#
#.........#
#5...6....#
###########
"""


def test_the_diagram_distances_count_the_target_square_not_the_attacker_s() -> None:
    state = arena(FIELD, fighters=[{"at": (3, 6)}, {"at": None}])
    rows = DIAGRAM.strip().split("\n")
    g_row = next(r for r, line in enumerate(rows) if "G" in line)
    g_col = rows[g_row].index("G")
    green = place(state, 3, 6)
    for r, line in enumerate(rows):
        for c, ch in enumerate(line):
            if ch == "G":
                continue
            square = place(state, 3 + r - g_row, 6 + c - g_col)
            assert state.board.distance(green, square) == int(ch)
            assert state.line_of_sight(green, square)


def test_a_wall_between_blocks_the_line() -> None:
    state = arena("\n#######\n#1.#.2#\n#3.#.4#\n#5...6#\n#######\n", fighters=[{"at": (1, 1)}, {"at": (1, 5)}])
    assert not state.line_of_sight(place(state, 1, 1), place(state, 1, 5))
    assert state.targets_in_sight(0) == []


def test_a_wall_corner_on_a_diagonal_line_is_an_obstacle() -> None:
    """« Un mur ou coin de mur sur une ligne diagonale EST un obstacle »: the line grazes the corner and is blocked."""
    grid = "\n######\n#1.#2#\n#3..4#\n#5..6#\n######\n"
    state = arena(grid, fighters=[{"at": (2, 2)}, {"at": (1, 4)}])
    # From (2,2) to (1,4) the line runs along the wall square's side.
    assert not state.line_of_sight(place(state, 2, 2), place(state, 1, 4))
    # From (3,2) to (1,4) the line only grazes the lower right corner of the wall square (1,3).
    assert not state.line_of_sight(place(state, 3, 2), place(state, 1, 4))
    # The same line with the wall square gone is clear.
    clear = arena("\n######\n#1..2#\n#3..4#\n#5..6#\n######\n", fighters=[{"at": (3, 2)}, {"at": (1, 4)}])
    assert clear.line_of_sight(place(clear, 3, 2), place(clear, 1, 4))


def test_a_line_through_the_exact_corner_of_a_wall_square_is_blocked() -> None:
    grid = "\n######\n#1..2#\n#3#.4#\n#5..6#\n######\n"
    state = arena(grid, fighters=[{"at": (1, 1)}, {"at": (3, 3)}])
    # From (1,1) to (3,3) the line crosses the wall square (2,2) from corner to corner.
    assert not state.line_of_sight(place(state, 1, 1), place(state, 3, 3))
    # From (1,3) to (3,1) it crosses it along the other diagonal.
    assert not state.line_of_sight(place(state, 1, 3), place(state, 3, 1))
    assert state.line_of_sight(place(state, 1, 1), place(state, 1, 3))


def test_another_fighter_in_the_line_hides_the_target() -> None:
    """« Le combattant jaune n'est pas dans la Ligne de Vue » : a fighter in between blocks."""
    state = arena(FIELD, fighters=[{"at": (3, 1)}, {"at": (3, 4)}, {"at": (3, 8)}])
    assert state.targets_in_sight(0) == [1]
    assert state.targets_in_sight(2) == [1]


def test_a_fighter_beside_the_line_does_not_block() -> None:
    state = arena(FIELD, fighters=[{"at": (3, 1)}, {"at": (2, 4)}, {"at": (3, 8)}])
    assert sorted(state.targets_in_sight(0)) == [1, 2]


DOOR = """
#######
#1...2#
#.....#
###D###
#.....#
#3456.#
#######
"""


def test_a_closed_door_blocks_the_line() -> None:
    """« Notez que les portes bloquent la Ligne de Vue. » « Une porte fermée est équivalente à un mur. »"""
    state = arena(DOOR, fighters=[{"at": (2, 3)}, {"at": (4, 3)}])
    assert not state.line_of_sight(place(state, 2, 3), place(state, 4, 3))


def test_a_fighter_in_the_doorway_holds_it_open_and_sees_both_sides() -> None:
    """« Un combattant se trouvant sur une case porte maintient celle-ci ouverte. Il a une Ligne de Vue des deux côtés
    de la porte. S'il se déplace ou s'il est fragué, la porte se referme. »"""
    state = arena(DOOR, fighters=[{"at": (3, 3)}, {"at": (1, 2)}, {"at": (5, 4)}])
    assert sorted(state.targets_in_sight(0)) == [1, 2]
    # The fighter in the doorway is itself in the line between the two sides.
    assert state.targets_in_sight(1) == [0]
    state.apply({"type": "move", "player": 0, "path": [place(state, 2, 3)]})
    assert not state.line_of_sight(place(state, 2, 3), place(state, 5, 4))
    assert not state.line_of_sight(place(state, 1, 2), place(state, 4, 3))


def test_the_corner_of_the_door_frame_still_blocks_a_slanted_line() -> None:
    state = arena(DOOR, fighters=[{"at": (3, 3)}, {"at": (1, 1)}])
    # From the doorway to (1,1) the line touches the corner of the wall beside the door.
    assert state.targets_in_sight(0) == []


TWO_SQUARE_DOOR = """
########
#1....2#
#......#
###DD###
#......#
#3456..#
########
"""


def test_a_two_square_door_opens_whole_when_one_square_is_held() -> None:
    state = arena(TWO_SQUARE_DOOR, fighters=[{"at": (3, 3)}, {"at": (1, 4)}, {"at": (4, 4)}])
    assert state.board.door_of[place(state, 3, 3)] == state.board.door_of[place(state, 3, 4)]
    assert state.line_of_sight(place(state, 1, 4), place(state, 4, 4))
    assert 1 in state.targets_in_sight(2)


DIAGONAL = """
#######
#1...2#
#..\\..#
#3...4#
#56...#
#######
"""


@pytest.mark.parametrize(("a", "b", "seen"), [((1, 2), (1, 4), True), ((2, 2), (2, 4), False), ((1, 3), (3, 3), False)])
def test_a_diagonal_wall_cuts_the_square_and_the_line(a: tuple[int, int], b: tuple[int, int], seen: bool) -> None:
    state = arena(DIAGONAL, fighters=[{"at": a}, {"at": b}])
    assert state.line_of_sight(place(state, *a), place(state, *b)) is seen


def test_the_two_halves_of_a_diagonal_square_do_not_see_each_other() -> None:
    state = arena(DIAGONAL, fighters=[{"at": (2, 3, 1)}, {"at": (2, 3, 2)}])
    assert state.targets_in_sight(0) == []


@settings(max_examples=60, deadline=None)
@given(map_name=st.sampled_from(["entrepot", "raffinerie"]), a=st.integers(0, 10_000), b=st.integers(0, 10_000))
def test_line_of_sight_is_symmetric_and_a_wall_square_is_never_seen_through(map_name: str, a: int, b: int) -> None:
    board = load_board(map_name)
    a, b = a % len(board.places), b % len(board.places)
    # Traced both ways without the cache: the geometry must not depend on who shoots.
    walls_ab, doors_ab, crossed_ab = trace(board, a, b)
    walls_ba, doors_ba, crossed_ba = trace(board, b, a)
    assert (walls_ab, doors_ab, set(crossed_ab)) == (walls_ba, doors_ba, set(crossed_ba))
    assert a not in crossed_ab and b not in crossed_ab
    if board.places[a].row == board.places[b].row and not walls_ab:
        row, low, high = (
            board.places[a].row,
            min(board.places[a].col, board.places[b].col),
            max(board.places[a].col, board.places[b].col),
        )
        assert all(board.grid[row][c] != "#" for c in range(low, high + 1))


def test_the_door_closes_when_the_fighter_holding_it_is_fragged() -> None:
    """« S'il se déplace ou s'il est fragué, la porte se referme. »"""
    state = arena(DOOR, fighters=[{"at": (2, 3)}, {"at": (3, 3), "health": 1}, {"at": (5, 4)}], dice=[6, 6, 6, 6, 1])
    assert state.targets_in_sight(0) == [1]
    state.apply({"type": "attack", "player": 0, "target": 1, "weapon": "pistol"})
    assert state.fighters[1].out
    assert state.open_doors() == set()
    assert not state.line_of_sight(place(state, 2, 3), place(state, 5, 4))


SLASH = """
#######
#1...2#
#../..#
#3...4#
#56...#
#######
"""


@pytest.mark.parametrize(
    ("a", "b", "seen"),
    [((1, 2), (1, 4), True), ((2, 2), (2, 4), False), ((1, 3), (3, 3), False), ((1, 2), (2, 3, 1), True)],
)
def test_a_diagonal_wall_the_other_way_cuts_the_square_and_the_line(
    a: tuple[int, ...], b: tuple[int, ...], seen: bool
) -> None:
    """« Si un mur coupe en diagonal des cases, il faut bien faire attention de garder son combattant du bon côté du
    mur »: a « / » wall, from bottom-left to top-right, hides one side from the other as a « \\ » wall does."""
    state = arena(SLASH, fighters=[{"at": a}, {"at": b}])
    assert state.line_of_sight(place(state, *a), place(state, *b)) is seen
    assert not arena(SLASH, fighters=[{"at": (2, 3, 1)}, {"at": (2, 3, 2)}]).targets_in_sight(0)


def test_each_half_of_a_cut_square_stands_at_the_centre_of_its_triangle() -> None:
    """A fighter on a cut square stands in the middle of its side of the wall: the centroid of its half, a third of
    the way from the square's edges (a square is 6 units wide)."""
    for grid, halves in ((DIAGONAL, ((4, 2), (2, 4))), (SLASH, ((2, 2), (4, 4)))):
        board = arena(grid, fighters=[{"at": None}, {"at": None}]).board
        for half, (x, y) in enumerate(halves, start=1):
            centre = board.places[board.place_at[(2, 3, half)]]
            assert (centre.x - 3 * 6, centre.y - 2 * 6) == (x, y)


@pytest.mark.parametrize(("half", "seen"), [(1, False), (2, True)])
def test_a_fighter_on_one_half_of_a_cut_square_hides_only_the_lines_crossing_that_half(half: int, seen: bool) -> None:
    """« s'il n'y a pas d'obstacles ou d'autres combattants dans cette ligne »: the line from (1, 4) to (3, 1) cuts the
    top-left corner of the « / » square, its upper-left half only; a fighter there hides the target, one on the
    other side of the wall does not."""
    state = arena(SLASH, fighters=[{"at": (1, 4)}, {"at": (3, 1)}, {"at": (2, 3, half)}])
    assert state.line_of_sight(place(state, 1, 4), place(state, 3, 1)) is seen
