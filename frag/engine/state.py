"""One game of Frag: its state, the actions it accepts and the events they produce.

The API follows OpenSpiel and boardgame.io (design.md, rule 7): ``new_game(config, seed)``,
``current_players()``, ``legal_actions(player)``, ``apply(action) -> events`` (in place, refusing
with ``IllegalAction`` before changing anything), ``observation(player)``, ``is_over()``,
``winner()``, ``to_json()`` and ``State.from_json()``.

Actions are plain dicts with a ``type`` and the acting ``player`` (a seat number from 0).
"""

from __future__ import annotations

import copy
from dataclasses import asdict, dataclass, field
from typing import Any

from . import combat
from .board import DIRECTIONS, Board, load_board
from .cards import DECKS, EFFECT_TIMING, GADGET, PISTOL, SPECIAL, STATS, WEAPON, Card, CardSet, load_cards
from .errors import IllegalAction
from .rng import Dice

Action = dict[str, Any]
Event = dict[str, Any]

PLACEMENT, MOVEMENT, ACTION, DISCARD, OVER = "placement", "movement", "action", "discard", "over"
ATTRIBUTES = ("health", "speed", "accuracy")
ATTRIBUTE_POINTS = 7
ATTRIBUTE_MIN, ATTRIBUTE_MAX = 1, 4
DEFAULT_FRAGS_TO_WIN = 3
DEFAULT_TURN_LIMIT = 400
MAX_PLAYERS = 6


def check_fighter(fighter: dict[str, Any], wins: int = 0) -> None:
    """« 7 points [...] en mettant au moins 1 point et jamais plus de 4 sur une caractéristique » ;
    « En tournoi, gagner une partie permet d'augmenter les capacités » : one more point per win."""
    values = [fighter.get(a) for a in ATTRIBUTES]
    if not all(isinstance(v, int) and not isinstance(v, bool) for v in values):
        raise IllegalAction("Santé, Vitesse and Précision must be whole numbers")
    if any(not ATTRIBUTE_MIN <= v <= ATTRIBUTE_MAX for v in values):  # type: ignore[operator]
        raise IllegalAction("each of Santé, Vitesse and Précision must be between 1 and 4")
    expected = ATTRIBUTE_POINTS + wins
    if sum(values) != expected:  # type: ignore[arg-type]
        raise IllegalAction("Santé, Vitesse and Précision must add up to {total}", total=expected)


def tournament_raise(fighter: dict[str, Any], attribute: str) -> dict[str, Any]:
    """« le vainqueur gagne le droit d'augmenter une de ses caractéristiques de 1 point » (still at most 4)."""
    if attribute not in ATTRIBUTES:
        raise IllegalAction("unknown attribute {name}", name=repr(attribute))
    if fighter[attribute] >= ATTRIBUTE_MAX:
        raise IllegalAction("an attribute cannot go above 4")
    return {**fighter, attribute: fighter[attribute] + 1, "wins": fighter.get("wins", 0) + 1}


@dataclass
class Fighter:
    name: str
    health: int  # Santé on the sheet: the starting health and the weapon limit
    speed: int
    accuracy: int
    hp: int = 0  # current Santé, armour included
    place: int | None = None
    out: bool = True  # off the board until the next respawn
    frags: int = 0
    blood: int = 0
    hand: list[int] = field(default_factory=list)
    weapons: list[list[int]] = field(default_factory=list)  # [card uid, ammunition left]
    armour: list[int] | None = None  # [card uid, points it still absorbs]


@dataclass
class Turn:
    player: int = 0
    number: int = 0
    mp: int = 0
    attacks: int = 0
    rolled: bool = False
    pickups_used: list[int] = field(default_factory=list)
    looted: list[int] = field(default_factory=list)  # squares whose markers were taken from
    piles_taken: list[int] = field(default_factory=list)
    dropped_piles: list[int] = field(default_factory=list)


