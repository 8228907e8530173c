"""Movement: orthogonal steps, passing but not stopping on fighters, jumps, acid, doors, teleporters, pick-ups."""

from __future__ import annotations

import heapq

import pytest

from frag.engine import IllegalAction
from frag.engine.board import load_board
from tests.frag.arena import OPEN, arena, place, snapshot

ACID_HALL = """
#########
#1.~~..2#
#.......#
#3.#...4#
#5.....6#
#########
"""


def test_a_step_is_orthogonal_and_costs_one_point() -> None:
    state = arena(OPEN, fighters=[{"at": (2, 2)}, {"at": None}], mp=3)
    state.apply({"type": "move", "player": 0, "path": [place(state, 2, 3), place(state, 3, 3)]})
    assert state.fighters[0].place == place(state, 3, 3)
    assert state.turn.mp == 1


@pytest.mark.parametrize(
    ("path", "reason"),
    [
        ([(3, 3)], "orthogonal"),
        ([(2, 3), (2, 4), (2, 5), (2, 6)], "too far"),
    ],
)
def test_illegal_moves_are_refused_with_a_reason_and_change_nothing(path: list[tuple[int, int]], reason: str) -> None:
    state = arena(OPEN, fighters=[{"at": (2, 2)}, {"at": None}], mp=3)
    before = snapshot(state)
    with pytest.raises(IllegalAction, match=reason):
        state.apply({"type": "move", "player": 0, "path": [place(state, *p) for p in path]})
    assert snapshot(state) == before


def test_moving_through_a_wall_is_refused() -> None:
    state = arena(ACID_HALL, fighters=[{"at": (2, 3)}, {"at": None}], mp=3)
    before = snapshot(state)
    with pytest.raises(IllegalAction, match="never through a wall"):
        state.apply({"type": "move", "player": 0, "path": [place(state, 4, 3)]})
    assert snapshot(state) == before


def test_acting_out_of_turn_is_refused() -> None:
    state = arena(OPEN, fighters=[{"at": (2, 2)}, {"at": (4, 4)}], mp=3)
    before = snapshot(state)
    with pytest.raises(IllegalAction, match="not your turn"):
        state.apply({"type": "move", "player": 1, "path": [place(state, 4, 5)]})
    assert snapshot(state) == before


def test_an_action_of_another_phase_is_refused() -> None:
    """A stale action (rolling again once the movement points are known) changes nothing."""
    state = arena(OPEN, fighters=[{"at": (2, 2)}, {"at": None}], mp=3)
    before = snapshot(state)
    with pytest.raises(IllegalAction, match="not allowed now"):
        state.apply({"type": "roll", "player": 0})
    assert snapshot(state) == before


def test_a_fighter_passes_through_an_occupied_square_but_cannot_stop_there() -> None:
    """« Un combattant peut passer sur une case occupée pour un autre joueur mais ne peut s'arrêter dessus. »"""
    state = arena(OPEN, fighters=[{"at": (2, 2)}, {"at": (2, 3)}], mp=3)
    with pytest.raises(IllegalAction, match="not stop"):
        state.apply({"type": "move", "player": 0, "path": [place(state, 2, 3)]})
    state.apply({"type": "move", "player": 0, "path": [place(state, 2, 3), place(state, 2, 4)]})
    assert state.fighters[0].place == place(state, 2, 4)


def test_reachable_squares_skip_occupied_ones_and_respect_the_points() -> None:
    state = arena(OPEN, fighters=[{"at": (2, 2)}, {"at": (2, 3)}], mp=2)
    reachable = state.reachable(0)
    assert place(state, 2, 3) not in reachable
    assert place(state, 2, 4) in reachable
    assert all(len(path) <= 2 for path in reachable.values())


