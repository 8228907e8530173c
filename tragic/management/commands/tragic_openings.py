from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandParser

from tragic.engine.card_files import default_pool, load_decklists
from tragic.engine.openings import library_key, tune

# The heuristic bot's own Compétences (bots.PREFERRED_SKILLS' first three): where the climb starts.
START_SKILLS = ["recyclage-1", "armes-a-feu-1", "corps-a-corps-1"]


class Command(BaseCommand):
    help = (
        "Search the search bot's opening book (Traits and Compétences per ready library and rule profile) by"
        " heuristic self-play against every ready library, and print the entries of tragic.engine.openings.BOOK."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--games", type=int, default=120, help="games per setup tried (the same seeds for each)")
        parser.add_argument("--seed", type=int, default=70000)
        parser.add_argument("--profile", action="append", choices=["wiki", "booklet"], help="default: both")
        parser.add_argument("--deck", action="append", help="ready library ids (default: every one)")
        parser.add_argument("--verbose-climb", action="store_true", help="print every setup tried and its score")

    def handle(self, *args: Any, **options: Any) -> None:
        decks = load_decklists()
        field = [d.cards for d in decks.values()]
        pool = default_pool()
        traits = sorted(c.id for c in pool.of_type("trait"))
        skills = sorted(c.id for c in pool.of_type("skill"))
        for profile in options["profile"] or ["wiki", "booklet"]:
            for deck_id in options["deck"] or list(decks):
                deck = decks[deck_id]
                entry = tune(
                    deck.cards,
                    field,
                    traits,
                    skills,
                    START_SKILLS,
                    profile=profile,
                    games=options["games"],
                    seed=options["seed"],
                    log=self.stdout.write if options["verbose_climb"] else None,
                )
                self.stdout.write(
                    f'    ("{library_key(deck.cards)}", "{profile}"): {{\n        "traits": {entry["traits"]!r},\n'
                    f'        "skills": {entry["skills"]!r},\n    }},  # {deck_id}'
                )
