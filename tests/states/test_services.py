"""Services: state changes go through the rules, lock, check the version and log one Event each."""

from __future__ import annotations

import datetime as dt

import pytest

from campaigns.models import Event
from campaigns.services import campaign_settings_update, clock_advance
from core.errors import ServiceError, StaleState
from states.models import SavageSettings, SavageState
from states.services import clock
from states.services.fatigue import savage_fatigue_action, savage_fatigue_gain
from states.services.revers import savage_revers_to_wounds
from states.services.rolls import savage_trait_roll, savage_trick
from states.services.rounds import savage_round_deal, savage_round_next_turn, savage_round_set_participants
from states.services.shaken import savage_shaken_roll, savage_shaken_set, savage_token_award, savage_token_unshake
from states.services.sheet import savage_settings_update, savage_sheet_update
from states.services.situations import parry_of, savage_situation_toggle, savage_total_defence
from states.services.wounds import (
    savage_bleeding_roll,
    savage_bleeding_set,
    savage_incapacitation_roll,
    savage_wounds_set,
    savage_wounds_take,
)
from tests.states.dice import ScriptedDice


def state_of(character) -> SavageState:
    return SavageState.objects.get(character=character)


def kinds(campaign) -> list[str]:
    return list(
        Event.objects.filter(campaign=campaign, kind__startswith="savage.")
        .order_by("pk")
        .values_list("kind", flat=True)
    )


def sheet(table, character, vigor="d6", spirit="d6"):
    return savage_sheet_update(
        character=character,
        actor=table.narrator,
        data={"vigor_die": vigor, "spirit_die": spirit, "base_pace": 6, "base_parry": 5},
        expected_version=None,
    )


def test_a_fourth_wound_puts_an_npc_in_etat_critique_and_the_roll_is_logged(table):
    sheet(table, table.npc)
    savage_wounds_set(character=table.npc, actor=table.narrator, count=3, expected_version=None)
    state = savage_wounds_take(character=table.npc, actor=table.narrator, count=1, expected_version=None)
    assert state.wounds == 4 and state.incapacitated and state.incapacitation_roll_due
    # NPCs are extras by default: one die. d6 shows 6 then 5 → 11 − 3 = 8: a raise.
    state = savage_incapacitation_roll(
        character=table.npc, actor=table.narrator, expected_version=state.version, rng=ScriptedDice(6, 5)
    )
    assert state.injury == "24h" and not state.incapacitation_roll_due
    assert state.injury_until == table.campaign.game_clock + dt.timedelta(hours=24)
    event = Event.objects.filter(kind="savage.incapacitation_roll").get()
    assert event.payload["roll"]["trait_faces"] == [6, 5]
    assert event.payload["roll"]["modifiers"] == [{"key": "wounds", "value": -3}]
    assert event.payload["result"] == "wounded_24_hours"
    assert list(event.characters.all()) == [table.npc]


def test_every_service_logs_exactly_one_event(table):
    sheet(table, table.pc)
    before = Event.objects.count()
    savage_shaken_set(character=table.pc, actor=table.alice, shaken=True, expected_version=None)
    savage_shaken_roll(character=table.pc, actor=table.alice, expected_version=None, rng=ScriptedDice(2, 3))
    savage_token_award(character=table.pc, actor=table.narrator, count=2, expected_version=None)
    savage_token_unshake(character=table.pc, actor=table.alice, expected_version=None)
    assert Event.objects.count() == before + 4
    assert kinds(table.campaign)[-4:] == [
        "savage.shaken_set",
        "savage.shaken_roll",
        "savage.token_awarded",
        "savage.token_spent",
    ]
    state = state_of(table.pc)
    assert not state.shaken and state.tokens == 1


def test_a_stale_version_is_refused_and_nothing_changes(table):
    state = sheet(table, table.pc)
    savage_shaken_set(character=table.pc, actor=table.alice, shaken=True, expected_version=state.version)
    with pytest.raises(StaleState):
        savage_wounds_set(character=table.pc, actor=table.alice, count=2, expected_version=state.version)
    assert state_of(table.pc).wounds == 0


