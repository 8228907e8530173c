"""The board: squares read from a map file, where a fighter may stand, how it may step.

« Murs : stoppent les déplacements, et les tirs. On ne peut pas sauter par-dessus. Si un mur coupe
en diagonal des cases, il faut bien faire attention de garder son combattant du bon côté du mur. »

A *place* is where one fighter stands: a whole square, or one half of a square cut by a diagonal
wall. Places are numbered once when the map loads; the engine works on those numbers.
"""

from __future__ import annotations

import bisect
import tomllib
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path

from .codes import JUMP, MOVE
from .errors import ContentError
from .legend import (
    ACID,
    DIAGONALS,
    DIRECTIONS,
    GADGET_PICKUP,
    HALF_EDGES,
    LEGEND,
    ONE_WAY_DOORS,
    OPPOSITE,
    RESPAWNS,
    TELEPORTER,
    TWO_WAY_DOOR,
    UNIT,
    WALL,
    WEAPON_PICKUP,
    E,
    N,
    S,
    W,
)
from .sight import SightLine, trace
from .sight_table import SightTable, read_table

MAPS_DIR = Path(__file__).resolve().parent.parent / "maps"


@dataclass(frozen=True)
class Place:
    id: int
    row: int
    col: int
    half: int  # 0 whole square, 1 or 2 a half of a diagonal square
    x: int
    y: int


