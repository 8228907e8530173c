"""Two people drawing at the same instant never receive the same card (row-locked deck)."""

from __future__ import annotations

import random
import threading

import pytest
from django.db import connection

from conflicts.models import Deck, Participant
from conflicts.rules.budget import Split
from conflicts.services.drawing import participant_draw
from conflicts.services.sequences import participant_add, scene_create, sequence_create
from tests.characters.factories import table
from tests.conflicts.factories import npc

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]


def test_twenty_threads_drawing_at_once_share_the_table_deck_without_duplicates(on_postgres: bool) -> None:
    if not on_postgres:
        pytest.skip("row locks are only meaningful on PostgreSQL")
    campaign, narrator, _players = table(players=0)
    scene = scene_create(campaign=campaign, actor=narrator, title="Vingt duels")
    drawers: list[Participant] = []
    for i in range(20):
        seq = sequence_create(scene=scene, actor=narrator, data={"title": f"Duel {i}"})
        a = npc(campaign, narrator, f"Bretteur {i}", combat=2)
        b = npc(campaign, narrator, f"Rival {i}", combat=2)
        drawers.append(participant_add(sequence=seq, actor=narrator, character=a, side="A", trait_code="combat"))
        participant_add(sequence=seq, actor=narrator, character=b, side="B", trait_code="combat")
    Deck.objects.filter(campaign=campaign).delete()
    barrier = threading.Barrier(20)
    errors: list[BaseException] = []

    def draw(p: Participant, seed: int) -> None:
        try:
            opponent = Participant.objects.filter(sequence_id=p.sequence_id).exclude(pk=p.pk).get()
            barrier.wait(timeout=60)  # a thread that died before it must fail the test, not hang it
            participant_draw(
                participant=p, actor=narrator, expected_version=None, split=Split(attack={opponent.key: 2}),
                rng=random.Random(seed),
            )  # fmt: skip
        except BaseException as exc:  # noqa: BLE001 - reported by the main thread
            errors.append(exc)
        finally:
            connection.close()

    threads = [threading.Thread(target=draw, args=(p, i)) for i, p in enumerate(drawers)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert errors == []
    hands = [
        c
        for p in Participant.objects.filter(pk__in=[d.pk for d in drawers])
        for c in sum(p.hand["attack"].values(), [])
    ]
    assert len(hands) == 40
    assert len(set(hands)) == 40, "a card was dealt twice"
    deck = Deck.objects.get(campaign=campaign)
    assert sorted(deck.in_play) == sorted(hands) and deck.pile == [] and deck.discard == []


def test_atouts_spent_at_once_on_one_test_all_land_or_are_refused_whole(on_postgres: bool) -> None:
    """A teammate's help, the player's re-roll and a second tap of the same help, at the same instant: the Test
    keeps both the help and the new dice (each follow-up reads the Test as the previous one left it, the sheets
    being locked), the double help is refused, and nobody pays for what did not happen."""
    if not on_postgres:
        pytest.skip("row locks are only meaningful on PostgreSQL")
    for _run in range(3):
        _atouts_at_once()


def _atouts_at_once() -> None:
    from conflicts.services.roll_follow_ups import fudge_test_help, fudge_test_reroll, fudge_test_state
    from tests.conflicts.test_roll_atouts import _roll, _table

    campaign, narrator, player, teammate, janey, jim = _table()
    roll = _roll(janey, player)
    barrier = threading.Barrier(3)
    errors: list[BaseException] = []

    def act(what: str) -> None:
        try:
            barrier.wait(timeout=60)
            if what == "reroll":
                fudge_test_reroll(character=janey, actor=player, roll=roll, rng=random.Random(3))
            else:
                fudge_test_help(character=janey, helper=jim, actor=teammate, roll=roll, justification=what)
        except BaseException as exc:  # noqa: BLE001 - reported by the main thread
            errors.append(exc)
        finally:
            connection.close()

    threads = [threading.Thread(target=act, args=(w,)) for w in ("reroll", "lampe", "lampe encore")]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert len(errors) == 1, errors  # the second help
    card = fudge_test_state(janey, roll).card()
    assert card["step"] == 2 and [m for m in card["modifiers"] if m[0] == "help"] == [["help", 1, "Jim"]]
    assert card["final"] == 4 + 1 + sum(card["dice"])
    jim.refresh_from_db()
    assert jim.start - jim.atout_balance == 2  # type: ignore[attr-defined]


def test_two_taps_on_draw_for_all_npcs_at_once_draw_them_once(on_postgres: bool) -> None:
    """The narrator's console tapped twice at the same instant (two devices, a double tap): one tap draws every
    NPC, the other is refused as stale; no NPC draws twice and no card is dealt twice."""
    if not on_postgres:
        pytest.skip("row locks are only meaningful on PostgreSQL")
    from campaigns.models import Event
    from conflicts.services.npc_draws import sequence_draw_npcs
    from core.errors import StaleState
    from tests.conflicts.factories import fight

    f = fight(npcs=3)
    version = f.sequence.version
    barrier = threading.Barrier(2)
    outcomes: list[object] = []

    def tap(seed: int) -> None:
        try:
            barrier.wait(timeout=60)
            outcomes.append(
                sequence_draw_npcs(
                    sequence=f.sequence, actor=f.narrator, expected_version=version, rng=random.Random(seed)
                )
            )
        except BaseException as exc:  # noqa: BLE001 - reported by the main thread
            outcomes.append(exc)
        finally:
            connection.close()

    threads = [threading.Thread(target=tap, args=(seed,)) for seed in (1, 2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert sorted(type(o).__name__ for o in outcomes) == ["StaleState", "list"], outcomes
    assert any(isinstance(o, StaleState) for o in outcomes)
    # One tap, one Event holding every NPC's hand (a settle's and a tap's one Event per change).
    (tapped,) = Event.objects.filter(kind="sequence.npcs_drew")
    assert len(tapped.payload["hands"]) == 3 and not Event.objects.filter(kind="sequence.drew").exists()
    cards = [
        c for p in Participant.objects.filter(pk__in=[n.pk for n in f.npcs]) for c in sum(p.hand["attack"].values(), [])
    ]
    deck = Deck.objects.get(campaign=f.campaign)
    assert len(cards) == 9 and sorted(deck.in_play) == sorted(cards)
