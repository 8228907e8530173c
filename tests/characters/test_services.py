"""Use cases: every change is an Event, refusals change nothing and name the broken rule."""

from __future__ import annotations

import datetime as dt

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from campaigns import services as campaign_services
from campaigns.models import Event
from characters import selectors
from characters.models import AtoutEntry, Character, CharacterRules, CharacterTrait
from characters.services.allies import ally_hand
from characters.services.atouts import atout_gain, atout_refund, atout_spend, raise_cost, trait_raise
from characters.services.creation import npc_create
from characters.services.equipment import equipment_add
from characters.services.options import character_rules_update
from characters.services.powers import character_rest, power_use
from characters.services.revers import first_aid, revers_inflict
from characters.services.sheet import character_update, trait_veto
from core.errors import PermissionRefused, ServiceError
from tests.characters.factories import open_session, pc, table

pytestmark = pytest.mark.django_db


def ledger_sum(character: Character) -> int:
    return sum(AtoutEntry.objects.filter(character=character).values_list("delta", flat=True))


def test_creation_saves_traits_kept_atouts_and_one_event() -> None:
    campaign, narrator, (player, _other) = table()
    jim = pc(campaign, player, {"medecine": 4, "esprit": 5})
    assert selectors.trait_value(jim, "medecine") == 4
    assert selectors.trait_value(jim, "sciences") == 1  # « Sciences (Lamentable) »
    assert selectors.trait_value(jim, "telepathie") == 0  # power domains start Abyssal
    assert selectors.trait_value(jim, "athletisme") == 2  # « Faible (2) ← Valeur par défaut »
    assert (jim.atouts_creation, jim.atouts_experience) == (5, 0)
    event = Event.objects.get(kind="character.created")
    assert event.payload["kept"] == 5 and list(event.characters.all()) == [jim]


def test_an_illegal_allocation_names_the_broken_rule_and_saves_nothing() -> None:
    campaign, narrator, (player, _other) = table(starting_atouts=6)
    before = Event.objects.count()
    with pytest.raises(ServiceError, match="The last Atout must be kept for play: you spent 6 of 6"):
        pc(campaign, player, {"esprit": 5, "tir": 5})
    assert not Character.objects.exists() and Event.objects.count() == before


def test_free_style_traits_and_the_narrators_veto() -> None:
    campaign, narrator, (player, _other) = table(creation_mode="free")
    lisa = pc(campaign, player, {"fine_gachette": 5}, name="Lisa Benny", custom=[{"name": "Fine gâchette"}])
    assert selectors.trait_value(lisa, "fine_gachette") == 5
    assert lisa.atouts_creation == 8
    assert trait_veto(character=lisa, actor=narrator, code="fine_gachette") == 3
    lisa.refresh_from_db()
    assert lisa.atouts_creation == 11 and ledger_sum(lisa) == 11
    with pytest.raises(PermissionRefused):
        trait_veto(character=lisa, actor=player, code="esprit")


def test_player_named_traits_are_refused_where_the_narrator_keeps_a_list() -> None:
    campaign, narrator, (player, _other) = table()
    with pytest.raises(ServiceError, match="traits come from the narrator's list"):
        pc(campaign, player, {"fine_gachette": 5}, custom=[{"name": "Fine gâchette"}])


def test_jim_raises_tir_to_moyen_in_play_for_two_creation_atouts() -> None:
    """II: « dépense 2 Atouts en Tir […] un rang Moyen (4 cartes) en Tir », with his explanation."""
    campaign, narrator, (player, _other) = table()
    jim = pc(campaign, player)
    open_session(campaign, narrator)
    why = "Jim a grandi en allant à la chasse avec son père et son frère"
    trait_raise(character=jim, actor=player, trait_code="tir", justification=why, ranks=2)
    jim.refresh_from_db()
    assert selectors.trait_value(jim, "tir") == 4
    assert jim.atouts_creation == 3
    event = Event.objects.filter(kind="character.atout_spent").latest("pk")
    assert event.payload["justification"] == why and event.payload["to"] == 4


