"""A campaign's Frag games in its archive (campaigns.archive): config, seed and every step replay each one."""

from __future__ import annotations

from campaigns.archive.registry import register_payload_ids
from campaigns.archive.sections import Section, key_renumbered
from frag.models import Game, Seat, Step

SECTION = Section("frag", order=50)
# The game a "frag." event reports.
_game_ids = key_renumbered("game", "frag.Game")


def register() -> None:
    SECTION.table(Game)
    SECTION.table(Seat, campaign="game__campaign")
    SECTION.table(Step, campaign="game__campaign", written_once=True)
    register_payload_ids("frag.", _game_ids)
