"""Atouts during a draw, Tests through the service, chases, collective cover, range, live fragments."""

from __future__ import annotations

import random

import pytest

from campaigns.live import Viewer, extra_fragments, sequence_subject
from campaigns.models import Event
from characters.models import Character, Revers
from conflicts.models import Deck, Era, Participant, Phase
from conflicts.rules.budget import Split
from conflicts.rules.cards import Card, SuccessRule
from conflicts.services.atouts import participant_atout
from conflicts.services.drawing import participant_declare_split, participant_draw
from conflicts.services.fudge_tests import fudge_test_roll, fudge_test_setup, simple_conflict_roll
from conflicts.services.sequences import participant_add, participant_update
from conflicts.services.settling import sequence_settle
from conflicts.services.table import table_settings_update
from core.errors import ServiceError
from tests.campaigns.factories import membership
from tests.characters.factories import open_session
from tests.conflicts.factories import draw, fight, npc

pytestmark = pytest.mark.django_db


def test_an_atout_buys_one_more_card_once_per_draw() -> None:
    f = fight(npcs=1)
    open_session(f.campaign, f.narrator)
    participant_atout(participant=f.pc, actor=f.player, use="card", expected_version=None)
    with pytest.raises(ServiceError, match="Only one Atout"):
        participant_atout(participant=f.pc, actor=f.player, use="card", expected_version=None)
    with pytest.raises(ServiceError, match="only have 6"):
        draw(f.pc, f.player, Split(attack={f.npcs[0].key: 7}))
    draw(f.pc, f.player, Split(attack={f.npcs[0].key: 6}))
    # One Atout spend, one log line (issue 28: « One Atout spend writes two log lines »): the draw's Event
    # carries the ledger line, and the sheet has paid it.
    assert not Event.objects.filter(kind="character.atout_spent").exists()
    spent = Event.objects.get(kind="sequence.atout")
    assert spent.payload["atout"]["character_id"] == f.pc.character_id
    assert spent.payload["atout"]["amount"] == 1


def test_changing_one_card_flips_its_result_and_the_draw_is_resolved_again() -> None:
    f = fight(npcs=1)
    open_session(f.campaign, f.narrator)
    t = f.npcs[0]
    draw(f.pc, f.player, Split(attack={t.key: 5}), seed=3)
    draw(t, f.narrator, Split(defence={t.key: 3}), seed=4)
    f.reload()
    before = f.sequence.outcome["targets"][t.key]["attacks"][f.pc.key]
    first = Card.parse(f.pc.hand["attack"][t.key][0]).is_success(SuccessRule.EVEN)
    participant_atout(
        participant=f.pc, actor=f.player, use="change", card=f"attack:{t.key}:0", expected_version=f.sequence.version,
        direction="failure" if first else "success",
    )  # fmt: skip
    f.reload()
    after = f.sequence.outcome["targets"][t.key]["attacks"][f.pc.key]
    assert after - before == (-1 if first else 1)
    assert f.pc.hand["flipped"] == [f"attack:{t.key}:0"]


def test_a_redraw_puts_new_cards_on_the_table_and_keeps_the_deck_whole() -> None:
    f = fight(npcs=1)
    open_session(f.campaign, f.narrator)
    t = f.npcs[0]
    draw(f.pc, f.player, Split(attack={t.key: 5}), seed=3)
    draw(t, f.narrator, Split(defence={t.key: 3}), seed=4)
    old = Participant.objects.get(pk=f.pc.pk).hand
    participant_atout(participant=f.pc, actor=f.player, use="redraw", expected_version=None, rng=random.Random(8))
    new = Participant.objects.get(pk=f.pc.pk).hand
    assert len(new["attack"][t.key]) == 5 and new != old
    from conflicts.models import Deck

    deck = Deck.objects.get(campaign=f.campaign)
    assert len(deck.pile) + len(deck.in_play) + len(deck.discard) == 40 and len(deck.in_play) == 8