def test_experience_atouts_raise_only_between_sessions() -> None:
    campaign, narrator, (player, _other) = table(session_award=2)
    jim = pc(campaign, player, {"esprit": 5, "tir": 4, "combat": 4, "medecine": 4})  # 10 spent, 1 kept
    session = open_session(campaign, narrator)
    atout_spend(character=jim, actor=player, use="save_your_skin", justification="Il saute par la fenêtre")
    jim.refresh_from_db()
    assert jim.atouts_creation == 0
    campaign_services.game_session_close(game_session=session, actor=narrator)
    jim.refresh_from_db()
    assert jim.atouts_experience == 2
    trait_raise(character=jim, actor=player, trait_code="athletisme")  # between sessions: one per rank
    assert selectors.trait_value(jim, "athletisme") == 3
    open_session(campaign, narrator)
    with pytest.raises(ServiceError, match="Only Atouts kept from creation"):
        trait_raise(character=jim, actor=player, trait_code="athletisme", justification="x")


def test_streamlined_campaigns_raise_between_sessions_at_the_table_cost() -> None:
    campaign, narrator, (player, _other) = table(creation_mode="streamlined")
    ranks = {"esprit": 6, "presence": 5, "tir": 3, "combat": 3, "art": 3}
    jim = pc(campaign, player, ranks)
    assert jim.atouts_creation == 3
    assert raise_cost(jim, "tir") == 3  # Médiocre → Moyen
    assert raise_cost(jim, "esprit") == 72  # Excellent → Exceptionnel: 24, tripled for an Aptitude
    trait_raise(character=jim, actor=player, trait_code="tir")
    assert selectors.trait_value(jim, "tir") == 4


def test_session_close_awards_each_pc_and_the_narrator_adjusts_one() -> None:
    campaign, narrator, (p1, p2) = table()
    jim, lisa = pc(campaign, p1), pc(campaign, p2, name="Lisa Benny")
    character_update(character=lisa, actor=narrator, data={"award_adjustment": 3}, expected_version=lisa.version)
    session = open_session(campaign, narrator)
    campaign_services.game_session_close(game_session=session, actor=narrator)
    jim.refresh_from_db()
    lisa.refresh_from_db()
    assert (jim.atouts_experience, lisa.atouts_experience) == (1, 3)
    assert lisa.award_adjustment is None


def test_counter_chain_and_help_once_per_roll() -> None:
    """Appendix 4: both lose one Atout, the first may spend again; help once per roll per helper."""
    campaign, narrator, (p1, p2) = table()
    jim, lisa = pc(campaign, p1), pc(campaign, p2, name="Lisa Benny")
    roll = {"roll": "draw-42"}
    atout_spend(character=jim, actor=p1, use="temporary_bonus", context=roll)
    with pytest.raises(ServiceError, match="Only one Atout can raise a roll"):
        atout_spend(character=jim, actor=p1, use="temporary_bonus", context=roll)
    atout_spend(character=lisa, actor=p2, use="counter", context={**roll, "target_character": jim.pk})
    with pytest.raises(ServiceError, match="no uncountered"):
        atout_spend(character=lisa, actor=p2, use="counter", context={**roll, "target_character": jim.pk})
    atout_spend(character=jim, actor=p1, use="temporary_bonus", context=roll)
    atout_spend(character=lisa, actor=p2, use="help_other", amount=2, justification="je tiens la lampe",
                         context={"roll": "draw-43", "target_character": jim.pk})  # fmt: skip
    with pytest.raises(ServiceError, match="only once per roll"):
        atout_spend(character=lisa, actor=p2, use="help_other", amount=2, justification="encore",
                             context={"roll": "draw-43", "target_character": jim.pk})  # fmt: skip
    jim.refresh_from_db()
    lisa.refresh_from_db()
    assert (jim.atout_balance, lisa.atout_balance) == (3, 2)


def test_narrative_control_vetoed_is_refunded() -> None:
    campaign, narrator, (player, _other) = table()
    jim = pc(campaign, player)
    entry = atout_spend(character=jim, actor=player, use="narrative_control",
                                 justification="J'ai un pied-de-biche dans le coffre")  # fmt: skip
    atout_refund(entry=entry, actor=narrator)
    jim.refresh_from_db()
    assert jim.atout_balance == 5
    with pytest.raises(ServiceError, match="already refunded"):
        atout_refund(entry=entry, actor=narrator)


