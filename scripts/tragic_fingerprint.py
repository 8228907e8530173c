"""A fingerprint of 500 seeded random TRAGIC games played by codes: the guard of engine speed work (issue 15).

Speed work must not change a single game. This plays, by codes as the playout benchmark does (``legal_codes``
without conceding, a seeded uniform choice, ``apply_code``), seeds 0–199 of the wiki and booklet profiles with
two players and seeds 0–49 of the wiki profile with three and four players, and hashes every offered list
(decoded into its action dicts, in order: bots choose by position), every event list and every final state.
The golden game tests cover 17 games at every commit; this covers 500 and is run by hand around a speed change:

    .venv/bin/python scripts/tragic_fingerprint.py          # prints the 20-hex-digit fingerprint
"""

from __future__ import annotations

import hashlib
import json
import os
import random
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from tragic.engine import new_game  # noqa: E402
from tragic.simulation import default_config  # noqa: E402

RUNS = (("wiki", 2, 200), ("booklet", 2, 200), ("wiki", 3, 50), ("wiki", 4, 50))


def fingerprint() -> tuple[str, int]:
    digest, steps = hashlib.sha256(), 0
    for profile, players, games in RUNS:
        config = default_config(profile=profile, players=players)
        for seed in range(games):
            state, rng = new_game(config, seed), random.Random(seed)
            while not state.is_over() and steps < 10_000_000:
                player = state.current_players()[0]
                codes = state.legal_codes(player, concede=False) or state.legal_codes(player)
                offered = [state.decode(code) for code in codes]
                events = state.apply_code(rng.choice(codes))
                digest.update(json.dumps([offered, events], sort_keys=True).encode())
                steps += 1
            digest.update(json.dumps(state.to_json(), sort_keys=True).encode())
    return digest.hexdigest()[:20], steps


if __name__ == "__main__":
    value, steps = fingerprint()
    print(f"{value} ({steps} steps)")
