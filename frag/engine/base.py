"""What every part of a Frag game reads: the state's data, the cards, the stats, who stands where, persistence.

The parts of the game build on it, each in its own module: ``turns`` (turn flow), ``wounds`` (damage and
frags), ``movement``, ``healing``, ``playing`` (cards into play), ``pickups``, ``attacks``, ``observation``;
``state.State`` puts them together with the API (``apply``, ``legal_actions``).
"""

from __future__ import annotations

import copy
from dataclasses import asdict
from typing import Any, Self

from . import combat
from .board import Board, load_board
from .cards import DECKS, STATS, Card, CardSet, load_cards
from .errors import IllegalAction
from .fighters import Fighter, Turn
from .rng import Dice

Action = dict[str, Any]
Event = dict[str, Any]

PLACEMENT, MOVEMENT, ACTION, DISCARD, OVER = "placement", "movement", "action", "discard", "over"


class StateBase:
    """The whole game's data. Build a game with ``setup.new_game`` or ``State.from_json``."""

    def __init__(self) -> None:
        self.config: dict[str, Any] = {}
        self.board: Board
        self.cardset: CardSet
        self.card_ids: list[str] = []  # uid -> card id
        self.dice = Dice(0)
        self.fighters: list[Fighter] = []
        self.decks: dict[str, list[int]] = {d: [] for d in DECKS}
        self.discards: dict[str, list[int]] = {d: [] for d in DECKS}
        self.modifiers: list[dict[str, Any]] = []
        self.blood: dict[int, int] = {}  # place -> blood markers
        self.piles: dict[int, dict[str, Any]] = {}  # pile id -> {place, cards, dropped_by, turn}
        self.next_pile = 0
        self.phase = PLACEMENT
        self.placement_order: list[int] = []
        self.turn = Turn()
        self.pending: dict[str, Any] | None = None
        self.winner_seat: int | None = None
        self.actions_applied = 0
        # What new_game dealt and rolled (not part of the state: the caller stores it once).
        self.setup_events: list[Event] = []

    # --- cards ----------------------------------------------------------------------------
    def card(self, uid: int) -> Card:
        return self.cardset.cards[self.card_ids[uid]]

    def _draw(self, deck: str, player: int, events: list[Event], reason: str) -> int | None:
        """« quand le paquet est terminé, on mélange la défausse »"""
        pile = self.decks[deck]
        if not pile and self.discards[deck]:
            pile.extend(self.discards[deck])
            self.discards[deck].clear()
            self.dice.shuffle(pile)
            events.append({"type": "reshuffled", "deck": deck})
        if not pile:
            events.append({"type": "deck_empty", "deck": deck, "player": player})
            return None
        uid = pile.pop()
        self.fighters[player].hand.append(uid)
        events.append(
            {"type": "drew", "player": player, "deck": deck, "uid": uid, "card": self.card_ids[uid], "reason": reason}
        )
        return uid

    def _discard(self, uid: int) -> None:
        self.discards[self.card(uid).deck].append(uid)

    # --- stats ----------------------------------------------------------------------------
    def stat(self, player: int, name: str, base: int | None = None) -> int:
        """A stat with the cards in play applied; ``base`` replaces the stat's own starting value (an attack's
        damage dice start at its weapon's dice)."""
        if base is None:
            fixed = STATS[name]
            base = int(getattr(self.fighters[player], name)) if fixed is None else fixed
        if not self.modifiers:  # most of a game: no card in play changes a stat
            return base
        changes = [
            (m["op"], m["value"])
            for m in self.modifiers
            if m["stat"] == name
            and (
                m["scope"] == "all"
                or (m["scope"] == "self" and m["owner"] == player)
                or (m["scope"] == "others" and m["owner"] != player)
            )
        ]
        return combat.combine(base, changes) if changes else base

    def attacks_allowed(self, player: int) -> int:
        return combat.attacks_per_turn(self.stat(player, "accuracy")) + self.stat(player, "attacks")

    def jump_length(self, player: int) -> int:
        """« La distance du saut est égale au niveau de la vitesse. »"""
        return self.stat(player, "speed") + self.stat(player, "jump_length")

    def weapon_limit(self, player: int) -> int:
        """« Les joueurs ne peuvent avoir plus de cartes Armes en jeu que leur niveau de santé + 1 »"""
        return self.fighters[player].health + 1

    # --- board questions ------------------------------------------------------------------
    def occupant(self, place: int) -> int | None:
        for seat, f in enumerate(self.fighters):
            if not f.out and f.place == place:
                return seat
        return None

    def occupied(self) -> dict[int, int]:
        return {f.place: seat for seat, f in enumerate(self.fighters) if not f.out and f.place is not None}

    def open_doors(self, occupied: dict[int, int] | None = None) -> set[int]:
        """« Un combattant se trouvant sur une case porte maintient celle-ci ouverte. »"""
        occupied = self.occupied() if occupied is None else occupied
        return {self.board.door_of[p] for p in occupied if p in self.board.door_of}

    def line_of_sight(self, a: int, b: int, occupied: dict[int, int] | None = None) -> bool:
        """« s'il n'y a pas d'obstacles ou d'autres combattants dans cette ligne, la cible est alors en Ligne de Vue.
        Notez que les portes bloquent la Ligne de Vue. »"""
        walls, doors, crossed = self.board.sight_line(a, b)
        if walls:
            return False
        occupied = self.occupied() if occupied is None else occupied
        if doors:
            opened = self.open_doors(occupied)
            if any(d not in opened for d in doors):
                return False
        return not any(p in occupied for p in crossed)

    def targets_in_sight(self, player: int) -> list[int]:
        me = self.fighters[player]
        here = me.place
        if me.out or here is None:
            return []
        # Who stands where is asked only past the walls: most lines are cut by a wall (85 % of La Raffinerie's).
        occupied: dict[int, int] | None = None
        found = []
        for seat, f in enumerate(self.fighters):
            there = f.place
            if seat == player or f.out or there is None or self.board.sight_line(here, there)[0]:
                continue
            if occupied is None:
                occupied = self.occupied()
            if self.line_of_sight(here, there, occupied):
                found.append(seat)
        return found

    def current_players(self) -> list[int]:
        if self.phase == OVER:
            return []
        if self.pending is not None:
            return [self.pending["player"]]
        if self.phase == PLACEMENT:
            return [self.placement_order[0]]
        return [self.turn.player]

    def is_over(self) -> bool:
        return self.phase == OVER

    def winner(self) -> int | None:
        return self.winner_seat

    # --- persistence ----------------------------------------------------------------------
    def to_json(self) -> dict[str, Any]:
        return {
            "config": copy.deepcopy(self.config),
            "dice": self.dice.position,
            "fighters": [asdict(f) for f in self.fighters],
            "decks": {d: list(v) for d, v in self.decks.items()},
            "discards": {d: list(v) for d, v in self.discards.items()},
            "modifiers": copy.deepcopy(self.modifiers),
            "blood": {str(k): v for k, v in self.blood.items()},
            "piles": {str(k): copy.deepcopy(v) for k, v in self.piles.items()},
            "next_pile": self.next_pile,
            "phase": self.phase,
            "placement_order": list(self.placement_order),
            "turn": asdict(self.turn),
            "pending": copy.deepcopy(self.pending),
            "winner": self.winner_seat,
            "actions_applied": self.actions_applied,
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Self:
        state = cls()
        state._attach(copy.deepcopy(data["config"]))
        state.dice = Dice(data["dice"])
        state.fighters = [Fighter(**copy.deepcopy(f)) for f in data["fighters"]]
        state.decks = {d: list(v) for d, v in data["decks"].items()}
        state.discards = {d: list(v) for d, v in data["discards"].items()}
        state.modifiers = copy.deepcopy(data["modifiers"])
        state.blood = {int(k): v for k, v in data["blood"].items()}
        state.piles = {int(k): copy.deepcopy(v) for k, v in data["piles"].items()}
        state.next_pile = data["next_pile"]
        state.phase = data["phase"]
        state.placement_order = list(data["placement_order"])
        state.turn = Turn(**copy.deepcopy(data["turn"]))
        state.pending = copy.deepcopy(data["pending"])
        state.winner_seat = data["winner"]
        state.actions_applied = data["actions_applied"]
        return state

    def clone(self) -> Self:
        """A deep copy for search bots, without the JSON round trip: the board, the card set and the card ids are
        shared (they never change during a game), everything that does change is copied."""
        other = type(self).__new__(type(self))
        other.config = self.config
        other.board = self.board
        other.cardset = self.cardset
        other.card_ids = self.card_ids
        other.dice = Dice(self.dice.position)
        other.fighters = [
            Fighter(
                f.name, f.health, f.speed, f.accuracy, f.hp, f.place, f.out, f.frags, f.blood,
                list(f.hand), [list(w) for w in f.weapons], None if f.armour is None else list(f.armour),
            )
            for f in self.fighters
        ]  # fmt: skip
        other.decks = {d: list(v) for d, v in self.decks.items()}
        other.discards = {d: list(v) for d, v in self.discards.items()}
        other.modifiers = [dict(m) for m in self.modifiers]
        other.blood = dict(self.blood)
        other.piles = {k: {**v, "cards": list(v["cards"])} for k, v in self.piles.items()}
        other.next_pile = self.next_pile
        other.phase = self.phase
        other.placement_order = list(self.placement_order)
        t = self.turn
        other.turn = Turn(
            t.player, t.number, t.mp, t.attacks, t.rolled,
            list(t.pickups_used), list(t.looted), list(t.piles_taken), list(t.dropped_piles),
        )  # fmt: skip
        other.pending = copy.deepcopy(self.pending)
        other.winner_seat = self.winner_seat
        other.actions_applied = self.actions_applied
        other.setup_events = []
        return other

    def _attach(self, config: dict[str, Any]) -> None:
        self.config = config
        self.board = load_board(config["map"])
        self.cardset = load_cards(config["cards"])
        self.card_ids = [cid for deck in DECKS for cid in self.cardset.deck(deck)]

    def _place_arg(self, action: Action, key: str = "to") -> int:
        place = action.get(key)
        if not isinstance(place, int) or isinstance(place, bool) or not 0 <= place < len(self.board.places):
            raise IllegalAction("no such square")
        return place

    def _on_board(self, player: int) -> int:
        fighter = self.fighters[player]
        if fighter.out or fighter.place is None:
            raise IllegalAction("your fighter is not on the board")
        return fighter.place

    # --- cards in play --------------------------------------------------------------------
    def _hand_card(self, player: int, action: Action, key: str = "card") -> int:
        uid = action.get(key)
        if not isinstance(uid, int) or isinstance(uid, bool) or uid not in self.fighters[player].hand:
            raise IllegalAction("that card is not in your hand")
        return uid