def test_a_player_cannot_spend_anothers_atouts() -> None:
    campaign, narrator, (p1, p2) = table()
    jim = pc(campaign, p1)
    with pytest.raises(PermissionRefused):
        atout_spend(character=jim, actor=p2, use="monologue")


def test_revers_worst_only_recovery_by_the_clock_and_first_aid() -> None:
    campaign, narrator, (player, _other) = table()
    # Each domain on its own (the narrower reading): a deep wound weighing on social rolls is test_harm_weighs'.
    CharacterRules.objects.update_or_create(campaign=campaign, defaults={"harm_weighs_everywhere": False})
    jim = pc(campaign, player)
    revers_inflict(character=jim, actor=narrator, domain="physical", severity=1, source="coup de poing")
    deep = revers_inflict(character=jim, actor=narrator, domain="physical", severity=3, source="balle",
                                   nature="deep")  # fmt: skip
    revers_inflict(character=jim, actor=narrator, domain="social", severity=2, source="ridiculisé")
    assert selectors.revers_penalty(jim, "physical") == 3
    assert selectors.revers_penalty(jim, "social") == 2
    campaign_services.clock_advance(campaign=campaign, actor=narrator, delta=dt.timedelta(days=2))
    assert selectors.revers_penalty(jim, "social") == 0  # one card per game day
    assert selectors.revers_penalty(jim, "physical") == 3  # the deep wound heals by the week
    campaign.refresh_from_db()
    campaign_services.clock_advance(campaign=campaign, actor=narrator, delta=dt.timedelta(days=7))
    deep.refresh_from_db()
    assert deep.severity == 2
    first_aid(revers=deep, actor=narrator, success=True)
    deep.refresh_from_db()
    assert deep.stabilised and deep.severity == 2  # the option to lower the wound is off by default
    rules = selectors.character_rules(campaign)
    character_rules_update(campaign=campaign, actor=narrator, data={"first_aid_lowers_wound": True},
                                    expected_version=rules.version)  # fmt: skip
    first_aid(revers=deep, actor=narrator, success=True)
    deep.refresh_from_db()
    assert deep.severity == 1


def test_an_npc_is_out_after_the_narrators_number_of_revers() -> None:
    campaign, narrator, _players = table()
    thug = npc_create(campaign=campaign, actor=narrator, name="Homme de main", concept="Brute",
                               ranks={"combat": 4}, atouts=1, out_after=1)  # fmt: skip
    revers_inflict(character=thug, actor=narrator, domain="physical", severity=1, source="coup")
    event = Event.objects.filter(kind="character.revers_inflicted").latest("pk")
    assert event.payload["out_of_action"] is True
    assert event.visibility == "narrators"


def test_an_ally_sheet_handed_to_a_player() -> None:
    campaign, narrator, (player, _other) = table()
    ally = npc_create(campaign=campaign, actor=narrator, name="Brutus", concept="Chien fidèle")
    ally_hand(character=ally, actor=narrator, player=player)
    ally.refresh_from_db()
    assert ally.owner == player
    with pytest.raises(ServiceError):
        ally_hand(character=ally, actor=narrator, player=narrator)


def test_psychic_power_spends_potential_and_rest_restores_it() -> None:
    campaign, narrator, (player, _other) = table()
    psy = pc(campaign, player, {"telepathie": 3})
    result = power_use(character=psy, actor=player, domain="telepathie", power_rank=3)
    assert result.potential_left == 2 and result.difficulty == "simple"
    power_use(character=psy, actor=player, domain="telepathie", power_rank=3)
    power_use(character=psy, actor=player, domain="telepathie", power_rank=3)
    with pytest.raises(ServiceError, match="No Potential left"):
        power_use(character=psy, actor=player, domain="telepathie", power_rank=3)
    character_rest(character=psy, actor=player)
    assert CharacterTrait.objects.get(character=psy, code="telepathie").potential_used == 0


