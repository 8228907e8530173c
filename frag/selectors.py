"""Reads for the Frag pages: what one seat sees of a game, ready for the templates.

Everything here starts from ``State.observation(seat)`` and ``legal_actions(seat)``: a hand or a
deck order the seat may not see never reaches a template.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from django.conf import settings
from django.contrib.auth.models import User
from django.utils.translation import get_language
from django.utils.translation import gettext as _

from frag.engine import State, new_game, visible_event
from frag.engine.board import (
    ACID,
    DIAGONALS,
    GADGET_PICKUP,
    ONE_WAY_DOORS,
    RESPAWNS,
    TELEPORTER,
    VENT,
    WALL,
    WEAPON_PICKUP,
)
from frag.engine.cards import PISTOL, Card
from frag.engine.state import PLACEMENT
from frag.models import Game, Seat, Step

CELL = 10
COLOURS = ["#d7263d", "#1b998b", "#f4a259", "#2e86ab", "#8f5cd1", "#5b8c2a"]
ARROWS = {"^": "↑", "v": "↓", ">": "→", "<": "←"}


def language() -> str:
    return "en" if (get_language() or "fr").startswith("en") else "fr"


def card_name(card: Card) -> str:
    return card.name[language()]


def seat_for_viewer(game: Game, seats: list[Seat], user: User, state: State) -> int | None:
    """The seat a person plays from: the one whose turn it is if they hold it (hot seat), else their first."""
    mine = [s.number for s in seats if s.user_id == user.pk and not s.is_bot]
    if not mine:
        return None
    current = state.current_players()
    for number in mine:
        if number in current:
            return number
    return mine[0]


@dataclass
class Choice:
    index: int
    label: str
    kind: str
    style: str = ""


@dataclass
class BoardView:
    width: int
    height: int
    cols: int
    cells: list[dict[str, Any]] = field(default_factory=list)
    targets: list[dict[str, Any]] = field(default_factory=list)
    fighters: list[dict[str, Any]] = field(default_factory=list)
    markers: list[dict[str, Any]] = field(default_factory=list)
    sight_lines: list[dict[str, Any]] = field(default_factory=list)


def _centre(state: State, place: int) -> tuple[float, float]:
    p = state.board.places[place]
    return p.x * CELL / 6, p.y * CELL / 6


def _shape(state: State, place: int) -> str:
    """SVG points of a place: its square, or its half for a diagonal square."""
    p = state.board.places[place]
    x0, y0, x1, y1 = p.col * CELL, p.row * CELL, (p.col + 1) * CELL, (p.row + 1) * CELL
    kind = state.board.grid[p.row][p.col]
    if p.half == 0:
        corners = [(x0, y0), (x1, y0), (x1, y1), (x0, y1)]
    elif kind == "/":
        corners = [(x0, y0), (x1, y0), (x0, y1)] if p.half == 1 else [(x1, y0), (x1, y1), (x0, y1)]
    else:
        corners = [(x0, y0), (x1, y0), (x1, y1)] if p.half == 1 else [(x0, y0), (x1, y1), (x0, y1)]
    return " ".join(f"{x},{y}" for x, y in corners)


def board_view(state: State, seat: int | None, legal: list[dict[str, Any]], mode: str = "") -> BoardView:
    board = state.board
    view = BoardView(width=board.cols * CELL, height=board.rows * CELL, cols=board.cols)
    open_doors = state.open_doors()
    for r, line in enumerate(board.grid):
        for c, ch in enumerate(line):
            cell: dict[str, Any] = {"x": c * CELL, "y": r * CELL, "kind": "floor", "label": "", "diagonal": None}
            if ch == WALL:
                cell["kind"] = "wall"
            elif ch == ACID:
                cell["kind"] = "acid"
            elif ch == TELEPORTER:
                cell["kind"] = "teleporter"
            elif ch == VENT:
                cell["kind"] = "vent"
            elif ch == WEAPON_PICKUP:
                cell["kind"], cell["label"] = "weapon-pickup", "W"
            elif ch == GADGET_PICKUP:
                cell["kind"], cell["label"] = "gadget-pickup", "G"
            elif ch in RESPAWNS:
                cell["kind"], cell["label"] = "respawn", ch
            elif ch in DIAGONALS:
                x0, y0 = c * CELL, r * CELL
                cell["diagonal"] = (x0, y0 + CELL, x0 + CELL, y0) if ch == "/" else (x0, y0, x0 + CELL, y0 + CELL)
            elif ch == "D" or ch in ONE_WAY_DOORS:
                door = board.door_of[board.place_at[(r, c, 0)]]
                cell["kind"] = "door open" if door in open_doors else "door closed"
                cell["label"] = ARROWS.get(
                    ch, "↕" if board.steps[board.place_at[(r, c, 0)]].keys() <= {"N", "S"} else "↔"
                )
            view.cells.append(cell)

    # Where a tap does something: moves, jumps, teleporters, placement, or the square a card sends us to.
    # A jump is offered where walking cannot go, or only through acid: elsewhere walking is cheaper.
    safe_walks = {a["path"][-1] for a in legal if a["type"] == "move" and not any(p in board.acid for p in a["path"])}
    for index, action in enumerate(legal):
        if action["type"] == "jump" and action["to"] in safe_walks:
            continue
        kind = action["type"]
        if kind == "move":
            to, style = action["path"][-1], "reachable"
        elif kind in ("jump", "teleport", "place"):
            to, style = action["to"], {"jump": "jump", "teleport": "teleport", "place": "reachable"}[kind]
        elif kind == "play" and mode == f"teleport-{action['card']}" and "to" in action:
            to, style = action["to"], "teleport"
        else:
            continue
        cx, cy = _centre(state, to)
        square = state.board.places[to]
        view.targets.append(
            {
                "index": index,
                "points": _shape(state, to),
                "style": style,
                "place": to,
                "cx": cx,
                "cy": cy,
                "row": square.row,
                "col": square.col,
            }
        )

    observation = state.observation(seat)
    for f in observation["fighters"]:
        if f["place"] is None:
            continue
        cx, cy = _centre(state, f["place"])
        view.fighters.append(
            {
                "seat": f["seat"],
                "cx": cx,
                "cy": cy,
                "colour": COLOURS[f["seat"] % 6],
                "name": f["name"],
                "me": f["seat"] == seat,
            }
        )
    for place, count in state.blood.items():
        cx, cy = _centre(state, place)
        view.markers.append({"kind": "blood", "cx": cx - 3, "cy": cy + 3, "count": count})
    for pile in state.piles.values():
        cx, cy = _centre(state, pile["place"])
        view.markers.append({"kind": "weapon", "cx": cx + 3, "cy": cy + 3, "count": len(pile["cards"])})
    if seat is not None and not state.fighters[seat].out and state.fighters[seat].place is not None:
        mx, my = _centre(state, state.fighters[seat].place)
        for target in state.targets_in_sight(seat):
            tx, ty = _centre(state, state.fighters[target].place)  # type: ignore[arg-type]
            view.sight_lines.append({"x1": mx, "y1": my, "x2": tx, "y2": ty})
    return view


def _name(state: State, seat: int) -> str:
    return state.fighters[seat].name


def _weapon_label(state: State, weapon: Any) -> str:
    return card_name(PISTOL) if weapon == PISTOL.id else card_name(state.card(weapon))


def names_a_hand_card(state: State, action: dict[str, Any]) -> bool:
    """Whether the button for ``action`` would name a card of the acting fighter's hand."""
    hand = state.fighters[action["player"]].hand
    if action["type"] in ("play", "drop", "discard"):
        return True
    return action["type"] == "attack" and action["weapon"] in hand


