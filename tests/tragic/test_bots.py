"""Bots play whole games through the public API; the simulation command reports on them."""

from __future__ import annotations

import json
import re
from io import StringIO

import pytest
from django.core.management import CommandError, call_command

from tests.tragic.helpers import give, set_points, started, turn_of
from tragic.engine import new_game
from tragic.engine.bots import HeuristicBot
from tragic.engine.roster import make_bot
from tragic.simulation import default_config, seating_for, simulate


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
    # Each bot's thinking time per decision (the search bot's budget is checked against it).
    assert re.search(r"heuristic: \d+ decisions, [\d.]+ ms of CPU each on average, slowest \d+ ms", text)
    assert re.search(r"random: \d+ decisions", text)


def test_tragic_sim_gives_the_interval_the_running_tally_and_the_searchs_cuts():
    """Issue 15's runs are long and may be stopped: each game's line carries the tally so far; the summary gives
    each win rate's 95 % interval and how many search decisions a cap cut (0: the run does not depend on load)."""
    from tragic.simulation import wilson_interval

    out = StringIO()
    call_command(
        "tragic_sim", games=2, bots="search,heuristic", max_turns=3, search_rounds=2, progress=True, stdout=out
    )
    text = out.getvalue()
    assert re.search(r"game 2: heuristic vs search: .*\[(draws|heuristic|search) \d+", text)
    assert re.search(r"search: \d+ wins \([\d.]+%, 95% interval [\d.]+-[\d.]+%\)", text)
    assert "search: 0 decisions cut by a time cap" in text
    low, high = wilson_interval(16, 19)
    assert (round(100 * low), round(100 * high)) == (62, 94)  # the figures of docs/benchmarks.md's earlier run
    assert wilson_interval(0, 0) == (0.0, 1.0)


def test_a_run_split_at_any_game_plays_the_same_games_as_the_whole_run():
    """A 200-game acceptance run stopped at game 62 (session 7) goes on with ``--first-game 62``: each game's deal,
    seats and bots' seeds follow from the run's seed and the game's number, so the pieces are the whole run."""

    def games(count: int, first: int) -> list[tuple[int, tuple[str, ...], int | None, int, str]]:
        played: list[tuple[int, tuple[str, ...], int | None, int, str]] = []
        simulate(
            count,
            ("search", "heuristic"),
            seed=40,
            max_turns=4,
            search_rounds=2,
            first_game=first,
            on_game=lambda number, seating, winner, state: played.append(
                (number, seating, winner, state.turn, json.dumps(state.to_json(), sort_keys=True))
            ),
        )
        return played

    whole = games(3, 0)
    assert [g[0] for g in whole] == [0, 1, 2]
    assert games(1, 0) + games(2, 1) == whole  # split after the first game
    assert games(1, 2) == whole[2:]  # and started at the last one alone


def test_tragic_sim_resumes_at_a_game_number_and_refuses_a_negative_one():
    out = StringIO()
    call_command("tragic_sim", games=2, bots="heuristic,random", first_game=5, max_turns=5, progress=True, stdout=out)
    lines = [line for line in out.getvalue().splitlines() if line.startswith("game ")]
    # Game 6 is the sixth game of a whole run: seats shifted by one from the first (odd number).
    assert lines[0].startswith("game 6: random vs heuristic: ") and lines[1].startswith("game 7: heuristic vs random")
    with pytest.raises(CommandError, match="first-game"):
        call_command("tragic_sim", games=1, first_game=-1, stdout=StringIO())


def test_tragic_sim_can_seat_the_search_bot_with_the_fitted_evaluation():
    """``evaluation.py``'s model is off in the seated bot; ``--search-evaluation model`` tries it against the life
    race on the same seeds, and a name that is not an evaluation is refused."""
    assert make_bot("search", 1, evaluation="model").evaluation == "model"  # type: ignore[attr-defined]
    assert make_bot("search", 1).evaluation == "life"  # type: ignore[attr-defined]
    out = StringIO()
    call_command(
        "tragic_sim",
        games=1,
        bots="search,heuristic",
        max_turns=3,
        search_rounds=2,
        search_evaluation="model",
        stdout=out,
    )
    assert "1 games" in out.getvalue()
    with pytest.raises(CommandError):
        call_command("tragic_sim", "--search-evaluation", "oracle", stdout=StringIO())


