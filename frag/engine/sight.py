"""Sight lines: what lies on the straight line from the centre of one place to the centre of another.

« s'il n'y a pas d'obstacles ou d'autres combattants dans cette ligne, la cible est alors en Ligne de Vue. Notez que
les portes bloquent la Ligne de Vue. » A line is traced once per pair of places (walls never move) into a
``SightLine``: whether walls block it, the doors it touches and the places it crosses; whether those doors are open
and those places free is the state's question, asked at each shot (``base.line_of_sight``).

The geometry is exact on integers where it can be (centres in sixths of a square, ``legend.UNIT``) and the same
floating-point clipping everywhere else, so a line traced twice is the same line: ``sight_table`` relies on it to
ship every line of a map precomputed.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Protocol

from .legend import DIAGONALS, UNIT, WALL

# (walls block it, doors touched, places crossed): the doors in increasing order, the places in the order traced.
SightLine = tuple[bool, tuple[int, ...], tuple[int, ...]]
BLOCKED: SightLine = (True, (), ())


class Centred(Protocol):
    """A place as the trace reads it: its square and its centre (``board.Place``)."""

    @property
    def row(self) -> int: ...
    @property
    def col(self) -> int: ...
    @property
    def x(self) -> int: ...
    @property
    def y(self) -> int: ...


class Traced(Protocol):
    """What the trace reads of a board (``board.Board``): the grid, its places and their doors."""

    @property
    def grid(self) -> Sequence[str]: ...
    @property
    def places(self) -> Sequence[Centred]: ...
    @property
    def place_at(self) -> Mapping[tuple[int, int, int], int]: ...
    @property
    def door_of(self) -> Mapping[int, int]: ...


EPS = 1e-9
MARGIN = 0.01


def _clip(px: float, py: float, dx: float, dy: float, planes: list[tuple[int, int, int]]) -> tuple[float, float]:
    """Parameter interval of the segment inside the convex region a·x + b·y <= c (Cyrus–Beck)."""
    t0, t1 = 0.0, 1.0
    for a, b, c in planes:
        num = c - (a * px + b * py)
        den = a * dx + b * dy
        if den == 0:
            if num < 0:
                return 1.0, 0.0
            continue
        t = num / den
        if den > 0:
            t1 = min(t1, t)
        else:
            t0 = max(t0, t)
    return t0, t1


def _clip_square(px: int, py: int, dx: int, dy: int, x0: int, y0: int) -> tuple[float, float]:
    """``_clip`` for a whole square's four planes, unrolled (the hot case of ``trace``): the same integer numerators
    and denominators, so the very same floats."""
    t0, t1 = 0.0, 1.0
    if dx == 0:
        if px < x0 or px > x0 + UNIT:
            return 1.0, 0.0
    elif dx > 0:
        t0, t1 = max(t0, (px - x0) / -dx), min(t1, (x0 + UNIT - px) / dx)
    else:
        t1, t0 = min(t1, (px - x0) / -dx), max(t0, (x0 + UNIT - px) / dx)
    if dy == 0:
        if py < y0 or py > y0 + UNIT:
            return 1.0, 0.0
    elif dy > 0:
        t0, t1 = max(t0, (py - y0) / -dy), min(t1, (y0 + UNIT - py) / dy)
    else:
        t1, t0 = min(t1, (py - y0) / -dy), max(t0, (y0 + UNIT - py) / dy)
    return t0, t1


def _square_planes(row: int, col: int) -> list[tuple[int, int, int]]:
    x0, y0 = col * UNIT, row * UNIT
    return [(-1, 0, -x0), (1, 0, x0 + UNIT), (0, -1, -y0), (0, 1, y0 + UNIT)]


def _half_planes(row: int, col: int, kind: str, half: int) -> list[tuple[int, int, int]]:
    x0, y0 = col * UNIT, row * UNIT
    planes = _square_planes(row, col)
    if kind == "/":
        # the diagonal x + y = x0 + y0 + UNIT; half 1 is above-left of it
        planes.append((1, 1, x0 + y0 + UNIT) if half == 1 else (-1, -1, -(x0 + y0 + UNIT)))
    else:
        # the diagonal x - y = x0 - y0; half 1 is above-right of it
        planes.append((-1, 1, y0 - x0) if half == 1 else (1, -1, x0 - y0))
    return planes


def _orient(ax: int, ay: int, bx: int, by: int, cx: int, cy: int) -> int:
    value = (bx - ax) * (cy - ay) - (by - ay) * (cx - ax)
    return (value > 0) - (value < 0)


def _segments_touch(p: tuple[int, int], q: tuple[int, int], r: tuple[int, int], s: tuple[int, int]) -> bool:
    o1, o2 = _orient(*p, *q, *r), _orient(*p, *q, *s)
    o3, o4 = _orient(*r, *s, *p), _orient(*r, *s, *q)
    if o1 != o2 and o3 != o4:
        return True

    def on(a: tuple[int, int], b: tuple[int, int], c: tuple[int, int]) -> bool:
        return min(a[0], b[0]) <= c[0] <= max(a[0], b[0]) and min(a[1], b[1]) <= c[1] <= max(a[1], b[1])

    return (
        (o1 == 0 and on(p, q, r)) or (o2 == 0 and on(p, q, s)) or (o3 == 0 and on(r, s, p)) or (o4 == 0 and on(r, s, q))
    )


def _diagonal(row: int, col: int, kind: str) -> tuple[tuple[int, int], tuple[int, int]]:
    x0, y0 = col * UNIT, row * UNIT
    if kind == "/":
        return (x0, y0 + UNIT), (x0 + UNIT, y0)
    return (x0, y0), (x0 + UNIT, y0 + UNIT)


def _columns_near(px: int, py: int, dx: int, dy: int, row: int, first: int, last: int) -> range:
    """The columns of ``row`` the segment can touch: those under its stretch within the row's band, widened by
    ``MARGIN`` (far wider than the tests' tolerance, ``EPS`` of a segment at most a few hundred units long). Every other square of the bounding box is
    neither crossed nor touched, so skipping it changes nothing but the time: a long line used to test every
    square of its bounding box, the cold half of line of sight on the larger map."""
    low: float
    high: float
    if dy == 0:
        low, high = px, px + dx
    else:
        ta, tb = (row * UNIT - py) / dy, ((row + 1) * UNIT - py) / dy
        t0, t1 = max(0.0, min(ta, tb)), min(1.0, max(ta, tb))
        low, high = px + dx * t0, px + dx * t1
    if low > high:
        low, high = high, low
    return range(max(first, int((low - MARGIN) // UNIT)), min(last, int((high + MARGIN) // UNIT)) + 1)


def trace(board: Traced, a: int, b: int) -> SightLine:
    """The sight line from place ``a`` to place ``b``, traced across the grid.

    « Un mur ou coin de mur sur une ligne diagonale EST un obstacle » : touching a wall's corner blocks."""
    pa, pb = board.places[a], board.places[b]
    px, py, dx, dy = pa.x, pa.y, pb.x - pa.x, pb.y - pa.y
    doors: set[int] = set()
    crossed: list[int] = []
    first_col, last_col = min(pa.col, pb.col), max(pa.col, pb.col)
    for row in range(min(pa.row, pb.row), max(pa.row, pb.row) + 1):
        for col in _columns_near(px, py, dx, dy, row, first_col, last_col):
            kind = board.grid[row][col]
            if kind == WALL:
                t0, t1 = _clip_square(px, py, dx, dy, col * UNIT, row * UNIT)
                if t0 <= t1 + EPS:
                    return BLOCKED
                continue
            if kind in DIAGONALS:
                if _segments_touch((pa.x, pa.y), (pb.x, pb.y), *_diagonal(row, col, kind)):
                    return BLOCKED
                for half in (1, 2):
                    t0, t1 = _clip(px, py, dx, dy, _half_planes(row, col, kind, half))
                    if t1 - t0 > EPS:
                        crossed.append(board.place_at[(row, col, half)])
                continue
            place = board.place_at[(row, col, 0)]
            t0, t1 = _clip_square(px, py, dx, dy, col * UNIT, row * UNIT)
            if place in board.door_of and t0 <= t1 + EPS:
                doors.add(board.door_of[place])
            if t1 - t0 > EPS:
                crossed.append(place)
    crossed = [p for p in crossed if p not in (a, b)]
    # A door the attacker or the target stands in is held open by them.
    for end in (a, b):
        doors.discard(board.door_of.get(end, -1))
    return False, tuple(sorted(doors)), tuple(crossed)
