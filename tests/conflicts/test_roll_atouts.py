"""Atouts that act on a Test already rolled (appendix 4): a teammate's help, a counter and its chain, and a
double tap that never spends twice (issue 12)."""

from __future__ import annotations

import random

import pytest
from django.test import Client
from django.urls import reverse

from campaigns.models import Event
from characters.services.atouts import atout_gain
from conflicts.services.fudge_tests import fudge_test_roll
from conflicts.services.roll_follow_ups import (
    fudge_test_bonus_again,
    fudge_test_counter,
    fudge_test_help,
    fudge_test_reroll,
    fudge_test_state,
)
from core.errors import ServiceError, StaleState
from tests.characters.factories import open_session, pc, table

pytestmark = pytest.mark.django_db


def _table(**settings: object):  # type: ignore[no-untyped-def]
    campaign, narrator, (player, teammate) = table(creation_mode="free", **settings)
    janey = pc(campaign, player, {"punkette_endurcie": 4}, name="Janey", custom=[{"name": "Punkette endurcie"}])
    jim = pc(campaign, teammate, {"medecine": 4}, name="Jim")
    open_session(campaign, narrator)
    for character in (janey, jim):
        atout_gain(character=character, actor=narrator, amount=5)
        character.refresh_from_db()
        character.start = character.atout_balance  # type: ignore[attr-defined]
    return campaign, narrator, player, teammate, janey, jim


def _roll(janey, player, *, atout: bool = False, seed: int = 1) -> str:  # type: ignore[no-untyped-def]
    data = {"trait_code": "punkette_endurcie", "difficulty": 4, "atout": atout}
    return str(fudge_test_roll(character=janey, actor=player, data=data, rng=random.Random(seed))["roll"])


def _spent(character) -> int:  # type: ignore[no-untyped-def]
    """Atouts spent since the table was set (each character has 5 more than creation left)."""
    start = character.start
    character.refresh_from_db()
    character.start = start
    return int(start - character.atout_balance)


def test_a_teammate_helps_with_two_atouts_and_the_helped_test_gains_one_rank() -> None:
    """« Deux Atouts permettent de donner un bonus de +1 Carte ou de +1 Rang à un autre personnage. Ce bonus est
    accordé pour un tirage de cartes ou un lancer de dés »: the ledger used to record the help and change no roll."""
    campaign, narrator, player, teammate, janey, jim = _table()
    roll = _roll(janey, player)
    before = fudge_test_state(janey, roll).card()
    after = fudge_test_help(character=janey, helper=jim, actor=teammate, roll=roll, justification="Je la couvre")
    assert after["final"] == before["final"] + 1 and after["dice"] == before["dice"]
    assert ["help", 1, "Jim"] in after["modifiers"]
    assert after["success"] == (after["final"] >= after["required"])
    assert _spent(jim) == 2 and _spent(janey) == 0  # the helper pays, two Atouts
    card = fudge_test_state(janey, roll).card()
    assert card["final"] == after["final"] and card["step"] == 1
    line = Event.objects.get(kind="test.atout")
    assert line.payload["spender"] == "Jim" and set(line.characters.values_list("name", flat=True)) == {"Janey", "Jim"}


def test_a_helper_helps_once_per_test_and_a_refusal_changes_nothing() -> None:
    """« Un joueur ne peut dépenser des Atouts pour apporter de l'aide qu'une fois par jet de dé »."""
    campaign, narrator, player, teammate, janey, jim = _table()
    roll = _roll(janey, player)
    fudge_test_help(character=janey, helper=jim, actor=teammate, roll=roll, justification="Je la couvre")
    with pytest.raises(ServiceError):
        fudge_test_help(character=janey, helper=jim, actor=teammate, roll=roll, justification="Encore")
    with pytest.raises(ServiceError):  # one Atout alone helps only where the narrator allows it
        fudge_test_help(character=jim, helper=janey, actor=player, roll=_roll(jim, teammate), justification="x",
                        amount=1)  # fmt: skip
    with pytest.raises(ServiceError):  # nobody helps their own Test
        fudge_test_help(character=janey, helper=janey, actor=player, roll=roll, justification="Moi")
    with pytest.raises(ServiceError):  # a player spends only their own character's Atouts
        fudge_test_help(character=janey, helper=jim, actor=player, roll=roll, justification="Pour lui")
    assert Event.objects.filter(kind="test.atout").count() == 1
    assert _spent(jim) == 2 and _spent(janey) == 0


def test_a_counter_cancels_the_plus_one_and_the_spender_may_buy_it_again_in_a_chain() -> None:
    """« les deux opposants perdent chacun un Atout, mais le personnage qui a dépensé l'Atout originel peut décider
    de dépenser un second Atout pour gagner à nouveau le bonus espéré. Le processus peut être répété »."""
    campaign, narrator, player, teammate, janey, jim = _table()
    roll = _roll(janey, player, atout=True)
    first = fudge_test_state(janey, roll).card()
    assert ["atout", 1, ""] in first["modifiers"] and _spent(janey) == 1
    with pytest.raises(ServiceError):  # not countered: nothing to buy again
        fudge_test_bonus_again(character=janey, actor=player, roll=roll)
    countered = fudge_test_counter(character=janey, counterer=jim, actor=teammate, roll=roll)
    assert countered["final"] == first["final"] - 1 and not any(m[0] == "atout" for m in countered["modifiers"])
    assert _spent(janey) == 1 and _spent(jim) == 1  # both opponents lose one
    assert fudge_test_state(janey, roll).card()["countered"]
    with pytest.raises(ServiceError):  # nothing left to counter
        fudge_test_counter(character=janey, counterer=jim, actor=teammate, roll=roll)
    again = fudge_test_bonus_again(character=janey, actor=player, roll=roll)
    assert again["final"] == first["final"] and _spent(janey) == 2
    fudge_test_counter(character=janey, counterer=jim, actor=teammate, roll=roll)
    last = fudge_test_bonus_again(character=janey, actor=player, roll=roll)
    assert last["final"] == first["final"] and _spent(janey) == 3 and _spent(jim) == 2
    uses = [e.payload["use"] for e in Event.objects.filter(kind="test.atout").order_by("pk")]
    assert uses == ["counter", "temporary_bonus", "counter", "temporary_bonus"]


