"""A new game: the config checked, the decks shuffled and dealt, the first player rolled."""

from __future__ import annotations

from typing import Any

from .base import PLACEMENT, Event
from .cards import DECKS
from .errors import IllegalAction
from .fighters import ATTRIBUTES, DEFAULT_FRAGS_TO_WIN, DEFAULT_TURN_LIMIT, MAX_PLAYERS, Fighter, Turn, check_fighter
from .rng import Dice
from .state import State


def new_game(config: dict[str, Any], seed: int) -> State:
    """« Séparez et mélangez les 3 paquets de cartes [...] Donnez à chaque joueur 1 carte de chaque paquet. Lancez 1 dé
    pour savoir qui commence. »

    ``config``: ``map`` (a file in frag/maps), ``cards`` (a set in frag/cards, default "standard"),
    ``players`` (2 to 6 of ``{name, health, speed, accuracy, wins}``), ``frags_to_win`` (3),
    ``turn_limit`` (a cap on turns; 0 for none).
    """
    players = config.get("players")
    if not isinstance(players, list) or not 2 <= len(players) <= MAX_PLAYERS:
        raise IllegalAction("a game needs 2 to 6 players")
    for fighter in players:
        check_fighter(fighter, fighter.get("wins", 0))
    frags_to_win = config.get("frags_to_win", DEFAULT_FRAGS_TO_WIN)
    if not isinstance(frags_to_win, int) or frags_to_win < 1:
        raise IllegalAction("frags to win must be a positive number")
    clean = {
        "map": config.get("map", "entrepot"),
        "cards": config.get("cards", "standard"),
        "players": [
            {"name": str(p.get("name", f"P{i + 1}")), **{a: p[a] for a in ATTRIBUTES}, "wins": p.get("wins", 0)}
            for i, p in enumerate(players)
        ],
        "frags_to_win": frags_to_win,
        "turn_limit": config.get("turn_limit", DEFAULT_TURN_LIMIT),
    }
    state = State()
    state._attach(clean)
    state.dice = Dice(seed)
    state.fighters = [
        Fighter(name=p["name"], health=p["health"], speed=p["speed"], accuracy=p["accuracy"], hp=p["health"])
        for p in clean["players"]
    ]
    uid = 0
    for deck in DECKS:
        count = len(state.cardset.deck(deck))
        state.decks[deck] = list(range(uid, uid + count))
        uid += count
        state.dice.shuffle(state.decks[deck])
    events: list[Event] = []
    for seat in range(len(state.fighters)):
        for deck in DECKS:
            state._draw(deck, seat, events, reason="setup")
    # Highest die starts; ties roll again among themselves.
    contenders = list(range(len(state.fighters)))
    while len(contenders) > 1:
        rolls = {seat: state.dice.d6() for seat in contenders}
        events.append({"type": "dice", "purpose": "first_player", "rolls": {str(k): v for k, v in rolls.items()}})
        best = max(rolls.values())
        contenders = [seat for seat, roll in rolls.items() if roll == best]
    first = contenders[0]
    events.append({"type": "first_player", "player": first})
    state.setup_events = events
    state.turn = Turn(player=first, number=0)
    state.placement_order = [(first + i) % len(state.fighters) for i in range(len(state.fighters))]
    state.phase = PLACEMENT
    return state
