"""Psychic powers (VI, appendix 1), scales (appendix 8), equipment (VII-2) and Revers (V)."""

from __future__ import annotations

import pytest

from characters.rules import ladder, psychic, revers, scales
from characters.rules.equipment import (
    Armour,
    ArmourEffect,
    Era,
    Weapon,
    armour_against,
    check_quality,
    outpaces,
    successes_per_revers,
)
from characters.rules.errors import RuleViolation
from characters.rules.ladder import Rank, rank_label


@pytest.mark.parametrize(
    ("required", "difficulty", "level"),
    [
        (Rank.FAIBLE, "facile", 1),
        (Rank.MEDIOCRE, "simple", 2),
        (Rank.MOYEN, "moyenne", 3),
        (Rank.BON, "difficile", 4),
        (Rank.EXCELLENT, "tres_difficile", 5),
        (Rank.EXCEPTIONNEL, "extreme", 6),
    ],
)
def test_psychic_difficulty_table(required: int, difficulty: str, level: int) -> None:
    """« Difficulté des Pouvoirs psychiques : Rang requis / Difficulté / Niveau de pouvoir »."""
    assert psychic.difficulty_for(required) == (difficulty, level)


def test_masking_an_intrusion_raises_the_required_rank_one_step() -> None:
    use = psychic.power_use(domain_rank=Rank.BON, power_rank=Rank.MOYEN, potential_left=5, masked=True)
    assert (use.required_rank, use.difficulty, use.power_level) == (Rank.BON, "difficile", 4)
    with pytest.raises(RuleViolation, match="psychic.rank_too_low"):
        psychic.power_use(domain_rank=Rank.MOYEN, power_rank=Rank.MOYEN, potential_left=5, masked=True)


def test_potential_equals_the_domain_value_and_lamentable_is_latent() -> None:
    """« Un Domaine de pouvoir psionique de Rang Bon peut-être utilisé cinq fois. »"""
    assert psychic.potential(Rank.BON) == 5
    assert psychic.potential(Rank.LAMENTABLE) == 0
    with pytest.raises(RuleViolation, match="psychic.latent"):
        psychic.power_use(domain_rank=Rank.LAMENTABLE, power_rank=Rank.FAIBLE, potential_left=0)
    with pytest.raises(RuleViolation, match="psychic.no_potential"):
        psychic.power_use(domain_rank=Rank.BON, power_rank=Rank.FAIBLE, potential_left=0)


def test_optional_fatigue_costs_a_rank_of_vigour_and_collapses_below_lamentable() -> None:
    use = psychic.power_use(domain_rank=Rank.BON, power_rank=Rank.FAIBLE, potential_left=5, fatigue_rule=True,
                            vigour=Rank.LAMENTABLE, vigour_lost=0)  # fmt: skip
    assert use.vigour_lost == 1 and use.collapsed
    with pytest.raises(RuleViolation, match="psychic.exhausted"):
        psychic.power_use(domain_rank=Rank.BON, power_rank=Rank.FAIBLE, potential_left=4, fatigue_rule=True,
                          vigour=Rank.LAMENTABLE, vigour_lost=1)  # fmt: skip
    assert psychic.fatigue_recovered(3, 30) == 1  # « un repos d'environ 15 minutes » per rank


def test_telekinesis_table_and_the_esprit_modifier() -> None:
    assert psychic.telekinesis_rank(0.5) == Rank.MOYEN  # 1 kg at Moyen
    assert psychic.telekinesis_rank(5, sequences=4) == Rank.BON
    assert psychic.telekinesis_rank(900) == Rank.EXCEPTIONNEL
    with pytest.raises(RuleViolation):
        psychic.telekinesis_rank(2000)
    mods = [psychic.telekinesis_mind_modifier(r) for r in range(Rank.FAIBLE, Rank.EXCEPTIONNEL + 1)]
    assert mods == [-1, -1, 0, 1, 2, 3]


