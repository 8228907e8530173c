"""The characters app's tables in a campaign's archive (campaigns.archive): sheets and their ledgers."""

from __future__ import annotations

from typing import Any

from campaigns.archive.registry import Renumber, ids_renumbered, register_payload_ids
from campaigns.archive.sections import Section
from characters.models import AtoutEntry, Character, CharacterRules, CharacterTrait, Equipment, PowerFeed, Revers

SECTION = Section("characters", order=10)
CHARACTER = "characters.Character"
# The ids this app's JSON holds: the character an event or a ledger line is about, the Revers it names.
IDS = {
    "character_id": CHARACTER,
    "from_id": CHARACTER,
    "target_character": CHARACTER,
    "revers_id": "characters.Revers",
    "revers": "characters.Revers",
}
# A Revers and a ledger line also name the Sequence they came from (the Sequence's own app renumbers the
# ids inside their strings, conflicts.archive); in event payloads that app renumbers "sequence" itself.
SHEET_IDS = {**IDS, "sequence": "conflicts.Sequence"}


def _ids(value: Any, renumber: Renumber, row: Any) -> Any:
    return ids_renumbered(value, renumber, IDS)


def _sheet_ids(value: Any, renumber: Renumber, row: Any) -> Any:
    return ids_renumbered(value, renumber, SHEET_IDS)


def register() -> None:
    SECTION.table(Character)
    SECTION.table(CharacterRules)
    SECTION.table(CharacterTrait, campaign="character__campaign")
    SECTION.table(PowerFeed, campaign="character__campaign")
    SECTION.table(Revers, campaign="character__campaign", json_ids={"payload": _sheet_ids})
    SECTION.table(AtoutEntry, campaign="character__campaign", json_ids={"context": _sheet_ids})
    SECTION.table(Equipment, campaign="character__campaign")
    # These keys name the same rows in every kind of event (a session's close lists the awards by character).
    register_payload_ids("", _ids)