class State:
    """The whole game. Build it with ``new_game`` or ``State.from_json``."""

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
    def stat(self, player: int, name: str) -> int:
        fighter = self.fighters[player]
        base = getattr(fighter, name) if STATS[name] is None else STATS[name]
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
        if me.out or me.place is None:
            return []
        occupied = self.occupied()
        return [
            seat
            for seat, f in enumerate(self.fighters)
            if seat != player and not f.out and f.place is not None and self.line_of_sight(me.place, f.place, occupied)
        ]

    def reachable(self, player: int) -> dict[int, list[int]]:
        """Free places the fighter can walk to with its movement points left, with the path to each."""
        me = self.fighters[player]
        if me.out or me.place is None or self.turn.mp <= 0:
            return {}
        costs = self.board.walk_costs(me.place, self.turn.mp)
        occupied = self.occupied()
        found: dict[int, list[int]] = {}
        for place in costs:
            if place == me.place or place in occupied:
                continue
            path, at = [], place
            while at != me.place:
                path.append(at)
                at = costs[at][2]  # type: ignore[assignment]
            found[place] = path[::-1]
        return found

    def jumps(self, player: int) -> dict[int, list[int]]:
        """« Un saut se fait en ligne droite ; On ne peut pas sauter un mur. » Landing place -> line flown over."""
        me = self.fighters[player]
        if me.out or me.place is None:
            return {}
        cost = self.stat(player, "jump_cost")
        occupied = self.occupied()
        found: dict[int, list[int]] = {}
        for direction in DIRECTIONS:
            for length in range(1, self.jump_length(player) + 1):
                if length * cost > self.turn.mp:
                    break
                line = self.board.jump_line(me.place, direction, length)
                if line is None:
                    break
                if line[-1] not in occupied:
                    found.setdefault(line[-1], line)
        return found

    # --- API ------------------------------------------------------------------------------
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

    def apply(self, action: Action) -> list[Event]:
        """Apply one action in place. Everything is checked before anything changes."""
        if not isinstance(action, dict):
            raise IllegalAction("an action is a mapping with a type and a player")
        if self.phase == OVER:
            raise IllegalAction("the game is over")
        player = action.get("player")
        if not isinstance(player, int) or isinstance(player, bool) or not 0 <= player < len(self.fighters):
            raise IllegalAction("unknown player")
        if player not in self.current_players():
            raise IllegalAction("it is not your turn")
        kind = action.get("type")
        handler = _HANDLERS.get(kind) if isinstance(kind, str) else None
        if handler is None:
            raise IllegalAction("unknown action {name}", name=repr(kind))
        phases = _PHASES[kind]  # type: ignore[index]
        in_phase = "pending" if self.pending is not None else self.phase
        if in_phase not in phases:
            raise IllegalAction("{action} is not allowed now ({phase})", action=kind, phase=in_phase)
        events: list[Event] = []
        handler(self, player, action, events)
        self.actions_applied += 1
        return events

    def legal_actions(self, player: int) -> list[Action]:
        if player not in self.current_players():
            return []
        if self.pending is not None:
            return self._legal_pending(player)
        if self.phase == PLACEMENT:
            taken = self.occupied()
            return [
                {"type": "place", "player": player, "to": place}
                for place in self.board.respawn.values()
                if place not in taken
            ]
        if self.phase == DISCARD:
            # « il doit les défausser ou les jouer » : each card may go to the discard or, where it can be, into play.
            discards = [{"type": "discard", "player": player, "card": uid} for uid in self.fighters[player].hand]
            return discards + self._legal_plays(player)
        actions: list[Action] = []
        if self.phase == MOVEMENT:
            actions.append({"type": "roll", "player": player})
        else:
            actions.extend({"type": "move", "player": player, "path": path} for path in self.reachable(player).values())
            actions.extend({"type": "jump", "player": player, "to": to} for to in self.jumps(player))
            actions.extend(self._legal_teleports(player))
            actions.extend(self._legal_pickups(player))
            actions.extend(self._legal_attacks(player))
            actions.append({"type": "end_turn", "player": player})
        actions.extend(self._legal_plays(player))
        me = self.fighters[player]
        if me.blood and not me.out and me.hp < me.health:
            actions.append({"type": "spend_blood", "player": player})
        actions.extend({"type": "drop", "player": player, "card": uid} for uid, _ in me.weapons)
        if me.armour is not None:
            actions.append({"type": "drop", "player": player, "card": me.armour[0]})
        return actions

    def _legal_pending(self, player: int) -> list[Action]:
        me = self.fighters[player]
        actions: list[Action] = [{"type": "accept_frag", "player": player}]
        if me.blood:
            actions.append({"type": "spend_blood", "player": player})
        actions.extend(
            {"type": "play", "player": player, "card": uid} for uid in me.hand if self.card(uid).effect == "heal"
        )
        return actions

    def _legal_teleports(self, player: int) -> list[Action]:
        me = self.fighters[player]
        if me.place not in self.board.teleporters or self.turn.mp < 1:
            return []
        return [{"type": "teleport", "player": player, "to": pad} for pad in self.board.teleporters if pad != me.place]

    def _legal_pickups(self, player: int) -> list[Action]:
        me, turn = self.fighters[player], self.turn
        place = me.place
        if me.out or place is None:
            return []
        actions: list[Action] = []
        pickups = self.board.weapon_pickups | self.board.gadget_pickups
        if place in pickups and place not in turn.pickups_used:
            actions.append({"type": "pick_up", "player": player})
        if place not in turn.looted:
            if self.blood.get(place):
                actions.append({"type": "take_blood", "player": player})
            for pile_id, pile in self.piles.items():
                if pile["place"] == place and pile_id not in turn.dropped_piles:
                    actions.extend(
                        {"type": "take_weapon", "player": player, "pile": pile_id, "card": uid} for uid in pile["cards"]
                    )
        return actions

    def _legal_attacks(self, player: int) -> list[Action]:
        if self.turn.attacks >= self.attacks_allowed(player):
            return []
        targets = self.targets_in_sight(player)
        if not targets:
            return []
        me = self.fighters[player]
        cost = self.stat(player, "ammo_cost")
        weapons: list[str | int] = [PISTOL.id]
        weapons.extend(uid for uid, ammo in me.weapons if self._ammo_ok(uid, ammo, cost))
        if len(me.weapons) < self.weapon_limit(player):
            weapons.extend(uid for uid in me.hand if self.card(uid).is_weapon)
        return [{"type": "attack", "player": player, "target": t, "weapon": w} for t in targets for w in weapons]

    def _ammo_ok(self, uid: int, ammo: int, cost_factor: int) -> bool:
        card = self.card(uid)
        return card.ammo == 0 or ammo >= card.shot_cost * cost_factor

    def _legal_plays(self, player: int) -> list[Action]:
        actions: list[Action] = []
        for uid in self.fighters[player].hand:
            card = self.card(uid)
            if card.effect == "teleport":
                if self.phase == MOVEMENT:
                    occupied = self.occupied()
                    actions.extend(
                        {"type": "play", "player": player, "card": uid, "to": p.id}
                        for p in self.board.places
                        if occupied.get(p.id) != player
                    )
                continue
            base: Action = {"type": "play", "player": player, "card": uid}
            if card.effect == "disconnect":
                actions.extend(
                    {**base, "target": seat} for seat, f in enumerate(self.fighters) if seat != player and not f.out
                )
            elif card.effect == "reload":
                me = self.fighters[player]
                actions.extend({**base, "weapon": w} for w, ammo in me.weapons if ammo < self.card(w).ammo)
            else:
                try:
                    self._check_play(player, uid, base)
                except IllegalAction:
                    continue
                actions.append(base)
        return actions

    # --- observation ----------------------------------------------------------------------
    def observation(self, player: int | None) -> dict[str, Any]:
        """What one seat may see: its own hand, the others' hand sizes, never a deck's order.

        « La main de carte de chaque joueur est cachée. » Weapons under a marker are seen only by
        a fighter standing on it (« peut regarder toutes les cartes Armes qui s'y trouvent »).
        ``player=None`` is a spectator's view.
        """
        me = self.fighters[player] if player is not None else None
        fighters = []
        for seat, f in enumerate(self.fighters):
            fighters.append(
                {
                    "seat": seat,
                    "name": f.name,
                    "health": f.health,
                    "speed": f.speed,
                    "accuracy": f.accuracy,
                    "hp": f.hp,
                    "place": None if f.out else f.place,
                    "out": f.out,
                    "frags": f.frags,
                    "blood": f.blood,
                    "hand_size": len(f.hand),
                    "hand": [self._card_view(uid) for uid in f.hand] if seat == player else None,
                    "weapons": [{**self._card_view(uid), "ammo_left": ammo} for uid, ammo in f.weapons],
                    "armour": None if f.armour is None else {**self._card_view(f.armour[0]), "left": f.armour[1]},
                    "effective": {"speed": self.stat(seat, "speed"), "accuracy": self.stat(seat, "accuracy")},
                }
            )
        piles = []
        for pile_id, pile in sorted(self.piles.items()):
            visible = me is not None and not me.out and me.place == pile["place"]
            piles.append(
                {
                    "id": pile_id,
                    "place": pile["place"],
                    "count": len(pile["cards"]),
                    "cards": [self._card_view(uid) for uid in pile["cards"]] if visible else None,
                }
            )
        turn = asdict(self.turn)
        turn["attacks_allowed"] = self.attacks_allowed(self.turn.player) if self.fighters else 0
        return {
            "viewer": player,
            "map": self.board.name,
            "phase": self.phase,
            "pending": copy.deepcopy(self.pending),
            "current_players": self.current_players(),
            "turn": turn,
            "fighters": fighters,
            "decks": {d: len(self.decks[d]) for d in DECKS},
            "discards": {d: [self.card_ids[uid] for uid in self.discards[d]] for d in DECKS},
            "modifiers": copy.deepcopy(self.modifiers),
            "blood": {str(k): v for k, v in self.blood.items()},
            "piles": piles,
            "frags_to_win": self.config["frags_to_win"],
            "winner": self.winner_seat,
        }

    def _card_view(self, uid: int) -> dict[str, Any]:
        return {"uid": uid, "id": self.card_ids[uid]}

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
    def from_json(cls, data: dict[str, Any]) -> State:
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

    def clone(self) -> State:
        """The slow path (design.md): bots use the API and clone only when they must."""
        return State.from_json(self.to_json())

    def _attach(self, config: dict[str, Any]) -> None:
        self.config = config
        self.board = load_board(config["map"])
        self.cardset = load_cards(config["cards"])
        self.card_ids = [cid for deck in DECKS for cid in self.cardset.deck(deck)]

    # --- turn flow ------------------------------------------------------------------------
    def _start_turn(self, player: int, events: list[Event]) -> None:
        """« Souvenez vous bien de vérifier toutes les cartes Spéciales en jeu avant de commencer votre tour. »"""
        self.turn = Turn(player=player, number=self.turn.number + 1)
        self._expire(player, "round", events)
        self.phase = MOVEMENT
        events.append({"type": "turn_started", "player": player, "number": self.turn.number})
        fighter = self.fighters[player]
        if fighter.out:
            self._respawn(player, events)

    def _expire(self, owner: int, duration: str, events: list[Event]) -> None:
        keep = []
        for m in self.modifiers:
            if m["owner"] == owner and m["duration"] == duration:
                self._discard(m["uid"])
                events.append({"type": "card_expired", "player": owner, "card": self.card_ids[m["uid"]]})
            else:
                keep.append(m)
        self.modifiers = keep

    def _respawn(self, player: int, events: list[Event]) -> None:
        """« lancez un dé, et remettez le en jeu sur la case comportant le même n° »"""
        fighter = self.fighters[player]
        roll = self.dice.d6()
        events.append({"type": "dice", "purpose": "respawn", "player": player, "dice": [roll]})
        # « Votre nouveau combattant n'a pas de blessures » ; a disconnected fighter kept its armour.
        fighter.hp = fighter.health + (fighter.armour[1] if fighter.armour else 0)
        self._arrive(player, self.board.respawn[roll], events, how="respawn")

    def _arrive(self, player: int, place: int, events: list[Event], *, how: str) -> None:
        """« Ejecté : si un joueur revient en jeu ou se téléporte sur une case déjà occupée par un autre joueur,
        celui-ci est éjecté ; il lance immédiatement un dé et se déplace jusqu'à la case de numéro identique.
        Si il y a un joueur dessus, celui-ci est éjecté et ainsi de suite. »"""
        incoming, target = player, place
        while True:
            occupant = self.occupant(target)
            fighter = self.fighters[incoming]
            fighter.place, fighter.out = target, False
            events.append({"type": "arrived", "player": incoming, "place": target, "how": how})
            if occupant is None or occupant == incoming:
                return
            self.fighters[occupant].out = True
            events.append({"type": "ejected", "player": occupant, "place": target})
            incoming, how, origin = occupant, "ejected", target
            occupied = self.occupied()
            if all(p in occupied for p in self.board.respawn.values()):
                # Every respawn square held: the chain would never end, so the ejected lands nearby.
                target = self._nearest_free(origin)
                continue
            while True:
                roll = self.dice.d6()
                events.append({"type": "dice", "purpose": "ejection", "player": occupant, "dice": [roll]})
                target = self.board.respawn[roll]
                if target != origin:
                    break

    def _nearest_free(self, start: int) -> int:
        occupied = self.occupied()
        costs = self.board.walk_costs(start, 10_000)
        free = [p for p in costs if p not in occupied]
        return min(free, key=lambda p: (costs[p][0], p))

    def _finish_turn(self, events: list[Event]) -> None:
        player = self.turn.player
        self._expire(player, "turn", events)
        events.append({"type": "turn_ended", "player": player, "number": self.turn.number})
        limit = self.config["turn_limit"]
        if limit and self.turn.number >= limit:
            self._end_game(events, reason="turn_limit")
            return
        self._start_turn((player + 1) % len(self.fighters), events)

    def _end_turn_or_discard(self, events: list[Event]) -> None:
        """« à la fin de son tour, il ne doit pas en avoir plus de 5 »"""
        player = self.turn.player
        if len(self.fighters[player].hand) > self.stat(player, "hand_limit"):
            self.phase = DISCARD
            events.append({"type": "must_discard", "player": player, "down_to": self.stat(player, "hand_limit")})
            return
        self._finish_turn(events)

    def _end_game(self, events: list[Event], *, reason: str, winner: int | None = None) -> None:
        self.phase = OVER
        self.pending = None
        if winner is not None:
            self.winner_seat = winner
        else:
            best = max(f.frags for f in self.fighters)
            leaders = [s for s, f in enumerate(self.fighters) if f.frags == best]
            self.winner_seat = leaders[0] if len(leaders) == 1 else None
        events.append({"type": "game_over", "winner": self.winner_seat, "reason": reason})

    # --- damage and frags -----------------------------------------------------------------
    def _damage(self, victim: int, points: int, events: list[Event]) -> None:
        """« Une armure est défaussée quand le joueur qui la possède perd un nombre de points de Santé égal au
        nombre de points de Santé que l'armure ajoute quand elle est en jeu. »"""
        fighter = self.fighters[victim]
        if points <= 0:
            return
        fighter.hp -= points
        events.append({"type": "wounded", "player": victim, "points": points, "hp": fighter.hp})
        if fighter.armour is not None:
            fighter.armour[1] -= points
            if fighter.armour[1] <= 0:
                uid = fighter.armour[0]
                fighter.armour = None
                self._discard(uid)
                events.append({"type": "armour_destroyed", "player": victim, "card": self.card_ids[uid]})

    def _healing_available(self, player: int) -> int:
        fighter = self.fighters[player]
        cards = sum(self.card(uid).value for uid in fighter.hand if self.card(uid).effect == "heal")
        return fighter.blood + cards

    def _after_wound(
        self, victim: int, attacker: int | None, events: list[Event], resume: list[int] | None = None
    ) -> bool:
        """« Si le niveau de santé d'un joueur atteint 0 ou moins et si il ne peut se redonner immédiatement des
        points de santé, il est fragué ». Returns True when the victim is down (dying or fragged)."""
        fighter = self.fighters[victim]
        if fighter.hp > 0:
            return False
        cap = fighter.health
        if min(cap, fighter.hp + self._healing_available(victim)) > 0:
            self.pending = {"player": victim, "attacker": attacker, "resume": resume or []}
            events.append({"type": "dying", "player": victim, "attacker": attacker})
            return True
        self._frag(victim, attacker, events)
        return True

    def _frag(self, victim: int, attacker: int | None, events: list[Event]) -> None:
        """« L'attaquant marque 1 Frag [...] et il pioche une carte Spéciale. » ; « il place immédiatement sur la case
        où il était un Marqueur de Sang et (probablement) un Marqueur Arme » ; « les cartes Gadget du joueur fragué
        sont défaussées, mais ses cartes Armes ne le sont pas »."""
        fighter = self.fighters[victim]
        place = fighter.place
        assert place is not None
        events.append({"type": "fragged", "player": victim, "by": attacker, "place": place})
        self.blood[place] = self.blood.get(place, 0) + 1
        if fighter.weapons:
            self._new_pile(place, [uid for uid, _ in fighter.weapons], dropped_by=None, events=events)
        fighter.weapons = []
        if fighter.armour is not None:
            self._discard(fighter.armour[0])
            fighter.armour = None
        # Gadgets still in play (a shield, a scope) go too; the victim's Specials stay.
        for m in [m for m in self.modifiers if m["owner"] == victim and self.card(m["uid"]).deck == GADGET]:
            self.modifiers.remove(m)
            self._discard(m["uid"])
        fighter.out = True
        fighter.hp = 0
        if attacker is not None and attacker != victim:
            self.fighters[attacker].frags += 1
            events.append({"type": "scored", "player": attacker, "frags": self.fighters[attacker].frags})
            self._draw(SPECIAL, attacker, events, reason="frag")
            if self.fighters[attacker].frags >= self.config["frags_to_win"]:
                self._end_game(events, reason="frags", winner=attacker)
                return
        if victim == self.turn.player and self.phase != OVER:
            # A fighter fragged on its own turn (acid) is out until its next turn: its turn ends.
            self.pending = None
            self._end_turn_or_discard(events)

    def _new_pile(self, place: int, cards: list[int], *, dropped_by: int | None, events: list[Event]) -> int:
        pile_id = self.next_pile
        self.next_pile += 1
        self.piles[pile_id] = {"place": place, "cards": list(cards), "dropped_by": dropped_by}
        if dropped_by is not None:
            self.turn.dropped_piles.append(pile_id)
        events.append(
            {"type": "weapon_marker", "pile": pile_id, "place": place, "cards": [self.card_ids[u] for u in cards]}
        )
        return pile_id

    def _attack_roll(
        self, attacker: int | None, victim: int, dice_count: int, extra: int, events: list[Event], purpose: str
    ) -> int:
        """« L'attaquant lance autant de dés que lui permet l'arme [...] et le défenseur lance autant de dés que son
        niveau de Santé (éventuellement modifié par des cartes ou dommages antérieurs). »"""
        attack = self.dice.roll(dice_count)
        defence_count = max(0, self.fighters[victim].hp) + self.stat(victim, "defence_dice")
        defence = self.dice.roll(defence_count)
        lost = combat.health_lost(sum(attack), sum(defence), extra)
        events.append(
            {
                "type": "damage_roll",
                "purpose": purpose,
                "attacker": attacker,
                "target": victim,
                "attack_dice": attack,
                "defence_dice": defence,
                "extra_damage": extra,
                "lost": lost,
            }
        )
        return lost

    # --- moving helpers -------------------------------------------------------------------
    def _walk(self, player: int, path: list[int], events: list[Event]) -> None:
        """« A chaque fois qu'un combattant traverse une case contenant de l'acide, celui-ci subit une attaque de 2D. »"""
        fighter = self.fighters[player]
        for index, place in enumerate(path):
            fighter.place = place
            self.turn.mp -= 1
            events.append({"type": "stepped", "player": player, "place": place, "mp": self.turn.mp})
            if place in self.board.acid:
                lost = self._attack_roll(None, player, 2, 0, events, purpose="acid")
                self._damage(player, lost, events)
                if self._after_wound(player, None, events, resume=path[index + 1 :]):
                    return

    def _land(self, player: int, place: int, events: list[Event]) -> None:
        if place in self.board.acid:
            lost = self._attack_roll(None, player, 2, 0, events, purpose="acid")
            self._damage(player, lost, events)
            self._after_wound(player, None, events)

    def _free_to_stop(self, place: int, player: int) -> None:
        occupant = self.occupant(place)
        if occupant is not None and occupant != player:
            raise IllegalAction("a fighter may pass through an occupied square but not stop on it")

    def _check_path(self, player: int, path: Any) -> list[int]:
        if (
            not isinstance(path, list)
            or not path
            or not all(isinstance(p, int) and not isinstance(p, bool) for p in path)
        ):
            raise IllegalAction("a move needs a path of squares")
        fighter = self.fighters[player]
        if len(path) > self.turn.mp:
            raise IllegalAction(
                "too far: {needed} movement points needed, {left} left", needed=len(path), left=self.turn.mp
            )
        at = fighter.place
        for place in path:
            if not 0 <= place < len(self.board.places):
                raise IllegalAction("no such square")
            if place not in self.board.steps[at].values():  # type: ignore[index]
                raise IllegalAction("moves are orthogonal, one square at a time, never through a wall or a closed door")
            at = place
        self._free_to_stop(path[-1], player)
        return path

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

    def _check_weapon_into_play(self, player: int) -> None:
        if len(self.fighters[player].weapons) >= self.weapon_limit(player):
            raise IllegalAction("at most {limit} weapons in play (Santé + 1)", limit=self.weapon_limit(player))

    def _check_play(self, player: int, uid: int, action: Action) -> None:
        """Everything that could refuse playing this card, checked before it is played."""
        card = self.card(uid)
        fighter = self.fighters[player]
        pending = self.pending is not None
        if pending and card.effect != "heal":
            raise IllegalAction("only healing can be played while dying")
        if card.is_weapon:
            self._on_board(player)
            self._check_weapon_into_play(player)
            return
        timing = EFFECT_TIMING[card.effect]
        if timing == "before_roll" and self.phase != MOVEMENT:
            raise IllegalAction("a teleport card is played instead of rolling for movement")
        if timing == "after_roll" and self.phase != ACTION:
            raise IllegalAction("play this card after rolling for movement")
        if card.effect == "armour":
            self._on_board(player)
            if fighter.armour is not None:
                raise IllegalAction("a fighter cannot wear more than one armour")
        elif card.effect == "heal":
            if not pending:
                self._on_board(player)
            if fighter.hp >= fighter.health:
                raise IllegalAction("healing never goes above the starting Santé")
        elif card.effect == "reload":
            weapon = action.get("weapon")
            match = [w for w in fighter.weapons if w[0] == weapon]
            if not match:
                raise IllegalAction("choose a weapon in play to reload")
        elif card.effect == "teleport":
            self._on_board(player)
            self._place_arg(action)
        elif card.effect == "disconnect":
            target = action.get("target")
            if not isinstance(target, int) or isinstance(target, bool) or not 0 <= target < len(self.fighters):
                raise IllegalAction("choose a fighter to disconnect")
            if target == player or self.fighters[target].out:
                raise IllegalAction("that fighter is not on the board")
        elif card.effect == "movement":
            self._on_board(player)

    def _play(self, player: int, uid: int, action: Action, events: list[Event]) -> None:
        card = self.card(uid)
        fighter = self.fighters[player]
        fighter.hand.remove(uid)
        events.append({"type": "played", "player": player, "card": card.id, "uid": uid})
        if card.is_weapon:
            fighter.weapons.append([uid, card.ammo])
            return
        effect = card.effect
        if effect == "armour":
            fighter.armour = [uid, card.value]
            fighter.hp += card.value
            return
        if effect == "modifier":
            self.modifiers.append(
                {
                    "uid": uid,
                    "owner": player,
                    "stat": card.stat,
                    "op": card.op,
                    "value": card.value,
                    "scope": card.scope,
                    "duration": card.duration,
                }
            )
            return
        self._discard(uid)
        if effect == "heal":
            self._heal(player, card.value, events)
        elif effect == "reload":
            for weapon in fighter.weapons:
                if weapon[0] == action["weapon"]:
                    weapon[1] = self.card(weapon[0]).ammo
            events.append({"type": "reloaded", "player": player, "weapon": self.card_ids[action["weapon"]]})
        elif effect == "movement":
            self.turn.mp += card.value
            events.append({"type": "movement_points", "player": player, "mp": self.turn.mp})
        elif effect == "teleport":
            # « à moins que vous ne décidez de jouer une carte de téléportation » : instead of the roll.
            self.phase = ACTION
            self.turn.rolled = True
            self.turn.mp = 0
            self._arrive(player, action["to"], events, how="teleport")
            self._land(player, action["to"], events)
        elif effect == "disconnect":
            target = action["target"]
            self.fighters[target].out = True
            events.append({"type": "disconnected", "player": target, "by": player})
        elif effect == "draw":
            for _ in range(card.value):
                self._draw(card.target_deck, player, events, reason=card.id)

    def _heal(self, player: int, points: int, events: list[Event]) -> None:
        """« il ne peut pas se redonner plus de point de Santé qu'il en avait au début du jeu »"""
        fighter = self.fighters[player]
        before = fighter.hp
        fighter.hp = min(fighter.health, fighter.hp + points)
        events.append({"type": "healed", "player": player, "points": fighter.hp - before, "hp": fighter.hp})
        if self.pending is not None and self.pending["player"] == player and fighter.hp > 0:
            resume = self.pending["resume"]
            self.pending = None
            events.append({"type": "survived", "player": player})
            if resume:
                self._walk(player, resume, events)


