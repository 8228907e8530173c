"""Issue 13's CECJ fixes on the sheet: each test quotes the rule that failed before the fix."""

from __future__ import annotations

import pytest

from characters import selectors
from characters.services.atouts import raise_cost, trait_raise
from characters.services.creation import npc_create
from characters.services.powers import power_use
from characters.services.revers import revers_inflict
from core.errors import ServiceError
from tests.characters.factories import open_session, pc, table

pytestmark = pytest.mark.django_db


def test_streamlined_in_play_raises_cost_three_per_aptitude_rank_and_stop_at_excellent() -> None:
    """Appendix 3: « Coûts des augmentations de Rang : Aptitudes ±3, Champs et Domaines 1 » ; « aucune
    Caractéristique ne peut avoir un Rang inférieur à Faible ou supérieur à Excellent » ; « Les Atouts qui n'ont
    pas été dépensés pendant la phase de création des personnages pourront ensuite être utilisés en jeu, un
    maximum de 3 Atouts peuvent être ainsi conservés »: 3 kept Atouts buy one Aptitude rank in play, not three."""
    campaign, narrator, (player, _other) = table(creation_mode="streamlined")
    jim = pc(campaign, player, {"esprit": 6, "presence": 5, "vigueur": 4, "tir": 3, "combat": 3, "art": 3})
    assert jim.atouts_creation == 3 and selectors.trait_value(jim, "vigueur") == 4
    open_session(campaign, narrator)
    assert raise_cost(jim, "vigueur") == 3 and raise_cost(jim, "tir") == 1
    trait_raise(character=jim, actor=player, trait_code="vigueur", justification="Des mois de forge")
    jim.refresh_from_db()
    assert selectors.trait_value(jim, "vigueur") == 5 and jim.atouts_creation == 0
    # Esprit is Excellent: no creation rank above it, whatever is left.
    jim2 = pc(campaign, _other, {"esprit": 6, "presence": 5, "tir": 3, "combat": 3, "art": 3}, name="Lisa Benny")
    with pytest.raises(ServiceError, match="above Excellent"):
        trait_raise(character=jim2, actor=_other, trait_code="esprit", justification="x")


def test_telekinesis_with_several_objects_raises_the_difficulty_not_the_rank_required() -> None:
    """Appendix 1, Télékinésie: « Au lieu de déplacer un seul objet, le Psy peut déplacer plusieurs objets tant
    que leurs poids cumulés ne dépassent pas la limite autorisée par le rang requis, la Difficulté est toutefois
    augmentée d'un degré. » A Bon Psy moving two 4 kg objects (8 kg: Bon, « 10 kilogrammes ») faces a Très
    difficile Test; it is not refused."""
    from characters.rules import psychic

    campaign, narrator, (player, _other) = table()
    psy = pc(campaign, player, {"telekinesie": 5})
    required = psychic.telekinesis_rank(8)
    assert required == 5
    use = power_use(character=psy, actor=player, domain="telekinesie", power_rank=required,
                             several_objects=True)  # fmt: skip
    assert (use.required_rank, use.difficulty) == (5, "tres_difficile")
    one = power_use(character=psy, actor=player, domain="telekinesie", power_rank=required)
    assert (one.required_rank, one.difficulty) == (5, "difficile")


def test_an_npc_out_after_two_revers_counts_revers_points_on_the_sheet_as_in_a_sequence() -> None:
    """VII-1: « le Narrateur peut décider qu'un seul Revers ou deux Revers seulement sont suffisants pour mettre
    un PNJ hors de combat »; « une Blessure sérieuse (correspondant à deux Revers) » (V-4): one Revers sérieux is
    two Revers, on the sheet as in a Sequence (conflicts.rules.sequence.is_out counts points)."""
    from campaigns.models import Event
    from conflicts.rules.resolution import Severity
    from conflicts.rules.sequence import is_out

    campaign, narrator, _players = table()
    thug = npc_create(campaign=campaign, actor=narrator, name="Truand", concept="Truand",
                               ranks={"combat": 3}, out_after=2)  # fmt: skip
    revers_inflict(character=thug, actor=narrator, domain="physical", severity=2, source="Coup de barre")
    sheet_says = Event.objects.filter(kind="character.revers_inflicted").latest("pk").payload["out_of_action"]
    assert sheet_says is True
    assert is_out(severity=Severity.SERIOUS, revers_taken=2, out_after=2) is sheet_says


def test_enhanced_endurance_adds_presence_to_vigour_for_conscience_draws_and_coordination_to_dexterity() -> None:
    """Appendix 1, Conscience: « Endurance accrue — Ce pouvoir psychique permet à l'adepte d'ajouter la valeur de
    sa Caractéristique Présence au rang ou à la valeur de sa Caractéristique Vigueur pour un nombre de tirages égal
    à la valeur du Domaine psychique Conscience » ; « une armure "naturelle" procurant un bonus de cartes égal à la
    moitié de la valeur de la Caractéristique Présence (arrondie au supérieur) » ; « Coordination accrue » likewise
    adds Présence to Habileté."""
    import random

    from characters.boosts import power_boost_start
    from characters.rules.psychic import boost_for
    from conflicts.services.fudge_tests import fudge_test_roll

    assert boost_for("enhanced_endurance", natural_armour=True, presence=5, conscience=6).amount == 3
    assert boost_for("enhanced_coordination", natural_armour=False, presence=4, conscience=7).target == "habilete"
    campaign, narrator, (player, _other) = table(starting_atouts=30)
    psy = pc(campaign, player, {"conscience": 6, "presence": 4, "vigueur": 3})
    power_boost_start(character=psy, actor=player, power="enhanced_endurance")
    psy.refresh_from_db()
    assert psy.power_boost == {"power": "enhanced_endurance", "target": "vigueur", "amount": 4, "left": 6}
    test = fudge_test_roll(character=psy, actor=player, rng=random.Random(1),
                                             data={"trait_code": "vigueur", "difficulty": 5})  # fmt: skip
    assert ["power", 4, ""] in test["modifiers"] and test["effective"] == 7
    psy.refresh_from_db()
    assert psy.power_boost["left"] == 5
    other = fudge_test_roll(character=psy, actor=player, rng=random.Random(1),
                                              data={"trait_code": "esprit", "difficulty": 5})  # fmt: skip
    assert not [m for m in other["modifiers"] if m[0] == "power"]
    with pytest.raises(ServiceError, match="Only Enhanced endurance can harden"):
        power_boost_start(character=psy, actor=player, power="enhanced_coordination", natural_armour=True)


def test_a_streamlined_aptitude_left_alone_is_moyen_on_the_sheet() -> None:
    """Appendix 3: « le Rang par défaut des Aptitudes est Moyen alors que le Rang par défaut des Champs
    d'expertise reste fixé à Faible »: an Aptitude the player does not mention is Moyen, not Faible; one lowered to
    Faible for a refund reads Faible."""
    campaign, _narrator, (player, other) = table(creation_mode="streamlined")
    jim = pc(campaign, player, {"esprit": 6, "presence": 5, "tir": 3, "combat": 3, "art": 3})
    assert (selectors.trait_value(jim, "vigueur"), selectors.trait_value(jim, "tir")) == (4, 3)
    assert selectors.trait_value(jim, "athletisme") == 2
    lisa = pc(
        campaign, other, {"esprit": 6, "presence": 5, "vigueur": 2, "tir": 6, "combat": 6, "art": 4}, name="Lisa Benny"
    )
    assert selectors.trait_value(lisa, "vigueur") == 2