def test_a_jump_costs_double_and_flies_over_acid() -> None:
    """« Un saut coûte le double en déplacement (exemple : un saut de 2 cases coûte 4 point de mouvement). »"""
    state = arena(ACID_HALL, fighters=[{"at": (1, 2), "speed": 3}, {"at": None}], mp=6)
    events = state.apply({"type": "jump", "player": 0, "to": place(state, 1, 5)})
    assert state.fighters[0].place == place(state, 1, 5)
    assert state.turn.mp == 0
    assert not [e for e in events if e.get("purpose") == "acid"]


def test_a_jump_is_at_most_vitesse_squares() -> None:
    """« Une vitesse de 1 permet de sauter 1 case, une vitesse de 2 : 2 cases »"""
    state = arena(OPEN, fighters=[{"at": (2, 1), "speed": 2}, {"at": None}], mp=12)
    with pytest.raises(IllegalAction, match="at most 2 squares"):
        state.apply({"type": "jump", "player": 0, "to": place(state, 2, 4)})
    with pytest.raises(IllegalAction, match="straight line"):
        state.apply({"type": "jump", "player": 0, "to": place(state, 3, 2)})


def test_a_jump_never_goes_over_a_wall() -> None:
    state = arena(ACID_HALL, fighters=[{"at": (2, 3), "speed": 3}, {"at": None}], mp=12)
    with pytest.raises(IllegalAction, match="over a wall"):
        state.apply({"type": "jump", "player": 0, "to": place(state, 4, 3)})


def test_each_crossing_of_acid_is_a_two_dice_attack() -> None:
    """« A chaque fois qu'un combattant traverse une case contenant de l'acide, celui-ci subit une attaque de 2D. »"""
    state = arena(
        ACID_HALL, fighters=[{"at": (1, 2), "health": 3}, {"at": None}], dice=[2, 2, 1, 1, 1, 1, 1, 6, 6], mp=4
    )
    events = state.apply(
        {"type": "move", "player": 0, "path": [place(state, 1, 3), place(state, 1, 4), place(state, 1, 5)]}
    )
    acid = [e for e in events if e.get("purpose") == "acid"]
    assert [(e["attack_dice"], e["defence_dice"], e["lost"]) for e in acid] == [
        ([2, 2], [1, 1, 1], 1),
        ([1, 1], [6, 6], 0),
    ]
    assert state.fighters[0].hp == 2
    assert state.fighters[0].place == place(state, 1, 5)


def test_acid_that_frags_the_mover_ends_its_turn() -> None:
    state = arena(ACID_HALL, fighters=[{"at": (1, 2), "health": 1}, {"at": (4, 4)}], dice=[6, 6, 1, 2], mp=4)
    events = state.apply({"type": "move", "player": 0, "path": [place(state, 1, 3), place(state, 1, 4)]})
    assert state.fighters[0].out
    assert any(e["type"] == "fragged" and e["by"] is None for e in events)
    assert state.current_players() == [1]


ONE_WAY = """
#######
#1...2#
###v###
#3...4#
#5...6#
#######
"""


def test_a_one_way_door_is_passed_only_in_the_arrow_s_direction() -> None:
    """« vous pouvez passer à travers les portes, en respectant le sens des flèches »"""
    state = arena(ONE_WAY, fighters=[{"at": (1, 3)}, {"at": None}], mp=6)
    state.apply({"type": "move", "player": 0, "path": [place(state, 2, 3), place(state, 3, 3)]})
    with pytest.raises(IllegalAction, match="closed door"):
        state.apply({"type": "move", "player": 0, "path": [place(state, 2, 3)]})


def test_a_fighter_may_stop_in_a_doorway() -> None:
    state = arena(ONE_WAY, fighters=[{"at": (1, 3)}, {"at": None}], mp=6)
    state.apply({"type": "move", "player": 0, "path": [place(state, 2, 3)]})
    assert state.open_doors() == {state.board.door_of[place(state, 2, 3)]}


TELEPORT = """
#########
#1T.2.T3#
#4.....5#
#6......#
#########
"""