@pytest.mark.parametrize("players", [3, 4])
@pytest.mark.parametrize("bots", [("heuristic",), ("random",), ("heuristic", "random")])
def test_bots_finish_three_and_four_player_games_that_replay_identically(players, bots):
    """« L'ordre de jeu autour de la table est toujours dans le sens horaire » (001): bots choose among
    several opponents; every game ends, and its actions rebuild the identical final state."""
    config = default_config(players=players, max_turns=25)
    for number in range(3):
        seating = seating_for(bots, players, number)
        seats = [make_bot(name, number * players + i) for i, name in enumerate(seating)]
        state = new_game(config, number)
        actions = []
        while not state.is_over():
            player = state.current_players()[0]
            action = seats[player].choose(state, player)
            state.apply(action)
            actions.append(action)
        replay = new_game(config, number)
        for action in json.loads(json.dumps(actions)):
            replay.apply(action)
        assert replay.to_json() == state.to_json()


def test_the_heuristic_bot_finishes_the_opponent_it_can_kill():
    """With several opponents, the blow that puts one out is worth most."""
    state = turn_of(started(players=3), 0)
    bot = HeuristicBot(1)
    state.players[2].life = 1
    set_points(state, 0, "S", 3)
    give(state, 0, "coup-de-poing-1")
    choices = [
        a
        for a in state.legal_actions(0)
        if a["kind"] == "play" and state.cards[a["card"]].cid == "coup-de-poing-1" and "aim" not in a
    ]
    assert {a["target"]["player"] for a in choices if "player" in a.get("target", {})} == {1, 2}
    scores = {a["target"]["player"]: bot.score(state, 0, a) for a in choices if "player" in a["target"]}
    assert scores[2] > scores[1]


def test_simulations_seat_three_or_four_bots():
    report = simulate(3, ("heuristic", "random"), seed=2, players=3, max_turns=20)
    assert report.games == 3 and sum(report.wins.values()) + report.draws == 3
    out = StringIO()
    call_command("tragic_sim", games=2, bots="heuristic,random", players=4, max_turns=15, stdout=out)
    assert "4 players" in out.getvalue() and "games per second" in out.getvalue()
    with pytest.raises(CommandError):
        call_command("tragic_sim", games=1, players=3, profile="booklet", stdout=StringIO())


def test_the_search_bot_never_reads_the_opponents_hand():
    """Determinized rollouts « from what the observer knows »: the same position with a different hand for
    the opponent (same size) gives the same decision."""
    from tests.tragic.helpers import give, started, turn_of
    from tragic.engine.search import SearchBot

    choices = []
    for hidden in ("esquive-1", "contre-mesure-2"):
        state = turn_of(started(seed=5), 0)
        for uid in list(state.players[1].zones["hand"]):
            state.move(uid, "library")
        give(state, 1, hidden)
        bot = SearchBot(3, max_rollouts=8, horizon=20)
        world = bot.determinize(state, 0)
        hidden_cards = [world.cards[u].cid for z in ("hand", "library") for u in world.players[1].zones[z]]
        choices.append((bot.choose(state, 0), hidden_cards))
    assert choices[0] == choices[1]


def test_the_search_bot_plays_whole_legal_games():
    from tragic.engine.search import SearchBot
    from tragic.simulation import default_config

    state = new_game(default_config(max_turns=6), 9)
    bots = [SearchBot(1, max_rollouts=4, horizon=15), make_bot("heuristic", 2)]
    while not state.is_over():
        player = state.current_players()[0]
        action = bots[player].choose(state, player)
        assert action in state.legal_actions(player)
        state.apply(action)
    assert make_bot("search", 0, budget=0.1).budget == 0.1


def test_the_seated_search_bot_decides_alike_whatever_it_cannot_see():
    """Information-set search « over the engine's own API, never peeking »: two positions that differ only in
    what seat 0 cannot see — the opponent's hand and library (cards and order), seat 0's own library order and
    the game's generator (the next dice and shuffles) — give the seated search bot the same decision, and the
    determinizations it plays in are the same worlds."""
    import random

    from tests.tragic.helpers import give, started, turn_of
    from tragic.engine.roster import SEARCH_SEATED
    from tragic.engine.search import SearchBot

    decisions, worlds = [], []
    for variant, hidden in enumerate((["esquive-1", "vatsmod-1"], ["contre-mesure-2", "esquive-1"])):
        state = turn_of(started(seed=5), 0)
        opponent = state.players[1]
        for uid in list(opponent.zones["hand"]):
            state.move(uid, "library")
        for cid in hidden:
            give(state, 1, cid)
        shuffle = random.Random(variant)
        shuffle.shuffle(opponent.zones["library"])
        shuffle.shuffle(state.players[0].zones["library"])
        state.rng = random.Random(1000 + variant)
        bot = SearchBot(3, **{**SEARCH_SEATED, "rounds": 4, "horizon": 20})
        decisions.append(bot.choose(state, 0))
        world = SearchBot(4).determinize(state, 0, canonical=True)
        worlds.append(
            [[world.cards[u].cid for u in p.zones[z]] for p in world.players for z in ("hand", "library")]
            + [world.rng.random()]
        )
    assert decisions[0] == decisions[1]
    assert worlds[0] == worlds[1]