# --- action handlers -------------------------------------------------------------------------
def _do_place(state: State, player: int, action: Action, events: list[Event]) -> None:
    """« Le premier joueur place ensuite son combattant sur n'importe quelle case numérotée »"""
    place = state._place_arg(action)
    if place not in state.board.respawn.values():
        raise IllegalAction("fighters start on a numbered respawn square")
    if state.occupant(place) is not None:
        raise IllegalAction("that respawn square is taken")
    fighter = state.fighters[player]
    fighter.place, fighter.out, fighter.hp = place, False, fighter.health
    state.placement_order.pop(0)
    events.append({"type": "arrived", "player": player, "place": place, "how": "placement"})
    if not state.placement_order:
        state._start_turn(state.turn.player, events)


def _do_roll(state: State, player: int, action: Action, events: list[Event]) -> None:
    """« lancer autant de dé que votre capacité Vitesse pour voir les points de mouvement »"""
    dice = state.dice.roll(state.stat(player, "speed"))
    state.turn.mp = sum(dice)
    state.turn.rolled = True
    state.phase = ACTION
    events.append({"type": "dice", "purpose": "movement", "player": player, "dice": dice})
    events.append({"type": "movement_points", "player": player, "mp": state.turn.mp})


def _do_move(state: State, player: int, action: Action, events: list[Event]) -> None:
    """« Les déplacements sont orthogonaux » ; « Un combattant peut passer sur une case occupée [...] mais ne peut
    s'arrêter dessus. »"""
    state._on_board(player)
    path = state._check_path(player, action.get("path"))
    state._walk(player, list(path), events)