@dataclass
class Board:
    name: str
    title: dict[str, str]
    description: dict[str, str]
    rows: int
    cols: int
    grid: list[str]
    places: list[Place]
    place_at: dict[tuple[int, int, int], int]
    steps: list[dict[str, int]]  # place -> direction -> neighbouring place
    respawn: dict[int, int]  # number 1-6 -> place
    teleporters: list[int]
    acid: frozenset[int]
    weapon_pickups: frozenset[int]
    gadget_pickups: frozenset[int]
    door_of: dict[int, int]  # place -> door id
    doors: dict[int, tuple[int, ...]]  # door id -> its places
    sight_table: SightTable | None = None  # every sight line, precomputed (``sight_table``), for a shipped map
    _los_cache: dict[tuple[int, int], SightLine] = field(default_factory=dict)
    _walk_tables_cache: tuple[list[tuple[int, ...]], list[int]] | None = None
    _walk_cache: dict[int, list[tuple[int, int, list[int]]]] = field(default_factory=dict)
    _within_cache: dict[tuple[int, int], list[tuple[int, list[int]]]] = field(default_factory=dict)
    _jump_cache: dict[tuple[int, str, int], list[list[int]]] = field(default_factory=dict)
    _paths_cache: dict[int, dict[int, list[int]]] = field(default_factory=dict)
    _features_cache: dict[int, tuple[list[int], int, tuple[int, ...]]] = field(default_factory=dict)
    _order_cache: dict[int, tuple[list[int], list[int], dict[int, tuple[int, int, int | None]]]] = field(
        default_factory=dict
    )
    _move_codes: dict[tuple[int, int], list[int]] = field(default_factory=dict)
    _landing_codes: dict[tuple[int, int, int], list[int]] = field(default_factory=dict)

    def square(self, place: int) -> str:
        p = self.places[place]
        return self.grid[p.row][p.col]

    def distance(self, a: int, b: int) -> int:
        """« on compte la case du défenseur mais pas de l'attaquant » : squares counted orthogonally."""
        pa, pb = self.places[a], self.places[b]
        return abs(pa.row - pb.row) + abs(pa.col - pb.col)

    # --- movement -------------------------------------------------------------------------
    def walk_costs(self, start: int, budget: int) -> dict[int, tuple[int, int, int | None]]:
        """Every place reachable on foot within ``budget`` steps: place -> (steps, acid crossed, previous).

        Among paths of equal length the one crossing the least acid wins, so a tapped destination
        never walks a fighter through acid it could have avoided; among those, the path through the
        lowest-numbered place. Breadth first, one layer of steps at a time, each layer taken in order
        of (acid, place): every step costs 1 and stepping onto a place adds the same acid whoever
        comes from, so the first time a place is met is its best, and this is the order (and the
        result) of a Dijkstra search on (steps, acid, place), without its heap.
        """
        best: dict[int, tuple[int, int, int | None]] = {start: (0, 0, None)}
        around, acid_of = self._walk_tables()
        count = len(around)
        # A place met is kept as acid * count + place: sorting those plain integers is sorting by (acid, place).
        layer, steps = [start], 0
        while layer and steps < budget:
            further, following = steps + 1, []
            for place in layer:
                acid = best[place][1]
                for nxt in around[place]:
                    if nxt not in best:
                        crossed = acid + acid_of[nxt]
                        best[nxt] = (further, crossed, place)
                        following.append(crossed * count + nxt)
            following.sort()
            layer, steps = [met % count for met in following], further
        return best

    def _walk_tables(self) -> tuple[list[tuple[int, ...]], list[int]]:
        """Each place's neighbours (in ``steps`` order) and whether it is acid (1 or 0), as the walk reads them."""
        if self._walk_tables_cache is None:
            around = [tuple(exits.values()) for exits in self.steps]
            self._walk_tables_cache = (around, [1 if p in self.acid else 0 for p in range(len(self.places))])
        return self._walk_tables_cache

    def walk_order(self, start: int) -> tuple[list[int], list[int], dict[int, tuple[int, int, int | None]]]:
        """Every place reachable on foot from ``start`` in ``walk_costs`` order, their steps, and the walk itself;
        cached per start (the board never changes). The steps never decrease along that order: every step costs 1,
        so the search meets each place first from a neighbour it settles at the fewest steps, and settles them in
        order of steps. The places within a fighter's points are therefore a prefix, found by bisection."""
        cached = self._order_cache.get(start)
        if cached is None:
            costs = self.walk_costs(start, 10_000)
            places = [p for p in costs if p != start]
            cached = (places, [costs[p][0] for p in places], costs)
            self._order_cache[start] = cached
        return cached

    def walk_paths(self, start: int) -> list[tuple[int, int, list[int]]]:
        """Every place reachable on foot from ``start``, as (steps, place, path), in ``walk_costs`` order; the path is the one
        ``walk_costs`` chooses (fewest steps, then least acid). The board never changes, so this is computed once
        per start: the hot path of legal moves (bots and playouts) then only filters it. Callers must not mutate
        the paths."""
        cached = self._walk_cache.get(start)
        if cached is None:
            places, steps, _costs = self.walk_order(start)
            cached = [(n, p, self.path_to(start, p)) for n, p in zip(steps, places, strict=True)]
            self._walk_cache[start] = cached
        return cached

    def walk_within(self, start: int, budget: int) -> list[tuple[int, list[int]]]:
        """``walk_paths(start)`` cut to the places at most ``budget`` steps away, as (place, path), in the same
        order; cached per start and budget (a fighter has a few movement points, the board hundreds of places).
        Callers must not mutate the paths."""
        key = (start, budget)
        cached = self._within_cache.get(key)
        if cached is None:
            cut = bisect.bisect_right(self.walk_order(start)[1], budget)
            cached = [(place, path) for _steps, place, path in self.walk_paths(start)[:cut]]
            self._within_cache[key] = cached
        return cached

    def path_to(self, start: int, end: int) -> list[int]:
        """The path ``walk_costs(start)`` chooses to ``end``, read back along its previous places; cached per start
        and end (callers must not mutate it)."""
        paths = self._paths_cache.get(start)
        if paths is None:
            paths = self._paths_cache[start] = {}
        path = paths.get(end)
        if path is None:
            costs = self.walk_order(start)[2]
            path, at = [], end
            while at != start:
                path.append(at)
                previous = costs[at][2]
                assert previous is not None  # only the start has none
                at = previous
            path.reverse()
            paths[end] = path
        return path

    def path_features(self, path: list[int]) -> tuple[int, tuple[int, ...]]:
        """The acid squares a path crosses and the pick-up squares on it, in order; cached per path object (the
        board's own paths live as long as the board: the path kept beside them proves the identity)."""
        cached = self._features_cache.get(id(path))
        if cached is None or cached[0] is not path:
            pickups = self.weapon_pickups | self.gadget_pickups
            acid = sum(1 for p in path if p in self.acid)
            cached = (path, acid, tuple(p for p in path if p in pickups))
            self._features_cache[id(path)] = cached
        return cached[1], cached[2]

    def move_codes(self, start: int, budget: int) -> list[int]:
        """``walk_within(start, budget)`` as move codes (``codes.MOVE`` with the place in field b), in the same order,
        without building a path; cached (callers must not mutate the list)."""
        key = (start, budget)
        cached = self._move_codes.get(key)
        if cached is None:
            places, steps, _costs = self.walk_order(start)
            cached = [MOVE | place << 4 for place in places[: bisect.bisect_right(steps, budget)]]
            self._move_codes[key] = cached
        return cached

    def landing_codes(self, start: int, longest: int, reach: int) -> list[int]:
        """Where jumps of at most ``reach`` squares (of the ``longest`` the fighter may jump) land, as jump codes in
        the order of ``DIRECTIONS`` then length, each place once; cached (callers must not mutate the list)."""
        key = (start, longest, reach)
        cached = self._landing_codes.get(key)
        if cached is None:
            seen: set[int] = set()
            cached = []
            for direction in DIRECTIONS:
                for line in self.jump_lines(start, direction, longest)[:reach]:
                    if line[-1] not in seen:
                        seen.add(line[-1])
                        cached.append(JUMP | line[-1] << 4)
            self._landing_codes[key] = cached
        return cached

    def jump_lines(self, start: int, direction: str, longest: int) -> list[list[int]]:
        """``jump_line`` for the lengths 1, 2, … up to ``longest``, stopping before the first a wall cuts; cached
        per start, direction and length (callers must not mutate the lines)."""
        key = (start, direction, longest)
        cached = self._jump_cache.get(key)
        if cached is None:
            cached = []
            for length in range(1, longest + 1):
                line = self.jump_line(start, direction, length)
                if line is None:
                    break
                cached.append(line)
            self._jump_cache[key] = cached
        return cached

    def jump_line(self, start: int, direction: str, length: int) -> list[int] | None:
        """The places a straight jump of ``length`` squares passes and lands on, or None if a wall is in the way."""
        line, place = [], start
        for _ in range(length):
            nxt = self.steps[place].get(direction)
            if nxt is None:
                return None
            line.append(nxt)
            place = nxt
        return line

    # --- line of sight --------------------------------------------------------------------
    def sight_line(self, a: int, b: int) -> SightLine:
        """What lies on the line from centre to centre: (walls block it, doors touched, places crossed).

        Cached per pair: the walls never move; doors and fighters are checked by the caller. A pair's first line is
        read from the map's precomputed table when it has one (the same line, decoded in about a microsecond),
        else traced (``sight.trace``, about 12 µs).
        """
        key = (a, b) if a < b else (b, a)
        cached = self._los_cache.get(key)
        if cached is None:
            table = self.sight_table
            cached = table.line(*key) if table is not None else trace(self, *key)
            self._los_cache[key] = cached
        return cached


