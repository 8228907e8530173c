"""One change, one Event (issue 26 item 4): the draw that puts the last card down carries the draw's result.

« Lorsque tous les participants ont tiré leurs cartes, les succès obtenus … sont transformés en Revers » (V, 2):
the result belongs to the last draw, so it goes in that draw's ``sequence.drew`` (``outcome``), and a participant
taken out of a draw that waited only for them carries it in their ``sequence.left``."""

from __future__ import annotations

import pytest

from campaigns.chronicle import describe
from campaigns.models import Event, Membership
from campaigns.redaction import readable_payload
from conflicts.models import Phase
from conflicts.rules.budget import Split
from conflicts.services.leaving import participant_take_out
from tests.conflicts.factories import draw, fight

pytestmark = pytest.mark.django_db


def _reader(f, user) -> Membership:  # type: ignore[no-untyped-def]
    return Membership.objects.get(campaign=f.campaign, user=user)


def test_a_players_last_draw_keeps_its_split_readable_though_it_names_the_thugs() -> None:
    """The resolving Event names every participant's character (the result concerns them all); what a player may
    read of the split still follows the drawer alone: a PC's split without its cover reasons."""
    f = fight(npcs=1)
    t = f.npcs[0]
    draw(t, f.narrator, Split(attack={f.pc.key: 3}), seed=2)
    draw(f.pc, f.player, Split(attack={t.key: 5}), seed=1)
    last = Event.objects.filter(kind="sequence.drew").latest("pk")
    assert "outcome" in last.payload and {c.pk for c in last.characters.all()} == {f.hero.pk, t.character_id}
    seen = readable_payload(last, _reader(f, f.player))
    assert seen["split"]["attack"] == {t.key: 5} and "reasons" not in seen["split"]
    first = Event.objects.filter(kind="sequence.drew").order_by("pk").first()
    assert "split" not in readable_payload(first, _reader(f, f.player))  # the thug's split stays the narrator's
    with_result = describe(last)
    assert "draws" in with_result and "The cards are down" in with_result


def test_an_npcs_last_draw_keeps_its_split_from_the_players() -> None:
    f = fight(npcs=1)
    t = f.npcs[0]
    draw(f.pc, f.player, Split(attack={t.key: 5}), seed=1)
    draw(t, f.narrator, Split(attack={f.pc.key: 3}), seed=2)
    last = Event.objects.filter(kind="sequence.drew").latest("pk")
    assert "outcome" in last.payload
    assert "split" not in readable_payload(last, _reader(f, f.player))
    assert "split" in readable_payload(last, _reader(f, f.narrator))


def test_taking_out_the_one_the_draw_waited_for_resolves_it_in_the_same_event() -> None:
    f = fight(npcs=2)
    draw(f.pc, f.player, Split(attack={f.npcs[0].key: 5}), seed=1)
    draw(f.npcs[0], f.narrator, Split(attack={f.pc.key: 3}), seed=2)
    before = Event.objects.count()
    participant_take_out(participant=f.npcs[1], actor=f.narrator, reason="Il s'enfuit", expected_version=None)
    added = list(Event.objects.order_by("pk"))[before:]
    assert [e.kind for e in added] == ["sequence.left"]
    f.reload()
    assert f.sequence.phase == Phase.RESOLVED and added[0].payload["outcome"] == f.sequence.outcome
    assert "The cards are down" in describe(added[0])


def test_a_draw_that_spends_a_boost_says_so_and_an_npcs_stays_the_narrators() -> None:
    """« pour un nombre de tirages égal à la valeur du Domaine psychique Conscience » (appendix 1): a draw spends one
    of the boost's uses, and its Event says so (``boost``: the character changed, its sheet and budget with it). That
    an NPC runs a boost is the narrator's to know: a player reads the thug's draw without it."""
    from characters.models import Character

    f = fight(npcs=1)
    t = f.npcs[0]
    boost = {"power": "enhanced_endurance", "target": "armour", "amount": 3, "left": 2}
    Character.objects.filter(pk__in=[f.hero.pk, t.character_id]).update(power_boost=boost)
    # The boost adds natural armour to defence: three more cards to place.
    draw(f.pc, f.player, Split(attack={t.key: 5}, defence={f.pc.key: 3}), seed=1)
    draw(t, f.narrator, Split(attack={f.pc.key: 3}, defence={t.key: 3}), seed=2)
    mine, theirs = Event.objects.filter(kind="sequence.drew").order_by("pk")
    assert mine.payload["boost"] is True and readable_payload(mine, _reader(f, f.player))["boost"]
    assert theirs.payload["boost"] is True
    assert "boost" not in readable_payload(theirs, _reader(f, f.player))
    assert readable_payload(theirs, _reader(f, f.narrator))["boost"] is True


def test_a_draw_without_a_boost_says_nothing_of_one() -> None:
    f = fight(npcs=1)
    draw(f.pc, f.player, Split(attack={f.npcs[0].key: 5}), seed=1)
    assert "boost" not in Event.objects.get(kind="sequence.drew").payload


def test_a_draw_runs_its_locking_reads_compiled_before() -> None:
    """The reads every draw begins with (the Sequence, its participants, the deck, locked in that order:
    ``conflicts.snapshot.load``, ``conflicts.decks.deck_get``) are compiled once per thread (``core.prepared``):
    compiling them was about a tenth of a draw POST's own work."""
    from tests.campaigns.test_event_reads import _compiled

    f = fight(npcs=1)
    draw(f.pc, f.player, Split(attack={f.npcs[0].key: 5}), seed=1)
    with _compiled() as compiled:
        draw(f.npcs[0], f.narrator, Split(attack={f.pc.key: 3}), seed=2)
    assert not [sql for sql in compiled if 'FROM "conflicts_participant"' in sql or 'FROM "conflicts_deck"' in sql]
    assert Event.objects.filter(campaign=f.campaign, kind="sequence.drew").count() == 2  # both drew
