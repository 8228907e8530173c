"""Reads: what one seat sees of a game, already in the reader's language."""

from __future__ import annotations

import datetime as dt
import math
from dataclasses import dataclass
from typing import Any

from django.contrib.auth.models import User
from django.db.models import Q, QuerySet
from django.utils import timezone
from django.utils.translation import gettext as _

from tragic.engine import State, redact_event
from tragic.engine.cards import ATTRIBUTES
from tragic.models import Deck, Game, GameStatus, Seat
from tragic.presenters import (
    action_json,
    aim_label,
    attribute_name,
    card_name,
    card_text,
    damage_type_name,
    describe_action,
    describe_event,
    payment,
    player_name,
    player_names,
    seat_name,
)
from tragic.services import SETUP_PHASES, cancel_due, load_state, timeout_defaults

LOG_LINES = 40


def games_of(user: User) -> QuerySet[Game]:
    return Game.objects.filter(Q(seats__user=user) | Q(created_by=user)).distinct().prefetch_related("seats__user")


def decks_of(user: User) -> QuerySet[Deck]:
    return Deck.objects.filter(owner=user)


def seat_of(game: Game, user: User) -> Seat | None:
    return next((s for s in game.seats.all() if s.user_id == user.pk), None)


@dataclass
class OfferedAction:
    label: str
    kind: str
    payload: str
    pay: dict[str, Any] | None
    split: list[dict[str, Any]] | None = None


def _card(view: dict[str, Any]) -> dict[str, Any]:
    return {**view, "name": card_name(view["id"]), "text": card_text(view["id"])}


def unstarted_board(game: Game, seat: Seat | None) -> dict[str, Any]:
    """A game still waiting for its players (an invitation) has no engine state yet: its page says so,
    shows the invitation link and lets a seated player cancel it."""
    names = player_names([p["name"] for p in game.config.get("players", [])])
    log = [line for line in (describe_event(e, names) for e in game.log) if line]
    return {
        "game": game,
        "seat": seat,
        "unstarted": True,
        "seats_taken": len(names),
        "obs": {"over": False, "phase": "", "timer": False},
        "players": [],
        "others": [],
        "me": None,
        "stack": [],
        "actions": [],
        "log": log,
        "waiting_for": [],
        "invitation": seat is not None and game.status == GameStatus.WAITING,
    }


