"""The heuristic bot's choice as an integer code: the same decisions as ever, at a fraction of the cost.

The heuristic bot plays most of the search bot's rollouts (every seat, every step), so its cost is the search
bot's cost. It used to turn every legal action into a dict (a teleport card alone offers every square of the
board) and score every move and every teleport square in full. Here it reads the codes (``codes``), decodes only
the action it returns, reads once per decision what a decision does not change (accuracy, the fighters' places,
the attacks left), and skips a move or a square whose best possible score cannot beat the best found so far.

The skipping is exact, not approximate: a skipped move's score is bounded above by the same float operations with
each hit chance replaced by 1 (rounding is monotone, so the bound really is above), and a move is taken only when
it scores strictly more than the best so far. ``tests/frag/test_heuristic_codes.py`` plays many seeded games with
the old dict-reading bot beside this one and asserts the same choice at every step.
"""

from __future__ import annotations

from . import combat
from .base import MOVEMENT
from .board import Board
from .cards import PISTOL, Card
from .codes import (
    A_SHIFT,
    ATTACK,
    B_MASK,
    B_SHIFT,
    DISCARD,
    END_TURN,
    JUMP,
    KIND_MASK,
    MOVE,
    PLACE,
    PLAY,
    ROLL,
    SPEND_BLOOD,
    TAKE_BLOOD,
    TAKE_WEAPON,
    TELEPORT,
)
from .rng import Dice
from .state import State

GOOD_SHOT = 0.5

_pickup_distance: dict[tuple[str, tuple[str, ...]], dict[int, int]] = {}


def distance_to_pickups(board: Board) -> dict[int, int]:
    """Steps from each place to the nearest pick-up square other than itself: a square is searched by passing over
    it (« Si un joueur passe sur une case »), so standing on one is worth no more than standing beside it."""
    # Keyed by the grid too: two boards may share a name (test boards do).
    key = (board.name, tuple(board.grid))
    cached = _pickup_distance.get(key)
    if cached is None:
        cached = {}
        for pickup in board.weapon_pickups | board.gadget_pickups:
            for place, (steps, _acid, _prev) in board.walk_costs(pickup, 10_000).items():
                if place != pickup:
                    cached[place] = min(cached.get(place, steps), steps)
        _pickup_distance[key] = cached
    return cached


_walk_distance: dict[tuple[str, tuple[str, ...], int], dict[int, int]] = {}


def steps_to(board: Board, target: int) -> dict[int, int]:
    """Steps on foot from every place to ``target``, one-way doors honoured (a breadth-first search backwards along
    the board's steps; the board does not change, so it is cached per board and target)."""
    key = (board.name, tuple(board.grid), target)
    cached = _walk_distance.get(key)
    if cached is None:
        backwards: dict[int, list[int]] = {}
        for place, steps in enumerate(board.steps):
            for nxt in steps.values():
                backwards.setdefault(nxt, []).append(place)
        cached, frontier = {target: 0}, [target]
        while frontier:
            following = []
            for place in frontier:
                for previous in backwards.get(place, ()):
                    if previous not in cached:
                        cached[previous] = cached[place] + 1
                        following.append(previous)
            frontier = following
        _walk_distance[key] = cached
    return cached


def weapon_card(state: State, field_b: int) -> Card:
    """An attack's weapon from its code's field b (0: the base pistol, a card's uid + 1 otherwise)."""
    return PISTOL if field_b == 0 else state.card(field_b - 1)


def weapon_strength(card: Card) -> float:
    """A weapon's expected damage as the bots weigh it: its dice, and 3.5 (a die's mean) per point added."""
    return card.dice + card.extra_damage * 3.5


def code_strength(state: State, code: int) -> float:
    return weapon_strength(weapon_card(state, code >> B_SHIFT & B_MASK))


def _first(codes: list[int], kind: int) -> int | None:
    for code in codes:
        if code & KIND_MASK == kind:
            return code
    return None