def choices(state: State, legal: list[dict[str, Any]], *, cards: bool = True) -> list[Choice]:
    """Buttons for every legal action that is not a tap on the board. ``cards=False`` (a folded hot-seat
    hand) leaves out every button that would name a card of the hand."""
    found: list[Choice] = []
    teleport_cards: set[int] = set()
    for index, action in enumerate(legal):
        kind = action["type"]
        player = action["player"]
        if not cards and names_a_hand_card(state, action):
            continue
        if kind == "roll":
            found.append(
                Choice(
                    index,
                    _("Roll %(count)s dice for movement") % {"count": state.stat(player, "speed")},
                    kind,
                    "primary",
                )
            )
        elif kind == "end_turn":
            found.append(Choice(index, _("End the turn"), kind))
        elif kind == "pick_up":
            found.append(Choice(index, _("Search this pick-up square (4–6 draws a card)"), kind, "primary"))
        elif kind == "take_blood":
            found.append(Choice(index, _("Take the blood marker"), kind))
        elif kind == "take_weapon":
            found.append(
                Choice(
                    index,
                    _("Take %(card)s from the weapon marker") % {"card": card_name(state.card(action["card"]))},
                    kind,
                )
            )
        elif kind == "spend_blood":
            found.append(Choice(index, _("Spend a blood marker: +1 Health"), kind))
        elif kind == "accept_frag":
            found.append(Choice(index, _("Accept the frag"), kind, "danger"))
        elif kind == "attack":
            distance = state.board.distance(state.fighters[player].place, state.fighters[action["target"]].place)  # type: ignore[arg-type]
            label = _("Attack %(name)s with %(weapon)s (distance %(distance)s)") % {
                "name": _name(state, action["target"]),
                "weapon": _weapon_label(state, action["weapon"]),
                "distance": distance,
            }
            found.append(Choice(index, label, kind, "danger"))
        elif kind == "play":
            card = state.card(action["card"])
            if "to" in action:
                teleport_cards.add(action["card"])
                continue
            if "target" in action:
                label = _("Play %(card)s on %(name)s") % {
                    "card": card_name(card),
                    "name": _name(state, action["target"]),
                }
            elif "weapon" in action:
                label = _("Play %(card)s on %(weapon)s") % {
                    "card": card_name(card),
                    "weapon": card_name(state.card(action["weapon"])),
                }
            else:
                label = _("Play %(card)s") % {"card": card_name(card)}
            found.append(Choice(index, label, kind))
        elif kind == "drop":
            found.append(Choice(index, _("Drop %(card)s") % {"card": card_name(state.card(action["card"]))}, kind))
        elif kind == "discard":
            found.append(Choice(index, _("Discard %(card)s") % {"card": card_name(state.card(action["card"]))}, kind))
    for uid in sorted(teleport_cards):
        found.append(
            Choice(-1, _("Play %(card)s: choose a square") % {"card": card_name(state.card(uid))}, f"teleport-{uid}")
        )
    return found


