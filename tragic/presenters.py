"""Plain-language names for cards, actions and events, in the reader's language (never the engine's)."""

from __future__ import annotations

import json
import re
from typing import Any

from django.utils.translation import get_language, ngettext
from django.utils.translation import gettext as _

from tragic.engine import State
from tragic.engine.card_files import default_pool
from tragic.engine.cards import ATTRIBUTE_NAMES


def _french() -> bool:
    return (get_language() or "fr").startswith("fr")


def card_name(card_id: str | None) -> str:
    if not card_id:
        return ""
    pool = default_pool()
    if card_id not in pool:
        return card_id
    card = pool[card_id]
    return f"{card.name if _french() else card.name_en} – {card.level}"


def card_text(card_id: str) -> str:
    card = default_pool()[card_id]
    return card.text if _french() else card.text_en


def attribute_name(code: str) -> str:
    french, english = ATTRIBUTE_NAMES[code]
    return french if _french() else english


def payment(points: dict[str, int]) -> str:
    return ", ".join(f"{n} {attribute_name(a)}" for a, n in points.items() if n) or _("nothing")


# How services name a bot's seat in the game's config: « bot (heuristic) », « bot 2 (search) ».
_BOT_NAME = re.compile(r"^bot(?: (?P<index>\d+))? \((?P<code>\w+)\)$")


def bot_label(code: str) -> str:
    """The bot's name in the reader's language (the raw code « heuristic » showed on every page)."""
    labels = {
        "heuristic": _("Bot (tactician)"),
        "random": _("Bot (random)"),
        "search": _("Bot (search, the strongest)"),
    }
    return str(labels.get(code, code))


def player_name(stored: str) -> str:
    """A player as the engine and the log store them, as a reader sees them: a person by their name, a bot by
    its label (numbered when several sit at the table)."""
    match = _BOT_NAME.match(stored)
    if match is None:
        return stored
    label = bot_label(match["code"])
    return f"{label} {match['index']}" if match["index"] else label


def player_names(stored: list[str]) -> list[str]:
    return [player_name(name) for name in stored]


def seat_name(names: list[str], index: Any) -> str:
    if isinstance(index, int) and 0 <= index < len(names):
        return names[index]
    return _("nobody")


def aim_label(aim: str | None) -> str:
    """CIBLAGE « permet de viser une partie du corps de l'adversaire »: the part, in words."""
    labels = {
        "head": _(" (aiming at the head)"),
        "torso": _(" (aiming at the torso)"),
        "arms": _(" (aiming at the arms)"),
        "legs": _(" (aiming at the legs)"),
        "hand": _(" (aiming at the hand)"),
    }
    return str(labels.get(aim or "", ""))


def damage_type_name(code: str) -> str:
    names = {
        "generic": _("all damage"),
        "radiation": _("radiation"),
        "explosion": _("explosion"),
        "bacteriological": _("bacteriological"),
        "fire": _("fire"),
        "energy": _("energy"),
        "polished_metal": _("laser (polished metal)"),
    }
    return str(names.get(code, code))


def target_label(state: State, target: dict[str, Any] | None, names: list[str]) -> str:
    if not target:
        return ""
    if "player" in target:
        return seat_name(names, target["player"])
    uid = target["card"]
    return _("%(card)s of %(owner)s") % {
        "card": card_name(state.cards[uid].cid),
        "owner": seat_name(names, state.cards[uid].owner),
    }