def test_a_fifth_wound_is_refused_with_the_reason_and_nothing_is_logged(table):
    savage_wounds_set(character=table.npc, actor=table.narrator, count=4, expected_version=None)
    count = Event.objects.count()
    with pytest.raises(ServiceError, match="there is no fifth wound"):
        savage_wounds_take(character=table.npc, actor=table.narrator, count=1, expected_version=None)
    with pytest.raises(ServiceError, match="no fifth wound"):
        savage_wounds_set(character=table.npc, actor=table.narrator, count=5, expected_version=None)
    assert Event.objects.count() == count and state_of(table.npc).wounds == 4


def test_soaking_without_a_jeton_is_refused_and_nothing_changes(table):
    sheet(table, table.pc)
    with pytest.raises(ServiceError, match="No token left to spend"):
        savage_wounds_take(character=table.pc, actor=table.alice, count=2, soak=True, expected_version=None)
    assert state_of(table.pc).wounds == 0


def test_soak_spends_a_jeton_and_rolls_vigor_with_the_wound_penalty(table):
    sheet(table, table.pc, vigor="d8")
    savage_token_award(character=table.pc, actor=table.narrator, count=1, expected_version=None)
    savage_wounds_set(character=table.pc, actor=table.narrator, count=1, expected_version=None)
    # d8 8+1 = 9, wild 2; −1 wound = 8: one raise, so two wounds fewer.
    state = savage_wounds_take(
        character=table.pc, actor=table.narrator, count=2, soak=True, expected_version=None, rng=ScriptedDice(8, 1, 2)
    )
    assert state.wounds == 1 and state.tokens == 0
    event = Event.objects.filter(kind="savage.wounds_taken").latest("pk")
    assert event.payload["soaked"] == 2 and event.payload["soak_roll"]["total"] == 8


def test_acting_in_etat_critique_is_refused(table):
    savage_wounds_set(character=table.npc, actor=table.narrator, count=4, expected_version=None)
    with pytest.raises(ServiceError, match="incapacitated character cannot act"):
        savage_trait_roll(character=table.npc, actor=table.narrator, trait="agility", expected_version=None)


def test_the_roll_dialog_applies_wounds_fatigue_and_situations(table):
    sheet(table, table.pc)
    sheet(table, table.npc)
    savage_wounds_set(character=table.pc, actor=table.alice, count=1, expected_version=None)
    savage_fatigue_gain(character=table.pc, actor=table.alice, source="cold", expected_version=None)
    savage_situation_toggle(character=table.pc, actor=table.alice, situation="aim", expected_version=None)
    savage_situation_toggle(character=table.npc, actor=table.narrator, situation="cover_medium", expected_version=None)
    roll = savage_trait_roll(
        character=table.pc,
        actor=table.alice,
        trait="other",
        die="d8",
        attack="ranged",
        target=table.npc,
        distance=6,
        expected_version=None,
        rng=ScriptedDice(7, 3),
    )
    keys = {m.key: m.value for m in roll.modifiers}
    assert keys == {"wounds": -1, "fatigue": -1, "cover_medium": -2, "aim": 2}
    assert roll.total == 5
    assert "aim" not in state_of(table.pc).situations  # spent by the shot


def test_bleeding_out_roll_each_round_and_non_lethal_unconsciousness(table):
    sheet(table, table.npc)
    savage_wounds_take(character=table.npc, actor=table.narrator, count=4, lethal=False, expected_version=None)
    # The NPC is an extra (one die): 5 − 3 = 2 is a failure above 1: permanent injury and Hémorragie.
    state = savage_incapacitation_roll(
        character=table.npc, actor=table.narrator, expected_version=None, rng=ScriptedDice(5)
    )
    assert state.bleeding_out and state.injury == "permanent"
    state = savage_bleeding_roll(
        character=table.npc, actor=table.narrator, expected_version=None, rng=ScriptedDice(3, 4)
    )
    assert state.unconscious and not state.dead and not state.bleeding_out
    assert state.unconscious_until == table.campaign.game_clock + dt.timedelta(hours=4)


def test_fatigue_recovers_on_the_game_clock(table):
    sheet(table, table.pc)
    savage_fatigue_gain(character=table.pc, actor=table.alice, source="hunger", expected_version=None)
    savage_fatigue_action(character=table.pc, actor=table.alice, action="food", expected_version=None)
    clock_advance(campaign=table.campaign, actor=table.narrator, delta=dt.timedelta(hours=1))
    state = state_of(table.pc)
    assert not state.fatigue_tracks.filter(levels__gt=0).exists()
    event = Event.objects.filter(kind="savage.time_passed").get()
    assert event.payload["recovered"] == {"hunger": 1}


