"""The broken rule, in the reader's language: every ``RuleViolation`` code has its sentence here."""

from __future__ import annotations

from collections.abc import Mapping

from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from characters.rules.errors import RuleViolation
from characters.rules.ladder import rank_label


def _messages() -> dict[str, str]:
    return {
        "creation.unknown_mode": _("Unknown creation mode."),
        "creation.unknown_trait": _("“%(trait)s” is not on this campaign's trait list."),
        "creation.below_default": _(
            "%(trait)s cannot go below its starting rank (%(default_label)s): only streamlined Aptitudes can be lowered."
        ),
        "creation.spend_at_least_one": _("You must spend at least one Atout at creation."),
        "creation.keep_last_atout": _("The last Atout must be kept for play: you spent %(spent)s of %(total)s."),
        "streamlined.below_faible": _("Without the narrator's leave, %(trait)s cannot end creation below Faible."),
        "streamlined.above_excellent": _(
            "Without the narrator's leave, %(trait)s cannot end creation above Excellent."
        ),
        "rank.above_maximum": _(
            "%(trait)s goes past %(maximum_label)s, the natural human maximum, without the narrator's leave."
        ),
        "rank.below_abyssal": _("%(trait)s cannot go below Abyssal."),
        "atout.amount_positive": _("Spend at least one Atout."),
        "atout.not_enough": _("Not enough Atouts: %(amount)s needed, %(balance)s left."),
        "atout.raise_in_play.creation_only": _(
            "Only Atouts kept from creation can raise a trait during a session (%(creation)s left, %(amount)s needed);"
            " experience Atouts raise traits between sessions."
        ),
        "atout.raise_in_play.in_session": _("A permanent raise in play needs an open game session."),
        "atout.raise_in_play.justification": _(
            "Explain how your character came by this skill: a raise in play needs a plausible explanation."
        ),
        "atout.raise_between_sessions.not_in_session": _(
            "Experience Atouts raise traits between sessions, not while a session is open."
        ),
        "atout.raise.must_go_up": _("A raise must go up at least one rank."),
        "atout.save_your_skin.justification": _("Tell how your character gets out of this fix to save their skin."),
        "atout.narrative_control.justification": _("Say what you bring into the story with narrative control."),
        "atout.help_other.justification": _("Describe how your character helps."),
        "atout.needs_roll": _("This use of an Atout belongs to one roll or draw: say which."),
        "atout.needs_other_character": _("This use of an Atout is aimed at another character."),
        "atout.temporary_bonus.one_at_a_time": _("A temporary bonus costs exactly one Atout."),
        "atout.temporary_bonus.once_per_roll": _("Only one Atout can raise a roll, unless it was countered."),
        "atout.counter.one_at_a_time": _("Countering costs exactly one Atout."),
        "atout.counter.no_target": _("There is no uncountered Atout bonus of another character on this roll."),
        "atout.help_other.once_per_roll": _("A player can help only once per roll or draw."),
        "atout.one_atout": _("This use costs exactly one Atout."),
        "atout.refund.not_refundable": _("Only a narrative control spend can be vetoed and refunded."),
        "atout.refund.already": _("This spend was already refunded."),
        "revers.severity_range": _("A Revers has a severity of 1, 2 or 3."),
        "equipment.quality_range": _("Quality goes from −1 to +2."),
        "psychic.latent": _("A Lamentable domain is latent: it cannot produce effects yet."),
        "psychic.not_usable": _("This power domain needs at least Faible to be used."),
        "psychic.rank_too_low": _("This use needs %(required_label)s in the domain (the sheet has %(rank_label)s)."),
        "psychic.no_potential": _("No Potential left in this domain: rest first."),
        "psychic.exhausted": _("Too exhausted: rest to recover Vigour before using a power."),
        "psychic.not_a_boost": _("Only Enhanced endurance and Enhanced coordination raise a trait for some draws."),
        "psychic.armour_is_endurance": _("Only Enhanced endurance can harden the skin into natural armour."),
        "psychic.feed_exhausted": _("This trait is down to Abyssal: it cannot feed the domain until rest."),
        "psychic.nothing_to_heal": _("No physical Revers this power can heal."),
        "scale.value": _("“%(text)s”: a scale starts with its value, e.g. “+1 size combat”."),
        "scale.domains": _(
            "“%(text)s”: name what the scale applies to (size, combat, strength, agility, mind), value −10 to +20."
        ),
        "psychic.telekinesis_beyond": _("Beyond Exceptionnel: no Telekinesis rank moves this."),
    }


def _counted(code: str, params: Mapping[str, object]) -> str | None:
    """The sentences whose words agree with a number (« coûte 1 Atout », « coûte 2 Atouts »)."""

    def count(key: str) -> int:
        try:
            return int(str(params.get(key, 0)))
        except ValueError:
            return 0

    if code == "creation.over_budget":
        return ngettext(
            "You spent %(spent)s Atout but only have %(total)s.",
            "You spent %(spent)s Atouts but only have %(total)s.",
            count("spent"),
        )
    if code == "streamlined.too_many_kept":
        return ngettext(
            "Streamlined creation keeps at most %(maximum)s Atout for play; you still have %(kept)s.",
            "Streamlined creation keeps at most %(maximum)s Atouts for play; you still have %(kept)s.",
            count("maximum"),
        )
    if code == "atout.raise_cost":
        return ngettext(
            "This raise costs %(cost)s Atout, not %(amount)s.", "This raise costs %(cost)s Atouts, not %(amount)s.",
            count("cost"),
        )  # fmt: skip
    if code == "atout.help_other.two_atouts":
        return ngettext(
            "Helping another character costs %(cost)s Atout for +1.",
            "Helping another character costs %(cost)s Atouts for +1.",
            count("cost"),
        )
    return None


def rule_message(violation: RuleViolation, names: Mapping[str, str] | None = None) -> str:
    """The sentence for a broken rule, with trait names (``names``: code → name) and rank labels filled in."""
    params = dict(violation.params)
    if names and params.get("trait") in names:
        params["trait"] = names[params["trait"]]
    for key in ("default", "maximum", "required", "rank"):
        if isinstance(params.get(key), int):
            params[f"{key}_label"] = rank_label(params[key])
    params.setdefault("trait", "")
    template = _counted(violation.code, params) or _messages().get(violation.code)
    if template is None:
        return _("This breaks a rule (%(code)s).") % {"code": violation.code}
    return template % params