def describe_action(state: State, action: dict[str, Any], names: list[str]) -> str:
    kind = action["kind"]
    uid = action.get("card")
    card = card_name(state.cards[uid].cid) if isinstance(uid, int) and 0 <= uid < len(state.cards) else ""
    target = target_label(state, action.get("target"), names)
    on = _(" on %(target)s") % {"target": target} if target else ""
    aim = aim_label(action.get("aim"))
    labels = {
        "play": _("Play %(card)s%(on)s%(aim)s") % {"card": card, "on": on, "aim": aim},
        "react": _("React with %(card)s") % {"card": card},
        "place_special": _("Place %(card)s") % {"card": card},
        "activate": _("Use %(card)s%(on)s%(aim)s") % {"card": card, "on": on, "aim": aim},
        "equip": _("Equip %(card)s") % {"card": card},
        "unequip": _("Unequip %(card)s") % {"card": card},
        "pass": _("Let it resolve (pass)"),
        "set_stop": _("Stop me whenever I can respond") if action.get("stop") else _("Stop me only when I am aimed at"),
        "end_turn": _("End the turn"),
        "end_upkeep": _("End the upkeep"),
        "concede": _("Concede"),
        "mulligan": _("Mulligan"),
        "keep": _("Keep this hand"),
    }
    if kind == "choose_traits" and not action.get("traits"):
        return _("Play without a Trait")
    if kind in labels:
        label = labels[kind]
        if action.get("choice") is not None:
            label += _(" (discarding %(card)s)") % {"card": card_name(state.cards[action["choice"]].cid)}
        return label
    if kind == "ally_attack":
        allies = ", ".join(card_name(state.cards[u].cid) for u in action["allies"])
        return _("Attack %(target)s with %(allies)s") % {"target": target, "allies": allies}
    if kind == "block":
        if not action["blockers"]:
            return _("Take the blow")
        blockers = ", ".join(card_name(state.cards[u].cid) for u in action["blockers"])
        return _("Defend with %(allies)s") % {"allies": blockers}
    if kind == "search":
        return _("Take %(card)s") % {"card": card_name(action["card"])} if action["card"] else _("Take nothing")
    if kind == "discover":
        where = {"top": _("on top"), "bottom": _("underneath"), "discard": _("to the discard")}
        return "; ".join(f"{card_name(state.cards[u].cid)} {where[d]}" for u, d in action["placements"])
    if kind == "upkeep":
        entry = next((e for e in state.upkeep_todo if e["id"] == action["entry"]), None)
        if entry is None:
            return _("Upkeep")
        if entry["kind"] == "accro":
            if "pay" in action:
                return _("ACCRO %(name)s: pay %(points)s") % {"name": entry["name"], "points": payment(action["pay"])}
            if "discard" in action:
                return _("ACCRO %(name)s: discard %(card)s") % {
                    "name": entry["name"],
                    "card": card_name(state.cards[action["discard"]].cid),
                }
            return _("ACCRO %(name)s: suffer the withdrawal") % {"name": entry["name"]}
        if entry["kind"] == "shelter_exit":
            return _("Leave the shelter")
        return _("ENTRETIEN: %(card)s") % {"card": card_name(state.cards[entry["card"]].cid)}
    return kind


def action_json(action: dict[str, Any]) -> str:
    return json.dumps(action, separators=(",", ":"), sort_keys=True)


