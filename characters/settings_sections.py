"""The characters app's sections of the campaign settings page (campaigns/settings_sections.py).

- « Characters »: how characters are made and grow (the campaign's creation mode, starting Atouts, session award,
  healing times) and the character options, one form saved at once under both versions.
- « Trait list »: the Aptitudes, Champs d'expertise and power domains, one trait at a time (rename, kind, default
  rank, technicality, descriptions; add, remove, move), where a raw TOML editor used to be. Everything the TOML
  format says of a trait is a field here; a trait's code is chosen when it is added and never changes, since it is
  what links the list to the sheets (renaming changes the names, which the sheets follow).
"""

from __future__ import annotations

import copy
from typing import Any

from django.utils.translation import get_language
from django.utils.translation import gettext as _

from campaigns.access import MemberRequest
from campaigns.forms import campaign_part_form
from campaigns.settings_sections import SectionAnswer, SettingsSection, register_settings_section, saved_or_refused
from characters.models import CharacterTrait
from characters.rules.ladder import rank_label
from characters.rules.traits import TraitKind
from characters.selectors import character_rules, trait_defs
from characters.services.options import character_options_update
from characters.services.trait_list import trait_add, trait_change, trait_move, trait_remove
from characters.settings_forms import (
    KIND_LABELS,
    KIND_PLURALS,
    CharacterRulesForm,
    TraitForm,
    TraitMoveForm,
    TraitRemoveForm,
)
from core.errors import ServiceError

CreationForm = campaign_part_form(
    ("creation_mode", "starting_atouts", "session_award", "revers_recovery_light_days", "revers_recovery_deep_days")
)


# ---------------------------------------------------------------- « Characters »


def _characters_forms(request: MemberRequest, data: Any = None) -> dict[str, Any]:
    campaign = request.membership.campaign
    rules = character_rules(campaign)
    return {
        # Copies: a bound ModelForm writes the posted values on its instance, which the page shows elsewhere.
        "creation_form": CreationForm(data, instance=copy.copy(campaign), prefix="campaign",
                                      initial={"version": campaign.version}),
        "rules_form": CharacterRulesForm(data, instance=copy.copy(rules), prefix="rules",
                                         initial={"version": rules.version}),
    }  # fmt: skip


def _characters_post(request: MemberRequest) -> SectionAnswer:
    forms = _characters_forms(request, request.POST)
    creation, rules = forms["creation_form"], forms["rules_form"]

    def apply() -> None:
        character_options_update(
            campaign=request.membership.campaign, actor=request.user,
            campaign_data={k: v for k, v in creation.cleaned_data.items() if k != "version"},
            campaign_version=creation.cleaned_data["version"],
            rules_data={k: v for k, v in rules.cleaned_data.items() if k != "version"},
            rules_version=rules.cleaned_data["version"],
        )  # fmt: skip

    return saved_or_refused(forms, apply, message=_("Character options saved."))


# ---------------------------------------------------------------- « Trait list »

OPS = ("add", "change", "remove", "move")


