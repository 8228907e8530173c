"""An Atout on a hazardous Test that already wrote its Revers (issue 27, item 6).

Appendix 4: « Un Atout peut ainsi être dépensé pour relancer les dés *Fudge* ou retirer les cartes pendant un Test
ou un Conflit. De même, un Atout peut être utilisé pour changer le résultat de l'un des dés ». V-5: « comparer le
Rang final de la Caractéristique (modifié par le résultat des dés *Fudge*) et le Rang minimum requis par la
Difficulté et d'infliger un Revers (maximum 3) pour chaque Rang en dessous du minimum requis ». The new result
replaces the old one, and the Revers follows it (written, changed or removed) in the follow-up's one Event.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

from campaigns.models import Event
from characters.models import Character, Revers
from characters.services.atouts import atout_gain
from conflicts.rules.fudge import roll_4df
from conflicts.services.fudge_tests import fudge_test_roll
from conflicts.services.roll_follow_ups import fudge_test_change_die, fudge_test_reroll
from core.errors import ServiceError
from states.selectors import settings_for
from tests.characters.factories import open_session
from tests.conflicts.factories import Fight, fight

pytestmark = pytest.mark.django_db

# Jim's Combat is Bon (5) against a Difficulty requiring 6: the dice's sum decides (−1 one Revers short, …).
HAZARD = {"trait_code": "combat", "difficulty": 6, "hazard_per_rank": True, "revers_domain": "physical"}


def _ready(atouts: int = 2) -> Fight:
    f = fight(npcs=1)
    open_session(f.campaign, f.narrator)
    atout_gain(character=f.hero, actor=f.narrator, amount=atouts)
    return f


def _roll_summing(f: Fight, total: int) -> dict[str, Any]:
    """A hazardous Test whose four Fudge dice sum to ``total`` (the first seed that does)."""
    seed = next(s for s in range(500) if sum(roll_4df(random.Random(s))) == total)
    test = fudge_test_roll(character=f.hero, actor=f.player, data=HAZARD, rng=random.Random(seed))
    assert sum(test["dice"]) == total
    return test


def _sheet_revers(f: Fight, roll: str) -> list[int]:
    return list(Revers.objects.filter(character=f.hero, payload__roll=roll).values_list("severity", flat=True))


def _balance(f: Fight) -> int:
    return Character.objects.get(pk=f.hero.pk).atout_balance


def _kinds_since(pk: int) -> list[str]:
    return list(Event.objects.filter(pk__gt=pk).order_by("pk").values_list("kind", flat=True))


def test_a_failure_turned_into_a_success_removes_the_revers_in_one_event() -> None:
    f = _ready()
    test = _roll_summing(f, 0)  # 5: one rank short
    roll = str(test["roll"])
    assert test["revers"] == 1 and _sheet_revers(f, roll) == [1]
    before = _balance(f)
    last = Event.objects.latest("pk").pk
    index = next(i for i, d in enumerate(test["dice"]) if d < 1)
    after = fudge_test_change_die(character=f.hero, actor=f.player, roll=roll, index=index, face=1)
    assert after["success"] and after["revers"] == 0
    assert _sheet_revers(f, roll) == []  # the Revers never happened
    assert _kinds_since(last) == ["test.atout"]
    event = Event.objects.get(kind="test.atout")
    assert event.payload["revers_change"]["from"] == 1 and event.payload["revers_change"]["to"] == 0
    assert _balance(f) == before - 1


def test_a_milder_failure_changes_the_revers_on_the_sheet() -> None:
    f = _ready()
    test = _roll_summing(f, -2)  # 3: three ranks short, a Revers décisif
    roll = str(test["roll"])
    assert test["revers"] == 3 and _sheet_revers(f, roll) == [3]
    index = test["dice"].index(-1)
    after = fudge_test_change_die(character=f.hero, actor=f.player, roll=roll, index=index, face=0)
    assert after["revers"] == 2 and _sheet_revers(f, roll) == [2]
    assert Revers.objects.get(character=f.hero, payload__roll=roll).initial_severity == 2
    # A second Atout acts on the Test as it now stands: one more rank, one Revers, never a second row.
    index = next(i for i, d in enumerate(after["dice"]) if d < 1)
    again = fudge_test_change_die(
        character=f.hero, actor=f.player, roll=roll, index=index, face=after["dice"][index] + 1
    )
    assert again["revers"] == 1 and _sheet_revers(f, roll) == [1]


def test_a_success_turned_into_a_failure_writes_the_revers_in_the_same_event() -> None:
    f = _ready()
    test = _roll_summing(f, 1)  # 6: a success
    roll = str(test["roll"])
    assert test["success"] and _sheet_revers(f, roll) == []
    last = Event.objects.latest("pk").pk
    index = next(i for i, d in enumerate(test["dice"]) if d == 1)
    after = fudge_test_change_die(character=f.hero, actor=f.player, roll=roll, index=index, face=0)
    assert not after["success"] and after["revers"] == 1 and _sheet_revers(f, roll) == [1]
    assert _kinds_since(last) == ["test.atout"]  # no character.revers_inflicted beside it


def test_a_reroll_of_a_failed_hazardous_test_replaces_its_result_and_its_revers() -> None:
    """The issue's table: the re-roll was refused with « This Test's Revers is already on the sheet »."""
    f = _ready()
    test = _roll_summing(f, -1)  # 4: two ranks short, a Revers sérieux
    roll = str(test["roll"])
    assert _sheet_revers(f, roll) == [2]
    seed = next(s for s in range(500) if sum(roll_4df(random.Random(s))) >= 1)
    after = fudge_test_reroll(character=f.hero, actor=f.player, roll=roll, rng=random.Random(seed))
    assert after["old_dice"] == test["dice"] and after["success"]
    assert _sheet_revers(f, roll) == []


def test_a_revers_turned_into_wounds_is_left_to_the_narrator_and_nothing_is_spent() -> None:
    f = _ready(atouts=1)
    options = settings_for(f.campaign)
    options.revers_to_wounds = True
    options.save()
    test = _roll_summing(f, 0)
    assert test["revers"] == 1 and test["revers_wounds"]
    before = _balance(f)
    with pytest.raises(ServiceError, match="became wounds"):
        fudge_test_reroll(character=f.hero, actor=f.player, roll=str(test["roll"]), rng=random.Random(1))
    assert _balance(f) == before
    assert not Event.objects.filter(kind="test.atout").exists()


def test_a_revers_taken_off_the_sheet_can_no_longer_be_moved_by_the_dice() -> None:
    f = _ready(atouts=1)
    test = _roll_summing(f, 0)
    Revers.objects.filter(character=f.hero).update(severity=0)  # healed by the narrator meanwhile
    before = _balance(f)
    with pytest.raises(ServiceError, match="no longer on the sheet"):
        fudge_test_reroll(character=f.hero, actor=f.player, roll=str(test["roll"]), rng=random.Random(1))
    assert _balance(f) == before


def test_the_result_card_of_a_failed_hazardous_test_offers_the_atouts() -> None:
    """The card used to hide its follow-ups once a Revers was written; only wounds (the narrator's) hide them."""
    from django.template.loader import render_to_string

    f = _ready()
    test = _roll_summing(f, 0)
    html = render_to_string(
        "conflicts/partials/roll_card.html", {"result": test, "character": f.hero, "faces": [-1, 0, 1]}
    )
    assert 'data-followup="reroll"' in html
    wounds = render_to_string(
        "conflicts/partials/roll_card.html", {"result": {**test, "revers_wounds": True}, "character": f.hero}
    )
    assert 'data-followup="reroll"' not in wounds