def test_a_teleporter_leads_to_another_for_one_point_and_ejects_an_occupant() -> None:
    """« permet de se téléporter d'une case téléporteur à une autre pour 1 point de mouvement » ; « Ejecté »"""
    state = arena(TELEPORT, fighters=[{"at": (1, 2)}, {"at": (1, 6)}], dice=[3], mp=2)
    events = state.apply({"type": "teleport", "player": 0, "to": place(state, 1, 6)})
    assert state.fighters[0].place == place(state, 1, 6)
    assert state.fighters[1].place == state.board.respawn[3]
    assert state.turn.mp == 1
    assert [e["type"] for e in events] == ["arrived", "ejected", "dice", "arrived"]
    assert [e["how"] for e in events if e["type"] == "arrived"] == ["teleporter", "ejected"]


PICKUPS = """
#######
#1w.g2#
#3...4#
#5...6#
#######
"""


def test_passing_over_a_pick_up_square_searches_it_once_per_turn() -> None:
    """« Si un joueur passe sur une case comportant un symbole d'arme (bleu) ou de gadget (vert), il a 50% de chance de
    piocher une carte. Il lance alors immédiatement 1D et si il fait 4-5-6, il pioche une carte. Un joueur peut activer
    autant de case « objet » qu'il le souhaite, mais il ne peut activer 2 fois la même case dans un même tour. »"""
    state = arena(PICKUPS, fighters=[{"at": (2, 2)}, {"at": None}], dice=[4, 3], mp=6)
    # Up onto the weapon square and on along the top row over the gadget square: two searches, in passing.
    events = state.apply(
        {"type": "move", "player": 0, "path": [place(state, 1, 2), place(state, 1, 3), place(state, 1, 4)]}
    )
    searches = [e for e in events if e.get("purpose") == "pick_up"]
    assert [(e["place"], e["dice"]) for e in searches] == [(place(state, 1, 2), [4]), (place(state, 1, 4), [3])]
    assert [state.card(u).deck for u in state.fighters[0].hand] == ["weapon"]
    # Back over the weapon square the same turn: not a second time (no die is rolled: the script has none left).
    events = state.apply({"type": "move", "player": 0, "path": [place(state, 1, 3), place(state, 1, 2)]})
    assert not [e for e in events if e.get("purpose") == "pick_up"]
    assert len(state.fighters[0].hand) == 1


def test_standing_on_a_pick_up_square_searches_nothing() -> None:
    """« Si un joueur passe sur une case [...] » : a fighter who stays on the square (no movement point, or no move)
    has nothing to search; no camping on a pick-up square."""
    state = arena(PICKUPS, fighters=[{"at": (1, 2)}, {"at": None}], dice=[], mp=0)
    kinds = {a["type"] for a in state.legal_actions(0)}
    assert "pick_up" not in kinds
    with pytest.raises(IllegalAction, match="unknown action"):
        state.apply({"type": "pick_up", "player": 0})
    assert state.fighters[0].hand == []


def test_a_pick_up_square_held_by_another_fighter_is_searched_in_passing() -> None:
    """« Un combattant peut passer sur une case occupée pour un autre joueur » and « Si un joueur passe sur une case
    comportant un symbole [...] il a 50% de chance de piocher » : the square another fighter holds works too."""
    state = arena(PICKUPS, fighters=[{"at": (1, 1)}, {"at": (1, 2)}], dice=[6], mp=2)
    events = state.apply({"type": "move", "player": 0, "path": [place(state, 1, 2), place(state, 1, 3)]})
    assert [e["place"] for e in events if e.get("purpose") == "pick_up"] == [place(state, 1, 2)]
    assert [state.card(u).deck for u in state.fighters[0].hand] == ["weapon"]