def hand(state: State, seat: int | None) -> list[dict[str, Any]]:
    if seat is None:
        return []
    cards = []
    for uid in state.fighters[seat].hand:
        card = state.card(uid)
        cards.append(
            {
                "uid": uid,
                "name": card_name(card),
                "text": card.text[language()],
                "deck": card.deck,
                "letter": card.letter,
            }
        )
    return cards


def fighter_status(state: State, seat: int) -> tuple[str, str]:
    """Why a fighter is not on the board, as (code, label); ("", "") when it is on the board.

    Before its first placement a fighter is about to appear, not out of action; a fragged fighter is
    « hors jeu jusqu'au prochain tour, où il réapparaîtra » ; a disconnected one keeps its Santé."""
    fighter = state.fighters[seat]
    if not fighter.out:
        return "", ""
    if state.phase == PLACEMENT:
        return "to_place", _("to place")
    if state.is_over():
        return ("fragged", _("fragged")) if fighter.hp <= 0 else ("disconnected", _("disconnected"))
    if fighter.hp <= 0:
        return "respawning", _("fragged: respawns on their turn")
    return "disconnected", _("disconnected until their turn")


def fighters_panel(state: State, seat: int | None) -> list[dict[str, Any]]:
    rows = []
    for f in state.observation(seat)["fighters"]:
        status, status_label = fighter_status(state, f["seat"])
        rows.append(
            {
                **f,
                "status": status,
                "status_label": status_label,
                "colour": COLOURS[f["seat"] % 6],
                "weapon_names": [
                    f"{card_name(state.card(w['uid']))} ({w['ammo_left'] if state.card(w['uid']).ammo else '∞'})"
                    for w in f["weapons"]
                ],
                "armour_name": card_name(state.card(f["armour"]["uid"])) if f["armour"] else "",
                "current": f["seat"] in state.current_players(),
            }
        )
    return rows


