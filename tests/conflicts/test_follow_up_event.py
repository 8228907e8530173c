"""One Event per Test follow-up (issue 12): re-roll, change a die, help, counter and +1 again each append one
``test.atout`` that carries the Atout spending (the ledger line ``character.atout_spent`` used to be) and its
effect on the Test; the ledger rows, balances, log, exports and live panels read it without loss; events
written before (a ``test.atout`` beside a ``character.atout_spent``) still read."""

from __future__ import annotations

import random

import pytest
from django.utils import translation

from campaigns.chronicle import describe
from campaigns.live import Viewer, extra_fragments, home_subject
from campaigns.models import Event, Membership
from campaigns.redaction import readable_payload
from campaigns.services import event_append
from characters.models import AtoutEntry, Character
from characters.services.atouts import atout_gain
from conflicts.services.roll_follow_ups import (
    fudge_test_bonus_again,
    fudge_test_change_die,
    fudge_test_counter,
    fudge_test_help,
    fudge_test_reroll,
    fudge_test_state,
)
from tests.campaigns.regions_dom import element
from tests.conflicts.factories import npc
from tests.conflicts.test_roll_atouts import _roll, _table

pytestmark = pytest.mark.django_db


def _one_event(action) -> Event:  # type: ignore[no-untyped-def]
    before = Event.objects.count()
    action()
    assert Event.objects.count() == before + 1, [e.kind for e in Event.objects.order_by("-pk")[:3]]
    event = Event.objects.latest("pk")
    assert event.kind == "test.atout"
    return event


def test_each_follow_up_is_one_event_carrying_the_ledger_line() -> None:
    campaign, narrator, player, teammate, janey, jim = _table()
    roll = _roll(janey, player, atout=True)
    first_entry = AtoutEntry.objects.latest("pk").pk  # the +1 bought with the roll
    reroll = _one_event(lambda: fudge_test_reroll(character=janey, actor=player, roll=roll, rng=random.Random(5)))
    change = _one_event(lambda: fudge_test_change_die(character=janey, actor=player, roll=roll, index=0,
                                                      face=-reroll.payload["dice"][0] or 1))  # fmt: skip
    helped = _one_event(lambda: fudge_test_help(character=janey, helper=jim, actor=teammate, roll=roll,
                                                justification="Je la couvre"))  # fmt: skip
    counter = _one_event(lambda: fudge_test_counter(character=janey, counterer=jim, actor=teammate, roll=roll))
    again = _one_event(lambda: fudge_test_bonus_again(character=janey, actor=player, roll=roll))
    janey.refresh_from_db()
    jim.refresh_from_db()
    for event, spender, use, amount in ((reroll, janey, "reroll", 1), (change, janey, "change_result", 1),
                                        (helped, jim, "help_other", 2), (counter, jim, "counter", 1),
                                        (again, janey, "temporary_bonus", 1)):  # fmt: skip
        line = event.payload["atout"]
        assert (line["character_id"], line["use"], line["amount"]) == (spender.pk, use, amount)
        assert line["context"]["roll"] == roll and sum(line["pools"].values()) == amount
        assert set(event.characters.values_list("pk", flat=True)) >= {spender.pk}
        # The Atout history on the sheet is the ledger's rows, written as before.
        entries = AtoutEntry.objects.filter(character=spender, use=use, context__roll=roll, pk__gt=first_entry)
        assert sum(-e.delta for e in entries) == amount
    assert helped.payload["atout"]["justification"] == "Je la couvre"
    assert again.payload["atout"]["balance"] == janey.atout_balance  # the counters on the sheet
    assert counter.payload["atout"]["balance"] == jim.atout_balance
    # The +1 bought with the roll itself is told by the roll's own Event, not by a line of its own.
    assert not Event.objects.filter(kind="character.atout_spent", payload__context__roll=roll).exists()
    assert Event.objects.get(kind="test.rolled", payload__roll=roll).payload["atout"]["use"] == "temporary_bonus"
    # The Test reads as it stands, from the same events.
    assert fudge_test_state(janey, roll).step == 5


def test_the_log_line_says_the_spending_and_its_reason_in_both_languages() -> None:
    campaign, narrator, player, teammate, janey, jim = _table()
    roll = _roll(janey, player)
    event = _one_event(lambda: fudge_test_help(character=janey, helper=jim, actor=teammate, roll=roll,
                                               justification="Je la couvre"))  # fmt: skip
    with translation.override("fr"):
        assert describe(event).startswith("Jim dépense 2 Atouts pour aider Janey : +1 Rang")
        assert describe(event).endswith("« Je la couvre »")
    with translation.override("en"):
        assert describe(event).startswith("Jim spends 2 Atouts to help Janey: +1 rank")