def test_taking_a_teammates_revers_writes_it_on_your_own_sheet() -> None:
    f = fight(npcs=1, collective=True)
    open_session(f.campaign, f.narrator)
    buddy = npc(f.campaign, f.narrator, "Allié")
    ally = participant_add(sequence=f.sequence, actor=f.narrator, character=buddy, side="PJ", trait_code="combat")
    t = f.npcs[0]
    for seed in range(60):
        f.reload()
        draw(f.pc, f.player, Split(defence={f.pc.key: 5}), seed=seed)
        draw(ally, f.narrator, Split(defence={ally.key: 3}), seed=seed + 1)
        draw(t, f.narrator, Split(attack={ally.key: 3}), seed=seed + 2)
        f.reload()
        got = f.sequence.outcome["targets"].get(ally.key, {}).get("severity", 0)
        if got:
            break
        sequence_settle(sequence=f.sequence, actor=f.narrator, expected_version=None)
    participant_atout(participant=f.pc, actor=f.player, use="take_revers", target=ally, expected_version=None)
    sequence_settle(sequence=f.sequence, actor=f.narrator, expected_version=None)
    assert list(Revers.objects.filter(character=f.hero).values_list("severity", flat=True)) == [got]
    assert not Revers.objects.filter(character=buddy).exists()


def test_collective_cover_needs_a_reason_and_protects_the_teammate() -> None:
    f = fight(npcs=1, collective=True)
    buddy = npc(f.campaign, f.narrator, "Allié")
    ally = participant_add(sequence=f.sequence, actor=f.narrator, character=buddy, side="PJ", trait_code="combat")
    with pytest.raises(ServiceError, match="needs a reason"):
        draw(f.pc, f.player, Split(attack={f.npcs[0].key: 2}, defence={ally.key: 3}))
    f.reload()
    participant_draw(participant=f.pc, actor=f.player, expected_version=None,
                              split=Split(attack={f.npcs[0].key: 2}, defence={ally.key: 3}),
                              reasons={ally.key: "tir de couverture"}, rng=random.Random(1))  # fmt: skip
    assert Participant.objects.get(pk=f.pc.pk).split["reasons"] == {ally.key: "tir de couverture"}


def test_out_of_range_participants_may_only_defend() -> None:
    f = fight(npcs=1)
    participant_update(
        participant=f.pc, actor=f.narrator, data={"out_of_range_bands": 2}, expected_version=f.sequence.version
    )
    with pytest.raises(ServiceError, match="Out of range"):
        draw(f.pc, f.player, Split(attack={f.npcs[0].key: 5}))
    draw(f.pc, f.player, Split(defence={f.pc.key: 5}))


def test_a_chase_keeps_its_revers_off_the_sheets() -> None:
    f = fight(npcs=1, kind="chase")
    t = f.npcs[0]
    draw(f.pc, f.player, Split(attack={t.key: 5}), seed=1)
    draw(t, f.narrator, Split(attack={f.pc.key: 3}), seed=2)
    sequence_settle(sequence=f.sequence, actor=f.narrator, expected_version=None)
    assert not Revers.objects.exists()
    settled = Event.objects.get(kind="sequence.settled")
    assert settled.payload["written"] is False


def _set_vehicle(f, p: Participant, era: int) -> None:
    f.sequence.refresh_from_db()
    participant_update(participant=p, actor=f.narrator, data={"vehicle_era": era}, expected_version=f.sequence.version)


