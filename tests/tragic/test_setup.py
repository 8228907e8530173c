"""Phase 0 : Mise en Place (000, III.2; 001, Phase 0)."""

from __future__ import annotations

import pytest

from tests.tragic.helpers import GANG, STEEL, at_mulligan, config, started
from tragic.engine import IllegalAction, new_game
from tragic.engine.card_files import default_pool
from tragic.engine.decks import fit_library, validate_library


def test_traits_stay_hidden_until_everyone_has_chosen():
    state = new_game(config(), 1)
    state.apply({"kind": "choose_traits", "player": 0, "traits": ["goule-2"]})
    seen_by_1 = state.observation(1)["players"][0]
    assert seen_by_1["traits"] == [] and seen_by_1["has_chosen"] is True
    assert "goule-2" not in str(state.observation(1))
    assert state.observation(0)["players"][0]["hidden_choice"] == ["goule-2"]
    state.apply({"kind": "choose_traits", "player": 1, "traits": []})
    assert state.observation(1)["players"][0]["traits"] == ["goule-2"]


def test_sans_trait_bluff_removes_the_other_trait_at_the_reveal():
    """« il est possible de choisir « Sans Trait » et un autre Trait … l'autre Trait étant automatiquement
    sorti de la partie lors de la révélation »."""
    state = started(traits=[["sans-trait-1", "goule-2"], []])
    assert [state.cards[u].cid for u in state.players[0].zones["trait"]] == ["sans-trait-1"]
    assert state.players[0].max_life == 50


def test_life_follows_profile_and_traits():
    """Wiki: « de base de 50 points de vie »; booklet: « 100 pour un Humain, 70 pour une Goule »."""
    assert started().players[0].max_life == 50
    booklet = started(traits=[["goule-2"], []], profile="booklet")
    assert (booklet.players[0].max_life, booklet.players[1].max_life) == (70, 100)
    magic = started(traits=[["vous-etes-magique-1"], []])
    assert (magic.players[0].life, magic.players[0].max_life) == (45, 50)


def test_three_competences_or_four_with_the_trait():
    state = new_game(config(), 1)
    for i in (0, 1):
        state.apply({"kind": "choose_traits", "player": i, "traits": ["doue-1"] if i == 0 else []})
    four = ["medecine-1", "troc-1", "science-1", "survie-1"]
    with pytest.raises(IllegalAction):
        state.apply({"kind": "choose_skills", "player": 1, "skills": four})
    state.apply({"kind": "choose_skills", "player": 0, "skills": four})
    with pytest.raises(IllegalAction):
        state.apply({"kind": "choose_skills", "player": 1, "skills": ["medecine-1", "troc-1"]})


def test_initial_draw_is_three_times_the_draw_count_clamped():
    """« la Pioche Initiale s'étale de 3 à 9 cartes »: 6 by default, 9 with Petite carrure, 3 for Super-mutant."""
    state = started(traits=[["petite-carrure-1"], ["super-mutant-2"]])
    assert {i: len(state.players[i].zones["hand"]) for i in (0, 1)} == {0: 9, 1: 3}


def test_kamikaze_starts_unless_everyone_has_it():
    for seed in range(5):
        assert started(traits=[[], ["kamikaze-1"]], seed=seed).first_player == 1
    firsts = {started(traits=[["kamikaze-1"], ["kamikaze-1"]], seed=s).first_player for s in range(12)}
    assert firsts == {0, 1}


def test_first_player_skips_disengage_and_draw_on_the_very_first_turn():
    state = started()
    first = state.first_player
    assert len(state.players[first].zones["hand"]) == 6
    assert state.players[first].turns_played == 1