def test_the_ogre_compared_with_a_human() -> None:
    """« lorsque l'ogre dont la Vigueur est bonne est comparé à un humain, il est considéré comme ayant une
    Excellente Vigueur. Le second ogre, de Vigueur Moyenne, est considéré comme ayant une Bonne Vigueur »."""
    ogre = [scales.Scale(value=1, domains=frozenset({"size", "combat"}))]
    ogre_scale = scales.scale_in(ogre, trait="vigueur")
    assert rank_label(scales.compared_rank(Rank.BON, ogre_scale, 0)) == "Excellent"
    assert rank_label(scales.compared_rank(Rank.MOYEN, ogre_scale, 0)) == "Bon"
    # « Les rangs de Vigueur des ogres sont inchangés puisqu'ils ont tous les deux la même échelle. »
    assert scales.compared_rank(Rank.BON, 1, 1) == Rank.BON


def test_scale_table_and_card_modifiers() -> None:
    assert scales.MASS_TABLE[0][1].startswith("Humain")
    assert scales.MASS_TABLE[1][0] == 100 and "ogre" in scales.MASS_TABLE[1][1]
    assert scales.scale_for_mass(70) == 0 and scales.scale_for_mass(500) == 5
    assert scales.card_modifier(6, 0) == 6  # « Le dragon […] tire 6 cartes supplémentaires en combat »
    elf = [scales.Scale(-1, frozenset({"strength"})), scales.Scale(1, frozenset({"agility"}))]
    assert scales.scale_in(elf, domain="strength") == -1 and scales.scale_in(elf, trait="habilete") == 1


def test_armour_eras() -> None:
    """« Les armes à feu ignorent les armures médiévales ou non pare-balle » ; future weapons ignore modern
    or earlier armour ; « Chaque succès d'une armure du futur annule deux succès »."""
    pistol = Weapon(bonus=1, era=Era.MODERN, firearm=True)
    assert armour_against(pistol, Armour(bonus=2, era=Era.MEDIEVAL)).cards == 0
    assert armour_against(pistol, Armour(bonus=2, era=Era.MODERN, bulletproof=True)).cards == 2
    assert armour_against(Weapon(bonus=1, era=Era.MEDIEVAL), Armour(bonus=2, era=Era.MEDIEVAL), shield=True).cards == 3
    blaster = Weapon(bonus=2, era=Era.FUTURE, firearm=True)
    assert armour_against(blaster, Armour(bonus=3, era=Era.MODERN, bulletproof=True)).cards == 0
    future = armour_against(pistol, Armour(bonus=2, era=Era.FUTURE))
    assert (future.cards, future.cancels_per_success) == (2, 2)


def test_vehicle_sizes_and_eras() -> None:
    assert successes_per_revers("small", "medium") == 2
    assert successes_per_revers("small", "huge") == 3
    assert successes_per_revers("large", "huge") == 2
    assert outpaces(Era.MODERN, Era.STEAM) and not outpaces(Era.STEAM, Era.MODERN)


def test_revers_are_not_cumulative_and_each_domain_counts_apart() -> None:
    """« seul le Revers entraînant la pénalité la plus importante est pris en compte »."""
    active = [revers.ActiveRevers("physical", 1), revers.ActiveRevers("physical", 2), revers.ActiveRevers("social", 1)]
    assert revers.penalty(active, "physical") == 2
    assert revers.penalty(active, "social") == 1
    assert revers.penalty(active, "mental") == 0


def test_first_aid_difficulty_by_severity_and_the_option_to_lower_the_wound() -> None:
    """« Moyen pour une Blessure, Difficile pour une Blessure sérieuse et Très difficile pour une Blessure grave »."""
    assert [revers.first_aid_required_rank(s) for s in (1, 2, 3)] == [Rank.MOYEN, Rank.BON, Rank.EXCELLENT]
    assert revers.first_aid_result(3, success=True, lowers_wound=True) == 2
    assert revers.first_aid_result(3, success=True, lowers_wound=False) == 3


def test_recovery_one_card_per_period() -> None:
    week = 7 * 86400
    assert revers.recover(3, 2 * week + 3600, week) == (1, 3600)
    assert revers.recover(1, 86400, 86400) == (0, 0)


def test_npcs_go_out_of_action_after_one_or_two_revers() -> None:
    assert revers.out_of_action([1], npc_threshold=1)
    assert not revers.out_of_action([1], npc_threshold=2)
    assert revers.out_of_action([3], npc_threshold=None)


