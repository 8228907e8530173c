"""Forms of the characters' sections of the campaign settings page: the character options and the trait list."""

from __future__ import annotations

import re
from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _

from characters.models import CharacterRules
from characters.rules.ladder import Rank, rank_label
from characters.rules.traits import TraitDef, TraitKind, slugify_code
from core.form_fields import choice_field

KIND_LABELS = {
    TraitKind.APTITUDE: _("Aptitude"),
    TraitKind.FIELD: _("Field of expertise"),
    TraitKind.POWER_DOMAIN: _("Power domain"),
}
KIND_PLURALS = {
    TraitKind.APTITUDE: _("Aptitudes"),
    TraitKind.FIELD: _("Fields of expertise"),
    TraitKind.POWER_DOMAIN: _("Power domains"),
}
_CODE = re.compile(r"^[a-z0-9_]{1,40}$")


class CharacterRulesForm(forms.ModelForm):
    version = forms.IntegerField(widget=forms.HiddenInput)

    class Meta:
        model = CharacterRules
        fields = [
            "players_name_traits", "human_maximum", "progression", "streamlined_atouts", "first_aid_lowers_wound",
            "psychic_fatigue", "potential_rest_hours", "npc_out_after", "single_atout_help", "harm_weighs_everywhere",
        ]  # fmt: skip

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        # A form posted without it (an older page) keeps the campaign's figure.
        self.fields["potential_rest_hours"].required = False

    def clean_potential_rest_hours(self) -> int:
        value = self.cleaned_data.get("potential_rest_hours")
        return self.instance.potential_rest_hours if value is None else value


class TraitForm(forms.Form):
    """One trait of the list, as the TOML format describes it (characters/rules/data/traits.toml): both names, its
    kind, the rank a sheet without it reads, whether it is highly technical, both descriptions; a new trait also
    takes its code (from its French name when left empty)."""

    version = forms.IntegerField(widget=forms.HiddenInput)
    name_fr = forms.CharField(label=_("Name in French"), max_length=80)
    name_en = forms.CharField(label=_("Name in English"), max_length=80)
    kind = forms.ChoiceField(label=_("Kind"), choices=list(KIND_LABELS.items()))
    default = forms.TypedChoiceField(label=_("Rank when not on a sheet"), coerce=int, choices=())
    technical = forms.BooleanField(
        label=_("Highly technical"), required=False,
        help_text=_("The narrator may make an untrained use fail (still Faible after creation)."),
    )  # fmt: skip
    description_fr = forms.CharField(
        label=_("Description in French"), required=False, max_length=2000, widget=forms.Textarea(attrs={"rows": 2})
    )
    description_en = forms.CharField(
        label=_("Description in English"), required=False, max_length=2000, widget=forms.Textarea(attrs={"rows": 2})
    )

    def __init__(self, *args: Any, new: bool = False, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        choice_field(self, "default").choices = [(r, rank_label(r)) for r in range(Rank.ABYSSAL, Rank.LEGENDAIRE + 1)]
        if new:
            self.fields["code"] = forms.CharField(
                label=_("Code"), required=False, max_length=40,
                help_text=_("Lowercase letters, digits and _; it links the list to the sheets and never changes. "
                            "Empty: made from the French name."),
            )  # fmt: skip

    @classmethod
    def initial_of(cls, trait: TraitDef, version: int) -> dict[str, Any]:
        return {"version": version, "name_fr": trait.name_fr, "name_en": trait.name_en, "kind": str(trait.kind),
                "default": trait.default, "technical": trait.technical, "description_fr": trait.description_fr,
                "description_en": trait.description_en}  # fmt: skip

    def clean_code(self) -> str:
        code: str = (self.cleaned_data.get("code") or "").strip()
        if code and not _CODE.match(code):
            raise forms.ValidationError(_("Lowercase letters, digits and _ only, at most 40."))
        return code

    def new_code(self) -> str:
        return str(self.cleaned_data.get("code") or slugify_code(self.cleaned_data["name_fr"]))

    def trait_data(self) -> dict[str, Any]:
        return {k: v for k, v in self.cleaned_data.items() if k not in ("version", "code")}


class TraitRemoveForm(forms.Form):
    version = forms.IntegerField(widget=forms.HiddenInput)
    keep_on_sheets = forms.BooleanField(label=_("They keep it as their own trait"), required=False)


class TraitMoveForm(forms.Form):
    version = forms.IntegerField(widget=forms.HiddenInput)
    step = forms.TypedChoiceField(coerce=int, choices=[(-1, _("up")), (1, _("down"))])
