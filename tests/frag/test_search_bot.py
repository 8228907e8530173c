"""The search bot: determinized rollouts that never peek at what its seat cannot see."""

from __future__ import annotations

from frag.engine import new_game
from frag.engine.bots import heuristic_bot
from frag.engine.decoding import decode
from frag.engine.heuristic import heuristic_code
from frag.engine.levels import BOTS
from frag.engine.rng import Dice
from frag.engine.search import SearchStats, determinize, search_bot_with

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


def _hidden_dealt_again(state, me: int):  # type: ignore[no-untyped-def]
    """``state`` with everything ``me`` cannot see changed: the opponent's hand, the decks' order, the cards under a
    marker ``me`` does not stand on, and the dice to come."""
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
    for pile in other.piles.values():
        # Swap each hidden weapon under a marker for one still in the deck.
        for index, uid in enumerate(pile["cards"]):
            spare = other.decks["weapon"].pop(0)
            other.decks["weapon"].append(uid)
            pile["cards"][index] = spare
    return other


def _with_a_marker_out_of_reach(state, me: int):  # type: ignore[no-untyped-def]
    """A marker with two weapons from the deck, on a floor square where ``me`` does not stand."""
    spot = next(
        p for p in range(len(state.board.steps)) if state.board.square(p) == "." and p != state.fighters[me].place
    )
    cards = [state.decks["weapon"].pop(0), state.decks["weapon"].pop(0)]
    state.piles[state.next_pile] = {"place": spot, "cards": cards, "dropped_by": 1 - me}
    state.next_pile += 1
    return state


def test_the_search_bot_decides_the_same_whatever_it_cannot_see() -> None:
    """Two games that differ only in the opponent's hand, the decks' order, the weapons under a marker the bot does
    not stand on and the dice to come: the same choice, after the same number of rollouts."""
    for seed in (4, 11):
        state = a_game_in_play(seed)
        me = state.current_players()[0]
        state = _with_a_marker_out_of_reach(state, me)
        other = _hidden_dealt_again(state, me)
        assert other.to_json() != state.to_json()
        seen, told = SearchStats(), SearchStats()
        first = search_bot_with(40, cap=None, stats=seen)(state, me, Dice(5))
        second = search_bot_with(40, cap=None, stats=told)(other, me, Dice(5))
        assert first == second
        assert (seen.decisions, seen.rollouts) == (told.decisions, told.rollouts)


def test_the_budget_is_rollouts_so_the_machine_s_speed_changes_nothing() -> None:
    """A budget in rollouts: with the same seed, the same decision and the same rollouts whether the clock crawls or
    races, as long as the cap is not reached; a cap reached stops the search and still gives a legal action."""
    state = a_game_in_play()
    me = state.current_players()[0]
    ticks = iter(range(10**9))
    quiet, loaded = SearchStats(), SearchStats()
    first = search_bot_with(60, cap=None, stats=quiet)(state, me, Dice(8))
    # A clock that advances a microsecond per reading: far from its one-second cap.
    second = search_bot_with(60, cap=1.0, clock=lambda: next(ticks) * 1e-6, stats=loaded)(state, me, Dice(8))
    assert first == second
    assert quiet.rollouts == loaded.rollouts > 0
    assert loaded.capped == 0
    cut = SearchStats()
    # A clock that advances a second per reading: the cap stops the search at its first check.
    action = search_bot_with(60, cap=1.0, clock=lambda: next(ticks) * 1.0, stats=cut)(state, me, Dice(8))
    assert action in state.legal_actions(me)
    assert cut.capped == 1
    assert cut.rollouts < quiet.rollouts


def test_the_search_bot_plays_legal_actions_to_the_end_of_a_game() -> None:
    for map_name in ("entrepot", "raffinerie"):
        state = new_game({"map": map_name, "players": TWO, "turn_limit": 12}, 2)
        dice = Dice(2)
        bots = [search_bot_with(12), BOTS["heuristic"]]
        while not state.is_over():
            seat = state.current_players()[0]
            action = bots[seat](state, seat, dice)
            assert action in state.legal_actions(seat)
            state.apply(action)
    assert "search" in BOTS