def test_rest_recovery_on_the_clock() -> None:
    """Potentiel « à l'issue d'une bonne nuit de repos »; Vigour one rank per 15 minutes, carried over."""
    from characters.rules.psychic import rest_recovery

    r = rest_recovery(rested_seconds=600, elapsed_seconds=600, vigour_lost=3, potential_used=True, night_hours=8)
    assert (r.vigour_lost, r.potential_back, r.rested_seconds) == (2, False, 1200)
    r = rest_recovery(rested_seconds=7 * 3600, elapsed_seconds=3600, vigour_lost=0, potential_used=True, night_hours=8)
    assert r.potential_back
    r = rest_recovery(rested_seconds=0, elapsed_seconds=86400, vigour_lost=0, potential_used=True, night_hours=0)
    assert not r.potential_back
    r = rest_recovery(rested_seconds=0, elapsed_seconds=86400, vigour_lost=0, potential_used=False, night_hours=8)
    assert not r.potential_back


def test_a_scale_written_on_a_sheet_reads_back_and_a_bad_one_names_its_part() -> None:
    """« La caractéristique, la situation ou le Conflit pour lequel s'applique l'échelle est citée entre crochets
    après la valeur de l'échelle »: « Echelle +1 (Taille, Combat) » written ``+1 taille combat; -1 force``."""
    read = scales.parse_scales("+1 (Taille, Combat);\n\n-1 force; 20 esprit ; -10 AGILITÉ")
    assert read == [
        scales.Scale(1, frozenset({"size", "combat"})),
        scales.Scale(-1, frozenset({"strength"})),
        scales.Scale(20, frozenset({"mind"})),
        scales.Scale(-10, frozenset({"agility"})),
    ]
    assert scales.scales_to_text(read[:2]) == "+1 combat size; \u22121 strength"
    assert scales.parse_scales(" ; ") == []
    for text, code in (("grand taille", "scale.value"), ("+1", "scale.domains"), ("+1 taille ailes", "scale.domains"),
                       ("21 taille", "scale.domains"), ("-11 taille", "scale.domains")):  # fmt: skip
        with pytest.raises(RuleViolation) as refused:
            scales.parse_scales(f"+2 combat; {text}")
        assert refused.value.code == code and refused.value.params == {"text": text}


def test_a_scale_applies_to_its_domain_or_its_traits_and_the_first_match_counts() -> None:
    ogre = [scales.Scale(1, frozenset({"size"})), scales.Scale(2, frozenset({"combat", "mind"}))]
    assert scales.scale_in(ogre, domain="combat") == 2 and scales.scale_in(ogre, domain="size") == 1
    assert scales.scale_in(ogre, trait="esprit") == 2 and scales.scale_in(ogre, trait="vigueur") == 1
    assert scales.scale_in(ogre, domain="agility") == 0 and scales.scale_in(ogre, trait="tir") == 0
    assert scales.scale_in(ogre) == 0 and scales.scale_in([]) == 0
    # The mass closest on a log scale; a mass of nothing still reads the lightest scale.
    assert scales.scale_for_mass(0) == -10 and scales.scale_for_mass(84) == 1 and scales.scale_for_mass(81) == 0
    assert scales.scale_for_mass(10_000) == 10


def test_a_rank_beyond_exceptionnel_is_impossible_and_below_faible_reads_as_faible() -> None:
    """« Difficulté des Pouvoirs psychiques »: Faible → Facile … Exceptionnel → Extrême; beyond, « Impossible »."""
    assert psychic.difficulty_for(Rank.EXCEPTIONNEL + 1) == ("impossible", Rank.EXCEPTIONNEL)
    assert psychic.difficulty_for(Rank.LEGENDAIRE + 1) == ("impossible", Rank.LEGENDAIRE)
    assert psychic.difficulty_for(Rank.LAMENTABLE) == ("facile", 1)
    # « la Difficulté est toutefois augmentée d'un degré » for several objects, masked or not.
    assert psychic.use_difficulty(Rank.MOYEN) == "moyenne"
    assert psychic.use_difficulty(Rank.MOYEN, several_objects=True) == "difficile"
    assert psychic.use_difficulty(Rank.MOYEN, masked=True, several_objects=True) == "tres_difficile"
    assert psychic.required_rank_for(Rank.MOYEN) == Rank.MOYEN


