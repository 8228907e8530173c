"""Where wounds and Revers weigh (issue 27, item 5): the texts' reading by default, the narrower one a setting.

Seed 002, V-3: « Les blessures plus profondes infligés par des armes tranchantes, voire les masses d'arme, ou les
armes à feu sont une autre affaire. Les Revers s'appliquent, en principe, à tous les types d'action. Le Narrateur
peut décider que telle ou telle action n'est pas affectée. » Seed 004: « Chaque Blessure inflige un malus de -1 à
tous les jets de Trait ». The narrower reading (« une Blessure peut ainsi n'avoir aucun effet sur un jet de nature
sociale ») is the campaign's option *harm_weighs_everywhere* turned off.
"""

from __future__ import annotations

import random

import pytest

from characters.models import CharacterRules
from characters.rules.revers import ActiveRevers, penalty
from conflicts import sheets
from conflicts.services.fudge_tests import fudge_test_roll
from states.rules.bridge import cecj_effect
from states.rules.states import CardState
from states.services.wounds import savage_wounds_set
from tests.conflicts.factories import Fight, fight

pytestmark = pytest.mark.django_db

DEEP_BODY = ActiveRevers(domain="physical", severity=2, nature="deep")
BLUNT_BODY = ActiveRevers(domain="physical", severity=2, nature="blunt")
SOCIAL = ActiveRevers(domain="social", severity=1)


def test_a_deep_wound_weighs_on_every_chosen_domain_with_the_texts_reading() -> None:
    assert penalty([DEEP_BODY], "social", deep_everywhere=True) == 2
    assert penalty([DEEP_BODY], "mental", deep_everywhere=True) == 2
    assert penalty([DEEP_BODY], "social", deep_everywhere=False) == 0
    # « une Carte par jour » bruises keep to the body; a social Revers keeps to its domain.
    assert penalty([BLUNT_BODY], "social", deep_everywhere=True) == 0
    assert penalty([SOCIAL], "physical", deep_everywhere=True) == 0
    # « Les effets des divers Revers ne sont pas cumulatifs »: the worse, never the sum.
    assert penalty([DEEP_BODY, SOCIAL], "social", deep_everywhere=True) == 2


def test_wounds_and_fatigue_weigh_on_every_roll_with_the_texts_reading() -> None:
    state = CardState(wounds=2, fatigue=1)
    wide = cecj_effect(state, domain="social", everywhere=True)
    assert (wide.wounds, wide.fatigue) == (2, 1)
    narrow = cecj_effect(state, domain="social", everywhere=False)
    assert (narrow.wounds, narrow.fatigue) == (0, 0)
    assert cecj_effect(state, domain="physical", everywhere=False).wounds == 2


def _narrow(f: Fight) -> None:
    CharacterRules.objects.update_or_create(campaign=f.campaign, defaults={"harm_weighs_everywhere": False})
    f.campaign.refresh_from_db()
    if hasattr(f.campaign, "_character_rules_cache"):
        del f.campaign._character_rules_cache  # type: ignore[attr-defined]


def _social_test(f: Fight) -> dict[str, object]:
    f.hero.refresh_from_db()
    return fudge_test_roll(character=f.hero, actor=f.player, rng=random.Random(4),
                           data={"trait_code": "combat", "difficulty": 4, "revers_domain": "social"})  # fmt: skip


@pytest.mark.parametrize("everywhere", [True, False])
def test_a_deep_physical_revers_weighs_on_a_social_test_by_default(everywhere: bool) -> None:
    """The issue's table: a deep physical −2 did not weigh on a social Test."""
    f = fight(npcs=1)
    if not everywhere:
        _narrow(f)
    sheets.revers_inflict(character=f.hero, actor=f.narrator, domain="physical", severity=2, source="Épée",
                          payload={}, nature="deep")  # fmt: skip
    test = _social_test(f)
    assert (["revers", -2, "social"] in test["modifiers"]) is everywhere
    assert test["effective"] == (3 if everywhere else 5)  # Jim's Combat is Bon (5)


@pytest.mark.parametrize("everywhere", [True, False])
def test_wounds_weigh_on_a_social_test_by_default(everywhere: bool) -> None:
    """The issue's table: the bridge made wounds weigh only on physical rolls."""
    f = fight(npcs=1)
    if not everywhere:
        _narrow(f)
    savage_wounds_set(character=f.hero, actor=f.narrator, count=2, expected_version=None)
    test = _social_test(f)
    assert (["wounds", -2, ""] in test["modifiers"]) is everywhere
    assert test["effective"] == (3 if everywhere else 5)


def test_wounds_and_a_deep_revers_on_a_social_test_count_once_the_worse() -> None:
    """« Un Revers est considéré comme une Blessure » ; « seul le Revers entraînant la pénalité la plus importante
    est pris en compte »: a deep −1 and two wounds weigh −2 on a social Test, not −3."""
    f = fight(npcs=1)
    sheets.revers_inflict(character=f.hero, actor=f.narrator, domain="physical", severity=1, source="Couteau",
                          payload={}, nature="deep")  # fmt: skip
    savage_wounds_set(character=f.hero, actor=f.narrator, count=2, expected_version=None)
    test = _social_test(f)
    assert test["effective"] == 3 and [m[0] for m in test["modifiers"]] == ["wounds"]
