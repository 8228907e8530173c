"""Headless Frag games between bots: frag counts, average turns and games per second."""

from __future__ import annotations

import random
import time
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from frag.engine import new_game
from frag.engine.board import available_maps
from frag.engine.bots import BOTS, play_out
from frag.engine.rng import Dice


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

    def handle(self, *args: Any, **options: Any) -> None:
        players, games = options["players"], options["games"]
        if not 2 <= players <= 6:
            raise CommandError("--players must be between 2 and 6")
        names = options["bot"].split(",")
        if len(names) == 1:
            names = names * players
        if len(names) != players or any(n not in BOTS for n in names):
            raise CommandError(f"--bot takes one of {', '.join(BOTS)} or one per seat")
        bots = [BOTS[n] for n in names]
        seed = options["seed"] if options["seed"] is not None else random.SystemRandom().randrange(2**32)
        frags = [0] * players
        wins = [0] * players
        draws = turns = actions = 0
        start = time.perf_counter()
        for game in range(games):
            config = {
                "map": options["map"],
                "players": [
                    {"name": f"{names[i]}-{i + 1}", "health": 2, "speed": 3, "accuracy": 2} for i in range(players)
                ],
                "turn_limit": options["turn_limit"],
                "frags_to_win": options["frags"],
            }
            state = new_game(config, seed + game)
            actions += len(play_out(state, bots, Dice(seed + game)))
            turns += state.turn.number
            for seat, fighter in enumerate(state.fighters):
                frags[seat] += fighter.frags
            if state.winner() is None:
                draws += 1
            else:
                wins[state.winner()] += 1
        elapsed = time.perf_counter() - start
        self.stdout.write(f"map {options['map']}, {games} games, {players} players, seeds {seed}..{seed + games - 1}")
        for seat in range(players):
            self.stdout.write(f"  seat {seat + 1} ({names[seat]}): {frags[seat]} frags, {wins[seat]} wins")
        self.stdout.write(f"games without a winner (turn limit): {draws}")
        self.stdout.write(f"average turns: {turns / max(1, games):.1f}")
        self.stdout.write(f"average actions: {actions / max(1, games):.1f}")
        self.stdout.write(f"games per second: {games / elapsed:.2f}")
