"""État critique and death hold outside Tests and draws too, whatever the bridge's setting (issue 27, item 3).

State cards, État critique: « Un personnage passe en Etat Critique lorsqu'il subit sa quatrième blessure. Il ne
peut plus agir » ; « 1 ou moins : il meurt ». So such a character leads or joins no simple conflict and spends no
Potentiel on a power against someone; the refusal says why and nothing is written.
"""

from __future__ import annotations

import random

import pytest

from campaigns.models import Event
from characters.models import CharacterTrait
from characters.services.sheet import trait_set
from conflicts.services.fudge_tests import fudge_test_roll, simple_conflict_roll
from conflicts.services.power_tests import power_test_roll
from core.errors import ServiceError
from states.models import SavageState
from states.selectors import settings_for
from states.services.wounds import savage_wounds_set
from tests.characters.factories import pc, table

pytestmark = pytest.mark.django_db


def _table(weigh: bool):  # type: ignore[no-untyped-def]
    campaign, narrator, (player, other) = table(savage_states=True)
    options = settings_for(campaign)
    options.weigh_on_cecj = weigh
    options.save()
    jim = pc(campaign, player, {"medecine": 5, "esprit": 5}, name="Jim")
    trait_set(character=jim, actor=narrator, code="telepathie", rank=5)
    lisa = pc(campaign, other, {"medecine": 3, "esprit": 4}, name="Lisa")
    return campaign, narrator, player, jim, lisa


def _dead(character) -> None:  # type: ignore[no-untyped-def]
    savage_wounds_set(character=character, actor=None, count=4, expected_version=None)  # type: ignore[arg-type]
    SavageState.objects.filter(character=character).update(dead=True)


def _conflict(narrator, first, second) -> dict:  # type: ignore[no-untyped-def, type-arg]
    return simple_conflict_roll(first=first, second=second, actor=narrator, first_data={"trait_code": "esprit"},
                                second_data={"trait_code": "esprit"}, rng=random.Random(1))  # fmt: skip


@pytest.mark.parametrize("weigh", [True, False])
def test_a_character_in_etat_critique_neither_leads_nor_joins_a_simple_conflict(weigh: bool) -> None:
    campaign, narrator, player, jim, lisa = _table(weigh)
    savage_wounds_set(character=jim, actor=narrator, count=4, expected_version=None)
    with pytest.raises(ServiceError, match="Jim.*État critique"):
        _conflict(narrator, jim, lisa)
    with pytest.raises(ServiceError, match="Jim.*État critique"):
        _conflict(narrator, lisa, jim)
    assert not Event.objects.filter(kind="conflict.simple").exists()


@pytest.mark.parametrize("weigh", [True, False])
def test_a_dead_character_leads_no_simple_conflict_and_rolls_no_test(weigh: bool) -> None:
    campaign, narrator, player, jim, lisa = _table(weigh)
    _dead(jim)
    with pytest.raises(ServiceError, match="Dead"):
        _conflict(narrator, jim, lisa)
    with pytest.raises(ServiceError, match="Dead"):
        fudge_test_roll(character=jim, actor=player, data={"trait_code": "medecine", "difficulty": 4})
    assert not Event.objects.filter(kind__in=("conflict.simple", "test.rolled")).exists()


@pytest.mark.parametrize("weigh", [True, False])
def test_no_potentiel_spent_on_a_power_against_someone_while_in_etat_critique(weigh: bool) -> None:
    """Before: Jim in État critique spent a point of Télépathie against Lisa (and, bridge off, rolled it)."""
    campaign, narrator, player, jim, lisa = _table(weigh)
    savage_wounds_set(character=jim, actor=narrator, count=4, expected_version=None)
    with pytest.raises(ServiceError, match="État critique"):
        power_test_roll(character=jim, actor=narrator, data={"trait_code": "telepathie"}, power={"power_rank": 2},
                        opponent=lisa, opponent_data={"trait_code": "esprit"}, rng=random.Random(1))  # fmt: skip
    with pytest.raises(ServiceError, match="État critique"):
        power_test_roll(character=jim, actor=player, data={"trait_code": "telepathie"}, power={"power_rank": 2},
                        rng=random.Random(1))  # fmt: skip
    assert CharacterTrait.objects.get(character=jim, code="telepathie").potential_used == 0
    assert not Event.objects.filter(kind__in=("character.power_used", "conflict.simple", "test.rolled")).exists()


def test_a_power_against_one_who_cannot_act_spends_nothing_either() -> None:
    campaign, narrator, player, jim, lisa = _table(True)
    savage_wounds_set(character=lisa, actor=narrator, count=4, expected_version=None)
    with pytest.raises(ServiceError, match="Lisa.*État critique"):
        power_test_roll(character=jim, actor=narrator, data={"trait_code": "telepathie"}, power={"power_rank": 2},
                        opponent=lisa, opponent_data={"trait_code": "esprit"}, rng=random.Random(1))  # fmt: skip
    assert CharacterTrait.objects.get(character=jim, code="telepathie").potential_used == 0
