"""Nobody is locked out of a Sequence by Secoué (issue 27, item 1).

State cards: Secoué « ne peut faire que des actions gratuites » ; « Jeton : il est possible d'utiliser un jeton à
tout moment pour éliminer un état Secoué, y compris après avoir fait son jet d'Âme. Dans ce cas, le personnage peut
agir normalement ». CECJ V-2, « Jeu défensif »: « Les cartes jouées en défense sont tirées séparément des cartes
d'attaque ». A Shaken character puts every card that can defend in defence; a weapon's attack-only cards stay out.
"""

from __future__ import annotations

import itertools

import pytest
from django.test import Client
from django.urls import reverse

from campaigns.models import Event
from conflicts import decks as deck_store
from conflicts.rules.budget import Split, validate_split
from conflicts.services.sequences import participant_update
from conflicts.setup import budget_of, default_split, penalty_of
from states.models import SavageState
from states.services.shaken import savage_shaken_set, savage_token_award
from tests.conflicts.factories import Fight, draw, fight

pytestmark = pytest.mark.django_db


def _armed_and_shaken(weapon_use: str = "attack", tokens: int = 1) -> Fight:
    """Jim (Combat Bon, 5 cards) with a weapon the narrator set to attack only (+2), Shaken, with a Jeton."""
    f = fight(npcs=1)
    participant_update(participant=f.pc, actor=f.narrator, data={"weapon": 2, "weapon_use": weapon_use},
                       expected_version=f.sequence.version)  # fmt: skip
    if tokens:
        savage_token_award(character=f.hero, actor=f.narrator, count=tokens, expected_version=None)
    savage_shaken_set(character=f.hero, actor=f.narrator, shaken=True, expected_version=None)
    return f.reload()


def _budget(f: Fight):  # type: ignore[no-untyped-def]
    everyone = list(f.sequence.participants.select_related("character"))
    me = next(p for p in everyone if p.pk == f.pc.pk)
    budget = budget_of(me, f.sequence, deck_store.table_settings(f.campaign), penalty=penalty_of(me, f.sequence),
                       everyone=everyone)  # fmt: skip
    return me, everyone, budget


def test_a_shaken_character_with_an_attack_only_weapon_draws_every_card_that_can_defend() -> None:
    """Before: « Seules 0 de vos cartes peuvent aller en défense » for 7 in defence, « 2 cartes ne sont pas
    placées » for 5: no split at all was accepted."""
    f = _armed_and_shaken()
    me, everyone, budget = _budget(f)
    assert (budget.free, budget.attack_only) == (5, 2)
    assert default_split(me, everyone, budget, shaken=True) == Split(defence={me.key: 5})
    draw(f.pc, f.player, Split(defence={f.pc.key: 5}))
    f.reload()
    assert f.pc.drawn and len(f.pc.hand["defence"][f.pc.key]) == 5 and not f.pc.hand["attack"]
    assert ["weapon", 2, "attack"] in Event.objects.get(kind="sequence.drew").payload["budget"]


def test_the_form_of_any_participant_starts_from_a_split_the_rules_accept() -> None:
    """« a legal default always exists »: every mix of Shaken, out of range and weapon use, and a saved split the
    table has since made illegal (an attack saved before the character was Shaken)."""
    f = fight(npcs=1)
    for shaken, bands, use, saved_attack in itertools.product((False, True), (0, 1), ("attack", "any", "defence"),
                                                              (False, True)):  # fmt: skip
        f.pc.refresh_from_db()
        f.pc.weapon, f.pc.weapon_use, f.pc.out_of_range_bands = 2, use, bands
        f.pc.split = {"attack": {f.npcs[0].key: 7}} if saved_attack else {}
        f.pc.save()
        me, everyone, budget = _budget(f)
        split = default_split(me, everyone, budget, shaken=shaken)
        validate_split(budget, split, me=me.key, opponents={f.npcs[0].key}, teammates=set(), out_of_range=bands > 0,
                       shaken=shaken)  # fmt: skip
        assert split.cards == budget.to_place(can_attack=not shaken and not bands)


