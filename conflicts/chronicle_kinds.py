"""How conflict events read in the log: a scene told draw by draw."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from django.utils.translation import get_language, ngettext, pgettext
from django.utils.translation import gettext as _

from campaigns.chronicle import actor_name, describes, illustrates
from campaigns.redaction import carries_parts, redacts
from conflicts.card_svg import card_svg
from conflicts.labels import atout_label, card_face, dice_text, difficulty_label, rank, severity_label, verdict_label
from conflicts.rules.cards import Card, SuccessRule
from conflicts.rules.errors import RuleError
from core.typography import quoted

if TYPE_CHECKING:
    from campaigns.models import Event


def _cards(hand: dict[str, Any], names: dict[str, str] | None = None) -> str:
    names = names or {}
    parts = []
    for target, codes in hand.get("attack", {}).items():
        if codes:
            parts.append(
                _("against %(name)s: %(cards)s")
                % {"name": names.get(target, target), "cards": " ".join(map(card_face, codes))}
            )
    defence = [c for codes in hand.get("defence", {}).values() for c in codes]
    if defence:
        parts.append(_("in defence: %(cards)s") % {"cards": " ".join(map(card_face, defence))})
    return " · ".join(parts) or _("no cards")


@illustrates("sequence.drew")
def _drawn_cards(event: Event) -> str:
    """The cards of a draw as small SVG playing cards, attack then defence (draws recorded since the log
    says which cards succeed at that table; older ones keep their text)."""
    pictures = _hand_pictures(event.payload)
    return f'<div class="log-cards">{"".join(pictures)}</div>' if pictures else ""


@illustrates("sequence.npcs_drew")
def _npcs_cards(event: Event) -> str:
    """The narrator's tap: every NPC's cards, one hand after the other."""
    pictures = [picture for hand in event.payload.get("hands", []) for picture in _hand_pictures(hand)]
    return f'<div class="log-cards">{"".join(pictures)}</div>' if pictures else ""


def _hand_pictures(p: dict[str, Any]) -> list[str]:
    rule = p.get("rule")
    if rule not in ("even", "red"):
        return []
    hand = p.get("cards") or {}
    flipped = set(hand.get("flipped", []))
    pictures: list[str] = []
    for part in ("attack", "defence"):
        for key, codes in (hand.get(part) or {}).items():
            for i, code in enumerate(codes):
                try:
                    success = Card.parse(code).is_success(SuccessRule(rule))
                except RuleError:
                    continue
                changed = f"{part}:{key}:{i}" in flipped
                pictures.append(card_svg(code, success=success != changed, part=part, changed=changed))
    return pictures


@describes("table.settings_changed", label=lambda: _("Table settings"))
def _table(event: Event) -> str:
    changed = event.payload.get("changed")
    if not changed:
        return _("%(actor)s changed how the table draws cards.") % {"actor": actor_name(event)}
    from campaigns.setting_changes import changes_text
    from conflicts.models import TableSettings

    return _("%(actor)s changed how the table draws cards: %(changes)s.") % {
        "actor": actor_name(event), "changes": changes_text(TableSettings, changed),
    }  # fmt: skip


@describes("deck.reshuffled", label=lambda: _("Reshuffle"))
def _reshuffled(event: Event) -> str:
    return _("%(actor)s shuffles the played cards back into the deck (%(deck)s).") % {
        "actor": actor_name(event),
        "deck": deck_name(event.payload),
    }


def deck_name(payload: dict[str, Any]) -> str:
    """The deck in the reader's language, from its kind and holder (``deck`` was written in the shuffler's)."""
    from conflicts.models import DeckHolder, DeckKind

    kind, holder = payload.get("kind"), payload.get("holder")
    if kind in DeckKind.values and holder in DeckHolder.values:
        return f"{DeckKind(kind).label} · {DeckHolder(holder).label}"
    return str(payload.get("deck", ""))


@describes("scene.created", label=lambda: _("Scene"))
def _scene(event: Event) -> str:
    return _("A new scene opens: %(title)s.") % {"title": event.payload["title"]}


@describes("sequence.created", label=lambda: _("Sequence"))
def _sequence(event: Event) -> str:
    return _("Sequence “%(title)s” begins.") % {"title": event.payload["title"]}


@describes("sequence.joined", label=lambda: pgettext("log entry kind", "Joins a sequence"))
def _joined(event: Event) -> str:
    p = event.payload
    if p.get("goal"):
        return _("%(name)s joins “%(title)s” on the side of %(side)s, wanting to %(goal)s.") % p
    return _("%(name)s joins “%(title)s” on the side of %(side)s.") % p


@describes("sequence.declared", label=lambda: pgettext("log entry kind", "Goal and trait declared"))
def _declared(event: Event) -> str:
    p = event.payload
    return _("%(name)s wants to %(goal)s, using %(trait)s.") % {
        "name": p["name"],
        "goal": p.get("goal") or _("win"),
        "trait": p.get("trait") or _("a trait to be chosen"),
    }


@describes("sequence.drew", label=lambda: pgettext("log entry kind", "Draw"))
def _drew(event: Event) -> str:
    p = event.payload
    text = _("Draw %(draw)s of “%(title)s”: %(name)s draws — %(cards)s.") % {
        "draw": p["draw"],
        "title": p["title"],
        "name": p["name"],
        "cards": _cards(p["cards"], p.get("names")),
    }
    return text + _resolution_text(p)


@describes("sequence.npcs_drew", label=lambda: pgettext("log entry kind", "NPCs' draw"))
def _npcs_drew(event: Event) -> str:
    """The narrator's tap for every NPC of a draw: one Event, each NPC's cards in it."""
    p = event.payload
    hands = "; ".join(
        _("%(name)s: %(cards)s") % {"name": hand["name"], "cards": _cards(hand["cards"], hand.get("names"))}
        for hand in p.get("hands", [])
    )
    text = _("Draw %(draw)s of “%(title)s”: the narrator draws for the NPCs — %(hands)s.") % {
        "draw": p["draw"], "title": p["title"], "hands": hands,
    }  # fmt: skip
    return text + _resolution_text(p)


def _resolution_text(payload: dict[str, Any]) -> str:
    """The draw's result, when the Event that put the last card down carries it (a draw, or a participant taken
    out of a draw that waited only for them); older logs told it in an Event of its own (``sequence.resolved``)."""
    if "outcome" not in payload:
        return ""
    return " " + _resolved_text(payload["title"], payload["outcome"])


def _resolved_text(title: str, outcome: dict[str, Any]) -> str:
    return _("The cards are down in “%(title)s”: %(outcome)s") % {"title": title, "outcome": _outcome_text(outcome)}


def _outcome_text(outcome: dict[str, Any], kind: str = "standard") -> str:
    lines = []
    for target in outcome.get("targets", {}).values():
        net = int(sum(target.get("credited", {}).values()))
        if target.get("severity"):
            lines.append(
                ngettext(
                    "%(name)s suffers a %(severity)s (%(net)s net success).",
                    "%(name)s suffers a %(severity)s (%(net)s net successes).",
                    net,
                )
                % {"name": target["name"], "severity": severity_label(target["severity"], kind), "net": net}
            )
    names = outcome.get("names", {})
    for key, cards in outcome.get("upper_hand_cards", {}).items():
        if cards:
            lines.append(
                ngettext(
                    "%(name)s takes the upper hand: %(n)s extra card next draw.",
                    "%(name)s takes the upper hand: %(n)s extra cards next draw.",
                    int(cards),
                )
                % {"name": names.get(key, key), "n": cards}
            )
    for key, bands in outcome.get("range_closed", {}).items():
        lines.append(
            ngettext("%(name)s closes %(n)s range band.", "%(name)s closes %(n)s range bands.", int(bands))
            % {"name": names.get(key, key), "n": bands}
        )
    lines.append(verdict_label(outcome.get("verdict", "tie"), outcome.get("winner")))
    return " ".join(lines)


@describes("sequence.split", label=lambda: _("Split"))
def _split(event: Event) -> str:
    p = event.payload
    attack = sum(int(n) for n in p["split"].get("attack", {}).values())
    defence = sum(int(n) for n in p["split"].get("defence", {}).values())
    return ngettext(
        "%(name)s sets %(attack)s card in attack and %(defence)s in defence.",
        "%(name)s sets %(attack)s cards in attack and %(defence)s in defence.",
        attack,
    ) % {
        "name": p["name"],
        "attack": attack,
        "defence": defence,
    }


@describes("sequence.resolved", label=lambda: _("Draw result"))
def _resolved(event: Event) -> str:
    """A draw resolved by a change outside the Sequence (someone fell out of action), and every draw's result in
    logs written before the result went into the Event that put the last card down."""
    return _resolved_text(event.payload["title"], event.payload["outcome"])


@describes("sequence.atout", label=lambda: _("Atout in a draw"))
def _atout(event: Event) -> str:
    p = event.payload
    text = ngettext(
        "%(name)s spends %(amount)s Atout: %(use)s", "%(name)s spends %(amount)s Atouts: %(use)s", int(p["amount"])
    ) % {
        "name": p["name"],
        "amount": p["amount"],
        "use": atout_label(p["use"]),
    }
    if p.get("target"):
        text += " (" + p["target"] + ")"
    if p.get("use") == "redraw":
        text += " — " + _cards(p["cards"])
    if p.get("use") == "change" and p.get("card"):
        text += " — " + card_face(p["card"])
        if p.get("direction"):
            text += " (" + (_("failure → success") if p["direction"] == "success" else _("success → failure")) + ")"
    return text + "."


# A settle's one Event carries each Revers it wrote on a sheet as a part, with that sheet's visibility (an NPC's are
# the narrators'), and so does a failed hazardous Test its Revers: ``describe`` tells the parts the reader may read
# after the Event's sentence (campaigns.redaction).
carries_parts("sequence.settled", "test.rolled")


@describes("sequence.settled", label=lambda: _("Revers recorded"))
def _settled(event: Event) -> str:
    p = event.payload
    parts = []
    for r in p.get("revers", []):
        text = _("%(name)s: %(severity)s") % {
            "name": r["name"],
            "severity": severity_label(r["severity"], p.get("kind", "standard")),
        }
        if r.get("instead_of"):
            text += " " + _("(instead of %(name)s)") % {"name": r["instead_of"]}
        if r.get("out"):
            text += " — " + _("out of the sequence")
        parts.append(text)
    text = _("Revers recorded in “%(title)s”: %(list)s.") % {
        "title": p["title"],
        "list": " · ".join(parts) or _("none"),
    }
    if p.get("ended"):
        text += " " + (
            _("The sequence ends: the side “%(side)s” wins.") % {"side": p["sequence_winner"]}
            if p.get("sequence_winner")
            else _("The sequence ends: nobody is left standing.")
        )
    return text


@describes("sequence.cut", label=lambda: _("Cut short"))
def _cut(event: Event) -> str:
    p = event.payload
    if p.get("ended"):
        if p.get("sequence_winner"):
            return _("The side “%(side)s” cuts “%(title)s” short and reaches its goal.") % {
                "side": p["sequence_winner"],
                "title": p["title"],
            }
        return _("Both sides agree to end “%(title)s”.") % {"title": p["title"]}
    if p.get("waiting_for"):
        return _("%(side)s has chosen whether to cut “%(title)s” short; waiting for %(others)s.") % {
            "side": p["side"],
            "title": p["title"],
            "others": ", ".join(p["waiting_for"]),
        }
    return _("“%(title)s” goes on: not every side wanted to stop.") % {"title": p["title"]}


@describes("sequence.outdistanced", label=lambda: _("Outdistanced"))
def _outdistanced(event: Event) -> str:
    p = event.payload
    return _("%(side)s's vehicles are of a later era: they outdistance the others and “%(title)s” is over.") % {
        "side": p.get("sequence_winner", ""),
        "title": p.get("title", ""),
    }


def _winner_text(p: dict[str, Any]) -> str:
    if not p.get("ended"):
        return ""
    if p.get("sequence_winner"):
        return " " + _("The sequence ends: the side “%(side)s” wins.") % {"side": p["sequence_winner"]}
    return " " + _("The sequence ends.")


@describes("sequence.left", label=lambda: _("Taken out"))
def _left(event: Event) -> str:
    p = event.payload
    text = _("%(name)s is taken out of “%(title)s”: %(reason)s") % {
        "name": p.get("name", ""), "title": p.get("title", ""), "reason": p.get("reason", ""),
    }  # fmt: skip
    return text + _winner_text(p) + _resolution_text(p)


@describes("sequence.ended", label=lambda: _("Sequence ended"))
def _ended(event: Event) -> str:
    p = event.payload
    text = _("The narrator ends “%(title)s”: %(reason)s") % {"title": p.get("title", ""), "reason": p.get("reason", "")}
    if p.get("unrecorded"):
        text += " " + _("(the last draw's Revers were not recorded)")
    if p.get("sequence_winner"):
        text += " " + _("The side “%(side)s” is left standing.") % {"side": p["sequence_winner"]}
    return text


def _modifiers(mods: list[list[Any]]) -> str:
    from conflicts.labels import modifier_label

    # A real minus sign (−), as the sheet and the roll card print it: « [blessures −1] », not « -1 ».
    return ", ".join(f"{modifier_label(code)} {amount:+d}".replace("-", "\u2212") for code, amount, *_rest in mods)


def _trait_in_reader_language(p: dict[str, Any]) -> str:
    if (get_language() or "fr")[:2] == "en" and p.get("trait_name_en"):
        return str(p["trait_name_en"])
    return str(p.get("trait_name") or p.get("trait") or "")


@describes("test.rolled", label=lambda: _("Test"))
def _test(event: Event) -> str:
    p = event.payload
    head = _("%(name)s tests %(trait)s (%(rank)s) against %(difficulty)s") % {
        "name": p["character"],
        "trait": _trait_in_reader_language(p) or _("a trait"),
        "rank": rank(p["trait_rank"]),
        "difficulty": difficulty_label(p["difficulty"]),
    }
    if p.get("difficulty_from"):
        head += " " + _("(set by %(trait)s of %(name)s)") % p["difficulty_from"]
    if p.get("asked"):
        head += " " + _("(as the narrator asked)")
    if p.get("modifiers"):
        head += " [" + _modifiers(p["modifiers"]) + "]"
    if not p.get("rolled"):
        outcome = _("automatic failure") if p.get("automatic_failure") else _("success without rolling")
        return f"{head}: {outcome}."
    result = _("success") if p["success"] else _("failure")
    text = _("%(head)s: %(dice)s → %(final)s, %(result)s.") % {
        "head": head,
        "dice": dice_text(p["dice"]),
        "final": rank(p["final"]),
        "result": result,
    }
    if p.get("revers"):
        text += " " + _("%(n)s Revers.") % {"n": p["revers"]}
    atout = p.get("atout")
    if isinstance(atout, dict):
        # The +1 bought with the roll: the ledger's spending, told by the Test's one Event (appendix 4).
        amount = int(atout.get("amount") or 1)
        text += " " + ngettext(
            "%(name)s spent %(n)s Atout on this Test.", "%(name)s spent %(n)s Atouts on this Test.", amount
        ) % {"name": p["character"], "n": amount}
    return text


def _asked_trait(entry: dict[str, Any]) -> str:
    """The trait asked of one character, in the reader's language (« Tir », "Shooting")."""
    return _trait_in_reader_language(entry) or str(entry.get("trait_name") or "")