def test_a_use_costs_one_potential_point_unless_fed_and_reports_every_figure() -> None:
    """« Chaque utilisation d'un pouvoir psychique consomme un point du Potentiel psychique »."""
    use = psychic.power_use(domain_rank=Rank.BON, power_rank=Rank.BON, potential_left=1, vigour_lost=2)
    assert use == psychic.PowerUse(Rank.BON, "difficile", 4, 0, 2, False)
    fed = psychic.power_use(
        domain_rank=Rank.BON, power_rank=Rank.MOYEN, potential_left=0, fed=True, several_objects=True
    )
    assert (fed.potential_left, fed.difficulty, fed.power_level, fed.required_rank) == (0, "difficile", 3, Rank.MOYEN)
    tired = psychic.power_use(domain_rank=Rank.BON, power_rank=Rank.FAIBLE, potential_left=3, fatigue_rule=True,
                              vigour=Rank.MOYEN, vigour_lost=1)  # fmt: skip
    assert (tired.vigour_lost, tired.collapsed, tired.potential_left) == (2, False, 2)
    # Vigour down to Lamentable exactly: one more use is allowed, and it collapses.
    last = psychic.power_use(domain_rank=Rank.BON, power_rank=Rank.FAIBLE, potential_left=3, fatigue_rule=True,
                             vigour=Rank.MOYEN, vigour_lost=3)  # fmt: skip
    assert (last.vigour_lost, last.collapsed) == (4, True)
    with pytest.raises(RuleViolation) as refused:
        psychic.power_use(domain_rank=Rank.ABYSSAL, power_rank=Rank.FAIBLE, potential_left=3)
    assert refused.value.code == "psychic.not_usable"
    with pytest.raises(RuleViolation) as low:
        psychic.power_use(domain_rank=Rank.MOYEN, power_rank=Rank.BON, potential_left=3)
    assert low.value.code == "psychic.rank_too_low" and low.value.params == {"required": Rank.BON, "rank": Rank.MOYEN}
    assert not psychic.usable(Rank.LAMENTABLE) and psychic.usable(Rank.FAIBLE) and not psychic.latent(Rank.FAIBLE)
    assert psychic.potential(Rank.FAIBLE) == 2 and psychic.fatigue_recovered(3, 44) == 1
    assert psychic.fatigue_recovered(1, 45) == 0


def test_conscience_boosts_a_trait_or_gives_a_natural_armour_for_as_many_draws_as_its_value() -> None:
    """« ajouter la valeur de sa Caractéristique Présence au rang … de sa Caractéristique Vigueur [Habileté] pour un
    nombre de tirages égal à la valeur du Domaine psychique Conscience »; « une armure "naturelle" procurant un
    bonus de cartes égal à la moitié de la valeur de la Caractéristique Présence (arrondie au supérieur) »."""
    assert psychic.boost_for("enhanced_endurance", natural_armour=False, presence=5, conscience=6) == psychic.Boost(
        "enhanced_endurance", "vigueur", 5, 6
    )
    assert psychic.boost_for("enhanced_coordination", natural_armour=False, presence=-1, conscience=-2) == (
        psychic.Boost("enhanced_coordination", "habilete", 0, 0)
    )
    assert psychic.boost_for("enhanced_endurance", natural_armour=True, presence=5, conscience=6) == psychic.Boost(
        "enhanced_endurance", "armour", 3, 6
    )
    assert psychic.boost_for("enhanced_endurance", natural_armour=True, presence=4, conscience=-1).amount == 2
    for power, armour, code in (("telepathy", False, "psychic.not_a_boost"),
                                ("enhanced_coordination", True, "psychic.armour_is_endurance")):  # fmt: skip
        with pytest.raises(RuleViolation) as refused:
            psychic.boost_for(power, natural_armour=armour, presence=4, conscience=4)
        assert refused.value.code == code


