"""The Savage-style states' tables in a campaign's archive (campaigns.archive), round tracker included."""

from __future__ import annotations

from typing import Any

from campaigns.archive.registry import Renumber, Table, register_table
from states.models import SavageFatigue, SavageRound, SavageSettings, SavageState

CHARACTER = "characters.Character"


def _cards(value: Any, renumber: Renumber, row: Any) -> Any:
    # The card dealt to each character, keyed by the character's id.
    return renumber.keys(CHARACTER, value)


def _order(value: Any, renumber: Renumber, row: Any) -> Any:
    # The characters' ids, first to act first.
    return [renumber(CHARACTER, item) for item in value] if isinstance(value, list) else value


def register() -> None:
    for table in (
        Table(
            model=SavageSettings, rows=lambda c: SavageSettings.objects.filter(campaign=c), section="states", order=20
        ),
        Table(
            model=SavageState,
            rows=lambda c: SavageState.objects.filter(character__campaign=c),
            section="states",
            order=20,
        ),
        Table(
            model=SavageFatigue,
            rows=lambda c: SavageFatigue.objects.filter(state__character__campaign=c),
            section="states",
            order=20,
        ),
        Table(
            model=SavageRound,
            rows=lambda c: SavageRound.objects.filter(campaign=c),
            section="states",
            order=20,
            json_ids={"cards": _cards, "order": _order},
        ),
    ):
        register_table(table)
