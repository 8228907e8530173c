"""A campaign's Frag games in its archive (campaigns.archive): config, seed and every step replay each one."""

from __future__ import annotations

from typing import Any

from campaigns.archive.registry import Renumber, Table, register_payload_ids, register_table
from frag.models import Game, Seat, Step

GAME = "frag.Game"


def _ids(value: Any, renumber: Renumber, row: Any) -> Any:
    if isinstance(value, dict) and "game" in value:
        return {**value, "game": renumber(GAME, value["game"])}
    return value


def register() -> None:
    for table in (
        Table(model=Game, rows=lambda c: Game.objects.filter(campaign=c), section="frag", order=50),
        Table(model=Seat, rows=lambda c: Seat.objects.filter(game__campaign=c), section="frag", order=50),
        Table(
            model=Step,
            rows=lambda c: Step.objects.filter(game__campaign=c),
            section="frag",
            order=50,
            written_once=True,
        ),
    ):
        register_table(table)
    register_payload_ids("frag.", _ids)
