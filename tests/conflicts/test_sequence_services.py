"""A Sequence played through the services: splits, draws, Revers on the sheets, refusals that change nothing."""

from __future__ import annotations

import pytest

from campaigns.models import Event
from characters.models import Revers
from conflicts.models import Deck, Participant, Phase
from conflicts.rules.budget import Split
from conflicts.services.drawing import participant_declare_split
from conflicts.services.settling import sequence_cut_short, sequence_settle
from core.errors import PermissionRefused, ServiceError, StaleState
from tests.conflicts.factories import draw, fight

pytestmark = pytest.mark.django_db


def deck_snapshot(campaign) -> list[tuple[list[str], list[str], list[str]]]:  # type: ignore[no-untyped-def]
    return [(d.pile, d.in_play, d.discard) for d in Deck.objects.filter(campaign=campaign).order_by("pk")]


def test_a_draw_between_one_pc_and_two_npcs_writes_revers_on_the_sheets() -> None:
    f = fight()
    t1, t2 = f.npcs
    draw(f.pc, f.player, Split(attack={t1.key: 3}, defence={f.pc.key: 2}), seed=3)
    assert Event.objects.filter(kind="sequence.drew").count() == 1
    draw(t1, f.narrator, Split(attack={f.pc.key: 2}, defence={t1.key: 1}), seed=4)
    draw(t2, f.narrator, Split(attack={f.pc.key: 3}), seed=5)
    f.reload()
    assert f.sequence.phase == Phase.RESOLVED
    drew = Event.objects.filter(kind="sequence.drew").order_by("pk")
    assert [len(sum(e.payload["cards"]["attack"].values(), [])) for e in drew] == [3, 2, 3]
    outcome = f.sequence.outcome
    sequence_settle(sequence=f.sequence, actor=f.narrator, expected_version=f.sequence.version)
    f.reload()
    for p, character in ((f.pc, f.hero), (t1, f.thugs[0]), (t2, f.thugs[1])):
        severity = outcome["targets"].get(p.key, {}).get("severity", 0)
        on_sheet = list(Revers.objects.filter(character=character).values_list("severity", flat=True))
        assert on_sheet == ([severity] if severity else [])
    assert f.sequence.draw_number == 2 or f.sequence.phase == Phase.ENDED
    assert all(not d.in_play for d in Deck.objects.filter(campaign=f.campaign))


def test_every_card_is_dealt_once_and_the_deck_stays_whole() -> None:
    f = fight()
    t1, t2 = f.npcs
    draw(f.pc, f.player, Split(attack={t1.key: 3}, defence={f.pc.key: 2}))
    draw(t1, f.narrator, Split(attack={f.pc.key: 3}))
    deck = Deck.objects.get(campaign=f.campaign)
    assert len(deck.pile) + len(deck.in_play) + len(deck.discard) == 40
    assert len(set(deck.pile + deck.in_play + deck.discard)) == 40
    assert len(deck.in_play) == 8


def test_a_split_with_more_cards_than_the_participant_has_is_refused_and_nothing_changes() -> None:
    f = fight()
    before = deck_snapshot(f.campaign)
    with pytest.raises(ServiceError, match="uses 7 cards but you only have 5"):
        draw(f.pc, f.player, Split(attack={f.npcs[0].key: 5}, defence={f.pc.key: 2}))
    f.reload()
    assert not f.pc.drawn and deck_snapshot(f.campaign) == before
    assert not Event.objects.filter(kind="sequence.drew").exists()


def test_drawing_twice_in_one_draw_is_out_of_turn() -> None:
    f = fight()
    draw(f.pc, f.player, Split(attack={f.npcs[0].key: 5}))
    before = deck_snapshot(f.campaign)
    with pytest.raises(ServiceError, match="Out of turn: Jim Bones already drew"):
        draw(f.pc, f.player, Split(attack={f.npcs[0].key: 5}))
    assert deck_snapshot(f.campaign) == before


def test_a_stale_form_after_someone_else_drew_is_refused() -> None:
    f = fight()
    seen = f.sequence.version
    draw(f.npcs[0], f.narrator, Split(attack={f.pc.key: 3}))
    before = deck_snapshot(f.campaign)
    with pytest.raises(StaleState, match="Someone acted first"):
        draw(f.pc, f.player, Split(attack={f.npcs[0].key: 5}), version=seen)
    f.reload()
    assert not f.pc.drawn and deck_snapshot(f.campaign) == before


def test_players_draw_only_for_their_own_characters() -> None:
    f = fight()
    with pytest.raises(PermissionRefused):
        draw(f.npcs[0], f.player, Split(attack={f.pc.key: 3}))


def test_friendly_contest_decides_a_winner_without_touching_the_sheets() -> None:
    f = fight(npcs=1, friendly=True)
    draw(f.pc, f.player, Split(attack={f.npcs[0].key: 5}), seed=11)
    draw(f.npcs[0], f.narrator, Split(attack={f.pc.key: 3}), seed=12)
    f.reload()
    sequence_settle(sequence=f.sequence, actor=f.narrator, expected_version=f.sequence.version)
    assert not Revers.objects.exists()
    f.reload()
    worst = max(f.sequence.outcome["targets"].get(f.pc.key, {}).get("severity", 0), 0)
    assert f.pc.friendly_worst == worst


