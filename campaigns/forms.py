from __future__ import annotations

import datetime as dt
from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _

from campaigns.cast import cast
from campaigns.models import Campaign, Membership, Role
from campaigns.services import CAMPAIGN_SETTING_FIELDS
from core.form_fields import choice_field, model_choice_field
from core.forms import IdMultipleChoiceField


class CampaignForm(forms.ModelForm):
    class Meta:
        model = Campaign
        fields = list(CAMPAIGN_SETTING_FIELDS)
        widgets = {
            "description": forms.Textarea(attrs={"rows": 3}),
            "starting_atouts": forms.NumberInput(attrs={"list": "status-atouts", "min": 1, "max": 99}),
        }

    def clean_starting_atouts(self) -> int:
        value: int = self.cleaned_data["starting_atouts"]
        if value < 1:
            raise forms.ValidationError(_("A character starts with at least one Atout."))
        return value

    def clean(self) -> dict[str, Any]:
        cleaned = super().clean() or {}
        light, deep = cleaned.get("revers_recovery_light_days"), cleaned.get("revers_recovery_deep_days")
        for field, value in (("revers_recovery_light_days", light), ("revers_recovery_deep_days", deep)):
            if value is not None and value < 1:
                self.add_error(field, _("Healing takes at least one day."))
        return cleaned


class CampaignSettingsForm(CampaignForm):
    version = forms.IntegerField(widget=forms.HiddenInput)


def campaign_part_form(fields: tuple[str, ...]) -> type[CampaignSettingsForm]:
    """A form for some of the campaign's settings, with the campaign's version: a section of the settings page
    edits only its own fields (the campaign itself here, creation in the characters' section, the Savage-style
    states in theirs), and ``campaign_settings_update`` refuses it as stale only when it would change one."""
    made: type[CampaignSettingsForm] = type(
        "CampaignPartForm",
        (CampaignSettingsForm,),
        {"Meta": type("Meta", (CampaignForm.Meta,), {"fields": list(fields)})},
    )
    return made


class InvitationForm(forms.Form):
    role = forms.ChoiceField(label=_("Invite as"), choices=Role.choices, initial=Role.PLAYER)


class GameSessionForm(forms.Form):
    # A browser's date input only accepts ISO values (« 2026-11-23 »), whatever the page's language: rendering
    # the localised « 23/11/2026 » left the field empty in French and the form answered "required".
    date = forms.DateField(label=_("Date"), widget=forms.DateInput(format="%Y-%m-%d", attrs={"type": "date"}))
    title = forms.CharField(label=_("Title"), max_length=120, required=False)


class ClockAdvanceForm(forms.Form):
    days = forms.IntegerField(label=_("Days"), min_value=0, max_value=3650, initial=0)
    hours = forms.IntegerField(label=_("Hours"), min_value=0, max_value=23, initial=0)
    minutes = forms.IntegerField(label=_("Minutes"), min_value=0, max_value=59, initial=0)
    reason = forms.CharField(label=_("What happens meanwhile"), max_length=200, required=False)
    expected = forms.DateTimeField(widget=forms.HiddenInput, required=False)

    def clean(self) -> dict[str, Any]:
        cleaned = super().clean() or {}
        if not self.errors and self.delta() <= dt.timedelta(0):
            raise forms.ValidationError(_("Advance the clock by at least one minute."))
        return cleaned

    def delta(self) -> dt.timedelta:
        data = self.cleaned_data
        return dt.timedelta(days=data.get("days") or 0, hours=data.get("hours") or 0, minutes=data.get("minutes") or 0)


class NoteForm(forms.Form):
    text = forms.CharField(
        label=_("Note"), widget=forms.Textarea(attrs={"rows": 3}), max_length=20000,
        help_text=_("Markdown: **bold**, *italic*, lists, links."),
    )  # fmt: skip
    private = forms.BooleanField(label=_("Only for the narrators (and me)"), required=False)
    characters: forms.ModelMultipleChoiceField[Any] = IdMultipleChoiceField(
        label=_("Characters concerned"), queryset=None, required=False,
        widget=forms.CheckboxSelectMultiple,
    )  # fmt: skip

    def __init__(self, *args: Any, membership: Membership, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        # A player may tag (and so sees the names of) only the characters they may see: no secret NPC.
        model_choice_field(self, "characters").queryset = cast().viewable(membership)


class CorrectionForm(forms.Form):
    reason = forms.CharField(label=_("What was wrong"), max_length=1000)


class SearchInput(forms.TextInput):
    input_type = "search"


class LogFilterForm(forms.Form):
    game_session = forms.TypedChoiceField(label=_("Session"), required=False, coerce=int, empty_value=None)
    character = forms.TypedChoiceField(label=_("Character"), required=False, coerce=int, empty_value=None)
    kind = forms.ChoiceField(label=_("Kind"), required=False)
    q = forms.CharField(label=_("Search"), required=False, max_length=100, widget=SearchInput)

    def __init__(
        self,
        *args: Any,
        sessions: list[tuple[int, str]],
        characters: list[tuple[int, str]],
        kinds: list[tuple[str, str]],
        **kwargs: Any,
    ) -> None:
        super().__init__(*args, **kwargs)
        everything = [("", _("All"))]
        choice_field(self, "game_session").choices = [*everything, *sessions]
        choice_field(self, "character").choices = [*everything, *characters]
        choice_field(self, "kind").choices = [*everything, *kinds]