def test_armour_cards_against_each_weapon_and_what_a_shield_adds() -> None:
    """« Les armes à feu ignorent les armures médiévales ou non pare-balle »: a bulletproof vest counts, medieval
    plate never does, future armour always does; « boucliers : +1 carte de Défense », whatever the weapon."""
    pistol = Weapon(bonus=1, era=Era.MODERN, firearm=True)
    sword = Weapon(bonus=1, era=Era.MEDIEVAL)
    plate = Armour(bonus=3, era=Era.MEDIEVAL, bulletproof=True)
    assert armour_against(pistol, plate) == ArmourEffect(0, 1)
    assert armour_against(pistol, plate, shield=True) == ArmourEffect(1, 1)
    assert armour_against(sword, plate) == ArmourEffect(3, 1)
    assert armour_against(pistol, Armour(bonus=2, era=Era.STEAM, bulletproof=True)) == ArmourEffect(2, 1)
    assert armour_against(pistol, Armour(bonus=2, era=Era.MODERN)) == ArmourEffect(0, 1)
    # Future armour cancels two successes of an older weapon, one of a future weapon, none when it has no card.
    assert armour_against(sword, Armour(bonus=2, era=Era.FUTURE)) == ArmourEffect(2, 2)
    assert armour_against(Weapon(bonus=2, era=Era.FUTURE), Armour(bonus=2, era=Era.FUTURE)) == ArmourEffect(2, 1)
    assert armour_against(sword, Armour(bonus=0, era=Era.FUTURE), shield=True) == ArmourEffect(1, 1)
    # A future weapon ignores modern armour, even without being a firearm.
    assert armour_against(Weapon(bonus=2, era=Era.FUTURE), Armour(bonus=3, era=Era.MODERN)) == ArmourEffect(0, 1)
    assert [check_quality(q) for q in (-1, 0, 1, 2)] == [-1, 0, 1, 2]
    for bad in (-2, 3):
        with pytest.raises(RuleViolation) as refused:
            check_quality(bad)
        assert refused.value.code == "equipment.quality_range" and refused.value.params == {"value": bad}


def test_vehicles_of_every_size_and_era() -> None:
    """« un petit véhicule doit obtenir deux succès … pour infliger un Revers à un véhicule moyen ou grand […] trois
    succès […] à un véhicule énorme. Les véhicules moyens ou grands doivent dépenser deux succès pour infliger un
    Revers à un véhicule énorme »; « Les véhicules modernes distancent automatiquement les véhicules de l'ère de la
    vapeur ou antérieurs »."""
    assert [successes_per_revers("small", size) for size in ("small", "medium", "large", "huge")] == [1, 2, 2, 3]
    assert [successes_per_revers("medium", size) for size in ("small", "medium", "large", "huge")] == [1, 1, 1, 2]
    assert [successes_per_revers("huge", size) for size in ("small", "medium", "large", "huge")] == [1, 1, 1, 1]
    assert outpaces(Era.FUTURE, Era.MODERN) and outpaces(Era.MODERN, Era.MEDIEVAL)
    assert not outpaces(Era.MODERN, Era.MODERN) and not outpaces(Era.STEAM, Era.MEDIEVAL)


