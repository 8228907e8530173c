"""A campaign's TRAGIC games in its archive (campaigns.archive): config, seed and actions replay each one."""

from __future__ import annotations

import secrets
from typing import Any

from campaigns.archive.registry import Renumber, Table, register_payload_ids, register_table
from tragic.models import Game, GameStatus, Seat

GAME = "tragic.Game"


def _ids(value: Any, renumber: Renumber, row: Any) -> Any:
    if isinstance(value, dict) and "game" in value:
        return {**value, "game": renumber(GAME, value["game"])}
    return value


def _fresh_invitations(games: list[Game], campaign: Any) -> None:
    # A game still waiting for its opponent gets a new link: the old one was the other server's secret.
    for game in games:
        if game.status == GameStatus.WAITING:
            game.invite_token = secrets.token_urlsafe(32)
            game.save(update_fields=["invite_token"])


def register() -> None:
    register_table(
        Table(
            model=Game,
            rows=lambda c: Game.objects.filter(campaign=c),
            section="tragic",
            order=40,
            skip=("invite_token",),
            after_restore=_fresh_invitations,
        )
    )
    register_table(Table(model=Seat, rows=lambda c: Seat.objects.filter(game__campaign=c), section="tragic", order=40))
    register_payload_ids("tragic.", _ids)