def test_combat_equipment_summary() -> None:
    campaign, narrator, (player, _other) = table()
    jim = pc(campaign, player)
    for data in (
        {"category": "weapon", "name": "Épée", "bonus": 1, "era": 0},
        {"category": "weapon", "name": "Dague", "bonus": 0, "era": 0},
        {"category": "armour", "name": "Cotte de mailles", "bonus": 2, "era": 0},
        {"category": "shield", "name": "Écu"},
        {"category": "gear", "name": "Trousse", "bonus": 2},
    ):
        equipment_add(character=jim, actor=player, data=data)
    gear = selectors.combat_equipment(jim)
    assert (gear.weapon_bonus, gear.two_weapons, gear.armour, gear.shield, gear.quality) == (1, True, 2, True, 2)
    with pytest.raises(ServiceError, match="Quality goes from"):
        equipment_add(character=jim, actor=player, data={"category": "gear", "name": "x", "bonus": 3})


@pytest.fixture
def ledger_table():  # type: ignore[no-untyped-def]
    return table(starting_atouts=6)


@settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    steps=st.lists(
        st.tuples(st.sampled_from(["gain", "reroll", "save_your_skin", "monologue", "bad"]), st.integers(1, 3)),
        max_size=8,
    )
)
def test_the_balance_is_start_plus_gains_minus_spends_and_a_refusal_changes_nothing(ledger_table, steps) -> None:  # type: ignore[no-untyped-def]
    campaign, narrator, (player, _other) = ledger_table
    jim = pc(campaign, player, {"esprit": 5, "tir": 3})  # 4 spent, 2 kept: a fresh sheet per example
    start, gains, spends = 2, 0, 0
    for kind, amount in steps:
        before = (jim.atout_balance, AtoutEntry.objects.count(), Event.objects.count())
        try:
            if kind == "gain":
                atout_gain(character=jim, actor=narrator, amount=amount)
                gains += amount
            elif kind == "bad":
                atout_spend(character=jim, actor=player, use="reroll", amount=amount + 1)
            else:
                atout_spend(character=jim, actor=player, use=kind, justification="une histoire")
                spends += 1
        except ServiceError:
            jim.refresh_from_db()
            assert (jim.atout_balance, AtoutEntry.objects.count(), Event.objects.count()) == before
        jim.refresh_from_db()
        assert jim.atout_balance == start + gains - spends == ledger_sum(jim)
        assert jim.atouts_creation >= 0 and jim.atouts_experience >= 0


def test_a_stale_edit_is_refused_as_someone_acted_first() -> None:
    from core.errors import StaleState

    campaign, narrator, (player, _other) = table()
    jim = pc(campaign, player)
    character_update(character=jim, actor=narrator, data={"goal": "Fuir"}, expected_version=jim.version)
    with pytest.raises(StaleState, match="Someone changed this sheet first"):
        character_update(character=jim, actor=player, data={"goal": "Rester"}, expected_version=jim.version)
    jim.refresh_from_db()
    assert jim.goal == "Fuir"


def test_psychic_fatigue_lowers_vigueur_until_rest() -> None:
    campaign, narrator, (player, _other) = table()
    psy = pc(campaign, player, {"telekinesie": 4, "vigueur": 3})
    rules = selectors.character_rules(campaign)
    character_rules_update(campaign=campaign, actor=narrator, data={"psychic_fatigue": True},
                                    expected_version=rules.version)  # fmt: skip
    power_use(character=psy, actor=player, domain="telekinesie", power_rank=2)
    psy.refresh_from_db()
    assert selectors.trait_value(psy, "vigueur") == 2
    campaign.refresh_from_db()
    campaign_services.clock_advance(campaign=campaign, actor=narrator, delta=dt.timedelta(minutes=15))
    psy.refresh_from_db()
    assert selectors.trait_value(psy, "vigueur") == 3  # one rank back per 15 minutes of rest


def _clock(campaign, narrator, **delta: int) -> None:
    campaign.refresh_from_db()
    campaign_services.clock_advance(campaign=campaign, actor=narrator, delta=dt.timedelta(**delta))


