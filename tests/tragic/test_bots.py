"""Bots play whole games through the public API; the simulation command reports on them."""

from __future__ import annotations

from io import StringIO

from django.core.management import call_command

from tragic.simulation import simulate


def test_heuristic_bot_beats_the_random_bot():
    report = simulate(20, ("heuristic", "random"), seed=3)
    assert report.wins["heuristic"] > report.wins["random"]


def test_random_and_heuristic_bots_finish_booklet_games():
    report = simulate(6, ("random", "heuristic"), seed=5, profile="booklet")
    assert report.games == 6 and report.steps > 0


def test_tragic_sim_prints_win_rates_turns_and_speed():
    out = StringIO()
    call_command("tragic_sim", games=4, bots="heuristic,random", stdout=out)
    text = out.getvalue()
    assert "heuristic" in text and "average turns" in text and "games per second" in text
