"""With Savage-style states and "Revers become wounds", a conflict's physical Revers are written as wounds."""

from __future__ import annotations

import pytest

from characters.models import Revers
from conflicts import sheets
from states.models import SavageState
from states.selectors import settings_for
from tests.conflicts.factories import fight

pytestmark = pytest.mark.django_db


def inflict(f, character, *, severity: int, domain: str = "physical") -> None:  # type: ignore[no-untyped-def]
    sheets.revers_inflict(
        character=character, actor=f.narrator, domain=domain, severity=severity, source="Bagarre", payload={},
        nature="deep",
    )  # fmt: skip


def wounds_of(character) -> int:  # type: ignore[no-untyped-def]
    state = SavageState.objects.filter(character=character).first()
    return state.wounds if state else 0


@pytest.mark.parametrize(("severity", "wounds"), [(1, 1), (2, 2), (3, 4)])
def test_physical_revers_become_wounds_when_the_campaign_says_so(severity: int, wounds: int) -> None:
    f = fight()
    options = settings_for(f.campaign)
    options.revers_to_wounds = True
    options.save()
    inflict(f, f.hero, severity=severity)
    assert not Revers.objects.filter(character=f.hero, severity__gt=0).exists()
    assert wounds_of(f.hero) == wounds  # a Revers décisif leaves the target in État critique


def test_social_revers_stay_revers_even_with_the_option() -> None:
    f = fight()
    options = settings_for(f.campaign)
    options.revers_to_wounds = True
    options.save()
    inflict(f, f.hero, severity=2, domain="social")
    assert list(Revers.objects.filter(character=f.hero).values_list("severity", flat=True)) == [2]
    assert wounds_of(f.hero) == 0


def test_without_the_option_revers_stay_revers() -> None:
    f = fight()
    inflict(f, f.hero, severity=2)
    assert list(Revers.objects.filter(character=f.hero).values_list("severity", flat=True)) == [2]
    assert wounds_of(f.hero) == 0
