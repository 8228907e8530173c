from __future__ import annotations

from collections import Counter
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from tragic.engine.profiles import PROFILES
from tragic.engine.roster import BOTS
from tragic.engine.search import EVALUATIONS
from tragic.simulation import simulate, wilson_interval


class Command(BaseCommand):
    help = "Play TRAGIC games between bots and print win rates, average turns and games per second."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--games", type=int, default=100)
        parser.add_argument(
            "--bots", default="heuristic,random", help="bots seated in turn, comma-separated, among: " + ", ".join(BOTS)
        )
        parser.add_argument("--players", type=int, default=2, help="seats: 2, or 3 and 4 under the wiki rules")
        parser.add_argument("--profile", default="wiki", choices=["wiki", "booklet"])
        parser.add_argument("--max-turns", type=int, default=40, help="each player's turn limit (the timer rule)")
        parser.add_argument("--seed", type=int, default=0)
        parser.add_argument(
            "--progress", action="store_true", help="print each game's seats and winner as it ends (long runs)"
        )
        parser.add_argument(
            "--search-budget", type=float, default=None, help="the search bot's cap in seconds of CPU per decision"
        )
        parser.add_argument(
            "--search-rounds", type=int, default=None, help="the search bot's work per decision, in rounds of rollouts"
        )
        parser.add_argument(
            "--search-evaluation",
            choices=EVALUATIONS,
            default=None,
            help="how the search bot scores a rollout's last position (default: the seated bot's, the life race)",
        )
        parser.add_argument(
            "--first-game",
            type=int,
            default=0,
            help="number of the first game: resumes or splits a run with the same games (seeds, seats, bots' seeds)",
        )

    def progress(self, number: int, seating: tuple[str, ...], winner: int | None, state: Any) -> None:
        # A running tally by bot name, so that a long run stopped early still says where it stood.
        self.tally["draws" if winner is None else seating[winner]] += 1
        result = "draw" if winner is None else f"{seating[winner]} (seat {winner + 1}) wins"
        tally = ", ".join(f"{name} {count}" for name, count in sorted(self.tally.items()))
        self.stdout.write(f"game {number + 1}: {' vs '.join(seating)}: {result}, turn {state.turn} [{tally}]")
        self.stdout.flush()

    def handle(self, *args: Any, **options: Any) -> None:
        names = tuple(options["bots"].split(","))
        players = options["players"]
        if not names or any(name not in BOTS for name in names):
            raise CommandError(f"--bots takes names among {', '.join(BOTS)}")
        limit = PROFILES[options["profile"]].max_players
        if not 2 <= players <= limit:
            raise CommandError(f"--players: the {options['profile']} rules seat 2 to {limit} players")
        if options["first_game"] < 0:
            raise CommandError("--first-game: a game number, 0 or more")
        self.tally: Counter[str] = Counter()
        report = simulate(
            options["games"],
            names,
            seed=options["seed"],
            profile=options["profile"],
            max_turns=options["max_turns"],
            players=players,
            search_budget=options["search_budget"],
            search_rounds=options["search_rounds"],
            search_evaluation=options["search_evaluation"],
            first_game=options["first_game"],
            on_game=self.progress if options["progress"] else None,
        )
        out = self.stdout
        out.write(f"{report.games} games ({options['profile']} rules, {players} players), bots {' vs '.join(names)}")
        for name, wins in sorted(report.wins.items()):
            low, high = wilson_interval(wins, report.games)
            out.write(
                f"  {name}: {wins} wins ({100 * wins / report.games:.1f}%, 95% interval"
                f" {100 * low:.1f}-{100 * high:.1f}%)"
            )
        out.write(f"  draws: {report.draws} ({100 * report.draws / report.games:.1f}%)")
        out.write(f"average turns: {report.average_turns:.1f}")
        out.write(f"games per second: {report.games_per_second:.1f}")
        out.write(f"engine steps per second: {report.steps_per_second:.0f}")
        for name, (decisions, seconds, slowest) in sorted(report.thinking.items()):
            out.write(
                f"  {name}: {int(decisions)} decisions, {1000 * seconds / max(1, decisions):.1f} ms of CPU each on"
                f" average, slowest {1000 * slowest:.0f} ms"
            )
        for name, cuts in sorted(report.cuts.items()):
            out.write(f"  {name}: {cuts} decisions cut by a time cap (0: the run does not depend on the load)")