@describes("test.asked", label=lambda: _("Test asked"))
def _test_asked(event: Event) -> str:
    """« Le Narrateur estime ensuite la Difficulté »: the ask says the trait and, when set, the Difficulty."""
    p = event.payload
    asked = [entry for entry in p.get("asked") or [] if isinstance(entry, dict)]
    names = ", ".join(str(entry.get("name", "")) for entry in asked)
    values = {"names": names, "trait": _asked_trait(asked[0]) if asked else p.get("trait", ""),
              "difficulty": difficulty_label(p["difficulty"]) if p.get("difficulty") else ""}  # fmt: skip
    if values["difficulty"]:
        text = _("A Test is asked of %(names)s: %(trait)s, %(difficulty)s.") % values
    else:
        text = _("A Test is asked of %(names)s: %(trait)s.") % values
    if p.get("note"):
        text += " " + quoted(p["note"])
    return text


@describes("test.ask_withdrawn", label=lambda: _("Test withdrawn"))
def _test_ask_withdrawn(event: Event) -> str:
    return _("The Test asked of %(name)s is withdrawn.") % {"name": event.payload.get("name", "")}


@describes("test.atout", label=lambda: _("Test: Atout"))
def _test_atout(event: Event) -> str:
    p = event.payload
    values = {"name": p["character"], "spender": p.get("spender", ""), "final": rank(p["final"]),
              "result": _("success") if p["success"] else _("failure")}  # fmt: skip
    use = p.get("use")
    if use == "help_other":
        text = ngettext(
            "%(spender)s spends %(n)s Atout to help %(name)s: +1 rank → %(final)s, %(result)s.",
            "%(spender)s spends %(n)s Atouts to help %(name)s: +1 rank → %(final)s, %(result)s.",
            p.get("amount", 2),
        ) % {**values, "n": p.get("amount", 2)}
    elif use == "counter":
        text = _("%(spender)s spends an Atout and counters the Atout of %(name)s: %(final)s, %(result)s.") % values
    elif use == "temporary_bonus":
        text = _("%(name)s spends another Atout for +1 rank: %(final)s, %(result)s.") % values
    else:
        what = _("re-rolls the dice") if use == "reroll" else _("changes one die")
        text = _("%(name)s spends an Atout and %(what)s: %(old)s becomes %(dice)s → %(final)s, %(result)s.") % {
            **values, "what": what, "old": dice_text(p.get("old_dice", [])), "dice": dice_text(p["dice"]),
        }  # fmt: skip
    change = p.get("revers_change") or {}
    if change.get("from") and not change.get("to"):
        text += " " + _("The Test's Revers is removed from the sheet.")
    elif change.get("from"):
        text += " " + _("The Test's Revers on the sheet goes from %(old)s to %(new)s.") % {
            "old": change["from"], "new": change["to"],
        }  # fmt: skip
    elif p.get("revers"):
        text += " " + _("%(n)s Revers.") % {"n": p["revers"]}
    # The reason given for the Atouts, which the ledger's own line used to say (a secret one is not read here).
    justification = (p.get("atout") or {}).get("justification")
    if justification:
        text += " " + quoted(justification)
    return text