def test_an_npc_out_after_one_revers_leaves_the_sequence() -> None:
    f = fight(npcs=1, out_after=1)
    t = f.npcs[0]
    assert t.out_after == 1
    for seed in range(50):
        f.reload()
        if f.sequence.phase == Phase.ENDED:
            break
        draw(f.pc, f.player, Split(attack={t.key: 5}), seed=seed)
        draw(t, f.narrator, Split(defence={t.key: 3}), seed=seed + 100)
        f.reload()
        sequence_settle(sequence=f.sequence, actor=f.narrator, expected_version=f.sequence.version)
    f.reload()
    assert f.sequence.phase == Phase.ENDED and f.sequence.winner == "PJ"
    assert not f.npcs[0].active and f.npcs[0].revers_taken >= 1


def test_upper_hand_gives_extra_cards_on_the_next_draw_only() -> None:
    f = fight(npcs=1)
    t = f.npcs[0]
    for seed in range(50):
        draw(f.pc, f.player, Split(attack={t.key: 5}, upper_hand=True), seed=seed)
        draw(t, f.narrator, Split(defence={t.key: 3}), seed=seed + 1)
        f.reload()
        sequence_settle(sequence=f.sequence, actor=f.narrator, expected_version=f.sequence.version)
        f.reload()
        if f.pc.upper_hand_cards:
            break
    assert f.pc.upper_hand_cards in (2, 4, 6)
    assert not Revers.objects.filter(character=f.thugs[0]).exists()


def after_a_draw(f, verdict: str, winner: str = "") -> None:  # type: ignore[no-untyped-def]
    """Place the sequence just after a recorded draw with that verdict."""
    from conflicts.models import Sequence

    Sequence.objects.filter(pk=f.sequence.pk).update(draw_number=2, last_verdict=verdict, last_winner=winner)
    f.reload()


def test_the_winner_of_a_draw_may_cut_the_sequence_short() -> None:
    f = fight(npcs=1)
    after_a_draw(f, "winner", "PJ")
    with pytest.raises(PermissionRefused):
        sequence_cut_short(sequence=f.sequence, actor=f.player, side="Truands", choice="cut", expected_version=None)
    with pytest.raises(ServiceError, match="Only the side that won"):
        sequence_cut_short(sequence=f.sequence, actor=f.narrator, side="Truands", choice="cut", expected_version=None)
    sequence_cut_short(
        sequence=f.sequence, actor=f.player, side="PJ", choice="cut", expected_version=f.sequence.version
    )
    f.reload()
    assert f.sequence.phase == Phase.ENDED and f.sequence.winner == "PJ" and f.sequence.ended_how == "cut_short"


def test_on_equal_revers_both_sides_must_agree_and_secret_choices_stay_hidden() -> None:
    f = fight(npcs=1, secret_cut=True)
    after_a_draw(f, "equal")
    sequence_cut_short(sequence=f.sequence, actor=f.player, side="PJ", choice="cut", expected_version=None)
    first = Event.objects.filter(kind="sequence.cut").latest("pk")
    assert first.payload["waiting_for"] == ["Truands"] and "choices" not in first.payload
    f.reload()
    assert f.sequence.phase == Phase.DRAWING
    sequence_cut_short(sequence=f.sequence, actor=f.narrator, side="Truands", choice="cut", expected_version=None)
    f.reload()
    assert f.sequence.phase == Phase.ENDED and f.sequence.winner == ""
    assert Event.objects.filter(kind="sequence.cut").latest("pk").payload["choices"] == {"PJ": "cut", "Truands": "cut"}


def test_no_revers_in_the_last_draw_means_no_cutting_short() -> None:
    f = fight(npcs=1)
    after_a_draw(f, "tie")
    with pytest.raises(ServiceError, match="no winner"):
        sequence_cut_short(sequence=f.sequence, actor=f.player, side="PJ", choice="cut", expected_version=None)


def test_settling_is_the_narrators_and_only_after_everyone_drew() -> None:
    f = fight(npcs=1)
    with pytest.raises(ServiceError, match="no draw waiting"):
        sequence_settle(sequence=f.sequence, actor=f.narrator, expected_version=None)
    draw(f.pc, f.player, Split(attack={f.npcs[0].key: 5}))
    draw(f.npcs[0], f.narrator, Split(attack={f.pc.key: 3}))
    with pytest.raises(PermissionRefused):
        sequence_settle(sequence=f.sequence, actor=f.player, expected_version=None)
    with pytest.raises(ServiceError, match="Out of turn"):
        draw(f.pc, f.player, Split(attack={f.npcs[0].key: 5}))


def test_declared_split_is_seen_by_the_narrator_only() -> None:
    f = fight(npcs=1)
    participant_declare_split(
        participant=f.pc, actor=f.player, split=Split(attack={f.npcs[0].key: 3}, defence={f.pc.key: 2})
    )
    event = Event.objects.get(kind="sequence.split")
    assert event.visibility == "narrators"
    assert Participant.objects.get(pk=f.pc.pk).split["defence"] == {f.pc.key: 2}
