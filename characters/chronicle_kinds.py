"""How the characters app's events read in the campaign log (no database access, reader's language)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from django.utils.translation import get_language, ngettext
from django.utils.translation import gettext as _

from campaigns.chronicle import actor_name, describes
from characters.labels import atout_use_label, domain_label, gain_reason_label, power_name, severity_label
from characters.rules.ladder import rank_label
from core.typography import quoted

if TYPE_CHECKING:
    from campaigns.models import Event


def _lang() -> str:
    return (get_language() or "fr")[:2]


def _trait(payload: dict[str, Any]) -> str:
    if _lang() == "en" and payload.get("trait_name_en"):
        return str(payload["trait_name_en"])
    return str(payload.get("trait_name") or payload.get("trait") or "")


def _domain(payload: dict[str, Any]) -> str:
    return payload.get("domain_name") or domain_label(payload.get("domain", ""))


@describes("character.created", label=lambda: _("Character created"))
def _created(event: Event) -> str:
    p = event.payload
    if p.get("mode") == "npc":
        return _("%(actor)s created the NPC %(name)s.") % {"actor": actor_name(event), "name": p["character"]}
    spent, kept = int(p.get("spent") or 0), int(p.get("kept") or 0)
    return _("%(actor)s created %(name)s (%(spent)s, %(kept)s).") % {
        "actor": actor_name(event), "name": p["character"],
        "spent": ngettext("%(n)s Atout spent", "%(n)s Atouts spent", spent) % {"n": spent},
        "kept": ngettext("%(n)s kept for play", "%(n)s kept for play", kept) % {"n": kept},
    }  # fmt: skip


@describes("character.updated", label=lambda: _("Sheet edited"))
def _updated(event: Event) -> str:
    return _("%(actor)s edited the sheet of %(name)s.") % {
        "actor": actor_name(event),
        "name": event.payload["character"],
    }


@describes("character.trait_set", label=lambda: _("Trait set"))
def _trait_set(event: Event) -> str:
    p = event.payload
    return _("%(name)s: %(trait)s set to %(rank)s by %(actor)s.") % {
        "name": p["character"], "trait": _trait(p), "rank": rank_label(p["to"], _lang()), "actor": actor_name(event),
    }  # fmt: skip


@describes("character.trait_vetoed", label=lambda: _("Trait vetoed"))
def _vetoed(event: Event) -> str:
    p = event.payload
    return ngettext(
        "The narrator vetoed the trait “%(trait)s” of %(name)s; %(refund)s Atout goes back to the player.",
        "The narrator vetoed the trait “%(trait)s” of %(name)s; %(refund)s Atouts go back to the player.",
        int(p.get("refund", 0)),
    ) % {
        "trait": _trait(p), "name": p["character"], "refund": p.get("refund", 0),
    }  # fmt: skip


@describes("character.atout_spent", label=lambda: _("Atout spent"))
def _spent(event: Event) -> str:
    p = event.payload
    if p.get("trait"):
        text = ngettext(
            "%(name)s spends %(amount)s Atout: %(trait)s rises from %(old)s to %(new)s.",
            "%(name)s spends %(amount)s Atouts: %(trait)s rises from %(old)s to %(new)s.",
            int(p["amount"]),
        ) % {
            "name": p["character"], "amount": p["amount"], "trait": _trait(p),
            "old": rank_label(p["from"], _lang()), "new": rank_label(p["to"], _lang()),
        }  # fmt: skip
    else:
        text = ngettext(
            "%(name)s spends %(amount)s Atout: %(use)s.", "%(name)s spends %(amount)s Atouts: %(use)s.", int(p["amount"])
        ) % {
            "name": p["character"], "amount": p["amount"], "use": atout_use_label(p["use"]),
        }  # fmt: skip
        if p.get("target"):
            text += " " + _("For %(target)s.") % {"target": p["target"]}
    if p.get("justification"):
        text += " " + quoted(p["justification"])
    return text


@describes("character.atout_gained", label=lambda: _("Atout gained"))
def _gained(event: Event) -> str:
    p = event.payload
    text = ngettext(
        "%(name)s gains %(amount)s Atout (%(reason)s).", "%(name)s gains %(amount)s Atouts (%(reason)s).", int(p["amount"])
    ) % {
        "name": p["character"], "amount": p["amount"], "reason": gain_reason_label(p.get("reason", "")),
    }  # fmt: skip
    return f"{text} {p['note']}" if p.get("note") else text


@describes("character.atout_refunded", label=lambda: _("Atout refunded"))
def _refunded(event: Event) -> str:
    p = event.payload
    return ngettext(
        "The narrator gives %(amount)s Atout back to %(name)s.",
        "The narrator gives %(amount)s Atouts back to %(name)s.",
        int(p["amount"]),
    ) % {
        "amount": p["amount"],
        "name": p["character"],
    }


@describes("character.revers_inflicted", label=lambda: _("Revers"))
def _inflicted(event: Event) -> str:
    p = event.payload
    text = _("%(name)s suffers a %(severity)s (%(domain)s).") % {
        "name": p["character"], "severity": severity_label(p["severity"]), "domain": _domain(p),
    }  # fmt: skip
    if p.get("source"):
        text += f" {p['source']}"
    if p.get("out_of_action"):
        text += " " + _("Out of action!")
    return text


@describes("character.revers_taken", label=lambda: _("Revers taken in another's place"))
def _taken(event: Event) -> str:
    p = event.payload
    return ngettext(
        "%(name)s spends %(n)s Atout and takes the %(severity)s (%(domain)s) of %(other)s in their place.",
        "%(name)s spends %(n)s Atouts and takes the %(severity)s (%(domain)s) of %(other)s in their place.",
        p["amount"],
    ) % {"name": p["character"], "n": p["amount"], "severity": severity_label(p["severity"]), "domain": _domain(p),
         "other": p["from"]}  # fmt: skip


@describes("character.revers_healed", "character.revers_recovered", label=lambda: _("Revers healed"))
def _healed(event: Event) -> str:
    p = event.payload
    if p["to"] == 0:
        return _("%(name)s recovers from a Revers (%(domain)s).") % {"name": p["character"], "domain": _domain(p)}
    return _("%(name)s's Revers (%(domain)s) eases to %(severity)s.") % {
        "name": p["character"], "domain": _domain(p), "severity": severity_label(p["to"]),
    }  # fmt: skip


@describes("character.first_aid", label=lambda: _("First aid"))
def _first_aid(event: Event) -> str:
    p = event.payload
    if p["success"]:
        return _("First aid on %(name)s succeeds: the wound is stabilised.") % {"name": p["character"]}
    return _("First aid on %(name)s fails.") % {"name": p["character"]}


@describes("character.equipment_added", label=lambda: _("Equipment"))
def _equipment_added(event: Event) -> str:
    return _("%(name)s takes %(item)s.") % {"name": event.payload["character"], "item": event.payload["item"]}


@describes("character.equipment_removed", label=lambda: _("Equipment removed"))
def _equipment_removed(event: Event) -> str:
    return _("%(name)s no longer has %(item)s.") % {"name": event.payload["character"], "item": event.payload["item"]}


@describes("character.power_used", label=lambda: _("Power used"))
def _power(event: Event) -> str:
    p = event.payload
    domain = p.get("domain_name_en") if _lang() == "en" else p.get("domain_name")
    text = _("%(name)s draws on %(domain)s (required rank %(rank)s; %(left)s Potential left).") % {
        "name": p["character"], "domain": domain, "rank": rank_label(p["required_rank"], _lang()),
        "left": p["potential_left"],
    }  # fmt: skip
    if p.get("fed_by"):
        fed = p.get("fed_by_name_en") if _lang() == "en" else p.get("fed_by_name")
        text += " " + ngettext(
            "%(trait)s feeds the power instead of Potential: −%(n)s rank until rest.",
            "%(trait)s feeds the power instead of Potential: −%(n)s ranks until rest.",
            int(p.get("lowered", 1)),
        ) % {
            "trait": fed or p["fed_by"], "n": p.get("lowered", 1),
        }  # fmt: skip
    if p.get("collapsed"):
        text += " " + _("Exhausted, they collapse.")
    return text


def _names(items: list[dict[str, Any]]) -> str:
    key = "name_en" if _lang() == "en" else "name_fr"
    return ", ".join(str(i.get(key) or i.get("code", "")) for i in items)


def _restored(p: dict[str, Any]) -> str:
    if not p.get("restored"):
        return ""
    return " " + _("Back to their rank: %(traits)s.") % {"traits": _names(p["restored"])}


@describes("character.rested", label=lambda: _("Rest"))
def _rested(event: Event) -> str:
    text = _("%(name)s rests and recovers Potential and Vigour.") % {"name": event.payload["character"]}
    return text + _restored(event.payload)


def _domain_name(p: dict[str, Any]) -> str:
    return str((p.get("domain_name_en") if _lang() == "en" else p.get("domain_name")) or p.get("domain", ""))


@describes("character.feed_allowed", label=lambda: _("Power domain fed"))
def _feed_allowed(event: Event) -> str:
    p = event.payload
    return _("The narrator lets %(trait)s feed %(domain)s for %(name)s (one rank lower per use until rest).") % {
        "trait": _trait(p), "domain": _domain_name(p), "name": p["character"],
    }  # fmt: skip


@describes("character.feed_revoked", label=lambda: _("Power domain fed"))
def _feed_revoked(event: Event) -> str:
    p = event.payload
    return _("%(trait)s no longer feeds %(domain)s for %(name)s.") % {
        "trait": _trait(p), "domain": _domain_name(p), "name": p["character"],
    }  # fmt: skip


# Régénération's events before it shared the healing powers' path (character.regeneration_*, no "power"
# in their payload) read as the healing powers' own: old logs keep their sentences.
@describes("character.healing_started", "character.regeneration_started", label=lambda: _("Healing power"))
def _healing_started(event: Event) -> str:
    p = event.payload
    values = {
        "name": p["character"], "power": power_name(p.get("power", "regeneration")), "hours": p.get("cycle_hours", 1),
        "left": p.get("potential_left", 0), "days": p.get("max_cycles"),
    }  # fmt: skip
    if p.get("max_cycles") is not None:
        return (
            ngettext(
                "%(name)s starts %(power)s: one Potential point per %(hours)s-hour day of rest and meditation, "
                "%(days)s day at most (%(left)s left).",
                "%(name)s starts %(power)s: one Potential point per %(hours)s-hour day of rest and meditation, "
                "%(days)s days at most (%(left)s left).",
                int(p["max_cycles"]),
            )
            % values
        )
    return (
        ngettext(
            "%(name)s starts %(power)s: one Potential point per %(hours)s-hour cycle (%(left)s left).",
            "%(name)s starts %(power)s: one Potential point per %(hours)s-hour cycle (%(left)s left).",
            int(values["hours"]),
        )
        % values
    )


@describes("character.healing_cycle", "character.regeneration_cycle", label=lambda: _("Healing power"))
def _healing_cycle(event: Event) -> str:
    p = event.payload
    healed = sum(int(h["from"]) - int(h["to"]) for h in p.get("healed", []))
    cycles, points = int(p["cycles"]), int(p["points"])
    return _("%(power)s: %(name)s completes %(cycles)s, %(healed)s, %(points)s (%(left)s left).") % {
        "name": p["character"], "power": power_name(p.get("power", "regeneration")),
        "cycles": ngettext("%(n)s cycle", "%(n)s cycles", cycles) % {"n": cycles},
        "healed": ngettext("%(n)s Revers step healed", "%(n)s Revers steps healed", healed) % {"n": healed},
        "points": ngettext("%(n)s Potential point spent", "%(n)s Potential points spent", points) % {"n": points},
        "left": p.get("potential_left", 0),
    }  # fmt: skip


@describes("character.healing_stopped", "character.regeneration_stopped", label=lambda: _("Healing power"))
def _healing_stopped(event: Event) -> str:
    p = event.payload
    n = int(p.get("points", 0))
    reasons = {
        "healed": ngettext(
            "%(name)s's wounds are healed: %(power)s stops (%(points)s Potential point spent).",
            "%(name)s's wounds are healed: %(power)s stops (%(points)s Potential points spent).",
            n,
        ),
        "no_potential": ngettext(
            "%(name)s has no Potential left: %(power)s stops (%(points)s point spent).",
            "%(name)s has no Potential left: %(power)s stops (%(points)s points spent).",
            n,
        ),
        "limit": ngettext(
            "%(name)s cannot meditate longer than the domain's value: %(power)s stops (%(points)s point spent).",
            "%(name)s cannot meditate longer than the domain's value: %(power)s stops (%(points)s points spent).",
            n,
        ),
    }
    template = reasons.get(
        p.get("reason", ""),
        ngettext(
            "%(name)s stops %(power)s (%(points)s Potential point spent).",
            "%(name)s stops %(power)s (%(points)s Potential points spent).",
            n,
        ),
    )
    return template % {
        "name": p["character"],
        "power": power_name(p.get("power", "regeneration")),
        "points": p.get("points", 0),
    }


@describes("character.potential_recovered", label=lambda: _("Rest"))
def _potential_back(event: Event) -> str:
    p = event.payload
    key = "name_en" if _lang() == "en" else "name_fr"
    domains = ", ".join(d.get(key) or d.get("code", "") for d in p.get("domains", []))
    hours = int(p.get("hours") or 0)
    text = ngettext(
        "%(name)s has rested %(hours)s hour without using a power: Potential back in full (%(domains)s).",
        "%(name)s has rested %(hours)s hours without using a power: Potential back in full (%(domains)s).",
        hours,
    ) % {"name": p["character"], "hours": hours, "domains": domains}
    return text + _restored(p)


@describes("character.vigour_recovered", label=lambda: _("Rest"))
def _vigour_back(event: Event) -> str:
    p = event.payload
    if p["to"] == 0:
        return _("%(name)s has rested and recovers all the Vigour lost to psychic powers.") % {"name": p["character"]}
    return _("%(name)s has rested: Vigour −%(lost)s.") % {"name": p["character"], "lost": p["to"]}


@describes("character.ally_handed", label=lambda: _("Ally handed over"))
def _handed(event: Event) -> str:
    p = event.payload
    if p.get("player"):
        return _("%(player)s now runs the ally %(name)s.") % {"player": p["player"], "name": p["character"]}
    return _("The narrator takes the ally %(name)s back.") % {"name": p["character"]}


@describes("character.rules_changed", label=lambda: _("Character options changed"))
def _rules(event: Event) -> str:
    changed = event.payload.get("changed")
    if not changed:  # events logged before the values were, or a whole trait list replaced
        return _("%(actor)s changed the character options.") % {"actor": actor_name(event)}
    from campaigns.setting_changes import changes_text
    from characters.models import CharacterRules

    return _("%(actor)s changed the character options: %(changes)s.") % {
        "actor": actor_name(event), "changes": changes_text(CharacterRules, changed),
    }  # fmt: skip


def _trait_name(payload: dict[str, Any], prefix: str = "") -> str:
    english = (get_language() or "fr").startswith("en")
    return str(payload.get(f"{prefix}name_en" if english else f"{prefix}name") or payload.get(f"{prefix}name", ""))


@describes("trait_list.changed", label=lambda: _("Trait list"))
def _trait_list(event: Event) -> str:
    """The narrator's edits of the trait list, in words: never a field's code (``name_fr``, ``default``)."""
    from campaigns.setting_changes import changes_text, yes_no

    p = event.payload
    words = {"actor": actor_name(event), "trait": _trait_name(p), "kind": _kind(p.get("kind", ""))}
    op = p.get("op")
    if op == "added":
        return _("%(actor)s added “%(trait)s” (%(kind)s) to the trait list.") % words
    if op == "removed":
        text = _("%(actor)s removed “%(trait)s” from the trait list.") % words
        if p.get("kept_by"):
            text += " " + _("%(names)s keep it as their own trait.") % {"names": ", ".join(p["kept_by"])}
        return text
    if op == "moved":
        if p.get("step", 1) < 0:
            return _("%(actor)s moved “%(trait)s” up the trait list.") % words
        return _("%(actor)s moved “%(trait)s” down the trait list.") % words
    labels = {
        "name_fr": lambda: _("name in French"), "name_en": lambda: _("name in English"), "kind": lambda: _("kind"),
        "default": lambda: _("rank when not on a sheet"), "technical": lambda: _("highly technical"),
        "description_fr": lambda: _("description in French"), "description_en": lambda: _("description in English"),
    }  # fmt: skip
    language = get_language() or "fr"
    values = {"kind": _kind, "default": lambda v: rank_label(int(v), language), "technical": yes_no}
    changes = changes_text(None, p.get("changed", {}), labels=labels, values=values)
    old = _trait_name(p, "old_")
    if old and old != words["trait"]:
        return _("%(actor)s renamed the trait “%(old)s” “%(trait)s”: %(changes)s.") % {**words, "old": old,
                                                                                        "changes": changes}  # fmt: skip
    return _("%(actor)s changed the trait “%(trait)s”: %(changes)s.") % {**words, "changes": changes}


def _kind(kind: Any) -> str:
    from characters.settings_forms import KIND_LABELS

    label = KIND_LABELS.get(kind)
    return str(label) if label is not None else str(kind)