@describes("conflict.simple", label=lambda: _("Simple conflict"))
def _simple(event: Event) -> str:
    p = event.payload
    a, b = p["first"], p["second"]
    if p["winner"] == "tie":
        verdict = _("a tie")
    else:
        verdict = _("%(name)s wins") % {"name": (a if p["winner"] == "first" else b)["name"]}
    return _("Simple conflict: %(a)s %(da)s → %(fa)s against %(b)s %(db)s → %(fb)s: %(verdict)s.") % {
        "a": a["name"],
        "da": dice_text(a["dice"]),
        "fa": rank(a["final"]),
        "b": b["name"],
        "db": dice_text(b["dice"]),
        "fb": rank(b["final"]),
        "verdict": verdict,
    }


@redacts("sequence.npcs_drew")
def _splits_for_players(payload: dict[str, Any], event: Event) -> None:
    """The narrator's tap as players read it: each NPC's hand as its own draw would be read (``_split_for_players``)."""
    for hand in payload.get("hands", []):
        if isinstance(hand, dict):
            _split_for_players(hand, event)


@redacts("sequence.drew")
def _split_for_players(payload: dict[str, Any], event: Event) -> None:
    """A draw's split as players read it: the cards drawn are on the table, the split behind them is not
    always. The reasons given for cover (« se couvrir » needs a reason the narrator accepts) are between the
    narrator and whoever gave them; an NPC's split is the narrator's alone, as on the sequence page."""
    # The drawer's character: an Event that resolves the draw names everyone's (older ones named the drawer's).
    drawer = payload.get("character_id")
    characters = [c for c in event.characters.all() if drawer is None or c.pk == drawer]
    npc = any(character.kind == "npc" for character in characters)
    if npc:
        payload.pop("boost", None)  # that an NPC runs a power's boost is the narrator's to know
    split = payload.get("split")
    if not isinstance(split, dict):
        return
    if npc:
        payload.pop("split")
    else:
        split.pop("reasons", None)
