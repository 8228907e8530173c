"""Issue 13's CECJ fixes that live in a Sequence: each test quotes the rule that failed before the fix."""

from __future__ import annotations

import pytest

from characters.services.atouts import atout_gain
from conflicts.models import Participant
from conflicts.rules.budget import Split
from conflicts.services.atouts import participant_atout
from conflicts.services.fudge_tests import fudge_test_roll
from conflicts.services.table import table_settings_update
from core.errors import ServiceError
from tests.characters.factories import open_session
from tests.conflicts.factories import draw, fight

pytestmark = pytest.mark.django_db


def test_a_countered_card_goes_and_its_spender_may_buy_it_again() -> None:
    """App. 4: « Les Atouts peuvent également être utilisés pour contrer la dépense d'un Atout par une autre
    personne et ainsi l'annuler. Dans ce cas, les deux opposants perdent chacun un Atout, mais le personnage qui
    a dépensé l'Atout originel peut décider de dépenser un second Atout pour gagner à nouveau le bonus espéré.
    Le processus peut être répété tant que les protagonistes sont désireux de dépenser des Atouts. »"""
    f = fight(npcs=1)
    open_session(f.campaign, f.narrator)
    t = f.npcs[0]
    for who in (f.hero, t.character):
        atout_gain(character=who, actor=f.narrator, amount=4)
    f.hero.refresh_from_db()
    before = f.hero.atout_balance
    participant_atout(participant=f.pc, actor=f.player, use="card", expected_version=None)
    participant_atout(participant=t, actor=f.narrator, use="counter", target=f.pc, expected_version=None)
    assert Participant.objects.get(pk=f.pc.pk).atout_card == 0
    with pytest.raises(ServiceError, match="only have 5"):  # the countered card is gone
        draw(f.pc, f.player, Split(attack={t.key: 6}))
    # The chain: buy it again, countered again, bought a third time.
    participant_atout(participant=f.pc, actor=f.player, use="card", expected_version=None)
    participant_atout(participant=t, actor=f.narrator, use="counter", target=f.pc, expected_version=None)
    participant_atout(participant=f.pc, actor=f.player, use="card", expected_version=None)
    with pytest.raises(ServiceError, match="Only one Atout"):  # not countered this time: once is all
        participant_atout(participant=f.pc, actor=f.player, use="card", expected_version=None)
    f.hero.refresh_from_db()
    assert f.hero.atout_balance == before - 3
    draw(f.pc, f.player, Split(attack={t.key: 6}))


def test_a_counter_needs_a_card_bought_and_not_drawn() -> None:
    f = fight(npcs=1)
    open_session(f.campaign, f.narrator)
    atout_gain(character=f.thugs[0], actor=f.narrator, amount=1)
    with pytest.raises(ServiceError, match="Counter the Atout"):
        participant_atout(participant=f.npcs[0], actor=f.narrator, use="counter", target=f.pc,
                                   expected_version=None)  # fmt: skip


def test_method_two_deals_from_52_cards_and_may_defend_from_a_smaller_deck() -> None:
    """Appendix 5, method 2: « Prenez un jeu de 56 cartes et retirez les jokers […] les cartes rouges (cœurs et
    carreaux) comptent pour un succès » — the figures stay (52 cards, 26 red); « Avec deux jeux de cartes très
    différents (dont l'un est de taille plus réduite, par exemple), vous pouvez affecter un jeu aux cartes
    d'attaque et l'autre jeu (le plus petit, par exemple) aux cartes de défense »."""
    from conflicts.models import Deck, TableSettings
    from conflicts.rules.cards import DeckKind, SuccessRule, composition, successes

    full, small = composition(DeckKind.FULL), composition(DeckKind.SMALL)
    assert (len(full), successes(full, SuccessRule.RED)) == (52, 26)
    assert (len(small), successes(small, SuccessRule.RED)) == (32, 16)
    f = fight(npcs=1)
    settings = TableSettings.objects.get_or_create(campaign=f.campaign)[0]
    with pytest.raises(ServiceError, match="method 2 option"):
        table_settings_update(campaign=f.campaign, actor=f.narrator, expected_version=settings.version,
                                       data={"layout": "small_defence"})  # fmt: skip
    table_settings_update(campaign=f.campaign, actor=f.narrator, expected_version=settings.version,
                                   data={"success_rule": "red", "layout": "small_defence"})  # fmt: skip
    draw(f.pc, f.player, Split(attack={f.npcs[0].key: 3}, defence={f.pc.key: 2}))
    attack = Deck.objects.get(campaign=f.campaign, kind="full")
    defence = Deck.objects.get(campaign=f.campaign, kind="small")
    assert len(attack.pile) + len(attack.in_play) == 52 and len(attack.in_play) == 3
    assert len(defence.pile) + len(defence.in_play) == 32 and len(defence.in_play) == 2


