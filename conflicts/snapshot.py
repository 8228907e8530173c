"""One Sequence as a use case decides on it: everything the rules read, loaded once, locked in a fixed order.

A draw, a settle or an NPC tap is load → decide → write. ``load`` reads, in this order and only once:

1. the Sequence row, locked (``select_for_update``): every use case of a Sequence takes it first, so two of
   them on one Sequence queue here and never deadlock further on;
2. its participants with their characters, locked, in the table's order (position, pk);
3. without locks (no use case of a Sequence writes them): the table's settings, the state cards' effects of
   every participant, their Revers penalties and the ranks their traits lost feeding a power.

The decks come last, locked by the writer in the order of their addresses (``conflicts.services.drawing``):
they are the campaign's, shared by its Sequences, so a fixed order there too keeps two draws from waiting on
each other crosswise.

The pure rules (``conflicts.rules``) decide on the snapshot, the writer saves the rows it changed on the same
objects, so after the write the snapshot is the table as it now stands: the answer to the POST builds its
board from it (``conflicts.selectors.sequence_board``) without reading the rows again, and the draw panel's
form reads the same budget the rules checked, so it never offers what they refuse.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from django.utils.translation import gettext as _

from conflicts import decks as deck_store
from conflicts import sheets
from conflicts.models import Participant, Sequence, TableSettings
from conflicts.rules.budget import Budget
from conflicts.setup import budget_of, effect_of, penalty_of, writes_to_sheets
from core.errors import ServiceError, StaleState
from core.prepared import PreparedRead


@dataclass
class SequenceSnapshot:
    """A Sequence and what its rules read, as one use case saw it under its locks."""

    sequence: Sequence  # with its campaign and scene
    everyone: list[Participant]  # in the table's order, characters loaded
    settings: TableSettings
    effects: dict[int, Any]  # the state cards' effects, by character id (``states.bridge``)
    penalties: dict[int, int]  # the Revers penalty by character id ({} when the Sequence writes no sheet)
    lowered: dict[int, int]  # ranks lost feeding a power, by character id
    # Each participant as a viewer who does not control it reads it (``conflicts.selectors.spectator_view``): the same
    # for every viewer of this snapshot, so built once for all the boards built from it.
    spectator_views: dict[int, Any] = field(default_factory=dict, init=False, repr=False, compare=False)

    def participant(self, pk: int) -> Participant:
        found = next((p for p in self.everyone if p.pk == pk), None)
        if found is None:
            raise ServiceError(_("This participant is not in this sequence."))
        return found

    def effect(self, participant: Participant) -> Any:
        return effect_of(participant, self.sequence, self.effects)

    def budget(self, participant: Participant) -> Budget:
        """The participant's cards for this draw, from the snapshot alone."""
        return budget_of(
            participant, self.sequence, self.settings, penalty=penalty_of(participant, self.sequence, self.penalties),
            everyone=self.everyone, lowered=self.lowered, effects=self.effects,
        )  # fmt: skip


# Every use case of a Sequence begins with these two reads: compiled once per thread (``core.prepared``), as the
# pages' reads are. Compiling them was about a tenth of a draw POST's own work.
_locked_sequence = PreparedRead(
    lambda pk: Sequence.objects.select_for_update(of=("self",)).select_related("campaign", "scene").filter(pk=pk)
)
_locked_participants = PreparedRead(
    lambda sequence_id: (
        Participant.objects.select_for_update(of=("self",))
        .select_related("character")
        .filter(sequence_id=sequence_id)
        .order_by("position", "pk")
    )
)


def lock_sequence(sequence: Sequence, expected_version: int | None) -> Sequence:
    """The Sequence row, locked first by every use case of a Sequence; refused as stale unless at
    ``expected_version``, when given."""
    found = _locked_sequence(int(sequence.pk))
    if not found:
        raise Sequence.DoesNotExist(f"Sequence {sequence.pk} does not exist.")
    locked = found[0]
    if expected_version is not None and locked.version != expected_version:
        raise StaleState(
            _("Someone acted first: the sequence changed since your page was loaded. Check it and try again.")
        )
    return locked


def lock_participants(sequence: Sequence) -> list[Participant]:
    """Its participants with their characters, locked second, in the table's order."""
    return _locked_participants(int(sequence.pk))


def load(sequence: Sequence, expected_version: int | None) -> SequenceSnapshot:
    """Lock ``sequence`` and its participants (refused as stale unless at ``expected_version``, when given) and
    read what the rules decide on, in the order the module's docstring gives."""
    locked = lock_sequence(sequence, expected_version)
    everyone = lock_participants(locked)
    for p in everyone:
        p.sequence = locked  # the locked row itself: what the writer saves is what the answer reads
    return of(locked, everyone)


def of(sequence: Sequence, everyone: list[Participant]) -> SequenceSnapshot:
    """The snapshot of rows already read (locked by ``load``, or not, for a page): what the rules read besides,
    read once. The page's forms and the use cases build budgets from the same reads, so a form never offers
    what the rules would refuse."""
    characters = [p.character for p in everyone]
    settings = deck_store.table_settings(sequence.campaign)
    effects = sheets.states_effects(characters, domain=sequence.domain, campaign=sequence.campaign)
    penalties = (
        sheets.revers_penalties(characters, sequence.domain, sequence.campaign) if writes_to_sheets(sequence) else {}
    )
    lowered = sheets.ranks_lowered_many([(p.character, p.trait_code) for p in everyone])
    return SequenceSnapshot(sequence, everyone, settings, effects, penalties, lowered)