def _traits_context(
    request: MemberRequest, bound: tuple[str, str, Any] | None = None, error: str = ""
) -> dict[str, Any]:
    """The list grouped by kind as the sheets show it, each trait with its forms; ``bound`` is the form a refused
    POST came from (op, code, form), drawn again as posted, its trait unfolded."""
    campaign = request.membership.campaign
    rules = character_rules(campaign)
    version = rules.version
    language = get_language() or "fr"
    carriers: dict[str, list[str]] = {}
    rows = CharacterTrait.objects.filter(character__campaign=campaign, custom=False).order_by("character__name")
    for code, name in rows.values_list("code", "character__name"):
        carriers.setdefault(code, []).append(name)
    traits = trait_defs(rules)
    groups = []
    for kind in TraitKind:
        of_kind = [t for t in traits if t.kind == kind]
        lines = []
        for index, trait in enumerate(of_kind):
            form: Any = TraitForm(initial=TraitForm.initial_of(trait, version), prefix=f"t-{trait.code}")
            remove: Any = TraitRemoveForm(initial={"version": version}, prefix=f"rm-{trait.code}")
            is_bound = bound is not None and bound[1] == trait.code
            if is_bound and bound is not None and bound[0] == "change":
                form = bound[2]
            if is_bound and bound is not None and bound[0] == "remove":
                remove = bound[2]
            lines.append({
                "trait": trait, "name": trait.name(language), "other_name": trait.name("en" if language == "fr" else "fr"),
                "default_label": rank_label(trait.default, language), "form": form, "remove_form": remove,
                "carriers": carriers.get(trait.code, []), "first": index == 0, "last": index == len(of_kind) - 1,
                "open": is_bound,
            })  # fmt: skip
        groups.append({"kind": kind, "title": KIND_PLURALS[kind], "label": KIND_LABELS[kind], "lines": lines})
    add_form: Any = TraitForm(
        initial={"version": version, "kind": str(TraitKind.FIELD), "default": 2}, prefix="new", new=True
    )
    if bound is not None and bound[0] == "add":
        add_form = bound[2]
    return {"groups": groups, "add_form": add_form, "add_open": bound is not None and bound[0] == "add",
            "version": version, "error": error}  # fmt: skip


def _traits_post(request: MemberRequest) -> SectionAnswer:
    post = request.POST
    op, code = post.get("op", ""), post.get("code", "")
    if op not in OPS:
        return SectionAnswer(False, context=_traits_context(request, error=_("Unknown change to the trait list.")))
    form: Any
    if op == "add":
        form = TraitForm(post, prefix="new", new=True)
    elif op == "change":
        form = TraitForm(post, prefix=f"t-{code}")
    elif op == "remove":
        form = TraitRemoveForm(post, prefix=f"rm-{code}")
    else:
        form = TraitMoveForm(post)
    if form.is_valid():
        data = form.cleaned_data
        common = {"campaign": request.membership.campaign, "actor": request.user, "expected_version": data["version"]}
        try:
            if op == "add":
                trait = trait_add(**common, code=form.new_code(), data=form.trait_data())
                return SectionAnswer(True, _("“%(trait)s” added to the list.") % {"trait": trait.name(_language())})
            if op == "change":
                trait = trait_change(**common, code=code, data=form.trait_data())
                return SectionAnswer(True, _("“%(trait)s” saved.") % {"trait": trait.name(_language())})
            if op == "remove":
                kept = trait_remove(**common, code=code, keep_on_sheets=data["keep_on_sheets"])
                message = _("Trait removed from the list.")
                if kept:
                    message += " " + _("%(names)s keep it as their own trait.") % {
                        "names": ", ".join(c.name for c in kept)
                    }
                return SectionAnswer(True, message)
            trait_move(**common, code=code, step=data["step"])
            return SectionAnswer(True, _("Trait list order saved."))
        except ServiceError as exc:
            if op == "move":
                return SectionAnswer(False, context=_traits_context(request, error=exc.message), status=exc.status)
            form.add_error(None, exc.message)
            return SectionAnswer(False, context=_traits_context(request, (op, code, form)), status=exc.status)
    if op == "move":
        return SectionAnswer(False, context=_traits_context(request, error=_("Reload the page and try again.")))
    return SectionAnswer(False, context=_traits_context(request, (op, code, form)))


def _language() -> str:
    return get_language() or "fr"


def register() -> None:
    register_settings_section(SettingsSection(
        key="characters", title=lambda: _("Characters: creation and options"), order=20,
        template="characters/settings/characters.html", context=_characters_forms, post=_characters_post,
    ))  # fmt: skip
    register_settings_section(SettingsSection(
        key="traits", title=lambda: _("Trait list"), order=30,
        template="characters/settings/traits.html", context=_traits_context, post=_traits_post,
    ))  # fmt: skip
