"""Write the precomputed sight lines of every shipped map (``frag/maps/<name>.sight``, see ``frag.engine.sight_table``).

Run it after changing a map or the geometry of sight lines; ``--check`` only says which tables are stale.
"""

from __future__ import annotations

import time
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from frag.engine.board import MAPS_DIR, available_maps, load_board
from frag.engine.sight_table import FORMAT, table_bytes, table_key


class Command(BaseCommand):
    help = "Trace every sight line of each shipped Frag map into frag/maps/<name>.sight (about a second per map)."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--check", action="store_true", help="write nothing; fail if a table is missing or stale")

    def handle(self, *args: Any, **options: Any) -> None:
        stale = []
        for name in available_maps():
            board = load_board(name)
            path = MAPS_DIR / f"{name}.sight"
            header = f"{FORMAT} {table_key(board)}\n".encode()
            current = path.is_file() and path.read_bytes().startswith(header)
            if current:
                self.stdout.write(f"{name}: up to date")
                continue
            if options["check"]:
                stale.append(name)
                continue
            start = time.process_time()
            path.write_bytes(table_bytes(board))
            self.stdout.write(f"{name}: written ({path.stat().st_size} bytes, {time.process_time() - start:.1f} s)")
        if stale:
            raise CommandError(f"stale sight tables: {', '.join(stale)} (run python manage.py frag_sight_tables)")
