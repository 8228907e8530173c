"""The table's decks, scenes and Sequences in a campaign's archive (campaigns.archive).

The decks keep their order (the draw pile is the deck as shuffled): restoring needs it, and only narrators
download an archive. A Sequence's JSON is keyed by participant id (its outcome, each participant's split and
hand), and its roll ids name the Sequence (``sequence-12-draw-3``): all are renumbered.
"""

from __future__ import annotations

import re
from typing import Any

from campaigns.archive.registry import Renumber, ids_renumbered, register_json_ids, register_payload_ids
from campaigns.archive.sections import Section
from conflicts.models import Deck, Participant, Scene, Sequence, TableSettings

SECTION = Section("conflicts", order=30)
SEQUENCE = "conflicts.Sequence"
PARTICIPANT = "conflicts.Participant"
IDS = {"sequence": SEQUENCE, "scene": "conflicts.Scene", "participant": PARTICIPANT}
# Keyed by a side's name, not by a participant.
BY_NAME = frozenset({"by_side"})
ROLL = re.compile(r"^sequence-(\d+)-draw-(\d+)$")
FLIPPED = re.compile(r"^(attack|defence):(\d+):(\d+)$")


def _strings(value: Any, renumber: Renumber) -> Any:
    """The ids written inside strings: a roll (``sequence-12-draw-3``), a flipped card (``attack:12:0``)."""
    if isinstance(value, dict):
        return {key: _strings(item, renumber) for key, item in value.items()}
    if isinstance(value, list):
        return [_strings(item, renumber) for item in value]
    if isinstance(value, str):
        if match := ROLL.match(value):
            return f"sequence-{renumber(SEQUENCE, int(match[1]))}-draw-{match[2]}"
        if match := FLIPPED.match(value):
            return f"{match[1]}:{renumber(PARTICIPANT, int(match[2]))}:{match[3]}"
    return value


def _keyed(value: Any, renumber: Renumber, row: Any) -> Any:
    """A Sequence's JSON: ids under their keys, objects keyed by participant, ids inside strings."""
    value = ids_renumbered(value, renumber, IDS, keyed_by=PARTICIPANT, not_keyed=BY_NAME)
    return _strings(value, renumber)


def _interpose(value: Any, renumber: Renumber, row: Any) -> Any:
    # The outcome's "interpose" maps a participant to the one who takes their Revers: values are ids too.
    value = _keyed(value, renumber, row)
    if isinstance(value, dict) and isinstance(value.get("interpose"), dict):
        value["interpose"] = {key: renumber(PARTICIPANT, item) for key, item in value["interpose"].items()}
    return value


def _ids(value: Any, renumber: Renumber, row: Any) -> Any:
    return _strings(ids_renumbered(value, renumber, IDS), renumber)


def _only_strings(value: Any, renumber: Renumber, row: Any) -> Any:
    return _strings(value, renumber)


def register() -> None:
    SECTION.table(TableSettings)
    SECTION.table(Deck)
    SECTION.table(Scene)
    SECTION.table(Sequence, json_ids={"outcome": _interpose, "cut_choices": _keyed})
    SECTION.table(Participant, campaign="sequence__campaign", json_ids={"split": _keyed, "hand": _keyed})
    register_payload_ids("sequence.", _keyed)
    for prefix in ("scene.", "test.", "conflict.", "deck.", "character.", "savage."):
        register_payload_ids(prefix, _ids)
    # A ledger line spent on a draw names its roll (``sequence-12-draw-3``): the characters app cannot read it.
    register_json_ids("characters.AtoutEntry", "context", _only_strings)
    register_json_ids("characters.Revers", "payload", _only_strings)