def test_london_mulligan_only_with_the_trait():
    state = at_mulligan()
    assert state.phase == "mulligan" and state.current_players() == [0]
    state.apply({"kind": "mulligan", "player": 0})
    hand = state.players[0].zones["hand"]
    assert len(hand) == 6
    with pytest.raises(IllegalAction):
        state.apply({"kind": "keep", "player": 0, "bottom": []})
    bottom = hand[0]
    state.apply({"kind": "keep", "player": 0, "bottom": [bottom]})
    assert state.players[0].zones["library"][0] == bottom
    assert len(state.players[0].zones["hand"]) == 5  # nobody draws before the first player's second turn
    assert state.phase in ("main", "upkeep")


def test_booklet_has_no_mulligan_unless_agreed():
    assert started(traits=[["vous-etes-magique-1"], []], profile="booklet").phase != "mulligan"
    state = new_game(config(profile="booklet", mulligan_agreed=True), 1)
    for i in (0, 1):
        state.apply({"kind": "choose_traits", "player": i, "traits": ["vous-etes-magique-1"] if i == 0 else []})
    for i in (0, 1):
        state.apply({"kind": "choose_skills", "player": i, "skills": ["medecine-1", "troc-1", "science-1"]})
    assert state.phase == "mulligan"


def test_library_must_hold_exactly_sixty_cards_within_the_copy_mode():
    pool = default_pool()
    assert validate_library(list(STEEL.cards), pool, copy_mode="quad", profile="wiki").ok
    report = validate_library(list(STEEL.cards), pool, copy_mode="triplette", profile="wiki")
    assert any("Aptitude Force – 1: 4 copies" in e for e in report.errors)
    report = validate_library(list(STEEL.cards)[:59], pool, copy_mode="quad", profile="wiki")
    assert any("exactly 60" in e for e in report.errors)
    report = validate_library(list(STEEL.cards)[:59] + ["goule-2"], pool, copy_mode="quad", profile="wiki")
    assert any("chosen at setup" in e for e in report.errors)
    with pytest.raises(IllegalAction):
        new_game({"players": [{"deck": list(STEEL.cards)[:59]}, {"deck": list(STEEL.cards)}]}, 1)


def test_special_share_is_a_warning_per_profile():
    """« au moins 30% … (18 minimum donc) » (booklet) and « 33% … (20 minimum donc) » (wiki)."""
    pool = default_pool()
    deck = [c for c in STEEL.cards if pool[c].type == "special"][:19]
    deck += [c for c in STEEL.cards if pool[c].type != "special"]
    deck += ["tir-de-riposte-2"]
    assert len(deck) == 60
    wiki = validate_library(deck, pool, copy_mode="quad", profile="wiki")
    booklet = validate_library(deck, pool, copy_mode="quad", profile="booklet")
    assert wiki.warnings and not booklet.warnings


def test_copies_count_per_name_and_level():
    """« il est tout à fait possible de posséder des cartes homonymes aux niveaux différents »."""
    pool = default_pool()
    deck = list(STEEL.cards)
    report = validate_library(deck, pool, copy_mode="quad", profile="wiki")
    assert report.ok  # Aptitude Force – 1 ×4 and Aptitude Force – 2 ×4 live together


def test_players_per_profile():
    assert len(started(players=4).players) == 4
    with pytest.raises(IllegalAction):
        new_game(config(players=3, profile="booklet"), 1)


@pytest.mark.parametrize("mode", ["singleton", "duo", "triplette", "quad"])
def test_the_ready_decks_are_fitted_to_every_copy_mode(mode):
    """« il est nécessaire de s'accorder sur ce point [le mode] avec son ou ses adversaires » (000, III.2.d):
    a starter deck written for Quad is played in any mode, each card kept up to the mode's limit."""
    pool = default_pool()
    for deck in (STEEL, GANG):
        library = fit_library(list(deck.cards), pool, copy_mode=mode)
        assert validate_library(library, pool, copy_mode=mode, profile="wiki").ok
        assert fit_library(list(deck.cards), pool, copy_mode=mode) == library  # the same every time
    assert fit_library(list(STEEL.cards), pool, copy_mode="quad") == list(STEEL.cards)
