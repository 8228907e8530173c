"""The seated search bot's strength (issue 15): its opening book for Phase 0 and its fitted leaf evaluation, each
blind to what its player cannot see, and its games reproducible from a seed."""

from __future__ import annotations

import random

import pytest

from tests.tragic.helpers import GANG, STEEL, give, started, turn_of
from tragic.engine import new_game
from tragic.engine.card_files import default_pool
from tragic.engine.evaluation import FEATURES, WEIGHTS, evaluate, features
from tragic.engine.openings import BOOK, book_choice, library_key, score_setup
from tragic.engine.roster import SEARCH_SEATED, make_bot
from tragic.engine.search import SearchBot
from tragic.simulation import default_config


def _setup_position(seed: int = 3):
    """A fresh 2-player game at « choisissez jusqu'à deux Traits » for both players (wiki)."""
    return new_game(default_config(), seed)


def test_every_book_entry_is_a_legal_setup_of_the_pool():
    pool = default_pool()
    traits = {c.id for c in pool.of_type("trait")}
    skills = {c.id for c in pool.of_type("skill")}
    assert BOOK, "the ready libraries have their opening"
    for (key, profile), entry in BOOK.items():
        assert profile in ("wiki", "booklet") and len(key) == 16
        assert len(entry["traits"]) <= 2 and set(entry["traits"]) <= traits
        assert len(set(entry["skills"])) == len(entry["skills"]) >= 3 and set(entry["skills"]) <= skills
    assert {(library_key(d.cards), p) for d in (STEEL, GANG) for p in ("wiki", "booklet")} <= set(BOOK)


def test_the_seated_search_bot_plays_its_libraries_opening_whatever_the_opponent_hides():
    """« Phase 0 … choisissez face cachée jusqu'à deux Traits » then the Compétences, revealed together: the book
    is keyed by the player's own library, so changing the opponent's hidden cards changes nothing."""
    state = _setup_position()
    player = state.current_players()[0]
    entry = BOOK[(library_key(state.players[player].deck), "wiki")]
    choices = []
    for variant in range(2):
        copy = state.clone()
        opponent = copy.players[1 - player]
        random.Random(variant).shuffle(opponent.zones["library"])
        copy.rng = random.Random(100 + variant)
        bot = make_bot("search", 5)
        action = bot.choose(copy, player)
        assert action["kind"] == "choose_traits" and sorted(action["traits"]) == sorted(entry["traits"])
        choices.append(action)
    assert choices[0] == choices[1]
    # Without the book (another library), the heuristic's choice.
    assert book_choice(state, player, [{"kind": "keep", "player": player, "bottom": []}]) is None
    state.players[player].deck = list(reversed(state.players[player].deck))  # same library, other order
    assert book_choice(state, player, state.legal_actions(player)) is not None
    state.players[player].deck = state.players[player].deck[1:]
    assert book_choice(state, player, state.legal_actions(player)) is None


def test_the_book_chooses_the_compétences_after_the_traits():
    state = _setup_position()
    bots = [make_bot("search", 1), make_bot("search", 2)]
    while state.phase in ("choose_traits", "choose_skills"):
        player = state.current_players()[0]
        state.apply(bots[player].choose(state, player))
    for p in state.players:
        entry = BOOK[(library_key(p.deck), "wiki")]
        chosen = sorted(state.cards[u].cid for u in p.zones["skill"])
        assert chosen == sorted(entry["skills"])
        assert sorted(state.cards[u].cid for u in p.zones["trait"]) == sorted(entry["traits"])


def test_a_setup_is_scored_on_the_same_deals_for_every_candidate():
    """The climb compares setups on the same seeds: scoring twice gives the same share, and it lies in [0, 1]."""
    args = ([STEEL.cards], None, ["recyclage-1", "troc-1", "medecine-1"])
    first = score_setup(GANG.cards, *args, profile="wiki", games=2, seed=9, max_turns=4)
    assert first == score_setup(GANG.cards, *args, profile="wiki", games=2, seed=9, max_turns=4)
    assert 0.0 <= first <= 1.0


def test_the_evaluation_reads_only_public_facts():
    """Determinized search « never peeking »: the leaf evaluation sees hand sizes, not the cards in them."""
    values = []
    for hidden in ("esquive-1", "contre-mesure-2"):
        state = turn_of(started(seed=5), 0)
        for uid in list(state.players[1].zones["hand"]):
            state.move(uid, "library")
        give(state, 1, hidden)
        values.append((features(state, 0, 1), evaluate(state, 0)))
    assert values[0] == values[1]


def test_the_evaluation_prefers_more_life_and_a_bigger_board_and_scores_the_end():
    state = turn_of(started(seed=5), 0)
    even = evaluate(state, 0)
    assert -1.0 < even < 1.0 and len(features(state, 0, 1)) == len(FEATURES) == len(WEIGHTS["wiki"])
    state.players[1].life -= 20
    hurt = evaluate(state, 0)
    assert hurt > even and evaluate(state, 1) < 0 < hurt  # and the opponent's view of it is bad
    give(state, 0, "milicien-1", zone="play")
    assert evaluate(state, 0) > hurt
    state.players[1].life = 0
    state.check_end()
    assert evaluate(state, 0) == 1.0 and evaluate(state, 1) == -1.0


def test_the_seated_search_bot_plays_the_same_game_from_the_same_seeds():
    """Counted work, not time: two runs of a seeded game give the same actions (here 60 steps of it)."""
    games = []
    for _ in range(2):
        state = new_game(default_config(), 11)
        bots = [SearchBot(4, **{**SEARCH_SEATED, "rounds": 4}), make_bot("heuristic", 5)]
        actions = []
        for _ in range(60):
            if state.is_over():
                break
            player = state.current_players()[0]
            action = bots[player].choose(state, player)
            actions.append(action)
            state.apply(action)
        games.append(actions)
    assert games[0] == games[1]


def test_an_unknown_evaluation_is_refused():
    with pytest.raises(ValueError, match="evaluation"):
        SearchBot(1, evaluation="vibes")


def test_tragic_openings_prints_a_book_entry_per_library_and_profile():
    from io import StringIO

    from django.core.management import call_command

    out = StringIO()
    call_command("tragic_openings", games=1, profile=["booklet"], deck=["acier-et-plomb"], stdout=out)
    text = out.getvalue()
    assert f'("{library_key(STEEL.cards)}", "booklet"): {{' in text and "# acier-et-plomb" in text
    assert '"skills": (' in text and '"traits": (' in text