def heuristic_code(state: State, player: int, dice: Dice) -> int:
    """Heals when dying, shoots when the odds are good, loots, then walks towards pick-ups and weak targets."""
    codes = state.legal_codes(player)
    me = state.fighters[player]
    kinds = {code & KIND_MASK for code in codes}

    if state.pending is not None:
        heal = _first(codes, PLAY)
        if heal is None:
            heal = _first(codes, SPEND_BLOOD)
        return codes[0] if heal is None else heal
    if PLACE in kinds:
        return codes[dice.below(len(codes))]
    if DISCARD in kinds:
        # Keep weapons and healing; let the rest go first.
        def keep_value(code: int) -> int:
            card = state.card(code >> B_SHIFT & B_MASK)
            return 3 if card.is_weapon else 2 if card.effect in ("heal", "armour") else 1

        return min((c for c in codes if c & KIND_MASK == DISCARD), key=keep_value)

    # Cards worth playing at once: armour, weapons into play, healing when hurt, useful modifiers.
    if PLAY in kinds:
        played = _card_to_play(state, player, codes)
        if played is not None:
            return played
    if SPEND_BLOOD in kinds and me.hp < me.health:
        return SPEND_BLOOD
    if state.phase == MOVEMENT:
        teleport = _teleport_choice(state, player, codes) if PLAY in kinds else None
        if teleport is not None:
            return teleport
        return ROLL if ROLL in kinds else codes[0]

    # Loot where we stand.
    found = _first(codes, TAKE_WEAPON)
    if found is not None:
        return found
    if TAKE_BLOOD in kinds and (me.hp < me.health or me.blood < 2):
        return TAKE_BLOOD

    # Shoot the weakest target when the accuracy roll is likely enough.
    if ATTACK in kinds and me.place is not None:
        shot = _attack_choice(state, player, me.place, [c for c in codes if c & KIND_MASK == ATTACK])
        if shot is not None:
            return shot

    if me.place is not None and (MOVE in kinds or JUMP in kinds or TELEPORT in kinds):
        moves = [c for c in codes if c & KIND_MASK in (MOVE, JUMP, TELEPORT)]
        best_move = _best_move(state, player, moves)
        if best_move is not None:
            return best_move
    return END_TURN if END_TURN in kinds else codes[0]


def _card_to_play(state: State, player: int, codes: list[int]) -> int | None:
    me = state.fighters[player]
    for code in codes:
        if code & KIND_MASK != PLAY:
            continue
        card = state.card(code >> A_SHIFT)
        effect = card.effect
        if effect == "disconnect":
            # Off the board until its next turn, the leader one frag from victory cannot score on anyone's turn.
            target = state.fighters[code >> B_SHIFT & B_MASK]
            if target.frags > me.frags and target.frags >= state.config["frags_to_win"] - 1:
                return code
            continue
        if effect == "teleport":
            continue
        if card.is_weapon or effect in ("armour", "draw", "reload"):
            return code
        if effect == "heal" and me.hp < me.health:
            return code
        if effect == "movement" and state.phase != MOVEMENT:
            return code
        if effect == "modifier" and card.scope != "self" and card.value > 0 and card.op != "set":
            continue
        if effect == "modifier" and card.stat in ("speed", "defence_dice", "hand_limit") and state.phase == MOVEMENT:
            return code
    return None


def _attack_choice(state: State, player: int, place: int, attacks: list[int]) -> int | None:
    accuracy = state.stat(player, "accuracy") + state.stat(player, "accuracy_dice")
    distance = state.board.distance
    chances: dict[int, float] = {}  # per target: the chance to hit it, as the dict bot computed it per attack

    def chance(target: int) -> float:
        found = chances.get(target)
        if found is None:
            found = chances[target] = combat.win_chance(accuracy, distance(place, state.fighters[target].place))  # type: ignore[arg-type]  # targets are on the board
        return found

    def attack_score(code: int) -> float:
        target = code >> A_SHIFT
        return chance(target) * code_strength(state, code) / max(1, state.fighters[target].hp)

    best = max(attacks, key=attack_score)
    return best if chance(best >> A_SHIFT) >= GOOD_SHOT else None