def test_a_modern_vehicle_outdistances_a_steam_one_without_a_draw() -> None:
    """« Les véhicules modernes distancent automatiquement les véhicules de l'ère de la vapeur ou
    antérieurs » (VII): the chase ends at the next draw, the modern side reaches its goal, no card is dealt
    and cards already drawn go back to the discard."""
    f = fight(npcs=1, kind="chase")
    t = f.npcs[0]
    _set_vehicle(f, t, Era.STEAM)
    assert draw(t, f.narrator, Split(attack={f.pc.key: 3}), seed=2).drawn  # the PC's vehicle is not known yet
    _set_vehicle(f, f.pc, Era.MODERN)
    me = draw(f.pc, f.player, Split(attack={t.key: 5}), seed=1)
    f.reload()
    assert f.sequence.phase == Phase.ENDED and f.sequence.winner == "PJ" and f.sequence.ended_how == "outdistanced"
    assert not me.drawn and not f.npcs[0].drawn and f.npcs[0].hand == {}
    event = Event.objects.get(kind="sequence.outdistanced")
    assert event.payload["sequence_winner"] == "PJ"
    from conflicts import selectors
    from tests.campaigns.factories import membership as member

    assert any("outdistance" in line for line in selectors.sequence_story(f.sequence, member(f.campaign, f.player)))
    assert not Event.objects.filter(kind="sequence.resolved").exists()
    deck = Deck.objects.get(campaign=f.campaign)
    assert len(deck.pile) + len(deck.discard) == 40 and deck.in_play == []
    with pytest.raises(ServiceError, match="over"):
        draw(t, f.narrator, Split(attack={f.pc.key: 3}))


def test_vehicles_of_one_era_or_unknown_eras_leave_the_chase_to_the_cards() -> None:
    """Same era (« modernes » against modern) or a vehicle without an era: no automatic outcome."""
    f = fight(npcs=1, kind="chase")
    t = f.npcs[0]
    _set_vehicle(f, f.pc, Era.FUTURE)
    me = draw(f.pc, f.player, Split(attack={t.key: 5}), seed=1)
    assert me.drawn
    f = fight(npcs=1, kind="chase")
    _set_vehicle(f, f.pc, Era.MODERN)
    _set_vehicle(f, f.npcs[0], Era.MODERN)
    assert draw(f.pc, f.player, Split(attack={f.npcs[0].key: 5}), seed=1).drawn


def test_a_future_vehicle_fleeing_escapes_a_modern_one_but_a_standard_conflict_ignores_eras() -> None:
    """« Les véhicules du futur distancent automatiquement les véhicules de l'ère moderne ou antérieurs »,
    whichever side flees; the rule belongs to chases only."""
    f = fight(npcs=1, kind="chase")
    _set_vehicle(f, f.pc, Era.MODERN)
    _set_vehicle(f, f.npcs[0], Era.FUTURE)
    draw(f.npcs[0], f.narrator, Split(attack={f.pc.key: 3}), seed=2)
    assert f.reload().sequence.winner == "Truands"
    f = fight(npcs=1)
    _set_vehicle(f, f.pc, Era.MODERN)
    _set_vehicle(f, f.npcs[0], Era.FUTURE)
    assert draw(f.npcs[0], f.narrator, Split(attack={f.pc.key: 3}), seed=2).drawn


def test_a_modern_vehicles_weapons_ignore_a_steam_vehicles_robustness_in_a_demolition() -> None:
    """« Les armes des véhicules modernes ignorent la Robustesse des véhicules de l'ère de la vapeur ou
    antérieurs » (VII): the steam vehicle's Robustesse cards do not count; against a steam vehicle they do."""
    f = fight(npcs=1, kind="demolition")
    t = f.npcs[0]
    participant_update(participant=f.pc, actor=f.narrator, expected_version=f.sequence.version,
                                data={"vehicle": 4, "vehicle_era": Era.STEAM})  # fmt: skip
    _set_vehicle(f, t, Era.MODERN)
    with pytest.raises(ServiceError, match="only have 5"):
        draw(f.pc, f.player, Split(attack={t.key: 9}))
    _set_vehicle(f, t, Era.STEAM)
    assert draw(f.pc, f.player, Split(attack={t.key: 9})).drawn


