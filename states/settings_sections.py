"""The Savage-style states' section of the campaign settings page (campaigns/settings_sections.py): whether the
campaign uses them and their options, one form saved at once (the campaign's version and the options' own)."""

from __future__ import annotations

import copy
from typing import Any

from django.utils.translation import get_language
from django.utils.translation import gettext as _

from campaigns.access import MemberRequest
from campaigns.forms import campaign_part_form
from campaigns.settings_sections import SectionAnswer, SettingsSection, register_settings_section, saved_or_refused
from characters.rules.traits import TraitKind
from characters.selectors import character_rules, trait_defs
from states.forms import SavageSettingsForm
from states.selectors import settings_for
from states.services.sheet import savage_options_update

UseForm = campaign_part_form(("savage_states",))


def _forms(request: MemberRequest, data: Any = None) -> dict[str, Any]:
    campaign = request.membership.campaign
    settings = settings_for(campaign)
    initial = {"version": settings.version, "revers_to_wounds": settings.revers_to_wounds,
               "weigh_on_cecj": settings.weigh_on_cecj}  # fmt: skip
    initial.update({f"rank_{k}": v for k, v in settings.rank_dice.items()})
    initial.update({f"reads_{k}": v for k, v in (settings.attribute_traits or {}).items()})
    language = get_language() or "fr"
    traits = trait_defs(character_rules(campaign))
    aptitudes = [(t.code, t.name(language)) for t in traits if t.kind == TraitKind.APTITUDE]
    return {
        "use_form": UseForm(
            data,
            instance=copy.copy(campaign),
            prefix="campaign",
            initial={"version": campaign.version},
            auto_id="id_states_%s",  # the creation section's form has the same prefix: distinct ids on the page
        ),
        "form": SavageSettingsForm(data, initial=initial, prefix="savage", aptitudes=aptitudes),
    }


def _post(request: MemberRequest) -> SectionAnswer:
    forms = _forms(request, request.POST)
    use, form = forms["use_form"], forms["form"]

    def apply() -> None:
        savage_options_update(
            campaign=request.membership.campaign, actor=request.user,
            savage_states=use.cleaned_data["savage_states"], campaign_version=use.cleaned_data["version"],
            revers_to_wounds=form.cleaned_data["revers_to_wounds"], weigh_on_cecj=form.cleaned_data["weigh_on_cecj"],
            rank_dice=form.rank_dice(), expected_version=form.cleaned_data["version"],
            attribute_traits=form.attribute_traits(),
        )  # fmt: skip

    return saved_or_refused(forms, apply, message=_("Savage-style settings saved."))


def register() -> None:
    register_settings_section(SettingsSection(
        key="states", title=lambda: _("Savage-style states"), order=40,
        template="states/settings_section.html", context=_forms, post=_post,
    ))  # fmt: skip