def board(game: Game, seat: Seat | None, state: State | None = None) -> dict[str, Any]:
    """The board for one seat (``seat`` None: a spectator, who sees no hand at all)."""
    if state is None and game.started_at is None:
        return unstarted_board(game, seat)
    state = state or load_state(game)
    viewer = seat.index if seat else None
    observation = state.observation(viewer)
    names = player_names([p["name"] for p in observation["players"]])
    players = []
    for p in observation["players"]:
        players.append(
            {
                **p,
                "name": player_name(p["name"]),
                "mine": p["index"] == viewer,
                "hand": [_card(c) for c in p.get("hand", [])],
                "play": [_card(c) for c in p["play"]],
                "combat": [_card(c) for c in p["combat"]],
                "equipment": [_card(c) for c in p["equipment"]],
                "skills": [_card(c) for c in p["skills"]],
                "traits": [{"id": t, "name": card_name(t), "text": card_text(t)} for t in p["traits"]],
                "hidden_names": [card_name(c) for c in p.get("hidden_choice") or []],
                "discard_top": [_card(c) for c in p["discard"][-5:]],
                "specials": [{"code": a, "name": attribute_name(a), **p["special"][a]} for a in ATTRIBUTES],
                # « Suivre l'évolution de son Armure » (000, V.6): every player's armour, by damage type.
                "armour": [{"type": damage_type_name(t), "points": n} for t, n in p["armour"].items() if n],
            }
        )
    stack = [
        {
            **item,
            "who": names[item["player"]],
            "name": card_name(item.get("card"))
            if "card" in item
            else ", ".join(card_name(c) for c in item.get("allies", [])),
            # The target by name (a seat number means nothing on the board), with its owner and the part aimed at.
            "target_name": (
                seat_name(names, item["target"]["player"])
                if "player" in item.get("target", {})
                else _("%(card)s of %(owner)s")
                % {"card": card_name(item["target"]["card"]), "owner": seat_name(names, item["target"]["owner"])}
                if "card" in item.get("target", {})
                else ""
            )
            + aim_label(item.get("aim")),
        }
        for item in observation["stack"]
    ]
    actions: list[OfferedAction] = []
    setup: dict[str, Any] | None = None
    discover: list[dict[str, Any]] | None = None
    bottom: dict[str, Any] | None = None
    card_names = {uid: card_name(state.cards[uid].cid) for uid in (state.pending or {}).get("options", [])}
    playing = game.status == GameStatus.PLAYING and not state.is_over()
    if playing and viewer is not None and viewer in state.current_players():
        # Conceding has its own button, with a confirmation, whoever holds the decision.
        legal = [a for a in state.legal_actions(viewer) if a["kind"] != "concede"]
        if state.phase in ("choose_traits", "choose_skills"):
            setup = _setup_choices(state, viewer)
        else:
            if state.pending is not None and state.pending["kind"] == "discover":
                # One choice per card instead of every combination as a button.
                discover = [
                    {"uid": u, "name": card_name(state.cards[u].cid), "text": card_text(state.cards[u].cid)}
                    for u in state.pending["cards"]
                ]
                legal = [a for a in legal if a["kind"] != "discover"]
            if state.phase == "mulligan" and state.players[viewer].mulligans:
                bottom = {
                    "count": state.players[viewer].mulligans,
                    "cards": [
                        {"uid": u, "name": card_name(state.cards[u].cid)} for u in state.players[viewer].zones["hand"]
                    ],
                }
            labels = _distinct_labels(state, legal, names)
            for action, label in zip(legal, labels, strict=True):
                actions.append(
                    OfferedAction(
                        label=label,
                        kind=action["kind"],
                        payload=action_json(action),
                        pay=_pay_fields(state, viewer, action),
                        split=[{**f, "name": card_names.get(f["uid"], "")} for f in _split_fields(action) or []]
                        or None,
                    )
                )
    log = []
    for event in game.log[-LOG_LINES * 3 :]:
        visible = redact_event(event, viewer)
        line = describe_event(visible, names) if visible is not None else None
        if line:
            log.append(line)
    phases = {
        "choose_traits": _("choosing Traits"),
        "choose_skills": _("choosing Compétences"),
        "mulligan": _("mulligans"),
        "upkeep": _("upkeep"),
        "main": _("main phase"),
        "over": _("game over"),
    }
    awaited = viewer is not None and viewer in observation["current"]
    pending_kind = (observation["pending"] or {}).get("kind")
    to_do = {
        "block": _("choose your blockers"),
        "protect": _("choose who takes the blow"),
        "search": _("choose the card you search for"),
        "discover": _("place the cards you discover"),
    }
    defaults = timeout_defaults(game, state) if viewer is not None else []
    timeout = (
        {
            "delay": reaction_delay(game),
            "defaults": [
                _("%(player)s: %(action)s")
                % {"player": names[a["player"]], "action": _default_label(state, a, names, viewer)}
                for a in defaults
            ],
            "reaction": bool(state.priority) and state.pending is None,
            "form": not awaited,
        }
        if defaults
        else None
    )
    in_setup = observation["phase"] in SETUP_PHASES
    leave = playing and viewer is not None and not state.players[viewer].eliminated
    cancel = None
    if leave and in_setup and viewer not in observation["current"]:
        # No default for the Compétences: once the time to react has run out, the others may cancel.
        cancel = {"ready": cancel_due(game, state, viewer) is None, "delay": reaction_delay(game)}
    return {
        "game": game,
        "seat": seat,
        "timeout": timeout,
        "cancel": cancel,
        "leave": {"setup": in_setup, "payload": action_json({"kind": "concede"})} if leave else None,
        "phase": phases.get(observation["phase"], observation["phase"]),
        "obs": observation,
        "players": players,
        "me": next((p for p in players if p["mine"]), None),
        "others": [p for p in players if not p["mine"]],
        "stack": stack,
        "actions": actions,
        "setup": setup,
        "discover": discover,
        "bottom": bottom,
        "log": log[-LOG_LINES:],
        "waiting_for": [names[i] for i in observation["current"]],
        # Whose turn it is, once the setup is over (the one who acts may be someone else: a reaction, a block).
        "turn_of": names[observation["active"]] if observation["phase"] in ("upkeep", "main", "over") else None,
        # The active player's own turn number, as the log counts it (« Turn 3 of Ana »), not the table's.
        "turn_number": observation["players"][observation["active"]]["turns_played"],
        "stop": _stop_toggle(state, viewer) if playing and viewer is not None else None,
        "to_do": to_do.get(pending_kind, "")
        if pending_kind
        else _("react or let it resolve")
        if observation["priority"] is not None
        else "",
        "asked_to_react": observation["priority"] is not None,
        "my_turn": viewer is not None and viewer in observation["current"],
        "winner": names[observation["winner"]] if observation["winner"] is not None else None,
    }


