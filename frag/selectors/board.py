"""The board as SVG-ready shapes for one seat: squares, fighters, markers and the squares it may tap."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from frag.engine import State
from frag.engine.legend import (
    ACID,
    DIAGONALS,
    GADGET_PICKUP,
    ONE_WAY_DOORS,
    RESPAWNS,
    TELEPORTER,
    VENT,
    WALL,
    WEAPON_PICKUP,
)

CELL = 10
COLOURS = ["#d7263d", "#1b998b", "#f4a259", "#2e86ab", "#8f5cd1", "#5b8c2a"]
ARROWS = {"^": "↑", "v": "↓", ">": "→", "<": "←"}


@dataclass
class BoardView:
    width: int
    height: int
    cols: int
    cells: list[dict[str, Any]] = field(default_factory=list)
    targets: list[dict[str, Any]] = field(default_factory=list)
    fighters: list[dict[str, Any]] = field(default_factory=list)
    markers: list[dict[str, Any]] = field(default_factory=list)
    sight_lines: list[dict[str, Any]] = field(default_factory=list)


def _centre(state: State, place: int) -> tuple[float, float]:
    p = state.board.places[place]
    return p.x * CELL / 6, p.y * CELL / 6


def _shape(state: State, place: int) -> str:
    """SVG points of a place: its square, or its half for a diagonal square."""
    p = state.board.places[place]
    x0, y0, x1, y1 = p.col * CELL, p.row * CELL, (p.col + 1) * CELL, (p.row + 1) * CELL
    kind = state.board.grid[p.row][p.col]
    if p.half == 0:
        corners = [(x0, y0), (x1, y0), (x1, y1), (x0, y1)]
    elif kind == "/":
        corners = [(x0, y0), (x1, y0), (x0, y1)] if p.half == 1 else [(x1, y0), (x1, y1), (x0, y1)]
    else:
        corners = [(x0, y0), (x1, y0), (x1, y1)] if p.half == 1 else [(x0, y0), (x1, y1), (x0, y1)]
    return " ".join(f"{x},{y}" for x, y in corners)


def board_view(state: State, seat: int | None, legal: list[dict[str, Any]], mode: str = "") -> BoardView:
    board = state.board
    view = BoardView(width=board.cols * CELL, height=board.rows * CELL, cols=board.cols)
    open_doors = state.open_doors()
    for r, line in enumerate(board.grid):
        for c, ch in enumerate(line):
            cell: dict[str, Any] = {"x": c * CELL, "y": r * CELL, "kind": "floor", "label": "", "diagonal": None}
            if ch == WALL:
                cell["kind"] = "wall"
            elif ch == ACID:
                cell["kind"] = "acid"
            elif ch == TELEPORTER:
                cell["kind"] = "teleporter"
            elif ch == VENT:
                cell["kind"] = "vent"
            elif ch == WEAPON_PICKUP:
                cell["kind"], cell["label"] = "weapon-pickup", "W"
            elif ch == GADGET_PICKUP:
                cell["kind"], cell["label"] = "gadget-pickup", "G"
            elif ch in RESPAWNS:
                cell["kind"], cell["label"] = "respawn", ch
            elif ch in DIAGONALS:
                x0, y0 = c * CELL, r * CELL
                cell["diagonal"] = (x0, y0 + CELL, x0 + CELL, y0) if ch == "/" else (x0, y0, x0 + CELL, y0 + CELL)
            elif ch == "D" or ch in ONE_WAY_DOORS:
                door = board.door_of[board.place_at[(r, c, 0)]]
                cell["kind"] = "door open" if door in open_doors else "door closed"
                cell["label"] = ARROWS.get(
                    ch, "↕" if board.steps[board.place_at[(r, c, 0)]].keys() <= {"N", "S"} else "↔"
                )
            view.cells.append(cell)

    # Where a tap does something: moves, jumps, teleporters, placement, or the square a card sends us to.
    # A jump is offered where walking cannot go, or only through acid: elsewhere walking is cheaper.
    safe_walks = {a["path"][-1] for a in legal if a["type"] == "move" and not any(p in board.acid for p in a["path"])}
    for index, action in enumerate(legal):
        if action["type"] == "jump" and action["to"] in safe_walks:
            continue
        kind = action["type"]
        if kind == "move":
            to, style = action["path"][-1], "reachable"
        elif kind in ("jump", "teleport", "place"):
            to, style = action["to"], {"jump": "jump", "teleport": "teleport", "place": "reachable"}[kind]
        elif kind == "play" and mode == f"teleport-{action['card']}" and "to" in action:
            to, style = action["to"], "teleport"
        else:
            continue
        cx, cy = _centre(state, to)
        square = state.board.places[to]
        view.targets.append(
            {
                "index": index,
                "points": _shape(state, to),
                "style": style,
                "place": to,
                "cx": cx,
                "cy": cy,
                "row": square.row,
                "col": square.col,
            }
        )

    observation = state.observation(seat)
    for f in observation["fighters"]:
        if f["place"] is None:
            continue
        cx, cy = _centre(state, f["place"])
        view.fighters.append(
            {
                "seat": f["seat"],
                "cx": cx,
                "cy": cy,
                "colour": COLOURS[f["seat"] % 6],
                "name": f["name"],
                "me": f["seat"] == seat,
            }
        )
    for place, count in state.blood.items():
        cx, cy = _centre(state, place)
        view.markers.append({"kind": "blood", "cx": cx - 3, "cy": cy + 3, "count": count})
    for pile in state.piles.values():
        cx, cy = _centre(state, pile["place"])
        view.markers.append({"kind": "weapon", "cx": cx + 3, "cy": cy + 3, "count": len(pile["cards"])})
    if seat is not None and not state.fighters[seat].out and (mine := state.fighters[seat].place) is not None:
        mx, my = _centre(state, mine)
        for target in state.targets_in_sight(seat):
            if (there := state.fighters[target].place) is not None:  # a target in sight is on the board
                tx, ty = _centre(state, there)
                view.sight_lines.append({"x1": mx, "y1": my, "x2": tx, "y2": ty})
    return view
