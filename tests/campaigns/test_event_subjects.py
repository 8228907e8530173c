"""Each Event names the subjects it changed (campaigns/event_subjects.py), and their versions are its stream
position, written in its transaction: the currency regions are kept by (core/regions.py)."""

from __future__ import annotations

import pytest

from campaigns import services
from campaigns.event_subjects import subjects_of, versions
from campaigns.models import Event, SubjectVersion
from characters.services.revers import revers_inflict
from tests.campaigns.factories import membership
from tests.characters.factories import pc, table

pytestmark = pytest.mark.django_db


def test_an_event_touches_the_characters_it_names_and_what_its_kind_declares() -> None:
    """And the log, always: every Event is a new entry (the campaign pages' feeds read the newest)."""
    assert subjects_of("character.revers_inflicted", 3, {"character_id": 12}, []) == {
        "character:12", "states:12", "traits:12", "characters:3", "revers:3", "log:3"
    }  # fmt: skip
    assert subjects_of("character.revers_taken", 3, {"character_id": 12, "from_id": 14}, []) >= {
        "character:14", "states:14", "character:12"
    }  # fmt: skip
    assert subjects_of("savage.wounds_set", 3, {}, [7]) == {"character:7", "states:7", "traits:7", "characters:3",
                                                            "log:3"}  # fmt: skip
    assert subjects_of("savage.settings_changed", 3, {}, []) == {"settings:3", "log:3"}
    assert subjects_of("test.atout", 3, {"atout": {"character_id": 5}}, []) == {
        "character:5",
        "states:5",
        "traits:5",
        "characters:3",
        "log:3",
    }
    assert subjects_of("note", 3, {}, []) == {"feed:3", "log:3"}


def test_an_event_that_moves_atouts_only_leaves_the_trait_rows() -> None:
    """A gain, a refund or a spending changes the sheet's counters and ledger, not its trait rows
    (``characters.trait_rows``); a spending that raises a trait names it and touches them."""
    for kind in ("character.atout_gained", "character.atout_refunded", "character.atout_spent"):
        assert subjects_of(kind, 3, {}, [7]) == {"character:7", "states:7", "characters:3", "log:3"}, kind
    assert "traits:7" in subjects_of("character.atout_spent", 3, {"trait": "medecine"}, [7])
    assert "traits:7" in subjects_of("character.revers_taken", 3, {"character_id": 7}, [])


def test_a_kind_nobody_declared_touches_the_whole_table() -> None:
    """Correct before it is precise: every region depends on ``table:<campaign>``."""
    assert subjects_of("clock.advanced", 3, {}, []) == {"table:3", "log:3"}
    assert subjects_of("sequence.atout", 3, {}, [8]) == {
        "character:8", "states:8", "traits:8", "characters:3", "sequences:3", "decks:3", "log:3"
    }  # fmt: skip


def test_a_hand_dealt_touches_its_drawers_turn_not_the_character() -> None:
    """A draw names its drawer for the log, and changes their cards, not their sheet: it touches whose turn it is
    (the drawer's ``turn`` and the campaign's ``turns``), not ``character``, ``states``, ``traits`` or
    ``characters``, so the character's rows in other Sequences, its sheet and its panel stay kept. A split declared
    touches neither."""
    assert subjects_of("sequence.drew", 3, {"participant": 4, "character_id": 8}, [8]) == {
        "turn:8", "turns:3", "drew:4", "decks:3", "log:3"
    }  # fmt: skip
    assert subjects_of("sequence.split", 3, {"participant": 4}, [8]) == {"drew:4", "sequences:3", "log:3"}
    tap = {"hands": [{"participant": 4, "character_id": 8}, {"participant": 5, "character_id": 9}]}
    assert subjects_of("sequence.npcs_drew", 3, tap, [8, 9]) == {
        "turn:8", "turn:9", "turns:3", "drew:4", "drew:5", "decks:3", "log:3"
    }  # fmt: skip