def test_a_revers_severity_its_domain_and_its_healing_exactly() -> None:
    """« 1 succès = Revers … 3 succès = Revers Décisif »; « Les Revers s'appliquent, en principe, à tous les types
    d'action » for deep physical wounds when the campaign reads it so."""
    assert [revers.severity_from_successes(n) for n in (-1, 0, 1, 3, 4)] == [0, 0, 1, 3, 3]
    assert [revers.check_severity(s) for s in (1, 2, 3)] == [1, 2, 3]
    for bad in (0, 4):
        with pytest.raises(RuleViolation) as refused:
            revers.check_severity(bad)
        assert refused.value.code == "revers.severity_range" and refused.value.params == {"severity": bad}
    deep = revers.ActiveRevers("physical", 2, revers.Nature.DEEP)
    assert revers.applies(deep, "social", deep_everywhere=True) and not revers.applies(deep, "social")
    assert not revers.applies(deep, "", deep_everywhere=True)
    assert not revers.applies(revers.ActiveRevers("physical", 2), "social", deep_everywhere=True)
    assert not revers.applies(revers.ActiveRevers("mental", 2, revers.Nature.DEEP), "social", deep_everywhere=True)
    worst = [deep, revers.ActiveRevers("social", 1), revers.ActiveRevers("social", 0)]
    assert revers.penalty(worst, "social", deep_everywhere=True) == 2 and revers.penalty(worst, "social") == 1
    assert revers.penalty([revers.ActiveRevers("social", 0)], "social") == 0
    assert revers.recovery_days(revers.Nature.DEEP, light_days=1, deep_days=7) == 7
    assert revers.recovery_days(revers.Nature.BLUNT, light_days=1, deep_days=7) == 1
    assert revers.recover(2, 5000, 0) == (2, 0) and revers.recover(0, 5000, 10) == (0, 0)
    assert revers.recover(-1, 5000, 10) == (0, 0) and revers.recover(2, 15, 10) == (1, 5)
    assert revers.recover(2, 25, 10) == (0, 0)
    assert revers.first_aid_result(1, success=False, lowers_wound=True) == 1
    with pytest.raises(RuleViolation):
        revers.first_aid_result(0, success=True, lowers_wound=True)
    assert revers.out_of_action([1, 1], npc_threshold=2) and not revers.out_of_action([2], npc_threshold=3)
    assert not revers.out_of_action([2, 2], npc_threshold=None) and not revers.out_of_action([], npc_threshold=1)


def test_ranks_read_below_abyssal_and_in_each_language() -> None:
    assert rank_label(-2) == "Abyssal \u22122" and rank_label(0) == "Abyssal" and rank_label(8) == "Légendaire"
    assert rank_label(9, "en") == "Legendary +1" and rank_label(4, "de") == "Moyen"
    assert ladder.rank_label_fr(6) == "Excellent" and ladder.rank_label_en(6) == "Great"
    assert [ladder.cards(v) for v in (-2, 0, 5)] == [0, 0, 5]
    assert ladder.clamp(5, highest=3) == 3 and ladder.clamp(-1, lowest=2) == 2 and ladder.clamp(12) == 12
    assert ladder.shift(3, 2) == 5 and ladder.shift(1, -3) == 0


def test_telekinesis_needs_the_lowest_rank_covering_both_weight_and_duration() -> None:
    """« La durée et/ou le poids déplacé indique le rang requis »: Faible 1 Séquence and 10 g … Exceptionnel 6 and
    1 000 kg; the limits themselves are allowed."""
    assert psychic.telekinesis_rank(0.01) == Rank.FAIBLE and psychic.telekinesis_rank(0.011) == Rank.MEDIOCRE
    assert psychic.telekinesis_rank(0.01, sequences=2) == Rank.MEDIOCRE
    assert psychic.telekinesis_rank(1.0, sequences=4) == Rank.BON
    assert psychic.telekinesis_rank(1000.0, sequences=6) == Rank.EXCEPTIONNEL
    for weight, sequences in ((1000.5, 1), (1.0, 7)):
        with pytest.raises(RuleViolation) as refused:
            psychic.telekinesis_rank(weight, sequences)
        assert refused.value.code == "psychic.telekinesis_beyond"
        assert refused.value.params == {"weight": weight, "sequences": sequences}
    assert [psychic.telekinesis_mind_modifier(r) for r in (0, 3, 4, 7, 8)] == [-1, -1, 0, 3, 3]


