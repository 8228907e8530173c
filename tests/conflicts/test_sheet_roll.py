"""Rolling a Test from the sheet (issue 12): one tap at the remembered difficulty, or the compact dialog."""

from __future__ import annotations

import re

import pytest
from django.test import Client
from django.urls import reverse

from campaigns.models import Event
from tests.characters.factories import pc, table

pytestmark = pytest.mark.django_db


def _setup(**settings: object):  # type: ignore[no-untyped-def]
    campaign, narrator, (player, other) = table(creation_mode="free", **settings)
    janey = pc(campaign, player, {"punkette_endurcie": 6}, name="Janey", custom=[{"name": "Punkette endurcie"}])
    client = Client()
    client.force_login(player)
    return campaign, narrator, player, other, janey, client


def _roll_url(janey) -> str:  # type: ignore[no-untyped-def]
    return reverse("conflicts:sheet_roll", args=[janey.campaign_id, janey.pk])


def _dialog_url(janey) -> str:  # type: ignore[no-untyped-def]
    return reverse("conflicts:sheet_roll_dialog", args=[janey.campaign_id, janey.pk])


def test_every_trait_row_of_the_sheet_has_a_one_tap_roll() -> None:
    campaign, narrator, player, other, janey, client = _setup()
    html = client.get(janey.get_absolute_url()).content.decode()
    assert 'id="roll-result"' in html
    assert 'data-roll="punkette_endurcie"' in html  # a named, free-style trait rolls like any other


def test_the_sheet_has_one_roll_dialog_and_one_quick_form_that_every_row_names() -> None:
    """The rows' one-tap buttons submit the sheet's one quick form with their own trait (``form=``), and their "…"
    open the sheet's one dialog and load its body for their trait: the sheet (and every live push or catch-up of
    it) carries no dialog per row. The body names its trait, as heading and as the field the roll sends."""
    campaign, narrator, player, other, janey, client = _setup(savage_states=True)
    html = client.get(janey.get_absolute_url()).content.decode()
    assert html.count('class="roll-dialog"') == 1 and html.count(f'id="roll-quick-{janey.pk}"') == 1
    quick = re.findall(r'<button type="submit" form="roll-quick-(\d+)" name="(\w+)" value="(\w+)"', html)
    assert {(pk, name) for pk, name, _code in quick} == {(str(janey.pk), "trait_code"), (str(janey.pk), "attribute")}
    more = re.findall(r'popovertarget="roll-(\d+)" hx-get="([^"?]+)\?(\w+)=(\w+)" hx-target="#roll-\d+-body"', html)
    assert {(pk, url) for pk, url, _name, _code in more} == {(str(janey.pk), _dialog_url(janey))}
    assert sorted(code for *_rest, code in quick) == sorted(code for *_rest, code in more)  # a "…" per roll button
    assert ("trait_code", "punkette_endurcie") in {(name, code) for _pk, _url, name, code in more}
    assert "{#" not in html and "#}" not in html  # no template comment printed on the page
    body = client.get(_dialog_url(janey), {"trait_code": "punkette_endurcie"}).content.decode()
    assert "<h3>Punkette endurcie" in body and 'name="trait_code" value="punkette_endurcie"' in body
    body = client.get(_dialog_url(janey), {"attribute": "vigor"}).content.decode()
    assert 'name="attribute" value="vigor"' in body and "<h3>" in body


def test_one_tap_rolls_a_named_trait_at_average_and_logs_it() -> None:
    campaign, narrator, player, other, janey, client = _setup()
    response = client.post(_roll_url(janey), {"trait_code": "punkette_endurcie"}, HTTP_HX_REQUEST="true")
    assert response.status_code == 200
    event = Event.objects.get(kind="test.rolled")
    assert event.payload["trait"] == "punkette_endurcie" and event.payload["difficulty"] == "MOYENNE"
    assert len(event.payload["dice"]) == 4
    assert 'data-followup="reroll"' in response.content.decode()


def test_the_dialog_choice_is_remembered_for_the_next_tap() -> None:
    campaign, narrator, player, other, janey, client = _setup()
    client.post(_roll_url(janey), {"trait_code": "punkette_endurcie", "difficulty": 5, "other": -1})
    client.post(_roll_url(janey), {"trait_code": "punkette_endurcie"})
    last = Event.objects.filter(kind="test.rolled").order_by("-pk").first()
    assert last.payload["difficulty"] == "DIFFICILE"
    assert ["other", -1, ""] in last.payload["modifiers"]
    assert "Situation −1" in client.get(janey.get_absolute_url()).content.decode()


def test_an_atout_re_rolls_the_test_from_the_result_card() -> None:
    campaign, narrator, player, other, janey, client = _setup()
    client.post(_roll_url(janey), {"trait_code": "punkette_endurcie"})
    roll = Event.objects.get(kind="test.rolled").payload["roll"]
    janey.refresh_from_db()
    before = janey.atout_balance
    response = client.post(
        reverse("conflicts:sheet_roll_atout", args=[janey.campaign_id, janey.pk]), {"roll": roll, "use": "reroll"}
    )
    assert response.status_code == 200
    assert Event.objects.filter(kind="test.atout", payload__roll=roll).exists()
    janey.refresh_from_db()
    assert janey.atout_balance == before - 1