def describe(state: State, event: dict[str, Any]) -> str:
    """One line of the game log, in the reader's language. Hidden cards were removed before."""
    kind = event["type"]
    who = _name(state, event["player"]) if isinstance(event.get("player"), int) else ""

    def card(field_name: str = "card") -> str:
        cid = event.get(field_name)
        if cid is None:
            return _("a card")
        return card_name(PISTOL) if cid == PISTOL.id else card_name(state.cardset.cards[cid])

    if kind == "dice":
        purposes = {
            "movement": _("%(name)s rolls %(dice)s for movement"),
            "respawn": _("%(name)s rolls %(dice)s to respawn"),
            "ejection": _("%(name)s is ejected and rolls %(dice)s"),
            "pick_up": _("%(name)s searches and rolls %(dice)s"),
            "accuracy": _("%(name)s rolls %(dice)s for accuracy"),
        }
        if event["purpose"] == "first_player":
            return _("Rolls for the first player: %(dice)s") % {
                "dice": ", ".join(f"{_name(state, int(s))} {v}" for s, v in event["rolls"].items())
            }
        text = purposes[event["purpose"]] % {"name": who, "dice": " ".join(map(str, event["dice"]))}
        if event["purpose"] == "accuracy":
            text += " " + (
                _("against distance %(distance)s: hit") if event["hit"] else _("against distance %(distance)s: miss")
            ) % {"distance": event["distance"]}
        return text
    messages = {
        "first_player": _("%(name)s plays first"),
        "turn_started": _("Turn %(number)s: %(name)s"),
        "turn_ended": _("%(name)s ends the turn"),
        "arrived": _("%(name)s appears on the board"),
        "ejected": _("%(name)s is ejected"),
        "movement_points": _("%(name)s has %(mp)s movement points"),
        "stepped": "",
        "jumped": _("%(name)s jumps"),
        "drew": _("%(name)s draws %(card)s"),
        "reshuffled": _("A discard pile is reshuffled"),
        "deck_empty": _("A deck is empty"),
        "played": _("%(name)s plays %(card)s"),
        "wounded": _("%(name)s loses %(points)s Health (now %(hp)s)"),
        "armour_destroyed": _("%(name)s's armour is destroyed"),
        "dying": _("%(name)s is down and may heal at once"),
        "survived": _("%(name)s survives"),
        "fragged": _("%(name)s is fragged"),
        "scored": _("%(name)s scores a frag (%(frags)s)"),
        "healed": _("%(name)s heals %(points)s (now %(hp)s)"),
        "took_blood": _("%(name)s takes a blood marker"),
        "took_weapon": _("%(name)s takes %(card)s from a weapon marker"),
        "spent_blood": _("%(name)s spends a blood marker"),
        "weapon_marker": _("A weapon marker is left on the board"),
        "dropped": _("%(name)s drops %(card)s"),
        "discarded": _("%(name)s discards %(card)s"),
        "must_discard": _("%(name)s must discard down to %(down_to)s cards"),
        "card_expired": _("%(card)s ends for %(name)s"),
        "reloaded": _("%(name)s reloads"),
        "disconnected": _("%(name)s is disconnected until their next turn"),
        "attack": _("%(name)s attacks %(target)s with %(weapon)s"),
        "damage_roll": _("Damage: %(attack)s against %(defence)s, %(lost)s lost"),
        "game_over": _("Game over"),
    }
    template = messages.get(kind, kind)
    if not template:
        return ""
    values = {
        "name": who,
        "number": event.get("number", ""),
        "mp": event.get("mp", ""),
        "points": event.get("points", ""),
        "hp": event.get("hp", ""),
        "frags": event.get("frags", ""),
        "down_to": event.get("down_to", ""),
        "card": card() if "card" in event or kind in ("drew", "took_weapon") else "",
        "target": _name(state, event["target"]) if isinstance(event.get("target"), int) else "",
        "weapon": card("weapon") if kind == "attack" else "",
        "attack": " ".join(map(str, event.get("attack_dice", []))) or "0",
        "defence": " ".join(map(str, event.get("defence_dice", []))) or "0",
        "lost": event.get("lost", ""),
    }
    if kind == "game_over":
        winner = event.get("winner")
        return (
            _("Game over: %(name)s wins") % {"name": _name(state, winner)}
            if winner is not None
            else _("Game over: no winner")
        )
    if kind == "damage_roll" and event.get("purpose") == "acid":
        return _("Acid: %(attack)s against %(defence)s, %(lost)s lost") % values
    return template % values


