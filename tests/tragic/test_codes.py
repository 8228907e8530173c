"""Integer-coded actions (``legal_codes`` / ``apply_code``, OpenSpiel's side of the API) play exactly the games
the action dicts play: ``apply_code`` skips the checks of ``apply`` because the code was found legal at this
very step, so every coded action of these seeded games is played both ways and the results compared."""

from __future__ import annotations

import random

import pytest

from tragic.engine import new_game
from tragic.engine.errors import IllegalAction
from tragic.engine.roster import make_bot
from tragic.simulation import default_config


def random_by_dicts(seed: int, profile: str, players: int):
    state = new_game(default_config(profile=profile, players=players), seed)
    bot, events = make_bot("random", seed), []
    while not state.is_over():
        player = state.current_players()[0]
        events.append(state.apply(bot.choose(state, player)))
    return state, events


def random_by_codes(seed: int, profile: str, players: int):
    """The random bot's choice made on codes: the same generator draws among the same actions (conceding
    left out, as the bot does unless it is all there is)."""
    state = new_game(default_config(profile=profile, players=players), seed)
    rng, events = random.Random(seed), []
    while not state.is_over():
        player = state.current_players()[0]
        codes = state.legal_codes(player, concede=False) or state.legal_codes(player)
        events.append(state.apply_code(rng.choice(codes)))
    return state, events


@pytest.mark.parametrize(
    ("seed", "profile", "players"), [(1, "wiki", 2), (2, "booklet", 2), (3, "wiki", 3), (4, "wiki", 4)]
)
def test_a_game_played_by_codes_is_the_game_played_by_dicts(seed, profile, players):
    by_dicts, dict_events = random_by_dicts(seed, profile, players)
    by_codes, code_events = random_by_codes(seed, profile, players)
    assert by_codes.to_json() == by_dicts.to_json()
    assert code_events == dict_events
    assert len(code_events) > 50


def test_every_coded_action_runs_as_its_checked_dict():
    """At every step of seeded games, each legal code applied to a copy gives the state and events that the
    checked ``apply`` of its dict gives to another copy (so no plan read without checks differs)."""
    rng = random.Random(5)
    compared = set()
    for seed in (5, 6):
        state = new_game(default_config(), seed)
        while not state.is_over():
            player = state.current_players()[0]
            codes = state.legal_codes(player)
            for code in codes:
                action = state.decode(code)
                checked = state.clone()
                checked_events = checked.apply(action)
                coded = state.clone()
                coded.legal_codes(player)
                assert coded.apply_code(code) == checked_events
                assert coded.to_json() == checked.to_json()
                compared.add(action["kind"])
            state.legal_codes(player, concede=False)
            state.apply_code(rng.choice(state.legal_codes(player, concede=False) or codes))
    assert {"play", "activate", "ally_attack", "end_turn", "place_special", "choose_skills"} <= compared


def test_a_code_is_valid_for_its_step_only():
    state = new_game(default_config(), 1)
    player = state.current_players()[0]
    with pytest.raises(IllegalAction):
        state.apply_code(0)  # no legal_codes asked yet
    codes = state.legal_codes(player)
    decoded = state.decode(codes[0])
    decoded["traits"] = ["nonsense"]  # a decoded action is the caller's copy
    assert state.decode(codes[0]) != decoded
    with pytest.raises(IllegalAction):
        state.apply_code(len(codes))
    state.apply_code(codes[0])
    with pytest.raises(IllegalAction):
        state.apply_code(codes[0])  # the state moved on: the code is stale
    assert state.clone()._coded is None


def test_the_setup_choices_are_coded_in_the_order_legal_actions_lists_them():
    """``legal_codes`` counts the Trait and Compétence combinations (92 and 364 here) without building them
    (``setup_choices.Combinations`` builds one when it is decoded or applied): every code decodes to the action
    at the same place of ``legal_actions``, with a Trait that gives a fourth Compétence (two sizes of
    combinations) and without."""
    state = new_game(default_config(), 3)
    assert state.phase == "choose_traits"
    for player in (0, 1):
        codes = state.legal_codes(player)
        assert [state.decode(code) for code in codes] == state.legal_actions(player)
    state.apply({"kind": "choose_traits", "player": 0, "traits": ["doue-1"]})
    state.apply({"kind": "choose_traits", "player": 1, "traits": []})
    assert state.phase == "choose_skills"
    assert state.skill_slots(0) == 4
    for player in (0, 1):
        listed = state.legal_actions(player)
        codes = state.legal_codes(player)
        assert [state.decode(code) for code in codes] == listed
        assert {len(a["skills"]) for a in listed} == ({3, 4} if player == 0 else {3})
    listed = state.legal_actions(0)
    lazy = state.skill_offer(0)
    assert lazy[-1] == listed[-1] and lazy[2:4] == listed[2:4] and len(lazy) == len(listed)
    state.legal_codes(0)
    state.apply_code(len(listed) - 1)
    assert state.players[0].hidden_choice == listed[-1]["skills"]


def test_each_code_decodes_to_its_action_of_the_same_position():
    """``legal_codes`` keeps the main phase's actions as entries and builds one dict when a code is decoded or
    applied (``MainChoices.action_of``); ``legal_actions`` builds them all (``actions_of``, sharing each card's
    payment): at every step of seeded games, the two give the same actions in the same order. Every shape of
    entry is met (``test_legal_rebuild`` compares the dicts with the checks themselves)."""
    kinds: set[tuple[str, ...]] = set()
    for seed, profile, players in ((7, "wiki", 2), (8, "booklet", 2), (9, "wiki", 3)):
        state, rng = new_game(default_config(profile=profile, players=players), seed), random.Random(seed)
        while not state.is_over():
            player = state.current_players()[0]
            codes = state.legal_codes(player)
            decoded = [state.decode(code) for code in codes]
            if state.phase not in ("choose_traits", "choose_skills"):
                assert decoded == state.legal_actions(player), (seed, state.steps)
            kinds.update(tuple(sorted(action)) for action in decoded if action["kind"] != "concede")
            state.legal_codes(player)
            state.apply_code(rng.choice(codes[:-1] or codes))
    for keys in (
        ("card", "kind", "pay", "player"),
        ("card", "kind", "pay", "player", "target"),
        ("allies", "kind", "player", "target"),
        ("aim", "card", "kind", "pay", "player", "target"),
        ("card", "choice", "kind", "pay", "player"),
        ("card", "kind", "player"),
    ):
        assert keys in kinds