def test_landing_on_a_pick_up_square_from_a_jump_searches_it() -> None:
    """A jump ends on the square: « passe sur une case » holds for the square landed on (not those flown over)."""
    state = arena(PICKUPS, fighters=[{"at": (1, 1), "speed": 3}, {"at": None}], dice=[5], mp=6)
    events = state.apply({"type": "jump", "player": 0, "to": place(state, 1, 4)})
    assert [e["place"] for e in events if e.get("purpose") == "pick_up"] == [place(state, 1, 4)]
    assert [state.card(u).deck for u in state.fighters[0].hand] == ["gadget"]


def test_the_movement_roll_uses_vitesse_dice_and_a_teleport_card_replaces_it() -> None:
    state = arena(
        OPEN, fighters=[{"at": (2, 2), "speed": 3, "hand": ["teleporteur_portable"]}, {"at": None}], dice=[2, 3, 4]
    )
    state.phase = "movement"
    clone = state.clone()
    events = state.apply({"type": "roll", "player": 0})
    assert events[0]["dice"] == [2, 3, 4] and state.turn.mp == 9
    clone.board = state.board
    clone.dice = state.dice
    card = clone.fighters[0].hand[0]
    clone.apply({"type": "play", "player": 0, "card": card, "to": place(clone, 4, 4)})
    assert clone.fighters[0].place == place(clone, 4, 4)
    assert clone.phase == "action" and clone.turn.mp == 0


def test_landing_in_acid_hurts() -> None:
    state = arena(
        ACID_HALL, fighters=[{"at": (1, 1), "speed": 3, "health": 3}, {"at": (4, 4)}], dice=[5, 5, 1, 1, 1], mp=6
    )
    events = state.apply({"type": "jump", "player": 0, "to": place(state, 1, 3)})
    assert [e["lost"] for e in events if e.get("purpose") == "acid"] == [3]
    assert state.fighters[0].out and state.current_players() == [1]


def test_a_walker_downed_by_acid_may_heal_and_walk_on() -> None:
    state = arena(
        ACID_HALL,
        fighters=[{"at": (1, 2), "health": 1, "hand": ["bandage"]}, {"at": (4, 4)}],
        dice=[2, 2, 3],  # 4 against 3: 1 lost, Santé 1 -> 0
        mp=4,
    )
    path = [place(state, 1, 3), place(state, 2, 3), place(state, 2, 4)]
    state.apply({"type": "move", "player": 0, "path": path})
    assert state.current_players() == [0] and state.pending is not None
    assert state.fighters[0].place == place(state, 1, 3)
    state.apply({"type": "play", "player": 0, "card": state.fighters[0].hand[0]})
    assert state.pending is None
    assert state.fighters[0].place == place(state, 2, 4) and state.fighters[0].hp == 1
    assert state.turn.mp == 1


@pytest.mark.parametrize("map_name", ["entrepot", "raffinerie"])
def test_the_walk_cut_at_the_movement_points_is_the_whole_walk_filtered(map_name: str) -> None:
    """Legal moves read ``walk_within`` (a search stopped at the fighter's points): it must list the same places,
    paths and order as the whole board's walk filtered, or the same seed would play another game."""
    board = load_board(map_name)
    for start in range(0, len(board.places), 7):
        whole = board.walk_paths(start)
        for budget in (0, 1, 2, 5, 9, 14):
            expected = [(place, path) for steps, place, path in whole if steps <= budget]
            assert board.walk_within(start, budget) == expected


def _dijkstra(board, start: int) -> dict[int, tuple[int, int, int | None]]:  # type: ignore[no-untyped-def]
    """The walk's definition, as a textbook search on (steps, acid, place): a place keeps the first way it is met."""
    best: dict[int, tuple[int, int, int | None]] = {start: (0, 0, None)}
    heap, settled = [(0, 0, start)], set()
    while heap:
        steps, acid, here = heapq.heappop(heap)
        if here in settled:
            continue
        settled.add(here)
        for nxt in board.steps[here].values():
            if nxt not in best:
                best[nxt] = (steps + 1, acid + (nxt in board.acid), here)
                heapq.heappush(heap, (steps + 1, acid + (nxt in board.acid), nxt))
    return best