def _do_jump(state: State, player: int, action: Action, events: list[Event]) -> None:
    """« Un saut coûte le double en déplacement » ; « Un saut se fait en ligne droite ; On ne peut pas sauter un mur. »"""
    state._on_board(player)
    to = state._place_arg(action)
    jumps = state.jumps(player)
    if to not in jumps:
        me = state.fighters[player].place
        assert me is not None
        a, b = state.board.places[me], state.board.places[to]
        if a.row != b.row and a.col != b.col:
            raise IllegalAction("a jump goes in a straight line")
        length = abs(a.row - b.row) + abs(a.col - b.col)
        if length == 0:
            raise IllegalAction("a jump needs a direction")
        if length > state.jump_length(player):
            raise IllegalAction("too far: a jump is at most {limit} squares (Vitesse)", limit=state.jump_length(player))
        if length * state.stat(player, "jump_cost") > state.turn.mp:
            raise IllegalAction(
                "too far: the jump costs {needed} movement points, {left} left",
                needed=length * state.stat(player, "jump_cost"),
                left=state.turn.mp,
            )
        state._free_to_stop(to, player)
        raise IllegalAction("a jump never goes over a wall or through a closed door")
    line = jumps[to]
    state.turn.mp -= len(line) * state.stat(player, "jump_cost")
    state.fighters[player].place = to
    events.append({"type": "jumped", "player": player, "over": line[:-1], "place": to, "mp": state.turn.mp})
    state._land(player, to, events)