def describe_event(event: dict[str, Any], names: list[str]) -> str | None:
    """One line of the game log; None for bookkeeping events the log leaves out."""
    t = event["t"]
    who = seat_name(names, event.get("player"))
    card = card_name(event.get("card"))
    if t == "turn":
        return _("Turn %(number)s of %(player)s.") % {"number": event["number"], "player": who}
    if t == "drew":
        if "cards" in event:
            return _("%(player)s draws %(cards)s.") % {
                "player": who,
                "cards": ", ".join(card_name(c) for c in event["cards"]),
            }
        return ngettext(
            "%(player)s draws %(count)s card.", "%(player)s draws %(count)s cards.", int(event["count"])
        ) % {
            "player": who,
            "count": event["count"],
        }
    if t == "stole":
        victim = seat_name(names, event.get("victim"))
        if "cards" in event:
            return _("%(player)s steals %(cards)s from %(victim)s.") % {
                "player": who,
                "cards": ", ".join(card_name(c) for c in event["cards"]) or _("nothing"),
                "victim": victim,
            }
        return ngettext(
            "%(player)s steals %(count)s card from %(victim)s.",
            "%(player)s steals %(count)s cards from %(victim)s.",
            int(event["count"]),
        ) % {
            "player": who,
            "count": event["count"],
            "victim": victim,
        }
    if t == "played":
        return _("%(player)s plays %(card)s.") % {"player": who, "card": card}
    if t == "paid":
        return _("%(player)s pays %(points)s.") % {"player": who, "points": payment(event["points"])}
    if t == "special_placed":
        return _("%(player)s places %(card)s.") % {"player": who, "card": card}
    if t == "reacted":
        return _("%(player)s reacts with %(card)s!") % {"player": who, "card": card}
    if t == "timed_out":
        return _("Time ran out for %(player)s: the default is played.") % {"player": who}
    if t == "passed":
        return _("%(player)s lets it resolve.") % {"player": who}
    if t == "attack":
        critical = _(" Critical ×%(factor)s!") % {"factor": event["factor"]} if event.get("factor", 1) > 1 else ""
        victim = seat_name(names, event["target"]) if "target" in event else card_name(event.get("target_card"))
        if "area" in event:
            victim = _("the allies of %(player)s") % {"player": seat_name(names, event["area"])}
        final = event.get("final", event.get("raw"))
        return ngettext(
            "%(card)s hits %(victim)s: %(final)s damage.%(critical)s",
            "%(card)s hits %(victim)s: %(final)s damage.%(critical)s",
            int(final or 0),
        ) % {
            "card": card,
            "victim": victim,
            "final": final,
            "critical": critical,
        }
    if t == "life_lost":
        return _("%(player)s loses %(amount)s life (%(life)s left).") % {
            "player": who,
            "amount": event["amount"],
            "life": event["life"],
        }
    if t == "healed":
        return _("%(player)s heals %(amount)s.") % {"player": who, "amount": event["amount"]}
    if t == "vampirism":
        return _("VAMPIRISME: %(player)s heals %(amount)s.") % {"player": who, "amount": event["amount"]}
    if t == "counter_attack":
        return ngettext(
            "%(card)s strikes back for %(amount)s.", "%(card)s strikes back for %(amount)s.", int(event["amount"])
        ) % {"card": card, "amount": event["amount"]}
    if t == "ally_attack":
        allies = ", ".join(card_name(c) for c in event["allies"])
        return _("%(player)s attacks with %(allies)s.") % {"player": who, "allies": allies}
    if t == "ally_hurt":
        return ngettext(
            "%(card)s takes %(amount)s damage.", "%(card)s takes %(amount)s damage.", int(event["amount"])
        ) % {
            "card": card,
            "amount": event["amount"],
        }
    if t == "ally_defeated":
        return _("%(card)s is defeated.") % {"card": card}
    if t == "martyr":
        return _("MARTYR: %(card)s explodes for %(amount)s.") % {"card": card, "amount": event["amount"]}
    if t == "cancelled":
        return _("%(card)s is cancelled.") % {"card": card or _("The attack")}
    if t == "destroyed":
        return _("%(card)s is destroyed.") % {"card": card}
    if t == "equipped":
        return _("%(player)s equips %(card)s.") % {"player": who, "card": card}
    if t == "unequipped":
        return _("%(player)s unequips %(card)s.") % {"player": who, "card": card}
    if t == "searched":
        return _("%(player)s searches the library and reveals %(card)s.") % {
            "player": who,
            "card": card or _("nothing"),
        }
    if t == "stealth":
        return _("%(player)s gains DISCRÉTION.") % {"player": who}
    if t == "stealth_lost":
        return _("%(player)s loses DISCRÉTION.") % {"player": who}
    if t == "activated":
        return _("%(player)s uses %(card)s.") % {"player": who, "card": card}
    if t == "end_turn":
        return _("%(player)s ends the turn; allies heal.") % {"player": who}
    if t == "first_player":
        return _("%(player)s plays first.") % {"player": who}
    if t == "traits_revealed":
        return _("Traits are revealed.")
    if t == "skills_revealed":
        return _("Compétences are revealed.")
    if t == "eliminated":
        return _("%(player)s is out.") % {"player": who}
    if t == "conceded":
        return _("%(player)s concedes.") % {"player": who}
    if t == "invitation_cancelled":
        return _("%(player)s cancels the invitation.") % {"player": who}
    if t == "game_cancelled":
        return _("%(player)s cancels the game: %(waiting)s did not choose in time. Nobody wins.") % {
            "player": who,
            "waiting": ", ".join(seat_name(names, i) for i in event.get("waiting_for", [])),
        }
    if t == "game_over":
        winner = event.get("winner")
        return (
            _("Game over: %(player)s wins.") % {"player": seat_name(names, winner)}
            if winner is not None
            else _("Game over: a draw.")
        )
    if t == "reaction_revealed":
        if event.get("card"):
            return _("%(player)s proves holding a Reaction: %(card)s.") % {"player": who, "card": card}
        return _("%(player)s holds no Reaction.") % {"player": who}
    if t == "discarded":
        return _("%(player)s discards %(card)s.") % {"player": who, "card": card}
    if t == "defended":
        return _("%(player)s defends with %(allies)s.") % {
            "player": who,
            "allies": ", ".join(card_name(c) for c in event["blockers"]),
        }
    return None


_LIBRARY_PROBLEMS: list[tuple[re.Pattern[str], Any]] = [
    (
        re.compile(r"^(?P<n>\d+) cards, a library has exactly (?P<size>\d+)$"),
        lambda m: (
            ngettext(
                "%(n)s card: a library holds exactly %(size)s.",
                "%(n)s cards: a library holds exactly %(size)s.",
                int(m["n"]),
            )
            % m.groupdict()
        ),
    ),
    (
        re.compile(r"^(?P<n>\d+) SPECIAL cards: at least (?P<pct>\d+)% \((?P<count>\d+)\) are recommended$"),
        lambda m: (
            ngettext(
                "%(n)s SPECIAL card: at least %(pct)s%% (%(count)s) are recommended.",
                "%(n)s SPECIAL cards: at least %(pct)s%% (%(count)s) are recommended.",
                int(m["n"]),
            )
            % m.groupdict()
        ),
    ),
    (
        re.compile(r"^(?P<card>.+): (?P<n>\d+) copies, (?P<mode>\w+) allows (?P<limit>\d+)$"),
        lambda m: (
            ngettext(
                "%(card)s: %(n)s copy, the %(mode)s mode allows %(limit)s.",
                "%(card)s: %(n)s copies, the %(mode)s mode allows %(limit)s.",
                int(m["n"]),
            )
            % m.groupdict()
        ),
    ),
]


def library_problem(text: str) -> str:
    """A deck check of the engine (plain English) in the reader's language; unknown wordings pass through."""
    for pattern, say in _LIBRARY_PROBLEMS:
        match = pattern.match(text)
        if match:
            return str(say(match))
    return text