def test_the_shaken_draw_panel_says_so_offers_the_defence_split_and_a_jeton() -> None:
    f = _armed_and_shaken()
    client = Client()
    client.force_login(f.player)
    html = client.get(reverse("conflicts:panel", args=[f.campaign.pk, f.pc.pk])).content.decode()
    assert '<div class="states-shaken-box" data-set-aside="2">' in html  # the weapon's 2 cards, said so
    assert f'name="attack_{f.npcs[0].pk}" value="0" disabled' in html
    assert f'name="defence_{f.pc.pk}" value="5"' in html
    assert 'data-jeton="unshake"' in html
    assert 'name="upper_hand"' not in html  # taking the upper hand is an attack


def test_a_jeton_from_the_draw_panel_ends_shaken_and_gives_the_attack_back() -> None:
    f = _armed_and_shaken()
    client = Client()
    client.force_login(f.player)
    response = client.post(reverse("conflicts:unshake", args=[f.campaign.pk, f.pc.pk]), HTTP_HX_REQUEST="true")
    assert response.status_code == 200
    state = SavageState.objects.get(character=f.hero)
    assert not state.shaken and state.tokens == 0
    html = response.content.decode()
    assert "states-shaken" not in html and f'name="attack_{f.npcs[0].pk}" value="7"' in html
    assert Event.objects.filter(kind="savage.token_spent").count() == 1
    again = client.post(reverse("conflicts:unshake", args=[f.campaign.pk, f.pc.pk]), HTTP_HX_REQUEST="true")
    assert again.status_code == 200 and Event.objects.filter(kind="savage.token_spent").count() == 1


def test_the_one_tap_test_of_a_shaken_character_says_why_and_offers_the_jeton_never_a_400() -> None:
    f = _armed_and_shaken()
    client = Client()
    client.force_login(f.player)
    roll = reverse("conflicts:sheet_roll", args=[f.campaign.pk, f.hero.pk])
    refused = client.post(roll, {"trait_code": "combat"}, HTTP_HX_REQUEST="true")
    assert refused.status_code == 200
    html = refused.content.decode()
    assert "shaken-card" in html and 'data-jeton="unshake"' in html and "Secoué" in html
    assert not Event.objects.filter(kind="test.rolled").exists()
    sheet = client.get(f.hero.get_absolute_url()).content.decode()
    assert f'id="roll-shaken-{f.hero.pk}"' in sheet  # the Jeton is on the sheet at any moment, not only on a tap
    spent = client.post(reverse("conflicts:sheet_unshake", args=[f.campaign.pk, f.hero.pk]), HTTP_HX_REQUEST="true")
    assert spent.status_code == 200 and not SavageState.objects.get(character=f.hero).shaken
    assert client.post(roll, {"trait_code": "combat"}, HTTP_HX_REQUEST="true").status_code == 200
    assert Event.objects.filter(kind="test.rolled").count() == 1


def test_the_rules_refuse_a_shaken_attack_and_ask_only_for_the_cards_that_can_defend() -> None:
    """Pure rules: « ne peut faire que des actions gratuites »; an attack-only card can go nowhere then."""
    from conflicts.rules.budget import Budget, CardItem, Use
    from conflicts.rules.errors import RuleError
    from conflicts.rules.fudge import Modifier

    budget = Budget((CardItem(Modifier("trait", 5)), CardItem(Modifier("weapon", 2), Use.ATTACK)), 5, 2, 0)
    with pytest.raises(RuleError) as refused:
        validate_split(budget, Split(attack={"9": 1}, defence={"1": 4}), me="1", opponents={"9"}, teammates=set(),
                       shaken=True)  # fmt: skip
    assert refused.value.code == "shaken_attack"
    validate_split(budget, Split(defence={"1": 5}), me="1", opponents={"9"}, teammates=set(), shaken=True)
    with pytest.raises(RuleError, match="cards_left"):
        validate_split(budget, Split(defence={"1": 5}), me="1", opponents={"9"}, teammates=set())
    assert (budget.to_place(), budget.to_place(can_attack=False)) == (7, 5)