def test_another_player_cannot_roll_for_janey_and_nothing_is_logged() -> None:
    campaign, narrator, player, other, janey, client = _setup()
    intruder = Client()
    intruder.force_login(other)
    response = intruder.post(_roll_url(janey), {"trait_code": "punkette_endurcie"})
    assert response.status_code == 403
    assert not Event.objects.filter(kind="test.rolled").exists()
    assert 'data-roll="' not in intruder.get(janey.get_absolute_url()).content.decode()


@pytest.mark.parametrize("data", [{"trait_code": "nope"}, {"trait_code": "punkette_endurcie", "difficulty": 99},
                                  {"trait_code": "punkette_endurcie", "other": "x"}])  # fmt: skip
def test_bad_input_is_refused_cleanly(data: dict) -> None:  # type: ignore[type-arg]
    campaign, narrator, player, other, janey, client = _setup()
    assert client.post(_roll_url(janey), data).status_code == 400
    assert not Event.objects.filter(kind="test.rolled").exists()


def test_named_traits_can_be_chosen_in_the_test_and_simple_conflict_forms() -> None:
    """`_trait_field` listed only the campaign's traits: « Punkette endurcie » could not be tested."""
    from conflicts.forms import FudgeTestForm, SimpleConflictForm
    from conflicts.services.fudge_tests import fudge_test_roll

    campaign, narrator, player, other, janey, client = _setup()
    form = FudgeTestForm(
        {"character": janey.pk, "trait_code": "punkette_endurcie", "difficulty": 4, "relatedness": "close",
         "equipment": 0, "scale": 0, "other": 0, "technical_policy": "none"},
        campaign=campaign, characters=type(janey).objects.filter(pk=janey.pk),
    )  # fmt: skip
    assert form.is_valid(), form.errors
    data = dict(form.cleaned_data)
    result = fudge_test_roll(character=data.pop("character"), actor=player, data=data)
    assert result["trait_rank"] == 6
    simple = SimpleConflictForm(campaign=campaign)
    assert "punkette_endurcie" in str(simple["first_trait"])


def test_the_one_tap_chance_is_the_rolls_own_with_the_states_and_the_dialog_shows_each_domains_revers() -> None:
    """The button showed the bare trait's chance while the roll carried the wounds: « Chaque Blessure inflige un
    malus de -1 à tous les jets de Trait » (state cards). The chance shown is now the Test's own."""
    import re

    from characters.services.revers import revers_inflict
    from conflicts.rules.fudge import success_chance
    from conflicts.services.fudge_tests import fudge_test_setup
    from states.services.wounds import savage_wounds_set
    from tests.conflicts.factories import fight

    f = fight(npcs=1)
    savage_wounds_set(character=f.hero, actor=f.narrator, count=2, expected_version=None)
    revers_inflict(character=f.hero, actor=f.narrator, domain="social", severity=2, source="Scandale")
    client = Client()
    client.force_login(f.player)
    html = client.get(f.hero.get_absolute_url()).content.decode()
    setup, _code = fudge_test_setup(f.hero, {"trait_code": "combat", "difficulty": 4})
    expected = f"{100 * float(success_chance(setup)):.0f}"
    button = re.search(r'data-roll="combat".*?<span class="roll-chance">(\d+)\s?%</span>', html, re.S)
    assert button and button.group(1) == expected and expected != "94"  # 94 %: Combat Bon (5) with no wounds
    dialog = client.get(_dialog_url(f.hero), {"trait_code": "combat"}).content.decode()
    assert 'data-line="wounds"' in dialog and 'data-revers-penalty="social"' in dialog
    assert 'data-revers-penalty="physical"' not in dialog
    assert f'data-chance="{expected}"' in dialog  # the dialog's chance is the one-tap button's
    client.post(_roll_url(f.hero), {"trait_code": "combat"})
    rolled = Event.objects.get(kind="test.rolled").payload
    assert ["wounds", -2, ""] in rolled["modifiers"] and rolled["chance"] == float(success_chance(setup))


def test_a_one_tap_test_costs_at_most_20_queries_answer_included(django_assert_max_num_queries) -> None:  # type: ignore[no-untyped-def]
    """Issue 26: a Test from the sheet loads what it needs once (no whole sheet rendered for the trait's names,
    which come from the trait's row in both languages), decides, writes one Event: 43 queries before, ≤ 20 now
    with the htmx answer; bought with an Atout, ≤ 34 (67 before: a second Event and the sheet built twice more)."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    campaign, narrator, player, other, janey, client = _setup()
    client.post(_roll_url(janey), {"trait_code": "punkette_endurcie"}, HTTP_HX_REQUEST="true")  # the tap remembered
    with django_assert_max_num_queries(20), CaptureQueriesContext(connection) as ctx:
        response = client.post(_roll_url(janey), {"trait_code": "punkette_endurcie"}, HTTP_HX_REQUEST="true")
    assert response.status_code == 200 and 'data-followup="reroll"' in response.content.decode()
    sql = " ".join(q["sql"] for q in ctx.captured_queries)
    # The answer needs no Revers, no gear, no ledger: nothing of the whole sheet but the trait lines.
    assert "characters_equipment" not in sql and "characters_atoutentry" not in sql
    event = Event.objects.filter(kind="test.rolled").latest("pk")
    assert (event.payload["trait_name"], event.payload["trait_name_en"]) == ("Punkette endurcie", "Punkette endurcie")
    with django_assert_max_num_queries(34):
        response = client.post(_roll_url(janey), {"trait_code": "punkette_endurcie", "atout": "1"},
                               HTTP_HX_REQUEST="true")  # fmt: skip
    assert response.status_code == 200
