"""What one player may see (design.md, rule 5): the only view ever rendered or sent to a player.

Never in it: an opponent's hand (only its size), any library's order or content (only its size), an
opponent's hidden Trait/Compétence choice, a search or discovery that is not yours. Events go through
:func:`redact_event` for the same reason.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .cards import ATTRIBUTES

if TYPE_CHECKING:
    from .legal import Choices


def _card_view(state: Choices, uid: int) -> dict[str, Any]:
    inst = state.cards[uid]
    card = state.pool[inst.cid]
    view: dict[str, Any] = {"uid": uid, "id": inst.cid, "engaged": inst.engaged}
    if card.is_ally and inst.zone in ("play", "combat"):
        view["power"] = state.ally_power(uid)
        view["life"] = state.ally_life(uid)
        view["max_life"] = state.ally_max_life(uid)
        if inst.granted:
            view["granted"] = dict(inst.granted)
    if card.type == "building":
        view["structure"] = card.life - inst.damage
    return view


def observe(state: Choices, viewer: int | None) -> dict[str, Any]:
    """``viewer`` None is a spectator (the replay of a finished game uses full=True instead)."""
    players = []
    for p in state.players:
        mine = p.index == viewer
        zones = p.zones
        view: dict[str, Any] = {
            "index": p.index,
            "name": p.name,
            "life": p.life,
            "max_life": p.max_life,
            "radiation": p.radiation,
            "stealth": p.stealth,
            "sheltered": p.sheltered is not None,
            "eliminated": p.eliminated,
            "lost_reason": p.lost_reason,
            "turns_played": p.turns_played,
            "addictions": dict(p.addictions),
            "library": len(zones["library"]),
            "hand_count": len(zones["hand"]),
            "discard": [_card_view(state, u) for u in zones["discard"]],
            "destroyed": [_card_view(state, u) for u in zones["destroyed"]],
            "play": [_card_view(state, u) for u in zones["play"]],
            "combat": [_card_view(state, u) for u in zones["combat"]],
            "equipment": [_card_view(state, u) for u in zones["equipment"]],
            "traits": [state.cards[u].cid for u in zones["trait"]],
            "skills": [_card_view(state, u) for u in zones["skill"]],
            "special": {
                a: {
                    "points": state.points(p.index, a),
                    "available": state.available(p.index, a),
                    "cards": [state.cards[u].cid for u in p.special[a]],
                }
                for a in ATTRIBUTES
            },
            "armour": dict(state.armour(p.index)),
            "has_chosen": p.hidden_choice is not None,
        }
        if mine:
            view["hand"] = [_card_view(state, u) for u in zones["hand"]]
            view["hidden_choice"] = list(p.hidden_choice) if p.hidden_choice is not None else None
            view["mulligans"] = p.mulligans
            view["stop"] = p.stop
        players.append(view)
    pending = None
    if state.pending is not None:
        pending = {"kind": state.pending["kind"], "player": state.pending["player"]}
        if state.pending["player"] == viewer:
            if "cards" in state.pending:
                pending["cards"] = [_card_view(state, u) for u in state.pending["cards"]]
            if "options" in state.pending:
                pending["options"] = [_card_view(state, u) for u in state.pending["options"]]
            if state.pending["kind"] == "search":
                pending["choices"] = state.search_matches(
                    viewer, state.pending["card_type"], state.pending["attribute"]
                )
            if "item" in state.pending:
                pending["item"] = _stack_view(state, state.pending["item"])
    return {
        "viewer": viewer,
        "profile": state.profile.name,
        "phase": state.phase,
        "active": state.active,
        "first_player": state.first_player,
        "turn": state.turn,
        "players": players,
        "stack": [_stack_view(state, item) for item in state.stack],
        "priority": state.priority[0] if state.priority else None,
        "pending": pending,
        "window": state.window if viewer == state.active else "",
        "ending": state.ending,
        "upkeep": state.upkeep_todo if viewer == state.active else [],
        "timer": state.timer,
        "over": state.over,
        "winner": state.winner_index,
        "current": state.current_players(),
    }


def _stack_view(state: Choices, item: dict[str, Any]) -> dict[str, Any]:
    view: dict[str, Any] = {"id": item.get("id"), "kind": item["kind"], "player": item["player"]}
    if "card" in item:
        view["card"] = state.cards[item["card"]].cid
    if "allies" in item:
        view["allies"] = [state.cards[u].cid for u in item["allies"]]
    target = item.get("target")
    if target:
        view["target"] = (
            {"card": state.cards[target["card"]].cid, "owner": state.cards[target["card"]].owner}
            if "card" in target
            else target
        )
    if item.get("aim"):
        view["aim"] = item["aim"]
    if item.get("reduce"):
        view["reduce"] = item["reduce"]
    return view


def redact_event(event: dict[str, Any], viewer: int | None) -> dict[str, Any] | None:
    """A private event (a draw) shows its cards to its owner only — or to the seats it lists (a theft: the
    thief and the victim); the others learn how many."""
    if "private" not in event:
        return event
    private = event["private"]
    if private == viewer or isinstance(private, list) and viewer in private:
        return event
    return {k: v for k, v in event.items() if k not in ("cards", "private")}