def test_a_failed_hazardous_test_writes_its_revers() -> None:
    f = fight(npcs=1)
    payload = fudge_test_roll(
        character=f.hero, actor=f.player, rng=random.Random(2),
        data={"trait_code": "esprit", "difficulty": 8, "hazard_per_rank": True, "revers_domain": "physical"},
    )  # fmt: skip
    assert not payload["success"] and payload["revers"] >= 2
    assert list(Revers.objects.filter(character=f.hero).values_list("severity", flat=True)) == [payload["revers"]]
    assert Event.objects.filter(kind="test.rolled").get().payload["dice"] == payload["dice"]


def test_players_roll_tests_only_for_their_own_characters() -> None:
    f = fight(npcs=1)
    with pytest.raises(ServiceError):
        fudge_test_roll(character=f.thugs[0], actor=f.player, data={"trait_code": "combat", "difficulty": 4})


def test_live_board_for_a_player_hides_npc_values_and_splits() -> None:
    f = fight(npcs=1)
    t = f.npcs[0]
    participant_update(participant=t, actor=f.narrator, data={"trait_value": 7}, expected_version=f.sequence.version)
    participant_declare_split(participant=t, actor=f.narrator, split=Split(attack={f.pc.key: 4}, defence={t.key: 3}))
    event = Event.objects.filter(kind="sequence.split").latest("pk")
    page = frozenset({sequence_subject(f.sequence.pk)})  # the Sequence page names what it shows
    seen_by_player = "".join(extra_fragments(event, Viewer(membership(f.campaign, f.player), page)))
    seen_by_narrator = "".join(extra_fragments(event, Viewer(membership(f.campaign, f.narrator), page)))
    assert (
        f'id="participant-{t.pk}" hx-swap-oob="outerHTML"' in seen_by_player
    )  # the thug's row, as the player reads it
    assert "(Exceptionnel, 7)" not in seen_by_player and "Split" not in seen_by_player
    assert "7)" in seen_by_narrator


def test_the_sequence_ends_when_one_side_has_nobody_standing() -> None:
    f = fight(npcs=1, out_after=1)
    t = f.npcs[0]
    for seed in range(60):
        f.reload()
        if f.sequence.phase == Phase.ENDED:
            break
        draw(f.pc, f.player, Split(attack={t.key: 5}), seed=seed)
        draw(t, f.narrator, Split(defence={t.key: 3}), seed=seed + 100)
        sequence_settle(sequence=f.sequence, actor=f.narrator, expected_version=None)
    assert (
        "wins" in Event.objects.filter(kind="sequence.settled").latest("pk").payload.get("sequence_winner", "") + "wins"
    )
    f.reload()
    with pytest.raises(ServiceError, match="over"):
        draw(f.pc, f.player, Split(attack={t.key: 5}))


def test_firearms_ignore_medieval_armour_and_future_armour_doubles_against_modern_guns() -> None:
    from conflicts.selectors import sequence_board

    f = fight(npcs=1)
    t = f.npcs[0]
    v = f.sequence.version
    participant_update(participant=f.pc, actor=f.narrator, expected_version=v,
                                data={"armour": 2, "armour_era": 0, "armour_bulletproof": False})  # fmt: skip
    f.reload()
    participant_update(participant=t, actor=f.narrator, expected_version=f.sequence.version,
                                data={"weapon_era": 2, "weapon_firearm": True})  # fmt: skip
    f.reload()
    board = sequence_board(f.sequence, membership(f.campaign, f.narrator))
    jim = next(view for view in board.views if view.participant.pk == f.pc.pk)
    assert jim.budget is not None and jim.budget.total == 5  # the mail shirt adds nothing against a pistol
    participant_update(participant=f.pc, actor=f.narrator, expected_version=f.sequence.version,
                                data={"armour_era": 3, "armour_bulletproof": True})  # fmt: skip
    f.reload()
    board = sequence_board(f.sequence, membership(f.campaign, f.narrator))
    jim = next(view for view in board.views if view.participant.pk == f.pc.pk)
    assert jim.budget is not None and jim.budget.total == 7
    draw(f.pc, f.player, Split(attack={t.key: 5}, defence={f.pc.key: 2}), seed=5)
    draw(t, f.narrator, Split(attack={f.pc.key: 3}), seed=6)
    f.reload()
    assert f.sequence.outcome["targets"][f.pc.key]["weight"] == 2