def _teleport_choice(state: State, player: int, codes: list[int]) -> int | None:
    """« à moins que vous ne décidez de jouer une carte de téléportation » : a teleport card replaces the movement
    roll and leaves no movement point, so it is played only when the square it leads to offers clearly more than
    an ordinary roll would: an unsearched pick-up square, markers to loot, a likely shot, or several of these."""
    teleports = [c for c in codes if c & KIND_MASK == PLAY and state.card(c >> A_SHIFT).effect == "teleport"]
    me = state.fighters[player]
    if not teleports or me.place is None:
        return None
    board = state.board
    marked = {p["place"] for p in state.piles.values()}
    blood = state.blood
    can_shoot = state.turn.attacks < state.attacks_allowed(player)
    accuracy = state.stat(player, "accuracy") + state.stat(player, "accuracy_dice")
    occupied = state.occupied()
    others = {p: s for p, s in occupied.items() if s != player}
    enemies = [e.place for s, e in enumerate(state.fighters) if s != player and not e.out and e.place is not None]

    def best_shot(place: int) -> float:
        """The best chance to hit a fighter in sight from ``place`` (0 when none is or no attack is left)."""
        if not can_shoot:
            return 0.0
        best = 0.0
        for enemy in enemies:
            if enemy != place and state.line_of_sight(place, enemy, others):
                best = max(best, combat.win_chance(accuracy, board.distance(place, enemy)))
        return best

    def plain(place: int, *, pickup: bool) -> float:
        worth = 6.0 if pickup else 0.0
        if blood.get(place) or place in marked:
            worth += 7
        return worth

    def value(place: int, *, pickup: bool) -> float:
        shot = best_shot(place)
        return plain(place, pickup=pickup) + (5 * shot if shot >= GOOD_SHOT else 0.0)

    # An ordinary roll brings about 3 points per die of Vitesse: a pick-up square within that is as good as reached.
    reach = 3 * state.stat(player, "speed")
    rolling = value(me.place, pickup=distance_to_pickups(board).get(me.place, 10_000) <= reach)
    # Never onto acid nor onto another fighter (the ejected fighter would land who knows where).
    pickups = board.weapon_pickups | board.gadget_pickups
    candidates = [c for c in teleports if (c >> B_SHIFT & B_MASK) not in board.acid]
    candidates = [c for c in candidates if (c >> B_SHIFT & B_MASK) not in occupied]
    if not candidates:
        return None
    # A square's worth is its plain worth plus at most 5 (a sure shot): only the squares whose plain worth comes
    # within 5 of the best plain worth can be the best, the others are not looked at.
    plains = [plain(c >> B_SHIFT & B_MASK, pickup=(c >> B_SHIFT & B_MASK) in pickups) for c in candidates]
    floor = max(plains)
    best, best_key = None, (0.0, 0)
    for code, flat in zip(candidates, plains, strict=True):
        if flat + 5.0 < floor:
            continue
        to = code >> B_SHIFT & B_MASK
        key = (value(to, pickup=to in pickups), -to)
        if best is None or key > best_key:
            best, best_key = code, key
    return best if best_key[0] >= rolling + 2 else None


_walk_info: dict[int, tuple[Board, dict[int, dict[int, tuple[int, tuple[int, ...]]]]]] = {}


def walk_info(board: Board, start: int) -> dict[int, tuple[int, tuple[int, ...]]]:
    """Per place reached on foot from ``start``: the acid squares on the board's path there and the pick-up squares
    on it, each once (what ``_best_move`` counts), read once per board and start instead of once per move. Keyed by
    the board's identity, kept beside it to prove that identity (as ``Board.path_features`` does)."""
    entry = _walk_info.get(id(board))
    if entry is None or entry[0] is not board:
        entry = _walk_info[id(board)] = (board, {})
    per_start = entry[1].get(start)
    if per_start is None:
        pickups = board.weapon_pickups | board.gadget_pickups
        per_start = {}
        for place in board.walk_order(start)[0]:
            acid, passed = board.path_features(board.path_to(start, place))
            per_start[place] = (acid, tuple(dict.fromkeys(p for p in passed if p in pickups)))
        entry[1][start] = per_start
    return per_start


_pickup_terms: dict[tuple[int, float], tuple[Board, list[float]]] = {}


