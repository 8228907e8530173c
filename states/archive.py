"""The Savage-style states' tables in a campaign's archive (campaigns.archive), round tracker included."""

from __future__ import annotations

from typing import Any

from campaigns.archive.registry import Renumber
from campaigns.archive.sections import Section
from states.models import SavageFatigue, SavageRound, SavageSettings, SavageState

CHARACTER = "characters.Character"
SECTION = Section("states", order=20)


def _cards(value: Any, renumber: Renumber, row: Any) -> Any:
    # The card dealt to each character, keyed by the character's id.
    return renumber.keys(CHARACTER, value)


def _order(value: Any, renumber: Renumber, row: Any) -> Any:
    # The characters' ids, first to act first.
    return [renumber(CHARACTER, item) for item in value] if isinstance(value, list) else value


def register() -> None:
    SECTION.table(SavageSettings)
    SECTION.table(SavageState, campaign="character__campaign")
    SECTION.table(SavageFatigue, campaign="state__character__campaign")
    SECTION.table(SavageRound, json_ids={"cards": _cards, "order": _order})