def test_the_candidates_keep_moves_beside_attacks_and_drops() -> None:
    """With two weapons in play, an attack per weapon and the drops used to fill the five candidates and leave no
    move to compare (here: four attacks and the end of the turn). Now each target brings its two strongest weapons,
    drops are left to the heuristic, and moves of each aim are compared."""
    from frag.engine.search_candidates import candidates

    state = a_game_in_play()
    me = state.current_players()[0]
    fighter = state.fighters[me]
    weapons = [u for u in state.decks["weapon"] if state.card(u).ammo][:2]
    for uid in weapons:
        state.decks["weapon"].remove(uid)
        fighter.weapons.append([uid, state.card(uid).ammo])
    actions = state.legal_actions(me)
    assert sum(a["type"] == "drop" for a in actions) >= 2
    chosen = candidates(state, me, actions, Dice(3))
    heuristic = chosen[0]
    assert [c for c in chosen[1:] if c["type"] == "drop"] == []
    moves = [c for c in chosen if c["type"] in ("move", "jump") and c != heuristic]
    assert len(moves) >= 2


def _hidden(state, action, enemy: int, occupied: dict[int, int]) -> bool:  # type: ignore[no-untyped-def]
    end = (action.get("path") or [action.get("to")])[-1]
    return not state.line_of_sight(end, enemy, occupied)


def test_the_candidates_offer_cover_once_the_attack_is_spent() -> None:
    """The heuristic never looks for cover after its shot: it walks on towards pick-ups and the enemy. A move out of
    every enemy's sight is always among the candidates when one exists, so the rollouts can weigh it."""
    from frag.engine.search_candidates import candidates

    found = 0
    for seed in range(1, 30):
        state = a_game_in_play(seed)
        me = state.current_players()[0]
        if state.fighters[me].out:
            continue
        state.turn.attacks = state.attacks_allowed(me)
        actions = state.legal_actions(me)
        occupied = {p: s for p, s in state.occupied().items() if s != me}
        enemy = state.fighters[1 - me]
        if enemy.out or enemy.place is None:
            continue

        covers = [a for a in actions if a["type"] in ("move", "jump") and _hidden(state, a, enemy.place, occupied)]
        if not covers:
            continue
        found += 1
        chosen = candidates(state, me, actions, Dice(seed))
        assert any(c["type"] in ("move", "jump") and _hidden(state, c, enemy.place, occupied) for c in chosen)
    assert found >= 5


def test_the_search_stops_at_its_deadline_when_every_rollout_ends_the_game_at_once(monkeypatch) -> None:  # type: ignore[no-untyped-def]
    """The last turn's discard ends the game in every rollout, so no rollout reached the deadline's check and the
    search never returned (a fresh-clone CI run sat 10 minutes in the test above, 5.5 million rounds in). With a
    budget in rollouts the search ends anyway; here the budget is endless, so only the cap can stop it."""
    import time

    from frag.engine import search

    monkeypatch.setattr(search, "_rollout", lambda world, player, action, dice, deadline, clock: 0.0)
    monkeypatch.setattr(search, "ROLLOUTS_PER_CANDIDATE", 10**12)
    state = a_game_in_play()
    me = state.current_players()[0]
    started = time.perf_counter()
    stats = SearchStats()
    action = search.search_bot_with(10**12, cap=0.02, stats=stats)(state, me, Dice(3))
    assert action in state.legal_actions(me)
    assert stats.capped == 1
    assert time.perf_counter() - started < 5


def test_the_bot_s_own_turns_in_a_rollout_take_cover_once_the_attack_is_spent() -> None:
    """In a rollout the bot's own turn is the heuristic's, which walks on towards the enemy after its shot and gives
    it the first shot of its turn; the search itself takes cover then, so its rollouts do too: a walk out of every
    enemy's sight, without acid, instead of a move or the end of the turn in sight."""
    from frag.engine.search import _take_cover

    changed = 0
    for seed in range(1, 40):
        state = a_game_in_play(seed)
        me = state.current_players()[0]
        enemy = state.fighters[1 - me]
        if state.fighters[me].out or enemy.out or enemy.place is None:
            continue
        state.turn.attacks = state.attacks_allowed(me)
        chosen_code = heuristic_code(state, me, Dice(seed))
        chosen = decode(state, me, chosen_code)
        occupied = {p: s for p, s in state.occupied().items() if s != me}
        covered_code = _take_cover(state, me, chosen_code)
        covered = decode(state, me, covered_code)
        assert covered in state.legal_actions(me)
        if covered_code == chosen_code:
            continue
        changed += 1
        assert covered["type"] == "move"
        assert _hidden(state, covered, enemy.place, occupied)
        assert state.board.path_features(covered["path"])[0] == 0
        assert chosen["type"] in ("move", "jump", "end_turn")
        if chosen["type"] != "end_turn":
            assert not _hidden(state, chosen, enemy.place, occupied)
    assert changed >= 2
