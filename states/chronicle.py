"""How the Savage-style state events read in the log (their panel and the round tracker are regions: ``states/regions.py``).

Describers never touch the database: payloads carry names, dice and outcomes.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from campaigns.chronicle import actor_name, describes
from characters.labels import initiative_card_face

if TYPE_CHECKING:
    from campaigns.models import Event


def trait_label(trait: str) -> str:
    labels: dict[str, Callable[[], str]] = {
        "vigor": lambda: _("Vigour"),
        "spirit": lambda: _("Spirit"),
        "agility": lambda: _("Agility"),
        "smarts": lambda: _("Smarts"),
    }
    label = labels.get(trait)
    return label() if label else trait or _("trait")


def modifier_label(key: str) -> str:
    labels: dict[str, Callable[[], str]] = {
        "wounds": lambda: _("wounds"),
        "fatigue": lambda: _("fatigue"),
        "cover_light": lambda: _("light cover"),
        "cover_medium": lambda: _("medium cover"),
        "cover_heavy": lambda: _("heavy cover"),
        "cover_near_total": lambda: _("near total cover"),
        "aim": lambda: _("aim"),
        "defend": lambda: _("defend"),
        "surprise_attack": lambda: _("surprise attack"),
        "total_defence": lambda: _("total defence"),
        "prone": lambda: _("prone"),
        "unstable_platform": lambda: _("unstable platform"),
        "trick": lambda: _("trick"),
        "other": lambda: _("other"),
    }
    label = labels.get(key)
    return label() if label else key


def outcome_label(outcome: str, raises: int = 0) -> str:
    if outcome == "raise":
        return _("raise") if raises <= 1 else ngettext("%(n)d raise", "%(n)d raises", raises) % {"n": raises}
    labels: dict[str, Callable[[], str]] = {
        "critical_failure": lambda: _("critical failure"),
        "failure": lambda: _("failure"),
        "success": lambda: _("success"),
    }
    label = labels.get(outcome)
    return label() if label else outcome


def roll_text(roll: dict[str, Any]) -> str:
    """« d8 [3] · Wild Die [6+2] · wounds −2 = 6 → success »: every die, each modifier, the outcome."""
    parts = [f"{roll['die']} [{'+'.join(str(f) for f in roll['trait_faces'])}]"]
    if roll.get("wild_faces"):
        parts.append(_("Wild Die") + f" [{'+'.join(str(f) for f in roll['wild_faces'])}]")
    for mod in roll.get("modifiers", []):
        value = mod["value"]
        parts.append(f"{modifier_label(mod['key'])} {'+' if value > 0 else '−'}{abs(value)}")
    outcome = outcome_label(roll["outcome"], roll.get("raises", 0))
    target = roll.get("target", 4)
    against = " " + _("(target %(n)s)") % {"n": target} if target != 4 else ""
    return f"{' · '.join(parts)} = {roll['total']}{against} → {outcome}"


def fatigue_source_label(key: str) -> str:
    labels: dict[str, Callable[[], str]] = {
        "bumps_and_bruises": lambda: _("Bumps and bruises"),
        "hunger": lambda: _("Hunger"),
        "thirst": lambda: _("Thirst"),
        "cold": lambda: _("Cold"),
        "drowning": lambda: _("Drowning"),
        "disease": lambda: _("Disease"),
        "radiation": lambda: _("Radiation"),
        "sleep": lambda: _("Sleep"),
        "poison": lambda: _("Poison"),
    }
    label = labels.get(key)
    return label() if label else key


def action_label(key: str) -> str:
    labels: dict[str, Callable[[], str]] = {
        "food": lambda: _("food"),
        "water": lambda: _("water"),
        "warmth": lambda: _("warmth and shelter"),
        "out_of_water": lambda: _("out of the water"),
        "sleep": lambda: _("sleeping"),
        "decontamination": lambda: _("decontamination"),
        "treatment": lambda: _("treatment"),
    }
    label = labels.get(key)
    return label() if label else key


def situation_label(key: str) -> str:
    return modifier_label(key)


def _who(event: Event) -> str:
    return str(event.payload.get("character", ""))


def _aptitude_or_by_name(name: Any) -> str:
    return str(name) if name else _("the Aptitude bearing its name")


@describes("savage.settings_changed", label=lambda: _("Savage-style settings"))
def _settings(event: Event) -> str:
    changed = event.payload.get("changed")
    if changed is not None:
        from django.utils.translation import get_language

        from campaigns.setting_changes import changes_text
        from characters.rules.ladder import rank_label
        from states.models import SavageSettings
        from states.rules.ranks import RANK_VALUES

        def die_label(value: int) -> Callable[[], str]:
            return lambda: _("trait die at rank %(rank)s") % {"rank": rank_label(value, get_language() or "fr")}

        def reads_label(trait: str) -> Callable[[], str]:
            return lambda: _("%(attribute)s read from") % {"attribute": trait_label(trait)}

        labels = {f"rank_{value}": die_label(value) for value in RANK_VALUES}
        labels.update({f"reads_{trait}": reads_label(trait) for trait in ("vigor", "spirit", "agility", "smarts")})
        values: dict[str, Callable[[Any], str]] = {
            f"reads_{trait}": _aptitude_or_by_name for trait in ("vigor", "spirit", "agility", "smarts")
        }
        return _("%(actor)s changed the Savage-style settings: %(changes)s.") % {
            "actor": actor_name(event), "changes": changes_text(SavageSettings, changed, labels=labels, values=values),
        }  # fmt: skip
    # Events logged before the change list: what they said then.
    if event.payload.get("revers_to_wounds"):
        return _("%(actor)s changed the Savage-style settings: physical Revers become wounds.") % {
            "actor": actor_name(event)
        }
    return _("%(actor)s changed the Savage-style settings: Revers stay Revers.") % {"actor": actor_name(event)}


@describes("savage.sheet_changed", label=lambda: _("Trait dice"))
def _sheet(event: Event) -> str:
    dice = event.payload.get("dice", {})
    listed = ", ".join(f"{trait_label(t)} {d}" for t, d in dice.items())
    return _("%(name)s's trait dice: %(dice)s.") % {"name": _who(event), "dice": listed}


@describes("savage.shaken_set", label=lambda: _("Shaken"))
def _shaken_set(event: Event) -> str:
    if event.payload.get("shaken"):
        return _("%(name)s is Shaken.") % {"name": _who(event)}
    return _("%(name)s is no longer Shaken.") % {"name": _who(event)}


@describes("savage.shaken_roll", label=lambda: _("Shaken roll"))
def _shaken_roll(event: Event) -> str:
    results = {
        "stays_free_actions": _("stays Shaken, free actions only this round"),
        "ends_free_actions": _("is no longer Shaken but has free actions only this round"),
        "ends_acts": _("is no longer Shaken and acts normally"),
    }
    return _("%(name)s rolls Spirit to recover: %(roll)s; %(result)s.") % {
        "name": _who(event),
        "roll": roll_text(event.payload["roll"]),
        "result": results.get(event.payload["result"], event.payload["result"]),
    }


@describes("savage.token_awarded", label=lambda: _("Token awarded"))
def _token_awarded(event: Event) -> str:
    return ngettext(
        "%(name)s receives %(count)s token (%(tokens)s now).",
        "%(name)s receives %(count)s tokens (%(tokens)s now).",
        int(event.payload.get("count", 1)),
    ) % {
        "name": _who(event),
        "count": event.payload.get("count", 1),
        "tokens": event.payload["state"]["tokens"],
    }


@describes("savage.token_spent", label=lambda: _("Token spent"))
def _token_spent(event: Event) -> str:
    return _("%(name)s spends a token to shake off Shaken and acts normally.") % {"name": _who(event)}


@describes("savage.wounds_taken", label=lambda: _("Wounds"))
def _wounds_taken(event: Event) -> str:
    p = event.payload
    text = ngettext("%(name)s takes %(incoming)s wound.", "%(name)s takes %(incoming)s wounds.", int(p["incoming"])) % {
        "name": _who(event),
        "incoming": p["incoming"],
    }
    if p.get("soak_roll"):
        text += " " + ngettext(
            "Soak with a token: %(roll)s; %(soaked)s wound fewer.",
            "Soak with a token: %(roll)s; %(soaked)s wounds fewer.",
            int(p["soaked"]),
        ) % {
            "roll": roll_text(p["soak_roll"]),
            "soaked": p["soaked"],
        }
    text += " " + _("Wounds: %(wounds)s.") % {"wounds": p["state"]["wounds"]}
    if p.get("incapacitated_now"):
        text += " " + _("Fourth wound: Incapacitated, the Vigour roll is due.")
    return text


@describes("savage.wounds_set", label=lambda: _("Wounds"))
def _wounds_set(event: Event) -> str:
    p = event.payload
    text = _("%(name)s's wounds: %(from)s → %(to)s.") % {"name": _who(event), "from": p["from"], "to": p["to"]}
    if p.get("incapacitated_now"):
        text += " " + _("Fourth wound: Incapacitated, the Vigour roll is due.")
    return text


@describes("savage.revers_wounds", label=lambda: _("Revers into wounds"))
def _revers_wounds(event: Event) -> str:
    p = event.payload
    text = ngettext(
        "%(name)s's Revers (severity %(severity)s) becomes %(taken)s wound.",
        "%(name)s's Revers (severity %(severity)s) becomes %(taken)s wounds.",
        int(p["taken"]),
    ) % {
        "name": _who(event),
        "severity": p["severity"],
        "taken": p["taken"],
    }
    if p.get("incapacitated_now"):
        text += " " + _("Fourth wound: Incapacitated, the Vigour roll is due.")
    return text


@describes("savage.incapacitation_roll", label=lambda: _("Incapacitation roll"))
def _incapacitation(event: Event) -> str:
    results = {
        "dies": _("dies"),
        "permanent_injury_and_bleeding": _("suffers a permanent injury and is bleeding out"),
        "wounded_until_healed": _("is injured until healed"),
        "wounded_24_hours": _("is injured for 24 hours or until healed"),
    }
    return _("%(name)s, incapacitated, rolls Vigour: %(roll)s; %(result)s.") % {
        "name": _who(event),
        "roll": roll_text(event.payload["roll"]),
        "result": results.get(event.payload["result"], event.payload["result"]),
    }


@describes("savage.bleeding_set", label=lambda: _("Bleeding out"))
def _bleeding_set(event: Event) -> str:
    if event.payload.get("bleeding_out"):
        return _("%(name)s is bleeding out.") % {"name": _who(event)}
    return _("%(name)s is no longer bleeding out.") % {"name": _who(event)}


@describes("savage.bleeding_roll", label=lambda: _("Bleeding out roll"))
def _bleeding_roll(event: Event) -> str:
    p = event.payload
    faces = p.get("unconscious_faces") or []
    results = {
        "dies": _("dies"),
        "unconscious": ngettext(
            "falls unconscious for %(hours)s hour", "falls unconscious for %(hours)s hours", sum(faces)
        )
        % {"hours": sum(faces)},
        "rolls_again": _("rolls again next round"),
        "stops": _("the bleeding stops"),
    }
    return _("%(name)s, bleeding out, rolls Vigour: %(roll)s; %(result)s.") % {
        "name": _who(event),
        "roll": roll_text(p["roll"]),
        "result": results.get(p["result"], p["result"]),
    }


def _count(value: Any) -> int:
    """A count of the payload for ``ngettext`` (an old event may lack it)."""
    try:
        return int(value)
    except (TypeError, ValueError):
        return 0


def _critical_effect(p: dict[str, Any]) -> str:
    hours, rounds = _count(p.get("hours")), _count(p.get("rounds"))
    effects = {
        "death_within": ngettext(
            "dies within %(hours)s hour unless recovered", "dies within %(hours)s hours unless recovered", hours
        )
        % {"hours": hours},
        "unconscious_for": ngettext(
            "collapses, unconscious for %(hours)s hour", "collapses, unconscious for %(hours)s hours", hours
        )
        % {"hours": hours},
        "death_in_rounds": ngettext(
            "dies in %(rounds)s round unless pulled out; revived within 5 minutes by a Healing roll at −4",
            "dies in %(rounds)s rounds unless pulled out; revived within 5 minutes by a Healing roll at −4",
            rounds,
        )
        % {"rounds": rounds},
        "vigor_roll_every": _("rolls Vigour every hour; a failure is death"),
        "death_unless_described": _("usually dies, unless the disease says otherwise"),
        "chronic": _("is irradiated: a long, chronic and debilitating disease"),
        "by_poison": _("suffers what the poison does"),
    }
    return effects.get(p.get("effect", ""), "")


@describes("savage.fatigue_gained", label=lambda: _("Fatigue"))
def _fatigue_gained(event: Event) -> str:
    p = event.payload
    text = _("%(name)s gains a level of Fatigue (%(source)s): %(total)s.") % {
        "name": _who(event),
        "source": fatigue_source_label(p["source"]),
        "total": p["total"],
    }
    if p.get("critical_now"):
        text += " " + _("Third level: %(effect)s.") % {"effect": _critical_effect(p)}
        if p.get("faces"):
            text += f" [{'+'.join(str(f) for f in p['faces'])}]"
    return text


@describes("savage.fatigue_lost", label=lambda: _("Fatigue"))
def _fatigue_lost(event: Event) -> str:
    return _("%(name)s loses a level of Fatigue (%(source)s).") % {
        "name": _who(event),
        "source": fatigue_source_label(event.payload["source"]),
    }


@describes("savage.recovery_action", label=lambda: _("Recovery"))
def _recovery(event: Event) -> str:
    p = event.payload
    parts = []
    for effect in p.get("effects", []):
        if effect.get("days"):
            parts.append(
                ngettext(
                    "%(source)s: symptoms gone in %(days)s day [%(faces)s]",
                    "%(source)s: symptoms gone in %(days)s days [%(faces)s]",
                    int(effect["days"]),
                )
                % {
                    "source": fatigue_source_label(effect["source"]),
                    "days": effect["days"],
                    "faces": "+".join(str(f) for f in effect["faces"]),
                }
            )
        elif effect.get("accelerated"):
            parts.append(_("%(source)s: recovery sped up") % {"source": fatigue_source_label(effect["source"])})
        else:
            parts.append(_("%(source)s: recovery begins") % {"source": fatigue_source_label(effect["source"])})
    return _("%(name)s: %(action)s. %(effects)s.") % {
        "name": _who(event),
        "action": action_label(p["action"]),
        "effects": "; ".join(parts),
    }


@describes("savage.time_passed", label=lambda: _("Recovery"))
def _time_passed(event: Event) -> str:
    p = event.payload
    parts = [
        ngettext("%(n)s level of %(source)s gone", "%(n)s levels of %(source)s gone", int(n))
        % {"n": n, "source": fatigue_source_label(src)}
        for src, n in p.get("recovered", {}).items()
    ]
    parts.extend(roll_text(r) for r in p.get("vigor_rolls", []))
    if p.get("woke_up"):
        parts.append(_("wakes up"))
    if p.get("injury_healed"):
        parts.append(_("the 24-hour injury is healed"))
    if p.get("died_of"):
        parts.append(_("dies of %(source)s") % {"source": fatigue_source_label(p["died_of"])})
    return _("Time passes for %(name)s: %(what)s.") % {"name": _who(event), "what": "; ".join(parts)}


@describes("savage.situation_set", label=lambda: _("Combat situation"))
def _situation(event: Event) -> str:
    p = event.payload
    if p.get("on"):
        return _("%(name)s: %(situation)s.") % {"name": _who(event), "situation": situation_label(p["situation"])}
    return _("%(name)s: no more %(situation)s.") % {"name": _who(event), "situation": situation_label(p["situation"])}


@describes("savage.total_defence", label=lambda: _("Total defence"))
def _total_defence(event: Event) -> str:
    p = event.payload
    return _("%(name)s goes into total defence: %(roll)s; Parry %(parry)s until their next action, no movement.") % {
        "name": _who(event),
        "roll": roll_text(p["roll"]),
        "parry": p["parry"],
    }


def _ended_text(ended: list[str]) -> str:
    if not ended:
        return ""
    return " " + _("Now over: %(what)s.") % {"what": ", ".join(situation_label(key) for key in ended)}


@describes("savage.trick_ended", label=lambda: _("Trick"))
def _trick_ended(event: Event) -> str:
    return _("%(name)s acts: the trick's −2 Parry ends.") % {"name": _who(event)}


@describes("savage.roll", label=lambda: _("Trait roll"))
def _roll(event: Event) -> str:
    p = event.payload
    text = _("%(name)s rolls %(trait)s: %(roll)s.") % {
        "name": _who(event),
        "trait": trait_label(p["trait"]),
        "roll": roll_text(p["roll"]),
    }
    if p.get("target"):
        text += " " + _("Target: %(target)s.") % {"target": p["target"]}
    if p.get("parry"):
        text += " " + _("Parry %(value)s.") % {"value": p["parry"]["value"]}
    if p.get("damage_bonus"):
        text += " " + _("Surprise: +%(bonus)s damage.") % {"bonus": p["damage_bonus"]}
    return text


@describes("savage.trick", label=lambda: _("Trick"))
def _trick(event: Event) -> str:
    p = event.payload
    results = {
        "fails": _("the trick fails"),
        "distracted": _("%(target)s is distracted: −2 Parry until their next action") % {"target": _who(event)},
        "distracted_and_shaken": _("%(target)s is distracted (−2 Parry until their next action) and Shaken")
        % {"target": _who(event)},
    }
    return _("%(trickster)s tries a trick on %(target)s (%(trait)s): %(attack)s against %(defence)s; %(result)s.") % {
        "trickster": p["trickster"],
        "target": _who(event),
        "trait": trait_label(p["attribute"]),
        "attack": roll_text(p["attacker_roll"]),
        "defence": roll_text(p["defender_roll"]),
        "result": results.get(p["result"], p["result"]),
    }


@describes("savage.round_participants", label=lambda: _("Round tracker"))
def _participants(event: Event) -> str:
    return _("In the fight: %(names)s.") % {"names": ", ".join(event.payload.get("names", []))}


@describes("savage.round_dealt", label=lambda: _("Initiative"))
def _dealt(event: Event) -> str:
    p = event.payload
    faces = {name: initiative_card_face(code) if code else "" for name, code in p.get("cards", {}).items()}
    cards = ", ".join(f"{name} {faces.get(name, '')}" for name in p.get("order", []))
    text = _("Round %(number)s: %(cards)s.") % {"number": p["number"], "cards": cards}
    if p.get("without_card"):
        text += " " + _("No card (incapacitated): %(names)s.") % {"names": ", ".join(p["without_card"])}
    return text + _ended_text(p.get("ended", []))


@describes("savage.round_turn", label=lambda: _("Initiative"))
def _turn(event: Event) -> str:
    if event.payload.get("character"):
        text = _("Round %(number)s: %(name)s's turn.") % {
            "number": event.payload["number"],
            "name": event.payload["character"],
        }
        return text + _ended_text(event.payload.get("ended", []))
    return _("Round %(number)s: everyone has acted.") % {"number": event.payload["number"]}


@describes("savage.round_ended", label=lambda: _("Initiative"))
def _ended(event: Event) -> str:
    return _("%(actor)s ends the fight.") % {"actor": actor_name(event)}