def log_lines(state: State, steps: list[Step], seat: int | None, limit: int | None = 60) -> list[dict[str, Any]]:
    """The most recent steps first, each with its readable lines, hiding others' draws."""
    chosen = steps[-limit:] if limit else steps
    lines = []
    for step in reversed(chosen):
        texts = [describe(state, visible_event(event, seat)) for event in step.events]
        lines.append({"number": step.number, "seat": step.seat, "texts": [t for t in texts if t]})
    return lines


REVEALED = "frag_revealed"


def is_hot_seat(seats: list[Seat], user: User) -> bool:
    """Whether ``user`` plays several seats of the game on one device (its hands then stay folded)."""
    return sum(1 for s in seats if s.user_id == user.pk and not s.is_bot) > 1


def hand_key(state: State, seat: int) -> str:
    """What a hot-seat device taps open: one seat's hand for one turn (a new turn folds it again)."""
    return f"{seat}:{state.turn.number}"


def revealed_hand(session: Any, game_id: int) -> str:
    """The hand this device (its session) has tapped open in a game, as a ``hand_key``; "" if none."""
    return str((session.get(REVEALED) or {}).get(str(game_id), ""))


def reveal_hand(session: Any, game_id: int, key: str) -> None:
    revealed = dict(session.get(REVEALED) or {})
    revealed[str(game_id)] = key
    session[REVEALED] = revealed


def fold_after(session: Any, game_id: int, seat: int) -> None:
    """After ``seat`` acted on this device, fold any other seat's open hand: the device is in ``seat``'s hands. (A
    dying fighter accepting the frag mid-turn gives the turn back to the attacker, in the same turn: its hand,
    opened before, must not show to the person still holding the device.)"""
    key = revealed_hand(session, game_id)
    if key and key.split(":")[0] != str(seat):
        revealed = dict(session.get(REVEALED) or {})
        del revealed[str(game_id)]
        session[REVEALED] = revealed