def test_rest_gives_vigour_back_per_full_quarter_hour_and_potential_after_the_night() -> None:
    """« Un rang de Vigueur perdu […] se récupère à l'issue d'un repos d'environ 15 minutes »; the Potentiel comes
    back « à l'issue d'une bonne nuit de repos », the campaign's night in game hours (0: by hand)."""
    quarter = psychic.rest_recovery(rested_seconds=600, elapsed_seconds=300, vigour_lost=3, potential_used=True,
                                    night_hours=1)  # fmt: skip
    assert quarter == psychic.RestRecovery(2, False, 900)
    night = psychic.rest_recovery(rested_seconds=0, elapsed_seconds=3600, vigour_lost=1, potential_used=True,
                                  night_hours=1)  # fmt: skip
    assert night == psychic.RestRecovery(0, True, 3600)
    unused = psychic.rest_recovery(rested_seconds=0, elapsed_seconds=3600, vigour_lost=0, potential_used=False,
                                   night_hours=1)  # fmt: skip
    assert not unused.potential_back
    by_hand = psychic.rest_recovery(rested_seconds=0, elapsed_seconds=99_999, vigour_lost=0, potential_used=True,
                                    night_hours=0)  # fmt: skip
    assert not by_hand.potential_back
    # The clock going back gives nothing; rest counts up to a week and a day.
    back = psychic.rest_recovery(rested_seconds=900, elapsed_seconds=-900, vigour_lost=2, potential_used=False,
                                 night_hours=8)  # fmt: skip
    assert back == psychic.RestRecovery(2, False, 900)
    capped = psychic.rest_recovery(rested_seconds=psychic.REST_CAP_SECONDS + 900, elapsed_seconds=900, vigour_lost=2,
                                   potential_used=False, night_hours=8)  # fmt: skip
    assert capped == psychic.RestRecovery(2, False, psychic.REST_CAP_SECONDS)
    assert psychic.feed(trait_rank=Rank.FAIBLE, ranks_lost=1) == 2
    with pytest.raises(RuleViolation) as exhausted:
        psychic.feed(trait_rank=Rank.FAIBLE, ranks_lost=2)
    assert exhausted.value.code == "psychic.feed_exhausted"


def test_scales_one_a_line_and_against_a_bigger_creature() -> None:
    """A scale per line reads as a scale per « ; »; « Le dragon […] tire 6 cartes supplémentaires en combat », and the
    human facing it draws 6 fewer; a domain no trait belongs to raises none."""
    assert scales.parse_scales("+1 taille\n-1 force") == [
        scales.Scale(1, frozenset({"size"})),
        scales.Scale(-1, frozenset({"strength"})),
    ]
    assert scales.card_modifier(0, 6) == -6 and scales.card_modifier(3, 1) == 2
    assert scales.scale_in([scales.Scale(2, frozenset({"flight"}))], trait="vigueur") == 0
    assert revers.recover(2, 5, 1) == (0, 0)


def test_each_refused_use_by_its_exact_code_and_collapse_only_below_lamentable() -> None:
    def refused(**kwargs: object) -> RuleViolation:
        with pytest.raises(RuleViolation) as info:
            psychic.power_use(**kwargs)  # type: ignore[arg-type]
        return info.value

    assert refused(domain_rank=Rank.LAMENTABLE, power_rank=Rank.FAIBLE, potential_left=3).code == "psychic.latent"
    assert refused(domain_rank=Rank.BON, power_rank=Rank.FAIBLE, potential_left=0).code == "psychic.no_potential"
    tired = refused(domain_rank=Rank.BON, power_rank=Rank.FAIBLE, potential_left=3, fatigue_rule=True, vigour=Rank.MOYEN,
                    vigour_lost=4)  # fmt: skip
    assert tired.code == "psychic.exhausted"
    # Down to Lamentable exactly after the use: tired, not collapsed (« chute en dessous du rang Lamentable »).
    edge = psychic.power_use(domain_rank=Rank.BON, power_rank=Rank.FAIBLE, potential_left=3, fatigue_rule=True,
                             vigour=Rank.MOYEN, vigour_lost=2)  # fmt: skip
    assert (edge.vigour_lost, edge.collapsed) == (3, False)
    assert psychic.power_use(domain_rank=Rank.BON, power_rank=Rank.FAIBLE, potential_left=3).vigour_lost == 0
    with pytest.raises(RuleViolation) as not_a_boost:
        psychic.boost_for("telepathy", natural_armour=False, presence=4, conscience=4)
    assert not_a_boost.value.params == {"power": "telepathy"}
    armour = psychic.boost_for("enhanced_endurance", natural_armour=True, presence=4, conscience=0)
    assert (armour.amount, armour.left) == (2, 0)


def test_a_regional_language_reads_its_language() -> None:
    assert rank_label(5, "en-GB") == "Good" and rank_label(5, "fr-CA") == "Bon"