def test_an_npcs_balance_and_reason_stay_the_narrators_on_a_players_test() -> None:
    campaign, narrator, player, teammate, janey, jim = _table()
    ghoul = npc(campaign, narrator, "Goule")
    atout_gain(character=ghoul, actor=narrator, amount=4)
    roll = _roll(janey, player)
    event = _one_event(lambda: fudge_test_help(character=janey, helper=ghoul, actor=narrator, roll=roll,
                                               justification="PLAN-SECRET"))  # fmt: skip
    line = event.payload["atout"]
    assert "balance" not in line and "justification" not in line
    assert line["narrator_balance"] == Character.objects.get(pk=ghoul.pk).atout_balance
    as_player = readable_payload(event, Membership.objects.get(campaign=campaign, user=teammate))
    assert "narrator_balance" not in as_player["atout"] and "PLAN-SECRET" not in str(as_player)
    as_narrator = readable_payload(event, Membership.objects.get(campaign=campaign, user=narrator))
    assert as_narrator["atout"]["narrator_justification"] == "PLAN-SECRET"
    assert "PLAN-SECRET" not in describe(event)  # the log's sentence is read by everyone who reads the Test


def test_the_spenders_panel_follows_live_from_the_one_event() -> None:
    campaign, narrator, player, teammate, janey, jim = _table()
    roll = _roll(janey, player)
    event = _one_event(lambda: fudge_test_help(character=janey, helper=jim, actor=teammate, roll=roll,
                                               justification="Là"))  # fmt: skip
    narrators = Viewer(Membership.objects.get(campaign=campaign, user=narrator), watching=frozenset({
        home_subject(campaign.pk)}))  # fmt: skip
    assert f'id="character-panel-{jim.pk}"' in "".join(extra_fragments(event, narrators))


def test_events_written_before_still_read() -> None:
    """A follow-up logged as two events (the ledger's line, then ``test.atout`` without ``atout``)."""
    campaign, narrator, player, teammate, janey, jim = _table()
    roll = _roll(janey, player)
    rolled = Event.objects.get(kind="test.rolled", payload__roll=roll).payload
    spent = event_append(campaign=campaign, kind="character.atout_spent", actor=player, characters=[janey], payload={
        "character": "Janey", "character_id": janey.pk, "use": "reroll", "amount": 1, "pools": {"experience": 1},
        "justification": "", "context": {"roll": roll}, "balance": 3})  # fmt: skip
    old = event_append(campaign=campaign, kind="test.atout", actor=player, characters=[janey], payload={
        "character": "Janey", "character_id": janey.pk, "roll": roll, "use": "reroll", "old_dice": rolled["dice"],
        "dice": [1, 1, 0, 0], "final": 6, "success": True, "rolled": True, "required": 4, "revers": 0, "step": 1,
        "modifiers": [], "effective": 4, "amount": 1})  # fmt: skip
    with translation.override("en"):
        assert describe(spent) == "Janey spends 1 Atout: reroll the dice or redraw the cards."
        assert describe(old).startswith("Janey spends an Atout and re-rolls the dice")
    assert fudge_test_state(janey, roll).card()["final"] == 6
    assert extra_fragments(old, Viewer(Membership.objects.get(campaign=campaign, user=narrator))) is not None


def test_a_test_bought_with_an_atout_is_one_event_that_says_both() -> None:
    """docs/architecture.md: a change appends exactly one Event. « un Atout peut être dépensé pour obtenir un
    bonus de +1 Rang » with the roll: the Test's ``test.rolled`` carries the spending (``atout``), the ledger keeps
    its row, the balance moves by one, the log says both in one line, the spender's panel follows live."""
    campaign, narrator, player, teammate, janey, jim = _table()
    before = Event.objects.count()
    roll = _roll(janey, player, atout=True)
    assert Event.objects.count() == before + 1
    event = Event.objects.latest("pk")
    assert event.kind == "test.rolled" and ["atout", 1, ""] in event.payload["modifiers"]
    line = event.payload["atout"]
    assert line["character_id"] == janey.pk and line["context"]["roll"] == roll
    assert (line["use"], line["amount"]) == ("temporary_bonus", 1)
    entry = AtoutEntry.objects.get(character=janey, use="temporary_bonus", context__roll=roll)
    assert entry.delta == -1
    janey.refresh_from_db()
    assert line["balance"] == janey.atout_balance == janey.start - 1  # type: ignore[attr-defined]
    with translation.override("fr"):
        text = describe(event)
        assert text.startswith("Janey teste") and text.endswith("Janey a dépensé 1 Atout pour ce Test.")
    with translation.override("en"):
        assert describe(event).endswith("Janey spent 1 Atout on this Test.")
    narrators = Viewer(Membership.objects.get(campaign=campaign, user=narrator), watching=frozenset({
        home_subject(campaign.pk)}))  # fmt: skip
    bought = "".join(extra_fragments(event, narrators))
    assert f'id="character-panel-{janey.pk}"' in bought
    # A Test without an Atout says nothing of one and changes nothing on the panel (the grid, a region that reads
    # every character, comes again as it was).
    plain = Event.objects.get(kind="test.rolled", payload__roll=_roll(janey, player))
    assert "atout" not in plain.payload and "Atout" not in describe(plain)
    panel = f"character-panel-{janey.pk}"
    assert element("".join(extra_fragments(plain, narrators)), panel) in (None, element(bought, panel))