def test_the_24_hour_injury_heals_with_the_clock(table):
    sheet(table, table.npc)
    savage_wounds_set(character=table.npc, actor=table.narrator, count=4, expected_version=None)
    savage_incapacitation_roll(character=table.npc, actor=table.narrator, expected_version=None, rng=ScriptedDice(6, 5))
    clock_advance(campaign=table.campaign, actor=table.narrator, delta=dt.timedelta(hours=24))
    assert state_of(table.npc).injury == ""


def test_trick_raise_shakes_and_distracts_the_target(table):
    sheet(table, table.pc)
    sheet(table, table.npc)
    savage_sheet_update(
        character=table.pc,
        actor=table.alice,
        data={"smarts_die": "d8", "base_pace": 6, "base_parry": 5},
        expected_version=None,
    )
    # Jim (Wild Card): d8 aces 8+2 = 10, Wild Die 1. The NPC (an extra) has no Smarts die: d4 shows 2.
    target = savage_trick(
        character=table.pc,
        target=table.npc,
        actor=table.alice,
        attribute="smarts",
        expected_version=None,
        rng=ScriptedDice(8, 2, 1, 2),
    )
    assert target.tricked and target.shaken
    event = Event.objects.filter(kind="savage.trick").get()
    assert event.payload["result"] == "distracted_and_shaken"


def test_everything_is_refused_when_the_campaign_turns_savage_states_off(table):
    campaign_settings_update(
        campaign=table.campaign,
        actor=table.narrator,
        data={"savage_states": False},
        expected_version=table.campaign.version,
    )
    table.pc.campaign.refresh_from_db()
    with pytest.raises(ServiceError, match="turned off"):
        savage_shaken_set(character=table.pc, actor=table.alice, shaken=True, expected_version=None)


@pytest.mark.parametrize(("severity", "wounds", "critical"), [(1, 1, False), (2, 2, False), (3, 4, True)])
def test_revers_become_wounds_decisive_brings_etat_critique(table, severity, wounds, critical):
    SavageSettings.objects.update_or_create(campaign=table.campaign, defaults={"revers_to_wounds": True})
    state = savage_revers_to_wounds(character=table.pc, severity=severity, actor=table.narrator)
    assert state is not None and state.wounds == wounds and state.incapacitation_roll_due is critical
    assert Event.objects.filter(kind="savage.revers_wounds").count() == 1


def test_revers_stay_revers_when_the_option_is_off(table):
    settings, _ = SavageSettings.objects.get_or_create(campaign=table.campaign)
    savage_settings_update(
        campaign=table.campaign,
        actor=table.narrator,
        revers_to_wounds=False,
        rank_dice={},
        expected_version=settings.version,
    )
    assert savage_revers_to_wounds(character=table.pc, severity=2, actor=table.narrator) is None
    assert not SavageState.objects.filter(character=table.pc, wounds__gt=0).exists()


def test_social_revers_never_become_wounds(table):
    assert savage_revers_to_wounds(character=table.pc, severity=3, actor=table.narrator, domain="social") is None
    assert not SavageState.objects.filter(character=table.pc).exists()


def test_dice_derive_from_ranks_through_the_campaign_mapping(table):
    from states.selectors import register_rank_lookup, trait_die

    state = sheet(table, table.pc, vigor="", spirit="d10")
    assert str(trait_die(state, "vigor")) == "d4"  # Faible by default
    from states.selectors import settings_for

    settings = settings_for(table.campaign)
    savage_settings_update(
        campaign=table.campaign,
        actor=table.narrator,
        revers_to_wounds=True,
        rank_dice={"2": "d6"},
        expected_version=settings.version,
    )
    assert str(trait_die(state, "vigor")) == "d6"
    lookup = register_rank_lookup(lambda character, names: 8 if "vigueur" in names else None)
    try:
        assert str(trait_die(state, "vigor")) == "d12+2"
        assert str(trait_die(state, "spirit")) == "d10"  # entered on the sheet
    finally:
        from states import selectors as savage_selectors

        savage_selectors._rank_lookup.remove(lookup)


