"""Healing pace per weapon, not per Sequence (issue 27, item 4).

V-3: « Les Revers se récupèrent généralement au rythme de "une Carte" par jour en temps de jeu. Cela concerne
également tous les Revers infligeant des blessures contondantes, coups de poing ou tir d'armes étourdissantes » ;
« Les blessures plus profondes infligés par des armes tranchantes, voire les masses d'arme, ou les armes à feu
sont une autre affaire […] La récupération ne se fait qu'au rythme de 1 Carte par semaine de temps de jeu ».
"""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User

from campaigns.models import Membership, Role
from characters.models import Character, Equipment, EquipmentCategory, Revers
from conflicts.models import Participant, Phase, Sequence
from conflicts.rules.healing import BLUNT, BY_WEAPON, DEEP, inflicted_nature, weapon_nature
from conflicts.services.sequences import participant_add, participant_update, scene_create, sequence_create
from conflicts.services.settling import sequence_settle
from tests.characters.factories import pc, table
from tests.conflicts.factories import npc

pytestmark = pytest.mark.django_db


def test_bare_hands_heal_by_the_day_and_a_weapon_by_the_week() -> None:
    assert weapon_nature(carries_weapon=False, firearm=False) == BLUNT
    assert weapon_nature(carries_weapon=True, firearm=False) == DEEP
    assert weapon_nature(carries_weapon=True, firearm=True) == DEEP


@pytest.mark.parametrize(
    ("sequence_nature", "domain", "credited", "expected"),
    [
        (BY_WEAPON, "physical", {"gun": 2}, DEEP),
        (BY_WEAPON, "physical", {"fist": 2}, BLUNT),
        (BY_WEAPON, "physical", {"fist": 1, "gun": 1}, DEEP),  # the deepest wound that landed
        (BY_WEAPON, "physical", {"fist": 2, "gun": 0}, BLUNT),  # the gun's shot was parried: a punch
        (BY_WEAPON, "social", {"gun": 2}, BLUNT),  # « une Carte par jour » off the body
        (BLUNT, "physical", {"gun": 2}, BLUNT),  # the narrator fixed the pace for the Sequence
        (DEEP, "physical", {"fist": 2}, DEEP),
    ],
)
def test_the_weapon_that_landed_decides_unless_the_narrator_fixed_it(
    sequence_nature: str, domain: str, credited: dict[str, int], expected: str
) -> None:
    natures = {"gun": DEEP, "fist": BLUNT}
    assert inflicted_nature(sequence_nature=sequence_nature, domain=domain, credited=credited, natures=natures) == (
        expected
    )


def _duel(**sequence: object) -> tuple[Sequence, Participant, Participant, Character, Character]:
    """A gunman (a pistol on his sheet) and a brawler (nothing) in one Sequence, each joined from his sheet."""
    campaign, narrator, players = table(players=1)
    gunman = pc(campaign, players[0], ranks={"combat": 5, "tir": 5})
    Equipment.objects.create(
        character=gunman, category=EquipmentCategory.WEAPON, name="Pistolet", bonus=1, firearm=True
    )
    brawler = npc(campaign, narrator, "Le Cogneur")
    scene = scene_create(campaign=campaign, actor=narrator, title="Le bar")
    seq = sequence_create(scene=scene, actor=narrator, data={"title": "Bagarre", **sequence})
    a = participant_add(sequence=seq, actor=narrator, character=gunman, side="PJ", trait_code="tir")
    b = participant_add(sequence=seq, actor=narrator, character=brawler, side="Truands", trait_code="combat")
    return seq, a, b, gunman, brawler


def _both_hit(seq: Sequence, a: Participant, b: Participant) -> None:
    """The draw's result as the resolution writes it: each landed one success on the other."""
    seq.refresh_from_db()
    seq.phase = Phase.RESOLVED
    seq.outcome = {
        "verdict": "equal", "winner": None, "names": {},
        "targets": {
            b.key: {"severity": 1, "credited": {a.key: 1}},
            a.key: {"severity": 1, "credited": {b.key: 1}},
        },
    }  # fmt: skip
    seq.save()


def _nature(character: Character) -> str:
    return Revers.objects.get(character=character).nature


def test_a_gunshot_heals_by_the_week_and_a_punch_by_the_day_in_one_sequence() -> None:
    """The issue's table: both Revers used to get the Sequence's one nature (both by the day at the default)."""
    seq, a, b, gunman, brawler = _duel()
    assert seq.nature == BY_WEAPON and (a.inflicts, b.inflicts) == (DEEP, BLUNT)
    _both_hit(seq, a, b)
    sequence_settle(sequence=seq, actor=_narrator(seq), expected_version=None)
    assert _nature(brawler) == DEEP  # shot
    assert _nature(gunman) == BLUNT  # punched


def test_the_narrator_may_override_the_pace_of_one_participant_or_of_the_whole_sequence() -> None:
    """« Bien sûr, le Narrateur reste libre de fixer le temps de récupération »: the pistol's butt is blunt."""
    seq, a, b, gunman, brawler = _duel()
    seq.refresh_from_db()
    participant_update(participant=a, actor=_narrator(seq), data={"inflicts": BLUNT}, expected_version=seq.version)
    _both_hit(seq, a, b)
    sequence_settle(sequence=seq, actor=_narrator(seq), expected_version=None)
    assert _nature(brawler) == BLUNT
    seq, a, b, gunman, brawler = _duel(nature=DEEP)
    _both_hit(seq, a, b)
    sequence_settle(sequence=seq, actor=_narrator(seq), expected_version=None)
    assert _nature(gunman) == DEEP and _nature(brawler) == DEEP


def _narrator(seq: Sequence) -> User:
    return Membership.objects.get(campaign=seq.campaign, role=Role.NARRATOR).user