def test_method_one_pairs_per_player_deal_attack_and_defence_from_separate_decks() -> None:
    from conflicts.models import Deck, TableSettings

    f = fight(npcs=1)
    settings = TableSettings.objects.get_or_create(campaign=f.campaign)[0]
    table_settings_update(campaign=f.campaign, actor=f.narrator, expected_version=settings.version,
                                   data={"layout": "pairs_per_player"})  # fmt: skip
    f.campaign.refresh_from_db()
    t = f.npcs[0]
    draw(f.pc, f.player, Split(attack={t.key: 3}, defence={f.pc.key: 2}))
    draw(t, f.narrator, Split(attack={f.pc.key: 2}, defence={t.key: 1}))
    hand = Participant.objects.get(pk=f.pc.pk).hand
    assert all(code[-1] in "HD" for code in hand["attack"][t.key])  # red numbers: the attack deck
    assert all(code[-1] in "CS" for code in hand["defence"][f.pc.key])
    decks = {(d.kind, d.holder, d.player_id): d for d in Deck.objects.filter(campaign=f.campaign)}
    assert set(decks) == {("attack", "player", f.player.pk), ("defence", "player", f.player.pk),
                          ("attack", "narrator", None), ("defence", "narrator", None)}  # fmt: skip
    assert all(len(d.pile) + len(d.in_play) + len(d.discard) == 20 for d in decks.values())


def test_method_two_needs_the_table_deck() -> None:
    from conflicts.models import TableSettings

    f = fight(npcs=1)
    settings = TableSettings.objects.get_or_create(campaign=f.campaign)[0]
    with pytest.raises(ServiceError, match="Method 2"):
        table_settings_update(campaign=f.campaign, actor=f.narrator, expected_version=settings.version,
                                       data={"success_rule": "red", "layout": "pairs_shared"})  # fmt: skip
    table_settings_update(campaign=f.campaign, actor=f.narrator, expected_version=settings.version,
                                   data={"success_rule": "red"})  # fmt: skip
    assert TableSettings.objects.get(campaign=f.campaign).success_rule == "red"


def test_a_player_cannot_probe_an_npcs_trait_through_a_tests_difficulty() -> None:
    """The opponent's trait is the narrator's to use when it is an NPC's: refused, nothing rolled."""
    f = fight(npcs=1)
    with pytest.raises(ServiceError, match="Only a narrator"):
        fudge_test_roll(character=f.hero, actor=f.player, data={
            "trait_code": "combat", "difficulty": 4, "opponent": f.thugs[0], "opponent_trait": "combat"})  # fmt: skip
    assert not Event.objects.filter(kind="test.rolled").exists()
    payload = fudge_test_roll(character=f.hero, actor=f.narrator, rng=random.Random(1), data={
        "trait_code": "combat", "difficulty": 8, "opponent": f.thugs[0], "opponent_trait": "combat"})  # fmt: skip
    assert payload["difficulty"] == "SIMPLE"  # the thug's Combat Médiocre


def test_a_distant_trait_draws_two_cards_fewer_never_below_faible() -> None:
    """« Avant le tirage des cartes ou dés Fudge, le Narrateur estime si une Caractéristique du personnage
    est Etroitement liée, Liée mais pas centrale ou Distante et applique les effets » (appendix 2): « réduit
    de deux Rangs (Rang Faible minimum) » (V). Combat Bon (5 cards) used as distant draws 3."""
    f = fight(npcs=1)
    t = f.npcs[0]
    participant_update(participant=f.pc, actor=f.narrator, data={"relatedness": "distant"},
                                expected_version=f.sequence.version)  # fmt: skip
    with pytest.raises(ServiceError, match="only have 3"):
        draw(f.pc, f.player, Split(attack={t.key: 5}))
    draw(f.pc, f.player, Split(attack={t.key: 3}))
    assert ["relatedness", -2, "any"] in Event.objects.get(kind="sequence.drew").payload["budget"]
    f.sequence.refresh_from_db()
    participant_update(participant=t, actor=f.narrator, data={"relatedness": "distant"},
                                expected_version=f.sequence.version)  # fmt: skip
    with pytest.raises(ServiceError, match="only have 2"):  # Combat Médiocre (3): Faible at least
        draw(t, f.narrator, Split(attack={f.pc.key: 3}))