@pytest.mark.parametrize("map_name", ["entrepot", "raffinerie"])
def test_the_walk_is_the_search_on_steps_then_acid_then_place(map_name: str) -> None:
    """« A chaque fois qu'un combattant traverse une case contenant de l'acide, celui-ci subit une attaque de 2D » : of
    the shortest paths the walk takes one crossing the least acid, then the one through the lowest place number.
    ``walk_costs`` gets there breadth first without a heap; every place, cost and previous place must match."""
    board = load_board(map_name)
    for start in range(0, len(board.places), 3):
        assert board.walk_costs(start, 10_000) == _dijkstra(board, start)


@pytest.mark.parametrize(
    ("board", "me", "other", "speed", "mp"),
    [
        (OPEN, (2, 3), (2, 5), 3, 6),  # a fighter in the way: its square is no landing
        (OPEN, (2, 3), (2, 5), 3, 5),  # an odd number of points: a jump of 3 costs 6
        (ACID_HALL, (2, 3), (1, 7), 2, 12),  # the wall at (3, 3) stops the jump south
        (TELEPORT, (1, 4), None, 4, 3),
    ],
)
def test_the_jumps_offered_are_the_straight_lines_within_vitesse_and_the_points_left(
    board: str, me: tuple[int, int], other: tuple[int, int] | None, speed: int, mp: int
) -> None:
    """« Un saut se fait en ligne droite ; On ne peut pas sauter un mur » ; « Une vitesse de 1 permet de sauter 1
    case » ; « Un saut coûte le double en déplacement »: the jumps the legal actions offer are the landings
    ``jumps`` traces line by line, and each is accepted at its cost."""
    state = arena(board, fighters=[{"at": me, "speed": speed}, {"at": other}], mp=mp)
    offered = {a["to"] for a in state.legal_actions(0) if a["type"] == "jump"}
    traced = state.jumps(0)
    assert offered == set(traced) and offered
    for to, line in traced.items():
        assert 2 * len(line) <= mp and len(line) <= speed and line[-1] == to
        jumped = arena(board, fighters=[{"at": me, "speed": speed}, {"at": other}], mp=mp, dice=[1] * 12)
        jumped.apply({"type": "jump", "player": 0, "to": to})
        assert jumped.turn.mp == mp - 2 * len(line)


def test_a_jump_on_the_spot_and_a_teleport_from_an_ordinary_square_are_refused() -> None:
    """« Un saut se fait en ligne droite »: it needs a direction, and it lands like a step, never on a fighter;
    « se téléporter d'une case téléporteur à une autre »: not from a floor square, nor from a teleporter to
    itself."""
    state = arena(TELEPORT, fighters=[{"at": (1, 4)}, {"at": (2, 4)}], mp=6)
    before = snapshot(state)
    with pytest.raises(IllegalAction, match="^a jump needs a direction$"):
        state.apply({"type": "jump", "player": 0, "to": place(state, 1, 4)})
    with pytest.raises(IllegalAction, match="^a fighter may pass through an occupied square but not stop on it$"):
        state.apply({"type": "jump", "player": 0, "to": place(state, 2, 4)})
    with pytest.raises(IllegalAction, match="^teleporters lead from one teleporter to another$"):
        state.apply({"type": "teleport", "player": 0, "to": place(state, 1, 6)})
    on_pad = arena(TELEPORT, fighters=[{"at": (1, 2)}, {"at": None}], mp=6)
    with pytest.raises(IllegalAction, match="^teleporters lead from one teleporter to another$"):
        on_pad.apply({"type": "teleport", "player": 0, "to": place(on_pad, 1, 2)})
    assert snapshot(state) == before