# --- loading --------------------------------------------------------------------------------
@cache
def load_board(name: str) -> Board:
    path = MAPS_DIR / f"{name}.toml"
    if not path.is_file():
        raise ContentError(f"{path}: no such map")
    board = parse_board(path.read_text(encoding="utf-8"), source=str(path), name=name)
    board.sight_table = read_table(path.with_suffix(".sight"), board)
    return board


def available_maps() -> list[str]:
    return sorted(p.stem for p in MAPS_DIR.glob("*.toml"))


def parse_board(text: str, *, source: str, name: str) -> Board:
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise ContentError(f"{source}: not valid TOML: {exc}") from exc
    for key in ("title", "description"):
        value = data.get(key)
        if not isinstance(value, dict) or not {"fr", "en"} <= set(value):
            raise ContentError(f"{source}: field '{key}' needs a French and an English text (fr, en)")
    raw = data.get("grid")
    if not isinstance(raw, str):
        raise ContentError(f"{source}: field 'grid' is missing or not a text")
    grid = [line.rstrip() for line in raw.strip("\n").split("\n")]
    if not grid or not grid[0]:
        raise ContentError(f"{source}: the grid is empty")
    cols = len(grid[0])

    def fail(row: int, col: int, message: str) -> ContentError:
        return ContentError(f"{source}: row {row + 1}, column {col + 1}: {message}")

    for r, line in enumerate(grid):
        if len(line) != cols:
            raise fail(r, min(len(line), cols), f"row has {len(line)} squares, the first row has {cols}")
        for c, ch in enumerate(line):
            if ch not in LEGEND:
                raise fail(r, c, f"unknown square {ch!r} (see docs/frag.md for the legend)")
            on_edge = r in (0, len(grid) - 1) or c in (0, cols - 1)
            if on_edge and ch != WALL:
                raise fail(r, c, "the board must be closed by walls ('#') on every side")
    rows = len(grid)

    places: list[Place] = []
    place_at: dict[tuple[int, int, int], int] = {}
    for r, line in enumerate(grid):
        for c, ch in enumerate(line):
            if ch == WALL:
                continue
            if ch in DIAGONALS:
                centres = {"/": ((2, 2), (4, 4)), "\\": ((4, 2), (2, 4))}[ch]
                for half, (cx, cy) in enumerate(centres, start=1):
                    place_at[(r, c, half)] = len(places)
                    places.append(Place(len(places), r, c, half, c * UNIT + cx, r * UNIT + cy))
            else:
                place_at[(r, c, 0)] = len(places)
                places.append(Place(len(places), r, c, 0, c * UNIT + 3, r * UNIT + 3))

    def is_door(ch: str) -> bool:
        return ch == TWO_WAY_DOOR or ch in ONE_WAY_DOORS

    def blocked(r: int, c: int) -> bool:
        return grid[r][c] == WALL or is_door(grid[r][c])

    # Which ways a door lets fighters through.
    door_ways: dict[tuple[int, int], set[str]] = {}
    for r, line in enumerate(grid):
        for c, ch in enumerate(line):
            if not is_door(ch):
                continue
            in_horizontal_wall = blocked(r, c - 1) and blocked(r, c + 1)
            in_vertical_wall = blocked(r - 1, c) and blocked(r + 1, c)
            if ch == TWO_WAY_DOOR:
                if in_horizontal_wall == in_vertical_wall:
                    raise fail(
                        r, c, "a door needs walls on exactly two opposite sides (left and right, or above and below)"
                    )
                door_ways[(r, c)] = {N, S} if in_horizontal_wall else {E, W}
            else:
                way = ONE_WAY_DOORS[ch]
                needs_horizontal = way in (N, S)
                if not (in_horizontal_wall if needs_horizontal else in_vertical_wall):
                    side = "left and right" if needs_horizontal else "above and below"
                    raise fail(r, c, f"a one-way door {ch!r} needs walls {side}")
                door_ways[(r, c)] = {way}

    def exits(r: int, c: int, half: int) -> set[str]:
        ch = grid[r][c]
        if ch in DIAGONALS:
            return HALF_EDGES[ch][half]
        if (r, c) in door_ways:
            return door_ways[(r, c)]
        return {N, E, S, W}

    def entries(r: int, c: int) -> dict[str, int]:
        """Entering this square moving in a direction: which half receives the fighter."""
        ch = grid[r][c]
        if ch == WALL:
            return {}
        if ch in DIAGONALS:
            found = {}
            for half, edges in HALF_EDGES[ch].items():
                for edge in edges:
                    found[OPPOSITE[edge]] = half
            return found
        if (r, c) in door_ways:
            return dict.fromkeys(door_ways[(r, c)], 0)
        return dict.fromkeys((N, E, S, W), 0)

    steps: list[dict[str, int]] = []
    for p in places:
        here: dict[str, int] = {}
        ways = exits(p.row, p.col, p.half)
        # In the fixed order N, E, S, W (a set of strings iterates in a per-process order): the same seed then
        # gives the same legal actions, in the same order, on every machine, and bots replay alike.
        for direction in (d for d in DIRECTIONS if d in ways):
            dr, dc = DIRECTIONS[direction]
            entry = entries(p.row + dr, p.col + dc).get(direction)
            if entry is not None:
                here[direction] = place_at[(p.row + dr, p.col + dc, entry)]
        steps.append(here)

    respawn: dict[int, int] = {}
    for r, line in enumerate(grid):
        for c, ch in enumerate(line):
            if ch in RESPAWNS:
                if RESPAWNS[ch] in respawn:
                    raise fail(r, c, f"respawn square {ch} appears twice")
                respawn[RESPAWNS[ch]] = place_at[(r, c, 0)]
    missing = [n for n in range(1, 7) if n not in respawn]
    if missing:
        raise ContentError(f"{source}: respawn squares {', '.join(map(str, missing))} are missing (1 to 6 each once)")

    def squares_of(kind: str) -> list[int]:
        return [place_at[(r, c, 0)] for r, line in enumerate(grid) for c, ch in enumerate(line) if ch == kind]

    teleporters = squares_of(TELEPORTER)
    if len(teleporters) == 1:
        p = places[teleporters[0]]
        raise fail(p.row, p.col, "a teleporter needs at least one other teleporter to lead to")

    # Doors of two squares: door squares side by side along their wall form one door.
    door_of: dict[int, int] = {}
    doors: dict[int, tuple[int, ...]] = {}
    for (r, c), ways in sorted(door_ways.items()):
        place = place_at[(r, c, 0)]
        if place in door_of:
            continue
        along = [(0, 1)] if ways <= {N, S} else [(1, 0)]
        members, queue = [place], [(r, c)]
        while queue:
            qr, qc = queue.pop()
            for dr, dc in along + [(-a, -b) for a, b in along]:
                nr, nc = qr + dr, qc + dc
                other = place_at.get((nr, nc, 0))
                if other is not None and door_ways.get((nr, nc)) == ways and other not in members:
                    members.append(other)
                    queue.append((nr, nc))
        door_id = len(doors)
        doors[door_id] = tuple(sorted(members))
        for member in members:
            door_of[member] = door_id

    board = Board(
        name=name,
        title=dict(data["title"]),
        description=dict(data["description"]),
        rows=rows,
        cols=cols,
        grid=grid,
        places=places,
        place_at=place_at,
        steps=steps,
        respawn=respawn,
        teleporters=teleporters,
        acid=frozenset(squares_of(ACID)),
        weapon_pickups=frozenset(squares_of(WEAPON_PICKUP)),
        gadget_pickups=frozenset(squares_of(GADGET_PICKUP)),
        door_of=door_of,
        doors=doors,
    )
    # Every place must be reachable on foot or by teleporter from the respawn squares, one-way doors taken only the
    # way their arrow points (« en respectant le sens des flèches »): no sealed room, no door opening out of a wall.
    reached, to_visit = set(respawn.values()), list(respawn.values())
    forward: dict[int, set[int]] = {p.id: set(steps[p.id].values()) for p in places}
    for t in teleporters:
        forward[t].update(teleporters)
    while to_visit:
        for q in forward[to_visit.pop()]:
            if q not in reached:
                reached.add(q)
                to_visit.append(q)
    for p in places:
        if p.id not in reached:
            raise fail(p.row, p.col, "this square cannot be reached from the respawn squares")
    return board