def test_an_ogre_in_a_simple_conflict_counts_its_scale_against_a_human() -> None:
    """Appendix 8: « lorsque l'ogre dont la Vigueur est bonne est comparé à un humain, il est considéré comme
    ayant une Excellente Vigueur »; « Les Ogres ont une Echelle +1 (Taille, Combat) »."""
    from characters.services.creation import npc_create

    f = fight(npcs=1)
    ogre = npc_create(campaign=f.campaign, actor=f.narrator, name="Ogre", concept="Ogre",
                                         ranks={"vigueur": 5})  # fmt: skip
    Character.objects.filter(pk=ogre.pk).update(scales=[{"value": 1, "domains": ["size", "combat"]}])
    ogre.refresh_from_db()
    payload = simple_conflict_roll(first=ogre, second=f.hero, actor=f.narrator, rng=random.Random(3),
                                            first_data={"trait_code": "vigueur"}, second_data={"trait_code": "vigueur"})  # fmt: skip
    # The scale line names whom it is counted against (the roll dialog and the result card show it).
    assert payload["first"]["effective"] == 6 and ["scale", 1, f.hero.name] in payload["first"]["modifiers"]
    # « Le second ogre, de Vigueur Moyenne, est considéré comme ayant une Bonne Vigueur face à un humain »: the
    # difference is counted once; the human keeps its rank (counting it on both sides made 6 against 5).
    assert payload["second"]["effective"] == 2 and not [m for m in payload["second"]["modifiers"] if m[0] == "scale"]
    test = fudge_test_roll(character=f.hero, actor=f.narrator, rng=random.Random(1), data={
        "trait_code": "combat", "difficulty": 2, "opponent": ogre, "opponent_trait": "vigueur"})  # fmt: skip
    assert test["difficulty"] == "TRES_DIFFICILE"  # the ogre's Bon Vigueur is Excellent against a human


def test_a_vehicles_robustness_may_shield_its_occupants_as_defence_cards() -> None:
    """« Lorsque l'on tire sur les occupants d'un véhicule, le Narrateur peut permettre que le modificateur de
    Robustesse soit utilisé comme une Armure (ce qui donne alors des cartes supplémentaires utilisables en
    défense) » (V): a van's Robustesse 4 is 4 more defence cards, never attack cards."""
    f = fight(npcs=1)
    t = f.npcs[0]
    participant_update(participant=f.pc, actor=f.narrator, expected_version=f.sequence.version,
                                data={"vehicle": 4, "robustness_as_armour": True})  # fmt: skip
    with pytest.raises(ServiceError):
        draw(f.pc, f.player, Split(attack={t.key: 9}))
    assert draw(f.pc, f.player, Split(attack={t.key: 5}, defence={f.pc.key: 4})).drawn
    assert ["vehicle", 4, "defence"] in Event.objects.get(kind="sequence.drew").payload["budget"]