def _distinct_labels(state: State, legal: list[dict[str, Any]], names: list[str]) -> list[str]:
    """One label per action, and two different actions never read the same: two copies of a card on the
    table (two Miliciens of the same player) are told apart by their place in their owner's row, which the
    board numbers."""
    labels = [describe_action(state, action, names) for action in legal]
    counts: dict[str, int] = {}
    for label in labels:
        counts[label] = counts.get(label, 0) + 1
    for i, action in enumerate(legal):
        if counts[labels[i]] < 2:
            continue
        cards = [action["target"]["card"]] if "card" in (action.get("target") or {}) else []
        cards += action.get("blockers", []) + action.get("allies", [])
        places = [_place(state, uid) for uid in cards]
        if places:
            labels[i] += " " + _("(n° %(places)s)") % {"places": ", ".join(str(n) for n in places)}
    return labels


def _place(state: State, uid: int) -> int:
    inst = state.cards[uid]
    row = state.zone(inst.owner, inst.zone)
    return row.index(uid) + 1 if uid in row else 0


def _stop_toggle(state: State, viewer: int) -> dict[str, Any] | None:
    """The « stop me when I can respond » setting of the priority loop, as a one-tap switch."""
    p = state.players[viewer]
    if p.eliminated:
        return None
    return {"on": p.stop, "payload": action_json({"kind": "set_stop", "stop": not p.stop})}


def _default_label(state: State, action: dict[str, Any], names: list[str], viewer: int | None) -> str:
    """A timeout default as the viewer may read it: the cards of someone else's DÉCOUVERTE are theirs alone."""
    if action["kind"] == "discover" and action["player"] != viewer:
        return _("the discovered cards go back on top, in their order")
    return describe_action(state, action, names)


def reaction_delay(game: Game, now: dt.datetime | None = None) -> int:
    """Seconds until the time to react runs out, counted like the server does (from the last action),
    plus one so that the waiting page never asks too early; 1 once it has run out."""
    if game.last_action_at is None:
        return game.reaction_seconds + 1
    elapsed = ((now or timezone.now()) - game.last_action_at).total_seconds()
    return max(0, math.ceil(game.reaction_seconds - elapsed)) + 1


def _split_fields(action: dict[str, Any]) -> list[dict[str, Any]] | None:
    """« vous choisissez la répartition des dégats »: one field per blocker when several defend."""
    if action["kind"] != "block" or len(action["blockers"]) < 2:
        return None
    return [
        {"uid": uid, "name": "", "value": share} for uid, share in zip(action["blockers"], action["split"], strict=True)
    ]


def _pay_fields(state: State, player: int, action: dict[str, Any]) -> dict[str, Any] | None:
    """Costs are paid by choosing resources: one field per attribute with points left, filled with the
    engine's suggestion; any payment that settles the cost is accepted (``legal_actions`` names each card
    once, so the bots' choices do not multiply with the ways of paying)."""
    if "pay" not in action:
        return None
    total = sum(action["pay"].values())
    if not total:
        return None
    fields = [
        {"code": a, "name": attribute_name(a), "value": action["pay"].get(a, 0), "left": state.available(player, a)}
        for a in ATTRIBUTES
        if state.available(player, a) or action["pay"].get(a)
    ]
    return {"total": total, "fields": fields, "summary": payment(action["pay"])}


def _setup_choices(state: State, player: int) -> dict[str, Any]:
    p = state.players[player]
    if state.phase == "choose_traits":
        pool = sorted(set(p.trait_pool))
        return {
            "kind": "choose_traits",
            "field": "traits",
            "max": 2,
            "min": 0,
            "cards": [{"id": c, "name": card_name(c), "text": card_text(c)} for c in pool],
        }
    pool = sorted(set(p.skill_pool))
    return {
        "kind": "choose_skills",
        "field": "skills",
        "max": state.skill_slots(player),
        "min": 3,
        "cards": [{"id": c, "name": card_name(c), "text": card_text(c)} for c in pool],
    }