def _do_teleport(state: State, player: int, action: Action, events: list[Event]) -> None:
    """« Téléporteur : permet de se téléporter d'une case téléporteur à une autre pour 1 point de mouvement. »"""
    here = state._on_board(player)
    to = state._place_arg(action)
    if here not in state.board.teleporters or to not in state.board.teleporters or to == here:
        raise IllegalAction("teleporters lead from one teleporter to another")
    if state.turn.mp < 1:
        raise IllegalAction("too far: teleporting costs 1 movement point")
    state.turn.mp -= 1
    state._arrive(player, to, events, how="teleporter")


def _do_pick_up(state: State, player: int, action: Action, events: list[Event]) -> None:
    """« il a 50% de chance de piocher une carte. Il lance alors immédiatement 1D et si il fait 4-5-6, il pioche une
    carte. [...] il ne peut activer 2 fois la même case dans un même tour. »"""
    here = state._on_board(player)
    if here in state.board.weapon_pickups:
        deck = WEAPON
    elif here in state.board.gadget_pickups:
        deck = GADGET
    else:
        raise IllegalAction("there is nothing to pick up here")
    if here in state.turn.pickups_used:
        raise IllegalAction("each pick-up square works once per turn")
    state.turn.pickups_used.append(here)
    roll = state.dice.d6()
    events.append({"type": "dice", "purpose": "pick_up", "player": player, "dice": [roll]})
    if roll >= 4:
        state._draw(deck, player, events, reason="pick_up")


