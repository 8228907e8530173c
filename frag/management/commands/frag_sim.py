"""Headless Frag games between bots: frag counts, average turns, games per second, and each bot's time per decision
(process time, which the machine's load does not stretch, beside wall time)."""

from __future__ import annotations

import random
import time
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from frag.engine import new_game
from frag.engine.base import Action
from frag.engine.board import available_maps
from frag.engine.bots import Bot, play_out
from frag.engine.fighters import STANDARD_SHEET
from frag.engine.levels import BOTS
from frag.engine.rng import Dice
from frag.engine.search import CAP_SECONDS, ROLLOUTS, SearchStats, search_bot_with
from frag.engine.state import State


class Command(BaseCommand):
    help = "Play Frag games between bots and print frag counts, average turns and games per second."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--games", type=int, default=20)
        parser.add_argument("--players", type=int, default=4)
        parser.add_argument("--map", default="entrepot", choices=available_maps())
        parser.add_argument("--bot", default="heuristic", help="heuristic, random, or a comma-separated list per seat")
        parser.add_argument("--seed", type=int, default=None, help="first seed (random when omitted)")
        parser.add_argument("--turn-limit", type=int, default=400)
        parser.add_argument("--frags", type=int, default=3, help="frags to win")
        parser.add_argument(
            "--search-rollouts", type=int, default=ROLLOUTS, help=f"the search bot's rollouts per decision ({ROLLOUTS})"
        )
        parser.add_argument(
            "--search-cap",
            type=float,
            default=CAP_SECONDS,
            help=f"the search bot's safety cap per decision, in seconds ({CAP_SECONDS}); 0: none",
        )
        parser.add_argument(
            "--search-clock",
            choices=("wall", "cpu"),
            default="wall",
            help="what the cap measures: wall time (as in the lobby) or this process's CPU time (load-proof)",
        )
        parser.add_argument(
            "--progress", action="store_true", help="print each game's winner as it ends (a cut run still counts)"
        )
        parser.add_argument(
            "--rotate", action="store_true", help="move each bot one seat on at each game (fair when bots differ)"
        )

    def handle(self, *args: Any, **options: Any) -> None:
        players, games = options["players"], options["games"]
        if not 2 <= players <= 6:
            raise CommandError("--players must be between 2 and 6")
        names = options["bot"].split(",")
        if len(names) == 1:
            names = names * players
        if len(names) != players or any(n not in BOTS for n in names):
            raise CommandError(f"--bot takes one of {', '.join(BOTS)} or one per seat")
        if options["search_rollouts"] < 1 or options["search_cap"] < 0:
            raise CommandError("--search-rollouts must be at least 1 and --search-cap at least 0")
        levels = dict(BOTS)
        search = SearchStats()
        levels["search"] = search_bot_with(
            options["search_rollouts"],
            cap=options["search_cap"] or None,
            clock=time.process_time if options["search_clock"] == "cpu" else time.perf_counter,
            stats=search,
        )
        # Per bot: decisions, CPU seconds, slowest CPU, wall seconds, slowest wall.
        timing = {n: [0, 0.0, 0.0, 0.0, 0.0] for n in set(names)}

        def timed(name: str) -> Bot:
            def bot(state: State, player: int, dice: Dice) -> Action:
                begin, begin_cpu = time.perf_counter(), time.process_time()
                action = levels[name](state, player, dice)
                cpu, wall = time.process_time() - begin_cpu, time.perf_counter() - begin
                record = timing[name]
                record[0] += 1
                record[1], record[2] = record[1] + cpu, max(record[2], cpu)
                record[3], record[4] = record[3] + wall, max(record[4], wall)
                return action

            return bot

        by_name = {n: timed(n) for n in set(names)}
        wins_by_bot = dict.fromkeys(names, 0)
        seed = options["seed"] if options["seed"] is not None else random.SystemRandom().randrange(2**32)
        frags = [0] * players
        wins = [0] * players
        draws = turns = actions = 0
        start = time.perf_counter()
        for game in range(games):
            config = {
                "map": options["map"],
                "players": [{"name": f"{names[i]}-{i + 1}", **STANDARD_SHEET} for i in range(players)],
                "turn_limit": options["turn_limit"],
                "frags_to_win": options["frags"],
            }
            shift = game % players if options["rotate"] else 0
            seated = names[shift:] + names[:shift]
            config["players"] = [{**p, "name": f"{seated[i]}-{i + 1}"} for i, p in enumerate(config["players"])]
            state = new_game(config, seed + game)
            actions += len(play_out(state, [by_name[n] for n in seated], Dice(seed + game)))
            turns += state.turn.number
            for seat, fighter in enumerate(state.fighters):
                frags[seat] += fighter.frags
            winner = state.winner()
            if winner is None:
                draws += 1
            else:
                wins[winner] += 1
                wins_by_bot[seated[winner]] += 1
            if options["progress"]:
                won = "none (turn limit)" if winner is None else seated[winner]
                times = "".join(
                    f"; {n} CPU {t[1] / max(1, t[0]) * 1000:.0f} ms per decision so far, slowest {t[2] * 1000:.0f} ms"
                    for n, t in sorted(timing.items())
                    if n == "search"
                )
                self.stdout.write(f"game {game + 1} seed {seed + game}: winner {won}, {state.turn.number} turns{times}")
                self.stdout.flush()
        elapsed = time.perf_counter() - start
        self.stdout.write(f"map {options['map']}, {games} games, {players} players, seeds {seed}..{seed + games - 1}")
        for seat in range(players):
            self.stdout.write(f"  seat {seat + 1} ({names[seat]}): {frags[seat]} frags, {wins[seat]} wins")
        self.stdout.write(f"games without a winner (turn limit): {draws}")
        self.stdout.write(f"average turns: {turns / max(1, games):.1f}")
        self.stdout.write(f"average actions: {actions / max(1, games):.1f}")
        self.stdout.write(f"games per second: {games / elapsed:.2f}")
        for name, (decisions, cpu, slowest_cpu, wall, slowest_wall) in sorted(timing.items()):
            self.stdout.write(
                f"  {name}: {wins_by_bot[name]} wins, {decisions} decisions, CPU {cpu / max(1, decisions) * 1000:.1f} ms "
                f"each on average, slowest {slowest_cpu * 1000:.0f} ms; wall {wall / max(1, decisions) * 1000:.1f} ms, "
                f"slowest {slowest_wall * 1000:.0f} ms"
            )
        if "search" in names:
            self.stdout.write(
                f"  search: {search.decisions} decisions searched, {search.rollouts / max(1, search.decisions):.0f} "
                f"rollouts each on average, {search.capped} cut short by the {options['search_clock']} cap"
            )
