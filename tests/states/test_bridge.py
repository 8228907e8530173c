"""The bridge, both ways, through the services: the state cards weigh on MicroFudge Tests and draws.

« Chaque Blessure inflige un malus de -1 à tous les jets de Trait » ; « Chaque niveau de Fatigue inflige un malus
de -1 à tous les jets de Trait » ; CECJ « chaque pénalité de -1 Carte devient une pénalité de -1 Rang lors d'un
Test » ; Secoué « ne peut faire que des actions gratuites » ; État critique « Il ne peut plus agir »."""

from __future__ import annotations

import random

import pytest

from campaigns.models import Event
from characters.models import CharacterRules, Revers
from conflicts import sheets
from conflicts.rules.budget import Split
from conflicts.services.fudge_tests import fudge_test_roll
from core.errors import ServiceError
from states.selectors import settings_for
from states.services.shaken import savage_shaken_set
from states.services.wounds import savage_wounds_set
from tests.conflicts.factories import draw, fight

pytestmark = pytest.mark.django_db


def _weigh(f, on: bool) -> None:  # type: ignore[no-untyped-def]
    options = settings_for(f.campaign)
    options.weigh_on_cecj = on
    options.save()


def _test(f, **data: object) -> dict[str, object]:  # type: ignore[no-untyped-def]
    return fudge_test_roll(character=f.hero, actor=f.player, rng=random.Random(4),
                                    data={"trait_code": "combat", "difficulty": 4, **data})  # fmt: skip


@pytest.mark.parametrize("on", [True, False])
def test_two_wounds_take_two_cards_and_two_ranks_with_the_bridge_on_and_nothing_with_it_off(on: bool) -> None:
    f = fight(npcs=1)
    _weigh(f, on)
    savage_wounds_set(character=f.hero, actor=f.narrator, count=2, expected_version=None)
    test = _test(f)
    # Jim's Combat is Bon (5): 3 with two wounds, 5 without.
    assert test["effective"] == (3 if on else 5)
    assert (["wounds", -2, ""] in test["modifiers"]) is on
    t = f.npcs[0]
    if on:
        with pytest.raises(ServiceError, match="only have 3"):
            draw(f.pc, f.player, Split(attack={t.key: 4}))
        draw(f.pc, f.player, Split(attack={t.key: 3}))
    else:
        draw(f.pc, f.player, Split(attack={t.key: 5}))
    budget = Event.objects.get(kind="sequence.drew").payload["budget"]
    assert (["wounds", -2, "any"] in budget) is on


def test_a_revers_serieux_turned_into_wounds_keeps_exactly_one_penalty() -> None:
    """« Un Revers est considéré comme une Blessure » ; « seul le Revers entraînant la pénalité la plus
    importante est pris en compte »: the Revers sérieux becomes 2 wounds and weighs −2, not 0 and not −4."""
    f = fight(npcs=1)
    options = settings_for(f.campaign)
    options.revers_to_wounds, options.weigh_on_cecj = True, False  # even with the bridge off
    options.save()
    sheets.revers_inflict(character=f.hero, actor=f.narrator, domain="physical", severity=2, source="Épée",
                          payload={}, nature="deep")  # fmt: skip
    assert not Revers.objects.filter(character=f.hero, severity__gt=0).exists()
    test = _test(f, revers_domain="physical")
    assert test["effective"] == 3 and [m[0] for m in test["modifiers"]] == ["wounds"]


def test_wounds_and_a_physical_revers_count_once_the_worse_of_the_two() -> None:
    f = fight(npcs=1)
    sheets.revers_inflict(character=f.hero, actor=f.narrator, domain="physical", severity=1, source="Coup",
                          payload={}, nature="blunt")  # fmt: skip
    savage_wounds_set(character=f.hero, actor=f.narrator, count=2, expected_version=None)
    test = _test(f, revers_domain="physical")
    assert test["effective"] == 3 and [m[0] for m in test["modifiers"]] == ["wounds"]
    # « tous les jets de Trait »: by default the wounds weigh on a social Test too (issue 27, item 5); with the
    # narrower reading « une Blessure peut ainsi n'avoir aucun effet sur un jet de nature sociale ».
    assert _test(f, revers_domain="social")["effective"] == 3
    CharacterRules.objects.filter(campaign=f.campaign).update(harm_weighs_everywhere=False)
    f.hero.refresh_from_db()
    assert _test(f, revers_domain="social")["effective"] == 5


def test_etat_critique_keeps_the_character_out_of_tests_and_draws_with_the_reason() -> None:
    f = fight(npcs=1)
    savage_wounds_set(character=f.hero, actor=f.narrator, count=4, expected_version=None)
    with pytest.raises(ServiceError, match="État critique"):
        _test(f)
    with pytest.raises(ServiceError, match="État critique"):
        draw(f.pc, f.player, Split(defence={f.pc.key: 2}))
    assert not Event.objects.filter(kind__in=("test.rolled", "sequence.drew")).exists()


def test_shaken_draws_defence_only_and_tests_only_as_free_actions() -> None:
    f = fight(npcs=1)
    savage_shaken_set(character=f.hero, actor=f.narrator, shaken=True, expected_version=None)
    with pytest.raises(ServiceError, match="Shaken"):
        draw(f.pc, f.player, Split(attack={f.npcs[0].key: 1}, defence={f.pc.key: 4}))
    with pytest.raises(ServiceError, match="Shaken"):
        _test(f)
    fudge_test_roll(character=f.hero, actor=f.narrator, rng=random.Random(4),
                             data={"trait_code": "vigueur", "difficulty": 4, "free_action": True})  # fmt: skip
    draw(f.pc, f.player, Split(defence={f.pc.key: 5}))


def test_a_character_without_a_state_row_renders_twice_from_the_same_object() -> None:
    """The sheet reads a character with no state row yet as the rules' default state (states.bridge.attribute_rolls);
    that default must not stay cached on the character as its ``savage_state``, an unsaved row whose fatigue tracks
    raise ``ValueError`` when the same object is rendered again (a second region, a second push)."""
    from django.template.loader import render_to_string
    from django.test import override_settings

    from campaigns.models import Membership
    from characters.models import Character
    from characters.views.sheet import SHEET
    from states.bridge import attribute_rolls
    from states.models import SavageState
    from tests.characters.factories import pc, table

    campaign, narrator, (player, _other) = table(savage_states=True)
    jim = pc(campaign, player)
    SavageState.objects.filter(character=jim).delete()
    character = Character.objects.select_related("campaign", "owner").get(pk=jim.pk)
    assert len(attribute_rolls(character)) == 4
    with pytest.raises(SavageState.DoesNotExist):
        character.savage_state  # noqa: B018 - as before the read: no row, none cached
    membership = Membership.objects.get(campaign=campaign, user=narrator)
    with override_settings(FRAGMENT_CACHE=False):
        first, second = (
            render_to_string(SHEET.template, {**SHEET.context(character, membership, None), "csrf_token": None})
            for _ in range(2)
        )
    assert first == second
    assert not SavageState.objects.filter(character=jim).exists()  # reading wrote nothing