def _check_loot(state: State, player: int) -> int:
    here = state._on_board(player)
    if here in state.turn.looted:
        raise IllegalAction("one marker per square: « prendre un des Marqueur mais pas les 2 »")
    return here


def _do_take_blood(state: State, player: int, action: Action, events: list[Event]) -> None:
    """« Le Marqueur de Sang : quand un joueur le ramasse, il le place sur sa fiche de combattant. »"""
    here = _check_loot(state, player)
    if not state.blood.get(here):
        raise IllegalAction("there is no blood marker here")
    state.turn.looted.append(here)
    state.blood[here] -= 1
    if not state.blood[here]:
        del state.blood[here]
    state.fighters[player].blood += 1
    events.append({"type": "took_blood", "player": player, "place": here})


def _do_take_weapon(state: State, player: int, action: Action, events: list[Event]) -> None:
    """« en choisir UNE, et la mettre dans sa main de cartes. Vous ne pouvez pas prendre plus d'une carte par pile dans
    le même tour. [...] Vous ne pouvez pas ramasser un objet que vous avez jeté dans le même tour. »"""
    here = _check_loot(state, player)
    pile_id, uid = action.get("pile"), action.get("card")
    pile = state.piles.get(pile_id) if isinstance(pile_id, int) else None
    if pile is None or pile["place"] != here:
        raise IllegalAction("there is no such weapon marker here")
    if pile_id in state.turn.dropped_piles:
        raise IllegalAction("you cannot pick up what you dropped this turn")
    if pile_id in state.turn.piles_taken:
        raise IllegalAction("one card per pile per turn")
    if uid not in pile["cards"]:
        raise IllegalAction("that card is not under this marker")
    state.turn.looted.append(here)
    state.turn.piles_taken.append(pile_id)  # type: ignore[arg-type]
    pile["cards"].remove(uid)
    if not pile["cards"]:
        del state.piles[pile_id]  # type: ignore[arg-type]
    state.fighters[player].hand.append(uid)  # type: ignore[arg-type]
    events.append({"type": "took_weapon", "player": player, "card": state.card_ids[uid], "pile": pile_id})  # type: ignore[index]


