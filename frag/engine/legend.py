"""The legend of a map file: what each character of its grid stands for, the four directions, and the scale of the
coordinates a place's centre is kept in. Shared by the board (which reads the grid) and the sight lines (which trace
across it)."""

from __future__ import annotations

N, E, S, W = "N", "E", "S", "W"
DIRECTIONS = {N: (-1, 0), E: (0, 1), S: (1, 0), W: (0, -1)}
OPPOSITE = {N: S, S: N, E: W, W: E}

WALL, FLOOR, ACID, TELEPORTER, VENT = "#", ".", "~", "T", "%"
WEAPON_PICKUP, GADGET_PICKUP = "w", "g"
DIAGONALS = {"/", "\\"}
ONE_WAY_DOORS = {"^": N, "v": S, ">": E, "<": W}
TWO_WAY_DOOR = "D"
RESPAWNS = {str(n): n for n in range(1, 7)}
LEGEND = {WALL, FLOOR, ACID, TELEPORTER, VENT, WEAPON_PICKUP, GADGET_PICKUP, TWO_WAY_DOOR}
LEGEND |= DIAGONALS | set(ONE_WAY_DOORS) | set(RESPAWNS)

# Edges each half of a diagonal square touches: half 1 is the one along the top edge.
HALF_EDGES = {"/": {1: {N, W}, 2: {S, E}}, "\\": {1: {N, E}, 2: {S, W}}}
# Centres are kept in sixths of a square so that the centroid of a half square is an integer.
UNIT = 6