def _test_roll(f: object, data: dict[str, object], seed: int = 1) -> dict[str, object]:
    import random

    return fudge_test_roll(character=f.hero, actor=f.player, data=data, rng=random.Random(seed))  # type: ignore[attr-defined]


def test_an_atout_rerolls_a_tests_dice_or_changes_one_die() -> None:
    """App. 4: « Un Atout peut ainsi être dépensé pour relancer les dés Fudge […] De même, un Atout peut être
    utilisé pour changer le résultat de l'un des dés […] d'augmenter ou réduire un Rang final »."""
    import random

    from campaigns.models import Event
    from conflicts.services.roll_follow_ups import fudge_test_change_die, fudge_test_reroll

    f = fight(npcs=1)
    open_session(f.campaign, f.narrator)
    atout_gain(character=f.hero, actor=f.narrator, amount=3)
    test = _test_roll(f, {"trait_code": "combat", "difficulty": 6})
    roll = str(test["roll"])
    minus = next((i for i, d in enumerate(test["dice"]) if d != 1), None)  # type: ignore[attr-defined]
    assert minus is not None
    changed = fudge_test_change_die(character=f.hero, actor=f.player, roll=roll, index=minus, face=1)
    assert changed["final"] == test["final"] + 1 - test["dice"][minus]  # type: ignore[index,operator]
    again = fudge_test_reroll(character=f.hero, actor=f.player, roll=roll, rng=random.Random(99))
    assert again["old_dice"] == changed["dice"] and again["final"] == 5 + sum(again["dice"])  # type: ignore[arg-type]
    assert again["success"] == (again["final"] >= 6)  # type: ignore[operator]
    assert Event.objects.filter(kind="test.atout").count() == 2
    # One Event per follow-up carries the spending (issue 12): no ``character.atout_spent`` beside it.
    spent = [e.payload["atout"] for e in Event.objects.filter(kind="test.atout")]
    assert sorted(p["use"] for p in spent if p["context"].get("roll") == roll) == ["change_result", "reroll"]
    assert not Event.objects.filter(kind="character.atout_spent", payload__context__roll=roll).exists()
    with pytest.raises(ServiceError, match="already shows"):
        fudge_test_change_die(character=f.hero, actor=f.player, roll=roll, index=0, face=again["dice"][0])  # type: ignore[index]


def test_natural_armour_is_a_defence_line_of_the_budget_and_counts_down_by_draws() -> None:
    """« une armure "naturelle" procurant un bonus de cartes égal à la moitié de la valeur de la Caractéristique
    Présence (arrondie au supérieur). Cette armure s'ajoute aux autres protection […] et est valable pour un
    nombre de tirages égal à la valeur du Domaine psychique »."""
    from campaigns.models import Event
    from characters.models import Character

    f = fight(npcs=1)
    Character.objects.filter(pk=f.hero.pk).update(
        power_boost={"power": "enhanced_endurance", "target": "armour", "amount": 3, "left": 1}
    )
    with pytest.raises(ServiceError, match="Only 5 of your cards can go to attack"):  # Combat Bon: 5
        draw(f.pc, f.player, Split(attack={f.npcs[0].key: 6}, defence={f.pc.key: 2}))
    draw(f.pc, f.player, Split(attack={f.npcs[0].key: 5}, defence={f.pc.key: 3}))
    assert ["natural_armour", 3, "defence"] in Event.objects.get(kind="sequence.drew").payload["budget"]
    f.hero.refresh_from_db()
    assert f.hero.power_boost == {}  # its one draw is spent