def test_round_tracker_deals_no_card_in_etat_critique_and_prompts_start_of_round_rolls(table):
    import random

    from states.views import round_context
    from tests.campaigns.factories import membership

    sheet(table, table.pc)
    sheet(table, table.npc)
    savage_wounds_set(character=table.npc, actor=table.narrator, count=4, expected_version=None)
    savage_bleeding_set(character=table.npc, actor=table.narrator, bleeding=True, expected_version=None)
    savage_shaken_set(character=table.pc, actor=table.alice, shaken=True, expected_version=None)
    savage_round_set_participants(
        campaign=table.campaign, actor=table.narrator, characters=[table.pc, table.npc], expected_version=None
    )
    tracker = savage_round_deal(
        campaign=table.campaign, actor=table.narrator, expected_version=None, rng=random.Random(2)
    )
    assert set(tracker.cards) == {str(table.pc.pk)} and tracker.order == [table.pc.pk]
    event = Event.objects.filter(kind="savage.round_dealt").get()
    assert event.payload["without_card"] == ["Le Borgne"]
    rows = {
        r["character"].pk: r for r in round_context(table.campaign, membership(table.campaign, table.narrator))["rows"]
    }
    assert rows[table.pc.pk]["prompts"] == ["shaken"]
    assert "bleeding" in rows[table.npc.pk]["prompts"]
    savage_round_next_turn(campaign=table.campaign, actor=table.narrator, expected_version=None)
    with pytest.raises(ServiceError):
        savage_round_next_turn(campaign=table.campaign, actor=table.narrator, expected_version=None)


def test_a_shaken_success_still_means_free_actions_only_until_the_next_turn(table):
    import random

    sheet(table, table.pc)
    savage_shaken_set(character=table.pc, actor=table.alice, shaken=True, expected_version=None)
    state = savage_shaken_roll(character=table.pc, actor=table.alice, expected_version=None, rng=ScriptedDice(4, 2))
    assert not state.shaken and state.free_actions_only
    savage_round_set_participants(
        campaign=table.campaign, actor=table.narrator, characters=[table.pc], expected_version=None
    )
    savage_round_deal(campaign=table.campaign, actor=table.narrator, expected_version=None, rng=random.Random(1))
    assert not state_of(table.pc).free_actions_only


def test_a_jeton_after_the_roll_lets_the_character_act_normally(table):
    sheet(table, table.pc)
    savage_token_award(character=table.pc, actor=table.narrator, count=1, expected_version=None)
    savage_shaken_set(character=table.pc, actor=table.alice, shaken=True, expected_version=None)
    savage_shaken_roll(character=table.pc, actor=table.alice, expected_version=None, rng=ScriptedDice(2, 2))
    state = savage_token_unshake(character=table.pc, actor=table.alice, expected_version=None)
    assert not state.shaken and not state.free_actions_only and state.tokens == 0


def test_defend_trick_and_total_defence_last_until_the_characters_next_action(table):
    import random

    sheet(table, table.pc)
    sheet(table, table.npc)
    savage_situation_toggle(character=table.npc, actor=table.narrator, situation="defend", expected_version=None)
    savage_trick(
        character=table.pc,
        target=table.npc,
        actor=table.alice,
        attribute="agility",
        expected_version=None,
        rng=ScriptedDice(3, 5, 2),
    )
    assert state_of(table.npc).tricked
    savage_round_set_participants(
        campaign=table.campaign, actor=table.narrator, characters=[table.pc, table.npc], expected_version=None
    )
    tracker = savage_round_deal(
        campaign=table.campaign, actor=table.narrator, expected_version=None, rng=random.Random(5)
    )
    if tracker.order[0] != table.npc.pk:
        savage_round_next_turn(campaign=table.campaign, actor=table.narrator, expected_version=None)
    npc = state_of(table.npc)
    assert not npc.tricked and "defend" not in npc.situations
    last = Event.objects.filter(kind__in=["savage.round_dealt", "savage.round_turn"]).latest("pk")
    assert set(last.payload["ended"]) == {"defend", "trick"}


def test_a_melee_attack_must_reach_the_targets_parry_with_its_situations(table):
    sheet(table, table.pc)
    sheet(table, table.npc)  # Parade 5
    savage_situation_toggle(character=table.npc, actor=table.narrator, situation="defend", expected_version=None)
    roll = savage_trait_roll(
        character=table.pc,
        actor=table.alice,
        trait="other",
        die="d8",
        attack="melee",
        target=table.npc,
        expected_version=None,
        rng=ScriptedDice(6, 3),
    )
    assert roll.target == 7 and roll.outcome.value == "failure"
    event = Event.objects.filter(kind="savage.roll").latest("pk")
    assert event.payload["parry"] == {"base": 5, "value": 7, "modifiers": [{"key": "defend", "value": 2}]}


