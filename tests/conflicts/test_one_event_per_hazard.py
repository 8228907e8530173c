"""A failed hazardous Test is one change, one Event (issue 26 item 4): ``test.rolled`` carries the Revers it wrote as a
part (``campaigns.redaction``), as a settle carries its Revers, instead of a ``character.revers_inflicted`` of its own.

V-5: « comparer le Rang final de la Caractéristique (modifié par le résultat des dés *Fudge*) et le Rang minimum requis
par la Difficulté et d'infliger un Revers (maximum 3) pour chaque Rang en dessous du minimum requis ». The Revers is
written on the sheet as before; the log tells it after the Test's sentence, to whoever may read it: a PC's to the
table, an NPC's to the narrators only."""

from __future__ import annotations

import random
from typing import Any

import pytest

from campaigns.chronicle import describe
from campaigns.event_subjects import REVERS, subjects_of
from campaigns.models import Event, Membership, Visibility
from campaigns.redaction import readable_event
from characters.models import Revers
from conflicts.rules.fudge import roll_4df
from conflicts.services.fudge_tests import fudge_test_roll
from core.regions import subject
from tests.conflicts.factories import Fight, fight

pytestmark = pytest.mark.django_db

# Combat Bon (5) against a Difficulty requiring 6, one Revers per rank short.
HAZARD = {"trait_code": "combat", "difficulty": 6, "hazard_per_rank": True, "revers_domain": "physical"}


def _failing(f: Fight, character: Any, actor: Any) -> tuple[dict[str, Any], list[Event]]:
    """A hazardous Test of ``character`` whose dice sum to −2 (Revers for the ranks short), and the Events it added."""
    seed = next(s for s in range(500) if sum(roll_4df(random.Random(s))) == -2)
    before = Event.objects.count()
    test = fudge_test_roll(character=character, actor=actor, data={**HAZARD, "trait_value": 5}, rng=random.Random(seed))
    return test, list(Event.objects.filter(campaign=f.campaign).order_by("pk")[before:])


def _member(f: Fight, user: Any) -> Membership:
    return Membership.objects.select_related("campaign").get(campaign=f.campaign, user=user)


def test_a_failed_hazardous_test_appends_one_event_with_its_revers_as_a_part() -> None:
    f = fight(npcs=1)
    test, added = _failing(f, f.hero, f.player)
    assert test["revers"] >= 1
    assert [e.kind for e in added] == ["test.rolled"]  # was test.rolled + character.revers_inflicted
    (event,) = added
    (part,) = event.payload["parts"]
    assert part["kind"] == "character.revers_inflicted" and part["visibility"] == Visibility.EVERYONE
    revers = Revers.objects.get(character=f.hero, payload__roll=test["roll"])
    assert revers.severity == test["revers"] and part["payload"]["revers_id"] == revers.pk
    # The table reads the Revers in the Test's entry, and every « take a Revers in another's place » list follows it.
    told = describe(readable_event(event, _member(f, f.player)))
    assert "Jim" in told and told.count(".") >= 2
    assert subject(REVERS, f.campaign.pk) in subjects_of(event.kind, f.campaign.pk, event.payload, [f.hero.pk])


def test_an_allys_hazardous_revers_is_its_runners_part() -> None:
    """An NPC handed to a player as an ally: its Revers are its runner's (and the narrators'); the other players read
    the Test, not the wounds it cost."""
    from campaigns.models import Role
    from characters.services.allies import ally_hand
    from tests.campaigns.factories import UserFactory

    f = fight(npcs=1)
    other = UserFactory()
    Membership.objects.create(campaign=f.campaign, user=other, role=Role.PLAYER)
    ally = ally_hand(character=f.thugs[0], actor=f.narrator, player=f.player)
    _test, added = _failing(f, ally, f.player)
    (event,) = added
    (part,) = event.payload["parts"]
    assert (part["visibility"], part["recipient"]) == (Visibility.PLAYER, f.player.pk)
    runner = describe(readable_event(event, _member(f, f.player)))
    stranger = describe(readable_event(event, _member(f, other)))
    assert runner.startswith(stranger.rstrip()) and len(runner) > len(stranger)
    assert readable_event(event, _member(f, other)).payload.get("parts", []) == []
