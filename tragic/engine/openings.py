"""The search bot's setup (« Mise en Place »): Traits and Compétences chosen by self-play, per library.

Phase 0 is played once, face down (« les choix sont révélés ensemble »), before anything of the opponent is
seen, and it weighs more than any later move: with the ready libraries, heuristic bots that differ only in one
Compétence win from 7 % to 82 % of their games (``docs/benchmarks.md``, session 7). Rollouts cannot rank
92 × 364 combinations within a second, so the choice is searched *offline*, as an opening book: :func:`tune`
plays heuristic bots with the candidate setup against a field of opponents (each ready library, with the
heuristic's own setup, in both seats) and climbs one card at a time. ``BOOK`` keeps the result per library (its
sorted card list's digest) and rule profile; ``manage.py tragic_openings`` recomputes it. A library not in the
book gets the heuristic's choice. The book reads only the player's own library, which the player knows.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Sequence
from typing import Any

from .bots import HeuristicBot
from .game import State, new_game
from .legal import Action

# (library digest, profile) -> the Traits and the Compétences to choose. Found by ``manage.py tragic_openings --games 300 --seed 70000`` (session 7: 57 setups tried per library and profile,
# 300 heuristic games each; checked on 400 games of other seeds, docs/benchmarks.md).
BOOK: dict[tuple[str, str], dict[str, tuple[str, ...]]] = {
    ("b5bb09f0579d0d0c", "wiki"): {
        "traits": ("bon-vivant-bon-fond-1", "peau-dure-1"),
        "skills": ("passe-partout-crochetage-1", "troc-1", "voleur-appropriation-1"),
    },  # acier-et-plomb
    ("3d80339bd46b4186", "wiki"): {
        "traits": ("petite-carrure-1", "unidextre-1"),
        "skills": ("discretion-1", "medecine-1", "voleur-appropriation-1"),
    },  # la-bande-des-terres-desolees
    ("b5bb09f0579d0d0c", "booklet"): {
        "traits": ("bon-vivant-bon-fond-1", "unidextre-1"),
        "skills": ("corps-a-corps-1", "troc-1", "voleur-appropriation-1"),
    },  # acier-et-plomb
    ("3d80339bd46b4186", "booklet"): {
        "traits": ("griffemort-2", "peau-dure-1"),
        "skills": ("discretion-1", "explosifs-1", "medecine-1"),
    },  # la-bande-des-terres-desolees
}


def library_key(deck: Sequence[str]) -> str:
    """A library's digest: its cards, sorted, so that the order they were listed in does not matter."""
    return hashlib.sha1("\n".join(sorted(deck)).encode()).hexdigest()[:16]


def book_choice(state: State, player: int, legal: Sequence[Action]) -> Action | None:
    """The book's setup action among ``legal`` for ``player`` (None: not in the book, or not offered)."""
    entry = BOOK.get((library_key(state.players[player].deck), state.profile.name))
    if entry is None or not legal:
        return None
    field = {"choose_traits": "traits", "choose_skills": "skills"}.get(legal[0]["kind"])
    if field is None:
        return None
    wanted = sorted(entry[field])
    return next((a for a in legal if sorted(a[field]) == wanted), None)


class SetBot(HeuristicBot):
    """The heuristic bot with a fixed setup (None: the heuristic's own)."""

    def __init__(self, seed: int, traits: Sequence[str] | None, skills: Sequence[str] | None) -> None:
        super().__init__(seed)
        self.traits, self.skills = traits, skills

    def setup_choice(self, state: State, player: int, legal: list[Action]) -> Action:
        field, wanted = ("traits", self.traits) if legal[0]["kind"] == "choose_traits" else ("skills", self.skills)
        if wanted is not None:
            chosen = next((a for a in legal if sorted(a[field]) == sorted(wanted)), None)
            if chosen is not None:
                return chosen
        return super().setup_choice(state, player, legal)


def score_setup(
    deck: Sequence[str],
    field: Sequence[Sequence[str]],
    traits: Sequence[str] | None,
    skills: Sequence[str] | None,
    *,
    profile: str,
    games: int,
    seed: int,
    max_turns: int = 40,
) -> float:
    """The share of ``games`` won (a draw: half) by heuristic bots on ``deck`` with this setup, against each
    library of ``field`` in turn (heuristic setup), seats alternating. The same seeds for every setup, so that
    two setups are compared on the same deals."""
    won = 0.0
    for n in range(games):
        opponent = field[n % len(field)]
        seat = (n // len(field)) % 2
        decks = [list(deck), list(opponent)] if seat == 0 else [list(opponent), list(deck)]
        config: dict[str, Any] = {
            "profile": profile,
            "max_turns": max_turns,
            "players": [{"name": f"P{i + 1}", "deck": d} for i, d in enumerate(decks)],
        }
        bots: list[HeuristicBot] = [HeuristicBot(seed + 2 * n + i) for i in range(2)]
        bots[seat] = SetBot(seed + 2 * n + seat, traits, skills)
        state = new_game(config, seed + n)
        while not state.is_over():
            player = state.current_players()[0]
            state.apply(bots[player].choose(state, player))
        winner = state.winner()
        won += 0.5 if winner is None else float(winner == seat)
    return won / games


def tune(
    deck: Sequence[str],
    field: Sequence[Sequence[str]],
    traits_pool: Sequence[str],
    skills_pool: Sequence[str],
    start_skills: Sequence[str],
    *,
    profile: str,
    games: int,
    seed: int,
    log: Callable[[str], None] | None = None,
) -> dict[str, tuple[str, ...]]:
    """Hill-climbing, one card at a time: each of the three Compétences replaced by each other one (keeping a
    change only if it wins more), then the best single Trait, then the best second one (or none)."""

    def score(traits: Sequence[str] | None, skills: Sequence[str]) -> float:
        value = score_setup(deck, field, traits, skills, profile=profile, games=games, seed=seed)
        if log is not None:
            log(
                f"{profile} traits={list(traits) if traits is not None else 'heuristic'} skills={list(skills)}: {value:.3f}"
            )
        return value

    skills = list(start_skills)
    best = score(None, skills)
    for place in range(len(skills)):
        for other in skills_pool:
            if other in skills:
                continue
            trial = skills[:place] + [other] + skills[place + 1 :]
            value = score(None, trial)
            if value > best:
                best, skills = value, trial
    traits: list[str] = []
    best_traits = score(traits, skills)
    for one in traits_pool:
        value = score([one], skills)
        if value > best_traits:
            best_traits, traits = value, [one]
    if traits:
        single = traits[0]
        for two in traits_pool:
            if two == single:
                continue
            value = score(sorted([single, two]), skills)
            if value > best_traits:
                best_traits, traits = value, sorted([single, two])
    return {"traits": tuple(traits), "skills": tuple(sorted(skills))}