class _Clock:
    """A clock that jumps ``step`` seconds at each reading: a machine so loaded (wall-clock) or a decision so slow
    (CPU) that every cap is passed at its first check."""

    def __init__(self, step: float) -> None:
        self.now, self.step = 0.0, step

    def __call__(self) -> float:
        self.now += self.step
        return self.now


def _searched_position():
    from tests.tragic.helpers import started, turn_of

    return turn_of(started(seed=5), 0)


def _counting(monkeypatch):
    from tragic.engine.search import SearchBot

    played = []
    play_on = SearchBot.play_on

    def counted(self, world, player, action, seed):
        played.append(action["kind"])
        return play_on(self, world, player, action, seed)

    monkeypatch.setattr(SearchBot, "play_on", counted)
    return played


def test_the_seated_search_bot_counts_its_work_in_rounds_not_in_seconds(monkeypatch):
    """Issue 15: the bot's strength must not depend on the machine's load. Its work is a number of rounds, so a
    wall-clock gone slow changes neither the rollouts played nor the decision; a wall-clock cap (the lobby's),
    or the CPU cap, stops a decision after the round that passed it and counts the cut."""
    import tragic.engine.search as search
    from tragic.engine.search import SearchBot

    settings = {"rounds": 3, "horizon": 10, "paired": True, "candidates": 3, "budget": 5.0}
    played = _counting(monkeypatch)
    quiet = SearchBot(3, **settings).choose(_searched_position(), 0)
    on_quiet = len(played)
    assert on_quiet == 9

    played.clear()
    monkeypatch.setattr(search.time, "monotonic", _Clock(100.0))
    loaded_bot = SearchBot(3, **settings)
    assert loaded_bot.choose(_searched_position(), 0) == quiet
    assert len(played) == on_quiet and loaded_bot.cuts == 0

    played.clear()
    capped = SearchBot(3, **settings, wall_cap=1.0)
    capped.choose(_searched_position(), 0)
    assert len(played) == 3 and capped.cuts == 1

    played.clear()
    monkeypatch.setattr(search.time, "process_time", _Clock(10.0))
    slow = SearchBot(3, **settings)
    slow.choose(_searched_position(), 0)
    assert len(played) == 3 and slow.cuts == 1


def test_the_search_stops_once_no_candidate_can_catch_the_leader(monkeypatch):
    """The early stop is exact: the same decision as playing every round, with fewer rollouts. The rollouts here
    are scored by a stand-in (one candidate far ahead, noise from the rollout's seed), as when one move wins."""
    import random as stdlib_random

    from tragic.engine.search import SearchBot

    def scored(self, world, player, action, seed):
        played.append(action["kind"])
        ahead = 0.7 if len(played) % 3 == 0 else -0.6  # the third candidate of each round: the heuristic's last
        if ahead > 0:
            leader[:] = [action]
        return ahead + stdlib_random.Random(seed * 31 + len(played)).uniform(-0.3, 0.3)

    played: list[str] = []
    leader: list[dict] = []
    monkeypatch.setattr(SearchBot, "play_on", scored)
    settings = {"rounds": 12, "horizon": 5, "paired": True, "candidates": 3}
    decisions, counts, leaders = [], [], []
    for stop in (True, False):
        if not stop:
            monkeypatch.setattr(SearchBot, "settled", staticmethod(lambda totals, alive, left: len(alive) < 2))
        for seed in range(3):
            played.clear()
            decisions.append(SearchBot(seed, **settings).choose(_searched_position(), 0))
            counts.append(len(played))
            leaders += leader
    assert decisions[:3] == decisions[3:] and decisions == leaders
    assert counts[3:] == [36, 36, 36] and all(c < 36 for c in counts[:3])


def test_halving_drops_the_worse_half_of_the_candidates(monkeypatch):
    from tragic.engine.search import SearchBot

    monkeypatch.setattr(SearchBot, "settled", staticmethod(lambda totals, alive, left: len(alive) < 2))
    played = _counting(monkeypatch)
    SearchBot(3, rounds=5, horizon=8, paired=True, candidates=4, halving=(2,)).choose(_searched_position(), 0)
    assert len(played) == 2 * 4 + 3 * 2
