"""Bots play teleport cards and Déconnexion: the legal actions list them, the random bot picks them like any other
choice, the heuristic bot teleports when the square offers more than a roll would."""

from __future__ import annotations

from frag.engine.base import DISCARD, MOVEMENT
from frag.engine.bots import heuristic_bot, random_bot
from frag.engine.rng import Dice
from frag.selectors.choices import choices
from tests.frag.arena import arena, place

# Seeds of the bot's own dice for which the random bot picks the card (found once; the engine is deterministic).
SEED_TELEPORT = 2
SEED_DECONNEXION = 17

# Far from the pick-up square (row 1, column 18) with one die of Vitesse; the enemy waits beside it.
FAR = """
####################
#1................w#
#2.................#
#3.................#
#4.................#
#5................6#
####################
"""


def at_movement_roll(state):  # type: ignore[no-untyped-def]
    """Turn start: nothing rolled yet, so a teleport card may replace the roll."""
    state.phase, state.turn.rolled, state.turn.mp = MOVEMENT, False, 0
    return state


def teleports(actions: list[dict]) -> list[dict]:
    return [a for a in actions if a["type"] == "play" and "to" in a]


def test_a_teleport_card_is_offered_instead_of_the_roll_for_every_free_square() -> None:
    """« à moins que vous ne décidez de jouer une carte de téléportation »"""
    state = at_movement_roll(arena(fighters=[{"at": (1, 1), "hand": ["teleporteur_portable"]}, {"at": (5, 7)}]))
    actions = state.legal_actions(0)
    assert {a["type"] for a in actions} == {"roll", "play"}
    assert {a["to"] for a in teleports(actions)} == set(range(len(state.board.places))) - {place(state, 1, 1)}


def test_the_random_bot_with_a_fixed_seed_plays_the_teleport_card() -> None:
    state = at_movement_roll(
        arena(fighters=[{"at": (1, 1), "hand": ["teleporteur_portable"]}, {"at": (5, 7)}], dice=[4] * 6)
    )
    uid = state.fighters[0].hand[0]
    action = random_bot(state, 0, Dice(SEED_TELEPORT))
    assert action["type"] == "play" and action["card"] == uid and "to" in action
    state.apply(action)
    assert state.fighters[0].place == action["to"] and state.turn.mp == 0 and state.turn.rolled


def test_the_random_bot_gives_the_teleport_card_the_weight_of_the_roll() -> None:
    """Chosen by kind, and each card is a kind: over many seeds it teleports about as often as it rolls."""
    state = at_movement_roll(arena(fighters=[{"at": (1, 1), "hand": ["teleporteur_portable"]}, {"at": (5, 7)}]))
    picks = [random_bot(state, 0, Dice(seed))["type"] for seed in range(200)]
    assert 60 <= picks.count("play") <= 140


def test_the_random_bot_with_a_fixed_seed_plays_deconnexion() -> None:
    state = arena(fighters=[{"at": (1, 1), "hand": ["deconnexion"]}, {"at": (5, 7)}])
    uid = state.fighters[0].hand[0]
    assert {"type": "play", "player": 0, "card": uid, "target": 1} in state.legal_actions(0)
    action = random_bot(state, 0, Dice(SEED_DECONNEXION))
    assert action == {"type": "play", "player": 0, "card": uid, "target": 1}
    events = state.apply(action)
    assert {"type": "disconnected", "player": 1, "by": 0} in events and state.fighters[1].out


def test_deconnexion_may_be_played_instead_of_discarded_at_the_end_of_the_turn() -> None:
    """« il doit les défausser ou les jouer » : the discard phase offers the plays too, so the page shows them."""
    hand = ["deconnexion", "stimulant", "munitions", "teleporteur_portable", "teleporteur_portable", "bandage"]
    state = arena(fighters=[{"at": (1, 1), "hand": hand}, {"at": (5, 7)}], dice=[3, 4, 5])
    state.phase = DISCARD
    actions = state.legal_actions(0)
    uid = state.fighters[0].hand[0]
    assert {"type": "play", "player": 0, "card": uid, "target": 1} in actions
    assert not teleports(actions)  # a teleport card only replaces the movement roll
    assert "Play Disconnect on P1" in [c.label for c in choices(state, actions)]
    state.apply({"type": "play", "player": 0, "card": uid, "target": 1})
    # Back within five cards, the turn passes: the disconnected fighter comes back at its own turn.
    assert state.phase == MOVEMENT and state.turn.player == 1 and not state.fighters[1].out


def test_the_heuristic_bot_teleports_to_a_pick_up_square_it_could_not_walk_to() -> None:
    state = at_movement_roll(
        arena(FAR, fighters=[{"at": (1, 1), "speed": 1, "hand": ["teleporteur_portable"]}, {"at": (5, 18)}])
    )
    action = heuristic_bot(state, 0, Dice(1))
    assert action["type"] == "play" and action.get("to") == place(state, 1, 18)


def test_the_heuristic_bot_rolls_when_a_pick_up_square_is_within_a_roll() -> None:
    state = at_movement_roll(
        arena(FAR, fighters=[{"at": (1, 16), "speed": 1, "hand": ["teleporteur_portable"]}, {"at": (5, 18)}])
    )
    assert heuristic_bot(state, 0, Dice(1))["type"] == "roll"


def test_the_heuristic_bot_teleports_within_a_sure_shot() -> None:
    """No pick-up on this board; one die of Précision cannot reach 10 squares: it teleports next to the enemy."""
    state = at_movement_roll(
        arena(fighters=[{"at": (1, 1), "accuracy": 1, "hand": ["teleporteur_portable"]}, {"at": (5, 7)}])
    )
    action = heuristic_bot(state, 0, Dice(1))
    assert action["type"] == "play" and "to" in action
    assert state.board.distance(action["to"], place(state, 5, 7)) == 1


def test_exits_are_listed_in_a_fixed_order_so_a_seed_replays_alike_in_every_process() -> None:
    """Legal moves (and so the bots' choices and the page's numbered choices) follow the exits' order: N, E, S, W,
    never the per-process order of a set of strings."""
    from frag.engine.board import DIRECTIONS, available_maps, load_board

    order = list(DIRECTIONS)
    for name in available_maps():
        for exits in load_board(name).steps:
            assert list(exits) == sorted(exits, key=order.index)


def test_the_heuristic_bot_disconnects_a_leader_one_frag_from_victory_only() -> None:
    state = arena(fighters=[{"at": (1, 1), "hand": ["deconnexion"]}, {"at": (5, 7)}, {"at": (3, 4)}])
    uid = state.fighters[0].hand[0]
    assert heuristic_bot(state, 0, Dice(1)).get("card") != uid
    state.fighters[2].frags = 2  # frags to win: 3
    assert heuristic_bot(state, 0, Dice(1)) == {"type": "play", "player": 0, "card": uid, "target": 2}