def pickup_terms(board: Board, card_worth: float) -> list[float]:
    """Per place, the first term of a move's score, ``-0.3 * steps to the nearest pick-up * card_worth / 6`` (the
    same float), for the two worths a card may have; cached per board's identity."""
    entry = _pickup_terms.get((id(board), card_worth))
    if entry is None or entry[0] is not board:
        distance = distance_to_pickups(board)
        terms = [-0.3 * distance.get(place, 20) * card_worth / 6 for place in range(len(board.steps))]
        entry = _pickup_terms[(id(board), card_worth)] = (board, terms)
    return entry[1]


def _best_move(state: State, player: int, moves: list[int]) -> int | None:
    board = state.board
    me = state.fighters[player]
    start = me.place
    assert start is not None  # a fighter offered moves is on the board
    pickup_distance = distance_to_pickups(board)
    accuracy = state.stat(player, "accuracy")
    occupied = state.occupied()
    del occupied[start]
    enemies = [f for s, f in enumerate(state.fighters) if s != player and not f.out and f.place is not None]
    attacks_left = state.turn.attacks < state.attacks_allowed(player)

    pickups = board.weapon_pickups | board.gadget_pickups
    acid_squares = board.acid

    # A full hand makes another card worth little (it would be discarded): then the bot goes looking for a fight.
    card_worth = 6.0 if len(me.hand) < state.stat(player, "hand_limit") else 1.0

    enemy_steps = [steps_to(board, e.place) for e in enemies if e.place is not None]
    used = state.turn.pickups_used
    looted = state.turn.looted
    # The squares whose markers are still to loot this turn (blood, or a weapon marker).
    lootable = {p for p, n in state.blood.items() if n} | {p["place"] for p in state.piles.values()}
    lootable -= set(looted)
    # Each enemy's largest possible shot bonus (a sure hit): the bound that lets a move be skipped unscored.
    shots = [(e.place, 5 / max(1, e.hp), e.hp) for e in enemies] if attacks_left else []
    distance, sight = board.distance, state.line_of_sight

    def with_shots(place: int, value: float) -> float:
        for enemy_place, _bound, hp in shots:
            if sight(place, enemy_place, occupied):  # type: ignore[arg-type]  # enemies are on the board
                chance = combat.win_chance(accuracy, distance(place, enemy_place))  # type: ignore[arg-type]  # as above
                value += 5 * chance / max(1, hp)
        return value

    # The score of a move, term by term in this order (the float operations of the dict bot, so the same values):
    # the pick-up distance and acid, every unsearched pick-up square on the way (searched in passing), closing in
    # on the nearest enemy (games are won by frags, not by cards), markers to loot, then the shots from there.
    value = -0.3 * pickup_distance.get(start, 20) * card_worth / 6 - 4 * 0
    if enemy_steps:
        value -= 0.25 * min(steps.get(start, 60) for steps in enemy_steps)
    if start in lootable:
        value += 7
    best, best_value = None, with_shots(start, value) + 0.5
    walks = walk_info(board, start)
    distance_terms = pickup_terms(board, card_worth)
    one_enemy = enemy_steps[0] if len(enemy_steps) == 1 else None
    for code in moves:
        kind, place = code & KIND_MASK, code >> B_SHIFT & B_MASK
        if kind == MOVE:
            acid, passed = walks[place]
        else:
            acid, passed = int(place in acid_squares), ((place,) if place in pickups else ())
        value = distance_terms[place] - 4 * acid
        value += card_worth * (len([p for p in passed if p not in used]) if used else len(passed))
        if one_enemy is not None:
            value -= 0.25 * one_enemy.get(place, 60)  # the min of one, as below
        elif enemy_steps:
            value -= 0.25 * min(steps.get(place, 60) for steps in enemy_steps)
        if place in lootable:
            value += 7
        if shots:
            bound = value
            for _place, most, _hp in shots:
                bound += most
            if (bound - 0.5 if kind == JUMP else bound) <= best_value:
                continue
            value = with_shots(place, value)
        if kind == JUMP:
            value -= 0.5
        if value > best_value:
            best, best_value = code, value
    return best