def test_a_hand_that_spent_a_boost_or_resolved_the_draw_touches_the_characters() -> None:
    """« pour un nombre de tirages égal à la valeur du Domaine psychique Conscience » (appendix 1): a draw on the
    boosted trait spends one of its uses, shown on the sheet and in the budget; and the last draw puts the result on
    the table for everyone it names."""
    boosted = subjects_of("sequence.drew", 3, {"participant": 4, "boost": True}, [8])
    assert {"character:8", "states:8", "traits:8", "characters:3", "turn:8"} <= boosted
    resolved = subjects_of("sequence.drew", 3, {"participant": 4, "outcome": {}}, [8, 9])
    assert {"character:8", "character:9", "turn:9", "sequences:3"} <= resolved
    tap = {"hands": [{"participant": 4}, {"participant": 5, "boost": True}]}
    assert {"character:8", "character:9"} <= subjects_of("sequence.npcs_drew", 3, tap, [8, 9])
    assert "character:8" not in subjects_of("sequence.drew", 3, {"participant": 4, "boost": "yes"}, [8])


def test_only_the_draw_that_resolves_touches_the_sequences_under_way() -> None:
    """A draw that leaves others to draw changes its drawer and its Sequence, not the list of Sequences under way
    (titles and phases stay); the last draw, which carries the result (``outcome``), moves the phase."""
    drew = subjects_of("sequence.drew", 3, {"sequence": 5}, [8])
    assert "sequence:5" in drew and "sequences:3" not in drew
    assert "sequences:3" in subjects_of("sequence.drew", 3, {"sequence": 5, "outcome": {}}, [8])
    assert "sequences:3" in subjects_of("sequence.settled", 3, {"sequence": 5}, [8])


def test_the_draw_panels_follow_the_whole_draw_or_their_own_participants_draw() -> None:
    """``draw:<sequence>``: every draw panel of the Sequence is sent whole (a new draw opened, a participant joining
    or leaving, the result on the table…); ``drew:<participant>``: the drawer's own panel; a draw that leaves others
    to draw changes no one else's panel (their Atout buttons only, ``conflicts.live``)."""
    drew = subjects_of("sequence.drew", 3, {"sequence": 5, "participant": 11}, [8])
    assert "drew:11" in drew and "draw:5" not in drew
    assert "draw:5" in subjects_of("sequence.drew", 3, {"sequence": 5, "participant": 11, "outcome": {}}, [8])
    for kind in ("sequence.settled", "sequence.joined", "sequence.cut", "sequence.left", "sequence.ended"):
        assert "draw:5" in subjects_of(kind, 3, {"sequence": 5}, [8]), kind
    assert "draw:5" not in subjects_of("sequence.atout", 3, {"sequence": 5, "participant": 11}, [8])
    assert "decks:3" in subjects_of("deck.reshuffled", 3, {}, [])
    # The narrator's tap: one Event with every NPC's hand; each hand's participant is a drawer.
    tap = subjects_of("sequence.npcs_drew", 3, {"sequence": 5, "hands": [{"participant": 12}, {"participant": 13}]}, [])
    assert {"drew:12", "drew:13", "decks:3"} <= tap and "draw:5" not in tap and "sequences:3" not in tap
    resolving = {"sequence": 5, "hands": [{"participant": 12}], "outcome": {}}
    assert {"draw:5", "sequences:3"} <= subjects_of("sequence.npcs_drew", 3, resolving, [])


def test_the_subjects_versions_are_the_position_of_the_last_event_that_touched_them() -> None:
    campaign, narrator, (owner, _other) = table()
    jim = pc(campaign, owner)
    revers_inflict(character=jim, actor=narrator, domain="physical", severity=1, source="Balle")
    inflicted = Event.objects.get(kind="character.revers_inflicted")
    services.note_write(membership=membership(campaign, owner), text="Une note")
    note = Event.objects.get(kind="note")
    found = versions(frozenset({f"character:{jim.pk}", f"revers:{campaign.pk}", f"feed:{campaign.pk}", "settings:0"}))
    assert found == {f"character:{jim.pk}": inflicted.position, f"revers:{campaign.pk}": inflicted.position,
                     f"feed:{campaign.pk}": note.position}  # fmt: skip
    assert note.position > inflicted.position
    assert SubjectVersion.objects.filter(campaign=campaign).count() == len(
        {
            s
            for e in Event.objects.filter(campaign=campaign)
            for s in subjects_of(e.kind, campaign.pk, e.payload, e.characters.values_list("pk", flat=True))
        }  # fmt: skip
    )
