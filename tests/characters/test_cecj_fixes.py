"""Issue 13's CECJ fixes on the sheet: each test quotes the rule that failed before the fix."""

from __future__ import annotations

import pytest

from characters import selectors
from characters.services.atouts import raise_cost, trait_raise
from characters.services.powers import power_use
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
