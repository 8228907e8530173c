from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from tragic.engine.bots import BOTS
from tragic.simulation import simulate


class Command(BaseCommand):
    help = "Play TRAGIC games between bots and print win rates, average turns and games per second."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--games", type=int, default=100)
        parser.add_argument("--bots", default="heuristic,random", help="two of: " + ", ".join(BOTS))
        parser.add_argument("--profile", default="wiki", choices=["wiki", "booklet"])
        parser.add_argument("--max-turns", type=int, default=40, help="each player's turn limit (the timer rule)")
        parser.add_argument("--seed", type=int, default=0)

    def handle(self, *args: Any, **options: Any) -> None:
        names = tuple(options["bots"].split(","))
        if len(names) != 2 or any(name not in BOTS for name in names):
            raise CommandError(f"--bots takes two names among {', '.join(BOTS)}")
        report = simulate(
            options["games"],
            (names[0], names[1]),
            seed=options["seed"],
            profile=options["profile"],
            max_turns=options["max_turns"],
        )
        out = self.stdout
        out.write(f"{report.games} games ({options['profile']} rules), bots {names[0]} vs {names[1]}")
        for name, wins in sorted(report.wins.items()):
            out.write(f"  {name}: {wins} wins ({100 * wins / report.games:.1f}%)")
        out.write(f"  draws: {report.draws} ({100 * report.draws / report.games:.1f}%)")
        out.write(f"average turns: {report.average_turns:.1f}")
        out.write(f"games per second: {report.games_per_second:.1f}")
        out.write(f"engine steps per second: {report.steps_per_second:.0f}")