def game_context(
    game: Game,
    seats: list[Seat],
    user: Any,
    mode: str = "",
    *,
    frame: tuple[State, list[Step]] | None = None,
    revealed: str = "",
) -> dict[str, Any]:
    """The table for one person. ``frame``: a past moment (a replayed state and the steps up to it),
    shown read-only while the bots' turns play out live. ``revealed``: the ``hand_key`` this device
    tapped open; in a hot-seat game every other hand stays folded: no card of it reaches the page
    (hand, card buttons, draws in the log) until the seat to act taps « show my hand »."""
    if frame is None:
        state = State.from_json(game.snapshot)
        steps = list(game.steps.order_by("-number")[:40])[::-1]
    else:
        state, steps = frame[0], frame[1][-40:]
    seat = seat_for_viewer(game, seats, user, state)
    legal = state.legal_actions(seat) if seat is not None and frame is None else []
    hot_seat = is_hot_seat(seats, user)
    my_turn = frame is None and seat is not None and seat in state.current_players()
    folded = hot_seat and seat is not None and not (my_turn and revealed == hand_key(state, seat))
    if folded and mode.startswith("teleport"):
        mode = ""
    log = log_lines(state, steps, None if folded else seat)
    acting = state.current_players()
    return {
        "game": game,
        "seats": seats,
        "seat": seat,
        "hot_seat": hot_seat,
        "folded": folded,
        # The pass-the-device screen: the hand to tap open is that of the seat to act.
        "pass_to": _name(state, seat) if folded and my_turn and seat is not None else "",
        "hand_size": len(state.fighters[seat].hand) if seat is not None else 0,
        "state": state,
        "board": board_view(state, seat, legal, mode),
        "choices": choices(state, legal, cards=not folded),
        "hand": [] if folded else hand(state, seat),
        "fighters": fighters_panel(state, seat),
        "log": log,
        # What the last step did, shown beside the actions: the feedback of a tap on a phone.
        "just_now": next((line for line in log if line["texts"]), None),
        # Who acts now: the turn's fighter, or a dying one choosing to heal in someone else's turn.
        "acting_name": _name(state, acting[0]) if acting else "",
        "dying": state.pending is not None,
        "my_turn": my_turn,
        "playing_out": frame is not None,
        "mode": mode,
        "turn": state.turn,
        "turn_attacks": state.attacks_allowed(state.turn.player),
        "phase": state.phase,
        "winner": state.winner(),
        "map_title": state.board.title[language()],
    }


def replay_frame(game: Game, upto: int) -> tuple[State, list[Step]]:
    """The game as it stood after its first ``upto`` actions, with the steps that led there (setup included)."""
    state = new_game(game.config, game.seed)
    steps = list(game.steps.filter(number__lte=upto).order_by("number"))
    for step in steps:
        if step.number >= 1:
            state.apply(step.action)
    return state, steps


def bot_turn_ends(steps: list[Step], seats: list[Seat], after: int) -> list[int]:
    """Step numbers, after ``after``, that end a bot's turn: the moments the live table pauses on."""
    bots = {s.number for s in seats if s.is_bot}
    return [
        step.number
        for step in steps
        if step.number > after and step.seat in bots and any(e["type"] == "turn_ended" for e in step.events)
    ]


def live_pace() -> float:
    """Seconds between two bot turns on the live table (0: show only the outcome)."""
    return float(getattr(settings, "FRAG_LIVE_PACE", 0.6))


def playing_out_frames(game: Game, seats: list[Seat], user: Any, after: int) -> list[dict[str, Any]]:
    """Read-only tables at the end of each bot turn after step ``after`` (the last one excluded: it is now)."""
    steps = list(game.steps.order_by("number"))
    if not steps:
        return []
    ends = [n for n in bot_turn_ends(steps, seats, after) if n < steps[-1].number]
    if not ends:
        return []
    frames, state = [], new_game(game.config, game.seed)
    for index, step in enumerate(steps):
        if step.number >= 1:
            state.apply(step.action)
        if step.number in ends:
            frames.append(game_context(game, seats, user, frame=(state, steps[: index + 1])))
    return frames


def last_person_step(steps: list[Step], seats: list[Seat]) -> int:
    people = {s.number for s in seats if not s.is_bot}
    return max((s.number for s in steps if s.seat in people and s.number >= 1), default=0)
