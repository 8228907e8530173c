"""Every sight line of a shipped map, traced once and kept beside it: ``frag/maps/<name>.sight``.

Without it a new process traces each pair of places the first time a game asks for it, about 12 µs a pair: 1.2 s of
CPU for the 96,141 pairs of La Raffinerie, which cost a new process's first games a third of their speed. With it,
loading the map reads the file (a few milliseconds) and a line is decoded from it the first time it is asked (about a
microsecond), then memoised by the board as before.

A table is keyed by everything a trace reads: this format, the source of ``sight.py`` (the geometry), the legend it
compares squares to, and the board's grid, places (numbers and centres) and doors. A file whose key differs (the map,
the geometry or the numbering of places changed) is ignored, and the board traces lazily as it did before: a stale
table costs speed, never a wrong line. ``python manage.py frag_sight_tables`` writes the tables again;
``tests/frag/test_sight_table.py`` fails while a shipped one is stale, and checks every line against the trace.

The file: a header line ``frag-sight 1 <key>``, then zlib-compressed unsigned 32-bit little-endian words: the number
of places P, P × P offsets (``offset[a * P + b]`` for a < b: 0 when walls block the line, else where its record
starts), then the records: the number of doors, the doors, the number of places crossed, the places crossed.
"""

from __future__ import annotations

import hashlib
import sys
import zlib
from array import array
from functools import cache
from pathlib import Path

from . import sight
from .legend import DIAGONALS, UNIT, WALL
from .sight import BLOCKED, SightLine, Traced, trace

FORMAT = "frag-sight 1"
WORD = "I"  # unsigned 32 bits on every platform CPython runs on; checked before a table is trusted


@cache
def _geometry_source() -> bytes:
    return Path(sight.__file__).read_bytes()


def table_key(board: Traced) -> str:
    """What a table must have been computed from to be read for ``board``: a hash of every input of ``sight.trace``."""
    digest = hashlib.sha256()
    digest.update(FORMAT.encode())
    digest.update(_geometry_source())
    digest.update(repr((UNIT, WALL, sorted(DIAGONALS))).encode())
    digest.update("\n".join(board.grid).encode())
    digest.update(repr([(p.row, p.col, p.x, p.y) for p in board.places]).encode())
    digest.update(repr(sorted(board.place_at.items())).encode())
    digest.update(repr(sorted(board.door_of.items())).encode())
    return digest.hexdigest()


class SightTable:
    """The lines of one board, decoded one at a time from the words of its file."""

    def __init__(self, words: array[int]) -> None:
        self.words = words
        self.places = words[0]

    def line(self, a: int, b: int) -> SightLine:
        """The line between places ``a`` < ``b``, equal to ``sight.trace(board, a, b)``."""
        words = self.words
        at = words[1 + a * self.places + b]
        if not at:
            return BLOCKED
        doors_end = at + 1 + words[at]
        crossed_end = doors_end + 1 + words[doors_end]
        return False, tuple(words[at + 1 : doors_end]), tuple(words[doors_end + 1 : crossed_end])


def table_bytes(board: Traced) -> bytes:
    """Trace every pair of ``board``'s places into a table file's bytes (about a second on the larger map)."""
    places = len(board.places)
    offsets = array(WORD, bytes(4 * places * places))
    records = array(WORD)
    start = 1 + places * places
    for a in range(places):
        for b in range(a + 1, places):
            walls, doors, crossed = trace(board, a, b)
            if not walls:
                offsets[a * places + b] = start + len(records)
                records.extend((len(doors), *doors, len(crossed), *crossed))
    words = array(WORD, [places])
    words.extend(offsets)
    words.extend(records)
    if sys.byteorder == "big":
        words.byteswap()
    header = f"{FORMAT} {table_key(board)}\n".encode()
    return header + zlib.compress(words.tobytes(), 9)


def read_table(path: Path, board: Traced) -> SightTable | None:
    """The table at ``path`` if it was computed for ``board`` exactly as it is now, else None (trace instead)."""
    try:
        data = path.read_bytes()
    except OSError:
        return None
    header, _, body = data.partition(b"\n")
    if header != f"{FORMAT} {table_key(board)}".encode() or array(WORD).itemsize != 4:
        return None
    try:
        raw = zlib.decompress(body)
    except zlib.error:
        return None
    words = array(WORD)
    words.frombytes(raw[: len(raw) - len(raw) % 4])
    if sys.byteorder == "big":
        words.byteswap()
    places = len(board.places)
    if not words or words[0] != places or len(words) < 1 + places * places:
        return None
    return SightTable(words)