def _do_spend_blood(state: State, player: int, action: Action, events: list[Event]) -> None:
    """« Quand il le souhaite, il peut le dépenser pour récupérer un point de santé perdu. »"""
    fighter = state.fighters[player]
    if not fighter.blood:
        raise IllegalAction("you have no blood marker")
    if state.pending is None:
        state._on_board(player)
    if fighter.hp >= fighter.health:
        raise IllegalAction("healing never goes above the starting Santé")
    fighter.blood -= 1
    events.append({"type": "spent_blood", "player": player})
    state._heal(player, 1, events)


def _do_accept_frag(state: State, player: int, action: Action, events: list[Event]) -> None:
    assert state.pending is not None
    attacker = state.pending["attacker"]
    state.pending = None
    state._frag(player, attacker, events)


def _do_attack(state: State, player: int, action: Action, events: list[Event]) -> None:
    """« Le joueur doit annoncer avec quelle arme il attaque avant de lancer les dés » ; « Avant de faire un jet de
    précision, il faut diminuer de 1 le marqueur « balle » » ; the accuracy roll, then the damage roll."""
    here = state._on_board(player)
    if state.turn.attacks >= state.attacks_allowed(player):
        raise IllegalAction(
            "no attack left this turn ({allowed} per turn: half the Précision, rounded up)",
            allowed=state.attacks_allowed(player),
        )
    target = action.get("target")
    if (
        not isinstance(target, int)
        or isinstance(target, bool)
        or not 0 <= target < len(state.fighters)
        or target == player
    ):
        raise IllegalAction("choose another fighter to attack")
    victim = state.fighters[target]
    if victim.out or victim.place is None:
        raise IllegalAction("that fighter is not on the board")
    if not state.line_of_sight(here, victim.place):
        raise IllegalAction("the target is not in line of sight")
    fighter = state.fighters[player]
    weapon = action.get("weapon", PISTOL.id)
    cost_factor = state.stat(player, "ammo_cost")
    from_hand = False
    if weapon == PISTOL.id:
        card = PISTOL
    elif isinstance(weapon, int) and any(w[0] == weapon for w in fighter.weapons):
        card = state.card(weapon)
        ammo = next(w[1] for w in fighter.weapons if w[0] == weapon)
        if not state._ammo_ok(weapon, ammo, cost_factor):
            raise IllegalAction("that weapon is out of ammunition")
    elif isinstance(weapon, int) and weapon in fighter.hand and state.card(weapon).is_weapon:
        card = state.card(weapon)
        state._check_weapon_into_play(player)
        from_hand = True
    else:
        raise IllegalAction("attack with the base pistol, a weapon in play or a weapon from your hand")
    if from_hand:
        state._play(player, weapon, action, events)
    events.append({"type": "attack", "player": player, "target": target, "weapon": card.id})
    if card is not PISTOL and card.ammo:
        for w in fighter.weapons:
            if w[0] == weapon:
                w[1] -= card.shot_cost * cost_factor
    state.turn.attacks += 1
    distance = state.board.distance(here, victim.place)
    accuracy = state.dice.roll(state.stat(player, "accuracy") + state.stat(player, "accuracy_dice"))
    hit = combat.accuracy_hits(accuracy, distance)
    events.append(
        {"type": "dice", "purpose": "accuracy", "player": player, "dice": accuracy, "distance": distance, "hit": hit}
    )
    if not hit:
        return
    dice_count = card.dice + state.stat(player, "damage_dice")
    lost = state._attack_roll(player, target, dice_count, card.extra_damage, events, purpose="attack")
    state._damage(target, lost, events)
    state._after_wound(target, player, events)