def test_a_counter_needs_an_atout_for_plus_one_on_the_test() -> None:
    campaign, narrator, player, teammate, janey, jim = _table()
    roll = _roll(janey, player)
    with pytest.raises(ServiceError, match="none left to counter"):
        fudge_test_counter(character=janey, counterer=jim, actor=teammate, roll=roll)
    assert _spent(jim) == 0 and not Event.objects.filter(kind="test.atout").exists()


def test_help_survives_a_later_re_roll() -> None:
    """The re-roll reads the Test as it stands: the help's +1 stays with the new dice."""
    campaign, narrator, player, teammate, janey, jim = _table()
    roll = _roll(janey, player)
    fudge_test_help(character=janey, helper=jim, actor=teammate, roll=roll, justification="Je la couvre")
    again = fudge_test_reroll(character=janey, actor=player, roll=roll, rng=random.Random(7))
    assert ["help", 1, "Jim"] in again["modifiers"] and again["final"] == 4 + 1 + sum(again["dice"])


def test_a_double_tap_on_re_roll_spends_one_atout() -> None:
    """Both taps carry the step the card showed; the second one finds the Test moved on and changes nothing."""
    campaign, narrator, player, teammate, janey, jim = _table()
    roll = _roll(janey, player)
    fudge_test_reroll(character=janey, actor=player, roll=roll, expected_step=0)
    with pytest.raises(StaleState):
        fudge_test_reroll(character=janey, actor=player, roll=roll, expected_step=0)
    assert _spent(janey) == 1 and Event.objects.filter(kind="test.atout").count() == 1


def _other_tests_url(character) -> str:  # type: ignore[no-untyped-def]
    return reverse("conflicts:other_tests", args=[character.campaign_id, character.pk])


def test_the_sheet_help_form_names_a_real_test_and_refuses_typed_text() -> None:
    """The sheet's help form refused with "say which roll" and then accepted any text: it now lists Tests."""
    campaign, narrator, player, teammate, janey, jim = _table()
    roll = _roll(janey, player)
    client = Client()
    client.force_login(teammate)
    page = client.get(_other_tests_url(jim), HTTP_HX_REQUEST="true").content.decode()
    assert f'value="{roll}"' in page and "Janey" in page
    forged = client.post(_other_tests_url(jim), {"roll": "the one just now", "use": "help", "justification": "x"},
                         HTTP_HX_REQUEST="true")  # fmt: skip
    assert forged.status_code == 400 and _spent(jim) == 0
    response = client.post(_other_tests_url(jim), {"roll": roll, "use": "help", "justification": "Je la couvre"},
                           HTTP_HX_REQUEST="true")  # fmt: skip
    assert response.status_code == 200 and _spent(jim) == 2
    assert ["help", 1, "Jim"] in fudge_test_state(janey, roll).card()["modifiers"]
    again = client.post(_other_tests_url(jim), {"roll": roll, "use": "help", "justification": "Encore"},
                        HTTP_HX_REQUEST="true")  # fmt: skip
    assert again.status_code == 400 and _spent(jim) == 2
    assert client.post(_other_tests_url(janey), {"roll": roll, "use": "help"}).status_code == 403


def test_the_help_form_lists_no_narrator_only_test_for_a_player() -> None:
    from conflicts.open_tests import tests_open_to_others
    from tests.conflicts.factories import npc

    campaign, narrator, player, teammate, janey, jim = _table()
    ghoul = npc(campaign, narrator, "Goule")
    fudge_test_roll(character=ghoul, actor=narrator, data={"trait_code": "combat", "difficulty": 4})
    _roll(janey, player)
    from campaigns.models import Membership

    mine = Membership.objects.get(campaign=campaign, user=teammate)
    assert [t.character for t in tests_open_to_others(mine, jim)] == ["Janey"]
    theirs = Membership.objects.get(campaign=campaign, user=narrator)
    assert {t.character for t in tests_open_to_others(theirs, jim)} == {"Janey", "Goule"}


def test_the_helped_players_card_shows_the_help_live() -> None:
    """The socket watching Janey's sheet gets her card again, with the +1; Jim's socket does not get it."""
    from campaigns.live import Viewer
    from campaigns.models import Membership
    from characters.subjects import sheet_subject
    from conflicts.live import roll_card_fragment

    campaign, narrator, player, teammate, janey, jim = _table()
    roll = _roll(janey, player)
    fudge_test_help(character=janey, helper=jim, actor=teammate, roll=roll, justification="Je la couvre")
    event = Event.objects.get(kind="test.atout")
    hers = Viewer(Membership.objects.get(campaign=campaign, user=player), frozenset({sheet_subject(janey.pk)}))
    [html] = roll_card_fragment(event, hers)
    assert f'id="roll-card-{roll}"' in html and 'hx-swap-oob="true"' in html and 'data-modifier="help"' in html
    his = Viewer(Membership.objects.get(campaign=campaign, user=teammate), frozenset({sheet_subject(janey.pk)}))
    assert roll_card_fragment(event, his) == []
