"""What the board shows one seat: tappable squares, jump targets only where walking cannot go, lines of sight."""

from __future__ import annotations

from io import StringIO

from django.core.management import call_command

from frag.selectors.board import board_view
from frag.selectors.choices import choices
from tests.frag.arena import arena, place

HALL = """
##########
#1.~~....#
#........#
#3..#...4#
#5.....26#
##########
"""


def test_reachable_squares_jumps_over_acid_and_lines_of_sight_are_highlighted() -> None:
    state = arena(HALL, fighters=[{"at": (1, 2), "speed": 3}, {"at": (1, 7)}, {"at": (4, 1)}], mp=6)
    legal = state.legal_actions(0)
    view = board_view(state, 0, legal)
    styles = {t["place"]: t["style"] for t in view.targets}
    assert styles[place(state, 2, 2)] == "reachable"
    # Beyond the acid: walking would cross it, so the jump is offered too.
    assert any(t["place"] == place(state, 1, 5) and t["style"] == "jump" for t in view.targets)
    # Next door, walking is cheaper and safe: no jump offered there.
    assert not any(t["place"] == place(state, 2, 2) and t["style"] == "jump" for t in view.targets)
    assert len(view.sight_lines) == len(state.targets_in_sight(0)) == 2


def test_every_non_spatial_action_gets_a_button_and_the_teleport_card_a_square_picker() -> None:
    state = arena(HALL, fighters=[{"at": (1, 2), "hand": ["teleporteur_portable", "bandage"]}, {"at": (1, 7)}])
    state.phase = "movement"
    labels = [c.label for c in choices(state, state.legal_actions(0))]
    assert labels[0].startswith("Roll 3 dice")
    assert any(label.startswith("Play Portable teleporter: choose a square") for label in labels)


def test_frag_sim_prints_frags_turns_and_games_per_second() -> None:
    out = StringIO()
    call_command("frag_sim", games=2, players=4, seed=3, turn_limit=60, stdout=out)
    text = out.getvalue()
    assert "seat 4 (heuristic)" in text and "average turns:" in text and "games per second:" in text


def test_why_a_fighter_is_off_the_board() -> None:
    """Before placement a fighter is about to appear; fragged, it comes back on its turn; disconnected, likewise."""
    from frag.engine.base import PLACEMENT
    from frag.selectors.fighters import fighter_status

    state = arena(fighters=[{"at": (1, 1)}, {"at": None, "hp": 0}, {"at": None}])
    assert fighter_status(state, 0) == ("", "")
    assert fighter_status(state, 1)[0] == "respawning"
    assert fighter_status(state, 2)[0] == "disconnected"
    state.phase = PLACEMENT
    assert fighter_status(state, 2) == ("to_place", "to place")


def test_the_damage_line_agrees_with_the_points_lost_in_french() -> None:
    """Issue 12, Words: « 3 perdu(s) » read as « 3 perdus », « 1 perdu »; English "lost" is both."""
    from django.utils import translation

    from frag.selectors.log import describe

    state = arena(fighters=[{"at": (1, 1)}, {"at": (1, 7)}])
    roll = {"type": "damage_roll", "player": 1, "attack_dice": [6, 5], "defence_dice": [2], "lost": 3}
    with translation.override("fr"):
        assert describe(state, roll).endswith(", 3 perdus")
        assert describe(state, {**roll, "lost": 1}).endswith(", 1 perdu")
        assert describe(state, {**roll, "purpose": "acid", "lost": 2}).startswith("Acide : ")
        assert describe(state, {**roll, "purpose": "acid", "lost": 2}).endswith(", 2 perdus")
    with translation.override("en"):
        assert describe(state, roll) == "Damage: 6 5 against 2, 3 lost"
