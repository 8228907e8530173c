"""The points, disengaged points and Mods a state remembers (``state.mods_changed``, issue 15): kept when a change
cannot reach them, forgotten when it can, and always what a state rebuilt without them finds.

The test games' Traits adding SPECIAL points (« Doué », « Griffemort ») enter at the reveal, which forgets
everything: here one is moved in and out of a passive zone during the main phase, and pieces are equipped and
engaged, the points having been read just before."""

from __future__ import annotations

from tragic.engine import State
from tragic.engine.cards import ATTRIBUTES

from .helpers import give, started


def fresh_values(state: State, player: int) -> tuple[dict[str, int], dict[str, int]]:
    copy = state.clone()  # remembers nothing
    return copy._all_points(player), copy.available_points(player)


def assert_current(state: State, player: int) -> None:
    points, available = fresh_values(state, player)
    assert {a: state.points(player, a) for a in ATTRIBUTES} == points
    assert state.available_points(player) == available


def test_a_trait_adding_special_points_moved_during_play_changes_the_points() -> None:
    state = started()
    player = state.active
    uid = give(state, player, "doue-1", "hand")  # « Doué »: one L point less
    before = state.points(player, "L")
    state.available_points(player)
    state.move(uid, "trait")
    assert player not in state._points  # forgotten: the card adds SPECIAL points
    assert state.points(player, "L") == before - 1
    assert_current(state, player)
    state.available_points(player)
    state.move(uid, "discard")
    assert state.points(player, "L") == before
    assert_current(state, player)


def test_equipment_changes_keep_the_points_and_forget_the_mods() -> None:
    state = started()
    player = state.active
    uid = give(state, player, "armure-de-pillard-1", "equipment", engaged=True)
    state.available_points(player)
    mods = state.mods(player)
    state.cards[uid].engaged = False
    state.mods_changed(player, state.cards[uid].cid, equipment=True)
    # The piece adds no SPECIAL points: the points and disengaged points stay, the Mods are found again.
    assert player in state._points and player in state._available and player not in state._mods
    assert state.mods(player) is not mods
    assert_current(state, player)
    other = 1 - player
    state.available_points(other)
    state.move(uid, "discard")
    assert other in state._available  # a player's Mods come from their own cards only
    assert_current(state, player)
