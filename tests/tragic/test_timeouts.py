"""What a player who lets their time run out is taken to do (docs/rules-decisions.md, TRAGIC, In the
browser): the engine proposes the default, the shell keeps the clock."""

from __future__ import annotations

from tests.tragic.helpers import at_mulligan, config, events_of, give, started, turn_of
from tragic.engine import new_game


def test_an_idle_defender_blocks_with_nobody():
    """« Libre à lui … d'utiliser l'un de ses propres Alliés pour se défendre »: not choosing is not blocking."""
    state = turn_of(started(), 0)
    brute = give(state, 0, "brute-super-mutante-2", "play")
    give(state, 1, "milicien-1", "play")
    state.apply({"kind": "ally_attack", "player": 0, "allies": [brute], "target": {"player": 1}})
    [timeout] = state.timeout_actions()
    assert timeout == {"kind": "pass", "player": 1, "timed_out": True}
    state.apply(timeout)
    assert state.pending["kind"] == "block" and state.current_players() == [1]
    [timeout] = state.timeout_actions()
    assert timeout == {"kind": "block", "player": 1, "blockers": [], "split": [], "timed_out": True}
    life = state.players[1].life
    events = state.apply(timeout)
    assert events[0] == {"t": "timed_out", "player": 1, "action": "block"}
    assert state.pending is None and state.players[1].life == life - 5


def test_an_idle_discovery_leaves_the_library_as_it_was():
    state = turn_of(started(), 0)
    library = list(state.zone(0, "library"))
    state.start_discover(0, 3)
    [timeout] = state.timeout_actions()
    assert [d for _uid, d in timeout["placements"]] == ["top", "top", "top"]
    state.apply(timeout)
    assert state.zone(0, "library") == library and state.pending is None


def test_an_idle_search_takes_nothing():
    state = turn_of(started(), 0)
    state.pending = {"kind": "search", "player": 0, "card_type": "special", "attribute": None}
    hand = list(state.zone(0, "hand"))
    [timeout] = state.timeout_actions()
    assert timeout == {"kind": "search", "player": 0, "card": None, "timed_out": True}
    state.apply(timeout)
    assert state.zone(0, "hand") == hand and state.pending is None


def test_setup_traits_and_mulligans_time_out_but_compétences_never_do():
    state = new_game(config(), 3)
    state.apply({"kind": "choose_traits", "player": 0, "traits": []})
    assert state.timeout_actions() == [{"kind": "choose_traits", "player": 1, "traits": [], "timed_out": True}]
    state.apply(state.timeout_actions()[0])
    assert state.phase == "choose_skills" and state.timeout_actions() == []


def test_the_active_players_own_turn_only_times_out_once_asked_to():
    state = turn_of(started(), 0)
    assert state.timeout_actions() == []
    assert state.timeout_actions(own_turn=True) == [{"kind": "end_turn", "player": 0, "timed_out": True}]
    state.players[1].addictions["Nuka-Cola Quantum"] = 2
    state.apply({"kind": "end_turn", "player": 0})
    assert state.phase == "upkeep" and state.current_players() == [1]
    life = state.players[1].life
    [accro] = state.timeout_actions(own_turn=True)
    assert accro["kind"] == "upkeep"
    state.apply(accro)
    assert state.players[1].life == life - 4  # the withdrawal: neither paid nor discarded
    assert state.timeout_actions(own_turn=True) == [{"kind": "end_upkeep", "player": 1, "timed_out": True}]
    state.apply(state.timeout_actions(own_turn=True)[0])
    assert state.phase == "main"
    assert events_of(state.apply(state.timeout_actions(own_turn=True)[0]), "timed_out")
    assert state.active == 0


def test_an_idle_mulligan_keeps_the_hand_with_the_proposed_cards_under():
    """« Lorsqu'un joueur choisit de ne pas prendre de mulligan, les cartes restantes deviennent la main »."""
    state = at_mulligan()
    state.apply({"kind": "mulligan", "player": 0})
    [keep] = state.timeout_actions()
    assert keep["kind"] == "keep" and len(keep["bottom"]) == 1 and keep["timed_out"]
    state.apply(keep)
    assert state.phase in ("main", "upkeep") and len(state.players[0].zones["hand"]) == 5