def test_total_defence_replaces_parry_when_higher(table):
    sheet(table, table.npc)  # Parade 5
    roll = savage_total_defence(
        character=table.npc, actor=table.narrator, die="d8", expected_version=None, rng=ScriptedDice(7)
    )
    assert roll.total == 9
    state = state_of(table.npc)
    assert state.total_defence_total == 9 and parry_of(state).value == 9
    savage_situation_toggle(character=table.npc, actor=table.narrator, situation="total_defence", expected_version=None)
    assert state_of(table.npc).total_defence_total is None


def test_dice_derive_from_the_sheets_vigueur_and_presence_ranks(table):
    from characters.models import CharacterTrait
    from states.selectors import trait_die

    state = sheet(table, table.pc, vigor="", spirit="")
    CharacterTrait.objects.update_or_create(
        character=table.pc,
        code="vigueur",
        defaults={"kind": "aptitude", "name_fr": "Vigueur", "name_en": "Vigour", "rank": 5},
    )
    CharacterTrait.objects.update_or_create(
        character=table.pc,
        code="presence",
        defaults={"kind": "aptitude", "name_fr": "Présence", "name_en": "Presence", "rank": 1},
    )
    state.character.refresh_from_db()
    assert str(trait_die(state, "vigor")) == "d10"  # Bon
    assert str(trait_die(state, "spirit")) == "d4-2"  # Lamentable


def test_cold_in_etat_critique_rolls_vigor_every_hour_on_the_clock_and_a_failure_kills(table, monkeypatch):
    sheet(table, table.pc)
    for _ in range(3):
        savage_fatigue_gain(character=table.pc, actor=table.narrator, source="cold", expected_version=None)
    # First hour: d6 5 (−2 fatigue = 3) and Wild Die 6+1 (= 5): success. Second hour: 2 and 3: failure.
    monkeypatch.setattr(clock, "clock_rng", lambda: ScriptedDice(5, 6, 1, 2, 3))
    clock_advance(campaign=table.campaign, actor=table.narrator, delta=dt.timedelta(hours=2))
    state = state_of(table.pc)
    assert state.dead
    event = Event.objects.filter(kind="savage.time_passed").get()
    assert [r["total"] for r in event.payload["vigor_rolls"]] == [5, 1]
    assert event.payload["died_of"] == "cold"


def test_a_third_level_of_fatigue_knocks_out_until_it_is_gone(table):
    sheet(table, table.pc)
    for _ in range(3):
        state = savage_fatigue_gain(character=table.pc, actor=table.narrator, source="thirst", expected_version=None)
    assert state.unconscious
    with pytest.raises(ServiceError, match="unconscious character cannot act"):
        savage_trait_roll(character=table.pc, actor=table.alice, trait="vigor", expected_version=None)
    savage_fatigue_action(character=table.pc, actor=table.alice, action="water", expected_version=None)
    clock_advance(campaign=table.campaign, actor=table.narrator, delta=dt.timedelta(hours=1))
    state = state_of(table.pc)
    assert not state.unconscious and not state.dead
    assert Event.objects.filter(kind="savage.time_passed").get().payload["woke_up"]


def test_initiative_cards_read_as_cards_on_the_tracker_and_in_the_log(table):
    """« Kc » is shown as « K♣ » (« R♣ » in French), jokers as « Joker », never as their codes."""
    import random

    from campaigns.chronicle import describe
    from characters.labels import initiative_card_face
    from states.views import round_context
    from tests.campaigns.factories import membership

    assert [initiative_card_face(c) for c in ("Kc", "10h", "As", "BJ")] == ["K♣", "10♥", "A♠", "Joker"]
    sheet(table, table.pc)
    savage_round_set_participants(
        campaign=table.campaign, actor=table.narrator, characters=[table.pc], expected_version=None
    )
    tracker = savage_round_deal(
        campaign=table.campaign, actor=table.narrator, expected_version=None, rng=random.Random(2)
    )
    face = initiative_card_face(tracker.cards[str(table.pc.pk)])
    rows = round_context(table.campaign, membership(table.campaign, table.narrator))["rows"]
    assert rows[0]["card"] == face
    assert face in describe(Event.objects.filter(kind="savage.round_dealt").get())