def test_telekinesis_in_a_conflict_takes_the_esprit_modifier() -> None:
    """« Lorsque le Psy utilise la Télékinésie au cours d'un combat, l'action peut-être résolue comme un
    Conflit et la Caractéristique Esprit … peut servir de modificateur : … Bon +1 carte » (appendix 1).
    Jim (Esprit Bon, Télékinésie Moyen) draws 4 + 1 cards; with another trait the line goes."""
    from characters.services.sheet import trait_set

    f = fight(npcs=1)
    t = f.npcs[0]
    trait_set(character=f.hero, actor=f.narrator, code="telekinesie", rank=4)
    trait_set(character=f.hero, actor=f.narrator, code="esprit", rank=5)
    f.sequence.refresh_from_db()
    participant_update(participant=f.pc, actor=f.player, data={"trait_code": "telekinesie"},
                                expected_version=f.sequence.version)  # fmt: skip
    f.pc.refresh_from_db()
    assert f.pc.telekinesis_mind == 1 and f.pc.trait_value == 4
    with pytest.raises(ServiceError, match="only have 5"):
        draw(f.pc, f.player, Split(attack={t.key: 6}))
    draw(f.pc, f.player, Split(attack={t.key: 5}))
    assert ["telekinesis_mind", 1, "any"] in Event.objects.get(kind="sequence.drew").payload["budget"]


def test_a_trait_lowered_by_feeding_a_power_domain_draws_one_card_less() -> None:
    """« Le Rang de la Caractéristique concerné est alors réduit d'un cran jusqu'à ce que le personnage puisse
    prendre du repos » (VI): Jim's Combat (Bon) feeds his Télékinésie once during the sequence; like a Revers
    penalty the loss is read at the draw (a line of its own), and a Test reads Combat at Moyen."""
    from characters.services.powers import feed_allow, power_use
    from characters.services.sheet import trait_set

    f = fight(npcs=1)
    t = f.npcs[0]
    trait_set(character=f.hero, actor=f.narrator, code="telekinesie", rank=2)
    feed_allow(character=f.hero, actor=f.narrator, domain="telekinesie", trait="combat")
    power_use(character=f.hero, actor=f.player, domain="telekinesie", power_rank=2,
                                 fed_by="combat")  # fmt: skip
    f.pc.refresh_from_db()
    assert f.pc.trait_value == 5  # declared before the power: the draw takes the loss
    with pytest.raises(ServiceError, match="only have 4"):
        draw(f.pc, f.player, Split(attack={t.key: 5}))
    draw(f.pc, f.player, Split(attack={t.key: 4}))
    assert ["fed", -1, "any"] in Event.objects.get(kind="sequence.drew").payload["budget"]
    setup, _code = fudge_test_setup(f.hero, {"trait_code": "combat", "difficulty": 3})
    assert setup.trait_rank == 4


def test_live_fragments_bring_the_atouts_after_the_draw_and_the_decks_counts() -> None:
    """Once the cards are on the table, a player sees their Atouts after the draw without reloading."""
    f = fight(npcs=1)
    t = f.npcs[0]
    draw(f.pc, f.player, Split(attack={t.key: 5}), seed=3)
    # The Sequence page watches its Sequence: the decks are one of its regions (``conflicts.decks_region.DECKS_REGION``).
    page = Viewer(membership(f.campaign, f.player), watching=frozenset({f"sequence:{f.sequence.pk}"}))
    drew = "".join(extra_fragments(Event.objects.filter(kind="sequence.drew").latest("pk"), page))
    # Still drawing: the slot of the Atouts after the draw was empty and stays so, and the push leaves it alone (only
    # the whole draw moves the phase: the last draw, which puts the result on the table, sends it below).
    assert f'id="after-draw-{f.pc.pk}"' not in drew
    assert 'id="decks"' in drew and "35 in the pile, 5 on the table" in drew
    draw(t, f.narrator, Split(defence={t.key: 3}), seed=4)
    resolved = Event.objects.filter(kind="sequence.drew").latest("pk")  # the last draw: its result in it
    assert "outcome" in resolved.payload and not Event.objects.filter(kind="sequence.resolved").exists()
    seen = "".join(extra_fragments(resolved, Viewer(membership(f.campaign, f.player))))
    assert f'id="after-draw-{f.pc.pk}"' in seen and 'value="redraw"' in seen
    assert f'name="version" value="{f.reload().sequence.version}"' in seen


