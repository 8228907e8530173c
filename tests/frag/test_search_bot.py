"""The search bot: determinized rollouts that never peek at what its seat cannot see."""

from __future__ import annotations

from frag.engine import new_game
from frag.engine.bots import heuristic_bot
from frag.engine.levels import BOTS
from frag.engine.rng import Dice
from frag.engine.search import determinize, search_bot_with

TWO = [{"name": f"P{i}", "health": 2, "speed": 3, "accuracy": 2} for i in range(2)]


def a_game_in_play(seed: int = 4):  # type: ignore[no-untyped-def]
    state, dice = new_game({"map": "entrepot", "players": TWO}, seed), Dice(seed)
    while state.turn.number < 3 or state.phase != "action":
        seat = state.current_players()[0]
        state.apply(heuristic_bot(state, seat, dice))
    return state


def test_a_determinization_keeps_what_the_seat_sees_and_deals_the_rest_again() -> None:
    state = a_game_in_play()
    me = state.current_players()[0]
    before = state.to_json()
    world = determinize(state, me, Dice(1))
    assert state.to_json() == before
    assert world.fighters[me].hand == state.fighters[me].hand
    for seat, fighter in enumerate(world.fighters):
        real = state.fighters[seat]
        assert (fighter.place, fighter.hp, fighter.weapons, fighter.frags) == (
            real.place,
            real.hp,
            real.weapons,
            real.frags,
        )
        # Each hand keeps its size per deck: draws are public, the cards are not.
        assert sorted(world.card(u).deck for u in fighter.hand) == sorted(state.card(u).deck for u in real.hand)
    for deck in state.decks:
        assert len(world.decks[deck]) == len(state.decks[deck])
    every = sorted(u for f in world.fighters for u in f.hand) + sorted(u for d in world.decks.values() for u in d)
    assert sorted(every) == sorted(
        [u for f in state.fighters for u in f.hand] + [u for d in state.decks.values() for u in d]
    )
    assert world.dice.position != state.dice.position


def test_the_search_bot_decides_the_same_whatever_it_cannot_see() -> None:
    """Two games that differ only in the opponent's hand, the decks' order and the dice to come: the same choice."""
    state = a_game_in_play()
    me = state.current_players()[0]
    other = state.clone()
    other.dice = Dice(123456789)
    them = 1 - me
    for deck in other.decks:
        pool = [u for u in other.fighters[them].hand if other.card(u).deck == deck] + other.decks[deck]
        Dice(77).shuffle(pool)
        hand = [u for u in other.fighters[them].hand if other.card(u).deck != deck]
        count = len(other.fighters[them].hand) - len(hand)
        other.fighters[them].hand = hand + pool[:count]
        other.decks[deck] = pool[count:]
    assert other.to_json() != state.to_json()
    bot = search_bot_with(rounds=4)
    assert bot(state, me, Dice(5)) == bot(other, me, Dice(5))


def test_the_search_bot_plays_legal_actions_to_the_end_of_a_game() -> None:
    state, dice = new_game({"map": "entrepot", "players": TWO, "turn_limit": 12}, 2), Dice(2)
    bots = [search_bot_with(0.01), BOTS["heuristic"]]
    while not state.is_over():
        seat = state.current_players()[0]
        action = bots[seat](state, seat, dice)
        assert action in state.legal_actions(seat)
        state.apply(action)
    assert "search" in BOTS


def test_the_candidates_keep_moves_beside_attacks_and_drops() -> None:
    """With two weapons in play, an attack per weapon and the drops used to fill the five candidates and leave no
    move to compare (here: four attacks and the end of the turn). Now each target brings its two strongest weapons,
    drops are left to the heuristic, and three moves are always compared."""
    from frag.engine.search import MOVE_CANDIDATES, _candidates

    state = a_game_in_play()
    me = state.current_players()[0]
    fighter = state.fighters[me]
    weapons = [u for u in state.decks["weapon"] if state.card(u).ammo][:2]
    for uid in weapons:
        state.decks["weapon"].remove(uid)
        fighter.weapons.append([uid, state.card(uid).ammo])
    actions = state.legal_actions(me)
    assert sum(a["type"] == "drop" for a in actions) >= 2
    chosen = _candidates(state, me, actions, Dice(3))
    heuristic = chosen[0]
    assert [c for c in chosen[1:] if c["type"] == "drop"] == []
    moves = [c for c in chosen if c["type"] in ("move", "jump") and c != heuristic]
    assert len(moves) == MOVE_CANDIDATES


def test_the_search_stops_at_its_deadline_when_every_rollout_ends_the_game_at_once(monkeypatch) -> None:  # type: ignore[no-untyped-def]
    """The last turn's discard ends the game in every rollout, so no rollout reached the deadline's check and the
    search never returned (a fresh-clone CI run sat 10 minutes in the test above, 5.5 million rounds in)."""
    import time

    from frag.engine import search

    monkeypatch.setattr(search, "_rollout", lambda world, player, action, dice, deadline: 0.0)
    state = a_game_in_play()
    me = state.current_players()[0]
    started = time.perf_counter()
    action = search.search_bot_with(0.02)(state, me, Dice(3))
    assert action in state.legal_actions(me)
    assert time.perf_counter() - started < 5
