"""The characters app's tables in a campaign's archive (campaigns.archive): sheets and their ledgers."""

from __future__ import annotations

from typing import Any

from campaigns.archive.registry import Renumber, Table, ids_renumbered, register_payload_ids, register_table
from characters.models import AtoutEntry, Character, CharacterRules, CharacterTrait, Equipment, PowerFeed, Revers

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
    def of_campaign(model: Any) -> Any:
        return lambda campaign: model.objects.filter(character__campaign=campaign)

    for table in (
        Table(model=Character, rows=lambda c: Character.objects.filter(campaign=c), section="characters", order=10),
        Table(
            model=CharacterRules,
            rows=lambda c: CharacterRules.objects.filter(campaign=c),
            section="characters",
            order=10,
        ),
        Table(model=CharacterTrait, rows=of_campaign(CharacterTrait), section="characters", order=10),
        Table(model=PowerFeed, rows=of_campaign(PowerFeed), section="characters", order=10),
        Table(model=Revers, rows=of_campaign(Revers), section="characters", order=10, json_ids={"payload": _sheet_ids}),
        Table(
            model=AtoutEntry,
            rows=of_campaign(AtoutEntry),
            section="characters",
            order=10,
            json_ids={"context": _sheet_ids},
        ),
        Table(model=Equipment, rows=of_campaign(Equipment), section="characters", order=10),
    ):
        register_table(table)
    # These keys name the same rows in every kind of event (a session's close lists the awards by character).
    register_payload_ids("", _ids)
