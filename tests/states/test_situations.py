"""Combat situations (« Etat — Combat » cards) as attack and Parade modifiers."""

from __future__ import annotations

from states.rules.dice import Modifier, TraitDie, trait_roll
from states.rules.situations import (
    AttackContext,
    AttackKind,
    Situation,
    attack_modifiers,
    can_move,
    parry,
    situations_at_turn_start,
    surprise_damage_bonus,
    total_defence_modifiers,
)
from tests.states.dice import ScriptedDice

S = Situation


def ranged(target=(), attacker=(), distance=5, **kw):
    return attack_modifiers(
        AttackContext(AttackKind.RANGED, frozenset(attacker), frozenset(target), distance_squares=distance, **kw)
    )


def test_cover_light_medium_heavy_near_total_against_ranged_attacks():
    assert ranged([S.COVER_LIGHT]) == (Modifier("cover_light", -1),)
    assert ranged([S.COVER_MEDIUM]) == (Modifier("cover_medium", -2),)
    assert ranged([S.COVER_HEAVY]) == (Modifier("cover_heavy", -4),)
    assert ranged([S.COVER_NEAR_TOTAL]) == (Modifier("cover_near_total", -6),)


def test_cover_does_nothing_in_melee():
    assert attack_modifiers(AttackContext(AttackKind.MELEE, target=frozenset([S.COVER_HEAVY]))) == ()


def test_aim_plus_two_on_the_next_shooting_or_throwing_roll_at_the_aimed_target():
    assert ranged(attacker=[S.AIM]) == (Modifier("aim", 2),)
    assert attack_modifiers(AttackContext(AttackKind.THROWN, frozenset([S.AIM]))) == (Modifier("aim", 2),)
    assert ranged(attacker=[S.AIM], aimed_at_target=False) == ()


def test_surprise_attack_plus_four_to_attack_and_damage():
    assert attack_modifiers(AttackContext(AttackKind.MELEE, surprise=True)) == (Modifier("surprise_attack", 4),)
    assert surprise_damage_bonus(True) == 4 and surprise_damage_bonus(False) == 0


def test_prone_is_medium_cover_only_beyond_three_squares():
    assert ranged([S.PRONE], distance=4) == (Modifier("cover_medium", -2),)
    assert ranged([S.PRONE], distance=3) == ()
    # Cover does not stack: heavy cover of a prone target still counts once.
    assert ranged([S.PRONE, S.COVER_HEAVY], distance=10) == (Modifier("cover_heavy", -4),)


def test_prone_in_melee_minus_two_parry_and_minus_two_fighting():
    assert attack_modifiers(AttackContext(AttackKind.MELEE, attacker=frozenset([S.PRONE]))) == (Modifier("prone", -2),)
    assert parry(6, [S.PRONE]).value == 4
    assert parry(6, [S.PRONE], melee_attack=False).value == 6


def test_unstable_platform_minus_two_shooting():
    assert ranged(attacker=[S.UNSTABLE_PLATFORM]) == (Modifier("unstable_platform", -2),)
    assert attack_modifiers(AttackContext(AttackKind.THROWN, frozenset([S.UNSTABLE_PLATFORM]))) == ()


def test_defend_plus_two_parry():
    assert parry(5, [S.DEFEND]).value == 7
    assert can_move([S.DEFEND])


def test_total_defence_fighting_plus_two_replaces_parry_only_when_higher_and_forbids_moving():
    assert total_defence_modifiers() == (Modifier("total_defence", 2),)
    high = trait_roll(ScriptedDice(6, 3), TraitDie(8), wild_card=True, modifiers=total_defence_modifiers())
    assert parry(5, [S.TOTAL_DEFENCE], total_defence_total=high.total).value == 8
    low = trait_roll(ScriptedDice(1, 2), TraitDie(8), wild_card=True, modifiers=total_defence_modifiers())
    assert parry(5, [S.TOTAL_DEFENCE], total_defence_total=low.total).value == 5
    assert not can_move([S.TOTAL_DEFENCE])


def test_a_trick_is_minus_two_parry():
    assert parry(6, [], tricked=True).value == 4
    # Shown as the Ruse's own line under the Parade it lowers.
    tricked = parry(6, [], tricked=True)
    assert (tricked.base, [m.key for m in tricked.modifiers]) == (6, ["trick"])
    # A Défense totale roll counts only with the Défense totale situation.
    assert parry(6, [], total_defence_total=9).value == 6


def test_defend_and_total_defence_end_when_the_character_acts_again_aim_and_cover_stay():
    kept, ended = situations_at_turn_start(["aim", "defend", "cover_light", "total_defence"])
    assert kept == ["aim", "cover_light"] and ended == ["defend", "total_defence"]