def test_potential_comes_back_on_the_game_clock_after_a_night_without_powers() -> None:
    """« Ces "points de pouvoirs" […] sont habituellement récupérés à l'issue d'une bonne nuit de repos »
    (VI): 8 game hours (the campaign's setting) since the last use give every point back, counted across
    clock moves; a use in between starts the night again. One event, public for a PC."""
    campaign, narrator, (player, _other) = table()
    psy = pc(campaign, player, {"telepathie": 3})
    power_use(character=psy, actor=player, domain="telepathie", power_rank=3)
    _clock(campaign, narrator, hours=5)
    power_use(character=psy, actor=player, domain="telepathie", power_rank=3)
    _clock(campaign, narrator, hours=5)
    row = CharacterTrait.objects.get(character=psy, code="telepathie")
    assert row.potential_used == 2 and not Event.objects.filter(kind="character.potential_recovered").exists()
    _clock(campaign, narrator, hours=3)
    row.refresh_from_db()
    assert row.potential_used == 0
    event = Event.objects.get(kind="character.potential_recovered")
    assert event.payload["domains"][0]["code"] == "telepathie" and event.payload["domains"][0]["points"] == 2
    assert event.visibility == "everyone"
    _clock(campaign, narrator, hours=12)  # nothing left to give back: no second event
    assert Event.objects.filter(kind="character.potential_recovered").count() == 1


def test_potential_rest_hours_zero_leaves_it_to_the_rest_button() -> None:
    """« Il arrive toutefois que les temps et conditions de récupération varient grandement d'un cadre de
    jeu à l'autre »: a campaign sets 0 and only the « night's rest » action gives Potentiel back."""
    campaign, narrator, (player, _other) = table()
    rules = selectors.character_rules(campaign)
    character_rules_update(campaign=campaign, actor=narrator, data={"potential_rest_hours": 0},
                                    expected_version=rules.version)  # fmt: skip
    psy = pc(campaign, player, {"telepathie": 3})
    power_use(character=psy, actor=player, domain="telepathie", power_rank=3)
    _clock(campaign, narrator, days=3)
    assert CharacterTrait.objects.get(character=psy, code="telepathie").potential_used == 1
    character_rest(character=psy, actor=player)
    assert CharacterTrait.objects.get(character=psy, code="telepathie").potential_used == 0


def test_vigour_lost_to_psychic_fatigue_counts_rest_across_clock_moves() -> None:
    """« Un rang de Vigueur perdu … se récupère à l'issue d'un repos d'environ 15 minutes »: two moves of
    10 minutes are 20 minutes of rest, one rank back, logged."""
    campaign, narrator, (player, _other) = table()
    psy = pc(campaign, player, {"telekinesie": 4, "vigueur": 3})
    rules = selectors.character_rules(campaign)
    character_rules_update(campaign=campaign, actor=narrator, data={"psychic_fatigue": True},
                                    expected_version=rules.version)  # fmt: skip
    power_use(character=psy, actor=player, domain="telekinesie", power_rank=2)
    power_use(character=psy, actor=player, domain="telekinesie", power_rank=2)
    _clock(campaign, narrator, minutes=10)
    psy.refresh_from_db()
    assert psy.vigour_lost == 2
    _clock(campaign, narrator, minutes=10)
    psy.refresh_from_db()
    assert psy.vigour_lost == 1
    assert Event.objects.get(kind="character.vigour_recovered").payload == {
        "character": psy.name, "character_id": psy.pk, "from": 2, "to": 1,
    }  # fmt: skip


def test_a_character_keeps_the_prices_of_the_mode_it_was_made_under() -> None:
    """Issue 12: a Standard character was charged streamlined costs after the campaign switched modes."""
    campaign, narrator, (player, _other) = table()
    jim = pc(campaign, player)
    standard_cost = raise_cost(jim, "tir")
    campaign_services.campaign_settings_update(
        campaign=campaign, actor=narrator, data={"creation_mode": "streamlined"}, expected_version=campaign.version
    )
    jim = type(jim).objects.get(pk=jim.pk)
    assert jim.creation_mode == "standard"
    assert raise_cost(jim, "tir") == standard_cost