def _do_play(state: State, player: int, action: Action, events: list[Event]) -> None:
    uid = state._hand_card(player, action)
    state._check_play(player, uid, action)
    state._play(player, uid, action, events)
    if state.phase == DISCARD and len(state.fighters[player].hand) <= state.stat(player, "hand_limit"):
        state._finish_turn(events)


def _do_drop(state: State, player: int, action: Action, events: list[Event]) -> None:
    """« Un combattant peut se débarrasser d'une arme ou d'un gadget qui étaient en jeu [...] Un Marqueur Arme de
    couleur est alors placé sur la case »"""
    here = state._on_board(player)
    fighter = state.fighters[player]
    uid = action.get("card")
    if fighter.armour is not None and fighter.armour[0] == uid:
        fighter.hp -= fighter.armour[1]
        fighter.hp = max(1, fighter.hp)
        fighter.armour = None
    elif any(w[0] == uid for w in fighter.weapons):
        fighter.weapons = [w for w in fighter.weapons if w[0] != uid]
    else:
        raise IllegalAction("that card is not in play in front of you")
    events.append({"type": "dropped", "player": player, "card": state.card_ids[uid]})  # type: ignore[index]
    state._new_pile(here, [uid], dropped_by=player, events=events)  # type: ignore[list-item]


def _do_discard(state: State, player: int, action: Action, events: list[Event]) -> None:
    uid = state._hand_card(player, action)
    state.fighters[player].hand.remove(uid)
    state._discard(uid)
    events.append({"type": "discarded", "player": player, "card": state.card_ids[uid]})
    if len(state.fighters[player].hand) <= state.stat(player, "hand_limit"):
        state._finish_turn(events)


def _do_end_turn(state: State, player: int, action: Action, events: list[Event]) -> None:
    """« Si les points de mouvement ne sont pas entièrement utilisés à la fin du tour, ils ne seront pas reportés »"""
    occupant = state.occupied()
    me = state.fighters[player]
    if not me.out and me.place is not None and occupant.get(me.place) != player:
        raise IllegalAction("a fighter cannot end its turn on an occupied square")
    state.turn.mp = 0
    state._end_turn_or_discard(events)


_HANDLERS = {
    "place": _do_place,
    "roll": _do_roll,
    "move": _do_move,
    "jump": _do_jump,
    "teleport": _do_teleport,
    "pick_up": _do_pick_up,
    "take_blood": _do_take_blood,
    "take_weapon": _do_take_weapon,
    "spend_blood": _do_spend_blood,
    "accept_frag": _do_accept_frag,
    "attack": _do_attack,
    "play": _do_play,
    "drop": _do_drop,
    "discard": _do_discard,
    "end_turn": _do_end_turn,
}
_ANY_TIME = {MOVEMENT, ACTION}
_PHASES = {
    "place": {PLACEMENT},
    "roll": {MOVEMENT},
    "move": {ACTION},
    "jump": {ACTION},
    "teleport": {ACTION},
    "pick_up": {ACTION},
    "take_blood": {ACTION},
    "take_weapon": {ACTION},
    "spend_blood": _ANY_TIME | {"pending"},
    "accept_frag": {"pending"},
    "attack": {ACTION},
    "play": _ANY_TIME | {"pending", DISCARD},
    "drop": _ANY_TIME,
    "discard": {DISCARD},
    "end_turn": {ACTION},
}


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


def visible_event(event: Event, viewer: int | None) -> Event:
    """An event as one seat may read it: the card someone else drew stays hidden."""
    if event.get("type") in ("drew", "took_weapon") and event.get("player") != viewer:
        return {k: v for k, v in event.items() if k not in ("card", "uid")}
    return event
