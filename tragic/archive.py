"""A campaign's TRAGIC games in its archive (campaigns.archive): config, seed and actions replay each one."""

from __future__ import annotations

import secrets
from typing import Any

from campaigns.archive.registry import register_payload_ids
from campaigns.archive.sections import Section, key_renumbered
from tragic.models import Game, GameStatus, Seat

SECTION = Section("tragic", order=40)
# The game a "tragic." event reports.
_game_ids = key_renumbered("game", "tragic.Game")


def _fresh_invitations(games: list[Game], campaign: Any) -> None:
    # A game still waiting for its opponent gets a new link: the old one was the other server's secret.
    for game in games:
        if game.status == GameStatus.WAITING:
            game.invite_token = secrets.token_urlsafe(32)
            game.save(update_fields=["invite_token"])


def register() -> None:
    SECTION.table(Game, skip=("invite_token",), after_restore=_fresh_invitations)
    SECTION.table(Seat, campaign="game__campaign")
    register_payload_ids("tragic.", _game_ids)
