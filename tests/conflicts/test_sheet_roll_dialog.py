"""The sheet's roll dialog (issue 12): one dialog for a Test, a power use, a simple conflict and a Savage attribute,
with every modifier computed and shown with its reason, and the chance it shows equal to the roll's own."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from campaigns.models import Event
from characters.models import Character, CharacterTrait
from characters.services.equipment import equipment_add
from characters.services.revers import revers_inflict
from characters.services.sheet import trait_set
from states.services.fatigue import savage_fatigue_gain
from states.services.wounds import savage_wounds_set
from tests.characters.factories import pc, table

pytestmark = pytest.mark.django_db


def _table() -> dict[str, Any]:
    campaign, narrator, (player, other) = table(savage_states=True)
    jim = pc(campaign, player, {"medecine": 5, "esprit": 5}, name="Jim")
    trait_set(character=jim, actor=narrator, code="telekinesie", rank=6)  # Excellent: a narrator's NPC-like gift
    lisa = pc(campaign, other, {"medecine": 3, "vigueur": 5}, name="Lisa")
    client, boss = Client(), Client()
    client.force_login(player)
    boss.force_login(narrator)
    return {"campaign": campaign, "narrator": narrator, "player": player, "other": other, "jim": jim, "lisa": lisa,
            "client": client, "boss": boss}  # fmt: skip


def _urls(character: Character) -> tuple[str, str]:
    args = [character.campaign_id, character.pk]
    return reverse("conflicts:sheet_roll", args=args), reverse("conflicts:sheet_roll_dialog", args=args)


def _shown(client: Client, character: Character, choices: dict[str, Any]) -> str:
    response = client.get(_urls(character)[1], choices)
    assert response.status_code == 200, response.content
    return response.content.decode()


def _chance(html: str) -> str:
    match = re.search(r'data-chance="(\d+)"', html)
    assert match
    return match.group(1)


def _percent(chance: float) -> str:
    return f"{100 * chance:.0f}"


COMBINATIONS = [
    {},
    {"difficulty": 5, "other": -1},
    {"difficulty": 6, "revers_domain": "physical", "atout": "1"},
    {"difficulty": 3, "relatedness": "distant", "gear": "none"},
    {"difficulty": 5, "relatedness": "related", "gear": "GEAR", "scale": "1", "other": 2},
    {"difficulty": 7, "revers_domain": "social", "gear": "GEAR", "atout": "1", "other": 1},
]


@pytest.mark.parametrize("choices", COMBINATIONS)
def test_the_dialogs_chance_is_the_odds_of_the_test_actually_rolled(choices: dict[str, Any]) -> None:
    """Wounds and fatigue (state cards), the physical and social Revers, gear, scale, relatedness, an Atout and the
    situation: the chance the dialog shows is the one the roll is made with (the event keeps it exactly)."""
    t = _table()
    jim = t["jim"]
    savage_wounds_set(character=jim, actor=t["narrator"], count=1, expected_version=None)
    savage_fatigue_gain(character=jim, actor=t["narrator"], source="cold", expected_version=None)
    revers_inflict(character=jim, actor=t["narrator"], domain="physical", severity=2, source="Chute")
    revers_inflict(character=jim, actor=t["narrator"], domain="social", severity=1, source="Scandale")
    equipment_add(character=jim, actor=t["player"], data={"category": "gear", "name": "Trousse de soins", "bonus": 1})
    Character.objects.filter(pk=jim.pk).update(scales=[{"value": 2, "domains": ["mind"]}])
    gear = str(jim.equipment.get().pk)
    data = {"trait_code": "medecine", **{k: gear if v == "GEAR" else v for k, v in choices.items()}}
    shown = _chance(_shown(t["client"], jim, data))
    response = t["client"].post(_urls(jim)[0], data, HTTP_HX_REQUEST="true")
    assert response.status_code == 200, response.content
    rolled = Event.objects.get(kind="test.rolled").payload
    assert _percent(rolled["chance"]) == shown
    # The wound, or the physical Revers when it is the worse (« the worse of the two »), always weighs.
    assert {"wounds", "revers"} & {code for code, _amount, _note in rolled["modifiers"]}


def test_each_computed_line_is_shown_with_its_reason() -> None:
    t = _table()
    jim = t["jim"]
    revers_inflict(character=jim, actor=t["narrator"], domain="physical", severity=2, source="Chute")
    equipment_add(character=jim, actor=t["player"], data={"category": "gear", "name": "Trousse de soins", "bonus": 1})
    Character.objects.filter(pk=jim.pk).update(scales=[{"value": 2, "domains": ["mind"]}])
    gear = str(jim.equipment.get().pk)
    t["client"].cookies["django_language"] = "en"
    html = _shown(t["client"], jim, {"trait_code": "esprit", "revers_domain": "physical", "gear": gear, "scale": "1",
                                     "relatedness": "related", "other": -1})  # fmt: skip
    lines = dict(re.findall(r'data-line="(\w+)"><strong>[^<]*</strong> <span class="muted">— ([^<]*)</span>', html))
    assert "physical" in lines["revers"].lower()
    assert lines["equipment"] == "Trousse de soins"
    assert "own scale" in lines["scale"]
    assert lines["relatedness"].startswith("related but not central") and "→" in lines["relatedness"]
    assert lines["other"] == "situation"
    assert 'data-line="equipment"><strong>equipment +1' in html and 'data-line="scale"><strong>scale +2' in html


def test_bad_dialog_choices_are_refused_and_roll_nothing() -> None:
    t = _table()
    jim, client = t["jim"], t["client"]
    lisa_gear = equipment_add(
        character=t["lisa"], actor=t["other"], data={"category": "gear", "name": "Lampe", "bonus": 2}
    )
    for bad in ({"trait_code": "medecine", "gear": str(getattr(lisa_gear, "pk", 999))},  # another's gear
                {"trait_code": "medecine", "opponent": t["lisa"].pk},  # a player never opposes
                {"trait_code": "medecine", "power_rank": 3},  # not a power domain
                {"trait_code": "medecine", "relatedness": "far"}, {}):  # fmt: skip
        assert client.post(_urls(jim)[0], bad).status_code == 400
        assert client.get(_urls(jim)[1], bad).status_code == 400
    assert not Event.objects.filter(kind__in=("test.rolled", "conflict.simple")).exists()


def test_a_power_use_from_the_domains_row_spends_potential_and_rolls_at_the_powers_difficulty() -> None:
    """« L'utilisation des pouvoirs psychiques est résolu à travers un Test dont la Difficulté dépend du rang requis »
    and Télékinésie's several objects: « la Difficulté est toutefois augmentée d'un degré »."""
    t = _table()
    jim, client = t["jim"], t["client"]
    html = _shown(client, jim, {"trait_code": "telekinesie", "several_objects": "1"})
    chip = re.search(r'data-power-rank="5"[^>]*>([^<]*)<span class="muted">(\d+)\s?%', html)
    assert chip and "Très difficile" in chip.group(1)  # Bon (4 kg … 10 kg) with several objects: Très difficile
    assert 'data-power-rank="7" disabled' in html  # Exceptionnel is above Jim's Excellent
    response = client.post(_urls(jim)[0], {"trait_code": "telekinesie", "several_objects": "1", "power_rank": 5},
                           HTTP_HX_REQUEST="true")  # fmt: skip
    assert response.status_code == 200
    rolled = Event.objects.get(kind="test.rolled").payload
    assert rolled["difficulty"] == "TRES_DIFFICILE" and rolled["power"]["several_objects"] is True
    assert _percent(rolled["chance"]) == chip.group(2)
    assert Event.objects.filter(kind="character.power_used").count() == 1
    assert CharacterTrait.objects.get(character=jim, code="telekinesie").potential_used == 1
    assert 'data-followup="reroll"' in response.content.decode()  # the result card's follow-ups


def test_a_refused_power_use_spends_nothing() -> None:
    t = _table()
    jim = t["jim"]
    savage_wounds_set(character=jim, actor=t["narrator"], count=4, expected_version=None)  # État critique: out
    response = t["client"].post(_urls(jim)[0], {"trait_code": "telekinesie", "power_rank": 2})
    assert response.status_code == 400
    assert CharacterTrait.objects.get(character=jim, code="telekinesie").potential_used == 0
    assert not Event.objects.filter(kind__in=("character.power_used", "test.rolled")).exists()


def test_the_narrator_starts_a_simple_conflict_from_the_row_at_the_chance_shown() -> None:
    """« Pour résoudre un Conflit simple, les deux adversaires lancent chacun 4 dés Fudge … Le Rang final le plus
    élevé l'emporte. » With an ogre's scale (appendix 8) on the other side."""
    t = _table()
    jim, lisa = t["jim"], t["lisa"]
    Character.objects.filter(pk=lisa.pk).update(scales=[{"value": 1, "domains": ["size"]}])
    savage_wounds_set(character=lisa, actor=t["narrator"], count=1, expected_version=None)
    html = _shown(t["boss"], jim, {"trait_code": "vigueur"})
    win = re.search(rf'data-opponent="{lisa.pk}">Lisa <span class="muted">\D*(\d+)\s?%\D*(\d+)\s?%', html)
    assert win
    response = t["boss"].post(_urls(jim)[0], {"trait_code": "vigueur", "opponent": lisa.pk}, HTTP_HX_REQUEST="true")
    assert response.status_code == 200 and "data-winner" in response.content.decode()
    payload = Event.objects.get(kind="conflict.simple").payload
    assert (_percent(payload["chances"]["first"]), _percent(payload["chances"]["tie"])) == win.groups()
    assert ["scale", 1, "Jim"] in payload["second"]["modifiers"] and ["wounds", -1, ""] in payload["second"][
        "modifiers"
    ]


def test_an_opponents_trait_as_the_difficulty_and_a_resisted_power() -> None:
    t = _table()
    jim, lisa = t["jim"], t["lisa"]
    html = _shown(t["boss"], jim, {"trait_code": "medecine", "against": "difficulty", "opponent_trait": "vigueur"})
    shown = re.search(rf'data-opponent="{lisa.pk}">Lisa <span class="muted">(\d+)\s?%', html)
    assert shown
    t["boss"].post(_urls(jim)[0], {"trait_code": "medecine", "against": "difficulty", "opponent_trait": "vigueur",
                                   "opponent": lisa.pk})  # fmt: skip
    rolled = Event.objects.get(kind="test.rolled").payload
    assert rolled["difficulty"] == "DIFFICILE" and _percent(rolled["chance"]) == shown.group(1)  # Lisa's Bon
    # « le Mage ou Psion utilise quant à lui son Domaine de pouvoir. Le tout est résolu sous la forme d'un Conflit simple »
    t["boss"].post(_urls(jim)[0], {"trait_code": "telekinesie", "power_rank": 3, "resisted_by": lisa.pk,
                                   "opponent_trait": "vigueur"})  # fmt: skip
    conflict = Event.objects.get(kind="conflict.simple").payload
    assert conflict["power"]["power_rank"] == 3 and conflict["first"]["trait"] == "telekinesie"
    assert conflict["second"]["trait"] == "vigueur"
    assert CharacterTrait.objects.get(character=jim, code="telekinesie").potential_used == 1


def test_a_savage_attribute_rolls_from_the_sheet_at_the_chance_shown() -> None:
    """« Chaque Blessure inflige un malus de -1 à tous les jets de Trait » (state cards): in the chance and the roll."""
    from states.rules.dice import TraitDie
    from states.rules.odds import trait_odds

    t = _table()
    jim, client = t["jim"], t["client"]
    savage_wounds_set(character=jim, actor=t["narrator"], count=2, expected_version=None)
    page = client.get(jim.get_absolute_url()).content.decode()
    assert 'data-roll-attribute="vigor"' in page
    html = _shown(client, jim, {"attribute": "vigor", "other": 1})
    response = client.post(_urls(jim)[0], {"attribute": "vigor", "other": 1}, HTTP_HX_REQUEST="true")
    assert response.status_code == 200 and "data-outcome" in response.content.decode()
    roll = Event.objects.get(kind="savage.roll").payload["roll"]
    assert roll["modifiers"] == [{"key": "wounds", "value": -2}, {"key": "other", "value": 1}]
    expected = trait_odds(TraitDie.parse(roll["die"]), wild_card=True, modifier=-2 + 1).success
    assert _chance(html) == _percent(float(expected)) and 'data-line="wounds"' in html


def test_no_savage_attributes_without_states() -> None:
    campaign, narrator, (player, _other) = table(savage_states=False)
    jim = pc(campaign, player)
    client = Client()
    client.force_login(player)
    assert "data-roll-attribute" not in client.get(jim.get_absolute_url()).content.decode()
    assert client.post(_urls(jim)[0], {"attribute": "vigor"}).status_code == 400
    assert client.get(_urls(jim)[1], {"attribute": "vigor"}).status_code == 400
    assert not Event.objects.filter(kind="savage.roll").exists()


def test_the_dialogs_queries_do_not_grow_with_the_opponents(django_assert_max_num_queries) -> None:
    """The narrator's dialog offers every other character with its chance: read in a fixed number of queries."""
    from characters.services.creation import npc_create

    t = _table()
    jim, boss = t["jim"], t["boss"]
    savage_wounds_set(character=t["lisa"], actor=t["narrator"], count=1, expected_version=None)

    def count() -> int:
        from django.db import connection
        from django.test.utils import CaptureQueriesContext

        with CaptureQueriesContext(connection) as ctx:
            assert boss.get(_urls(jim)[1], {"trait_code": "vigueur"}).status_code == 200
        return len(ctx.captured_queries)

    few = count()
    for index in range(6):
        npc = npc_create(campaign=t["campaign"], actor=t["narrator"], name=f"Garde {index}", concept="Garde",
                         ranks={"vigueur": 4})  # fmt: skip
        savage_wounds_set(character=npc, actor=t["narrator"], count=1, expected_version=None)
    assert count() == few
    with django_assert_max_num_queries(few):
        boss.get(_urls(jim)[1], {"trait_code": "telekinesie", "several_objects": "1"})