def test_a_teammates_draw_refreshes_the_version_of_my_atout_buttons() -> None:
    """Another participant's draw leaves my split alone but my Atout buttons carry the new version."""
    f = fight(npcs=2)
    draw(f.npcs[0], f.narrator, Split(defence={f.npcs[0].key: 3}), seed=4)
    event = Event.objects.filter(kind="sequence.drew").latest("pk")
    seen = "".join(extra_fragments(event, Viewer(membership(f.campaign, f.player))))
    assert f'<div id="atouts-{f.pc.pk}" hx-swap-oob="innerHTML">' in seen
    assert f'name="version" value="{f.reload().sequence.version}"' in seen
    assert f'id="split-version-{f.pc.pk}" hx-swap-oob="true"' in seen
    assert f'id="panel-{f.pc.pk}"' not in seen


def test_the_log_shows_cards_with_their_suits() -> None:
    """The log reads « 10♣ » and « A♥ », as the cards look on the table, not their codes « 10C » or « 1H »."""
    from campaigns.chronicle import describe

    f = fight(npcs=1)
    draw(f.pc, f.player, Split(attack={f.npcs[0].key: 5}), seed=3)
    text = describe(Event.objects.filter(kind="sequence.drew").latest("pk"))
    hand = Participant.objects.get(pk=f.pc.pk).hand
    code = hand["attack"][f.npcs[0].key][0]
    value = {"1": "A", "11": "J", "12": "Q", "13": "K"}.get(code[:-1], code[:-1])  # an ace reads A (issue 28)
    assert value + {"H": "♥", "D": "♦", "C": "♣", "S": "♠"}[code[-1]] in text
    assert not any(c in text for c in (" 2H", " 2D", " 2C", " 2S")) and ";" not in text


def test_forms_in_live_fragments_post_through_htmx() -> None:
    """A fragment pushed live carries no CSRF token: each of its forms goes through htmx (hx-post or
    hx-boost), which sends the page's token, or the narrator's « record the Revers » was refused (403)."""
    import re

    f = fight(npcs=1)
    t = f.npcs[0]
    draw(f.pc, f.player, Split(attack={t.key: 5}), seed=3)
    draw(t, f.narrator, Split(defence={t.key: 3}), seed=4)
    resolved = Event.objects.filter(kind="sequence.drew").latest("pk")
    for user in (f.narrator, f.player):
        html = "".join(extra_fragments(resolved, Viewer(membership(f.campaign, user))))
        assert "csrfmiddlewaretoken" not in html
        for block in re.split(r'(?=<(?:section|div) [^>]*id="(?:sequence-board|after-draw|decks|atouts|panel)-)', html):
            for form in re.findall(r"<form [^>]*>", block):
                assert "hx-post" in form or "hx-boost" in form or 'hx-boost="true"' in block.split(">", 1)[0], form


def test_the_choice_to_cut_short_comes_with_the_live_board() -> None:
    """After Revers are recorded, « cut short » is offered on the board pushed live, not only after a reload."""
    f = fight(npcs=1)
    t = f.npcs[0]
    for seed in range(40):
        f.reload()
        if f.sequence.phase == Phase.ENDED or (f.sequence.last_verdict and f.sequence.last_verdict != "tie"):
            break
        draw(f.pc, f.player, Split(attack={t.key: 1}, defence={f.pc.key: 4}), seed=seed)
        draw(t, f.narrator, Split(attack={f.pc.key: 1}, defence={t.key: 2}), seed=seed + 100)
        sequence_settle(sequence=f.sequence, actor=f.narrator, expected_version=None)
    f.reload()
    if f.sequence.phase == Phase.ENDED:
        pytest.skip("the seeds ended the sequence at once")
    settled = Event.objects.filter(kind="sequence.settled").latest("pk")
    page = frozenset({sequence_subject(f.sequence.pk)})  # the Sequence page names what it shows
    seen = "".join(extra_fragments(settled, Viewer(membership(f.campaign, f.player), page)))
    assert f'id="cut-short-{f.sequence.pk}"' in seen and 'name="choice" value="cut"' in seen
