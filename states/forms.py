"""Forms of the Savage-style states: they validate, the services act."""

from __future__ import annotations

from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _

from characters.models import Character
from core.form_fields import model_choice_field
from core.forms import IdChoiceField
from states.rules.dice import TraitDie
from states.rules.ranks import RANK_VALUES

TRAIT_CHOICES = [
    ("vigor", _("Vigour")),
    ("spirit", _("Spirit")),
    ("agility", _("Agility")),
    ("smarts", _("Smarts")),
    ("other", _("Other trait (enter its die)")),
]
ATTACK_CHOICES = [
    ("", _("Not an attack")),
    ("melee", _("Fighting")),
    ("ranged", _("Shooting")),
    ("thrown", _("Throwing")),
]
RANK_LABELS = [
    _("Abysmal"),
    _("Terrible"),
    _("Poor"),
    _("Mediocre"),
    _("Fair"),
    _("Good"),
    _("Great"),
    _("Superb"),
    _("Legendary"),
]


def _die_field(label: Any, required: bool = False) -> forms.CharField:
    return forms.CharField(label=label, max_length=8, required=required, widget=forms.TextInput(attrs={"size": 6}))


def _clean_die(value: str) -> str:
    if not value:
        return ""
    try:
        return str(TraitDie.parse(value))
    except ValueError as exc:
        raise forms.ValidationError(_("Enter a trait die such as d4, d8 or d12+1.")) from exc


class CountForm(forms.Form):
    """A posted count (wounds, tokens) within the range the page offers, which stays inside the column's.

    ``count=2147483648`` used to reach the state row, whose ``full_clean`` or the database refused it (a 500)."""

    def __init__(self, data: Any, *, low: int, high: int, default: int | None = None) -> None:
        super().__init__(data)
        self.fields["count"] = forms.IntegerField(min_value=low, max_value=high, required=default is None)
        self.default = default

    def value(self) -> int:
        count: int | None = self.cleaned_data["count"]
        if count is not None:
            return count
        assert self.default is not None  # without a default the field is required: a valid form has a count
        return self.default


class RollForm(forms.Form):
    version = forms.IntegerField(widget=forms.HiddenInput, required=False)
    trait = forms.ChoiceField(label=_("Trait"), choices=TRAIT_CHOICES)
    die = _die_field(_("Die (other trait)"))
    modifier = forms.IntegerField(label=_("Other modifier"), initial=0, required=False, min_value=-20, max_value=20)
    attack = forms.ChoiceField(label=_("Attack"), choices=ATTACK_CHOICES, required=False)
    target = IdChoiceField(label=_("Target"), queryset=Character.objects.none(), required=False)
    distance = forms.IntegerField(label=_("Distance (squares)"), initial=1, min_value=0, max_value=500, required=False)
    surprise = forms.BooleanField(label=_("Surprise attack (+4 attack and damage)"), required=False)

    def __init__(self, *args: Any, targets: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        model_choice_field(self, "target").queryset = targets

    def clean_die(self) -> str:
        return _clean_die(self.cleaned_data.get("die", ""))

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        if data.get("trait") == "other" and not data.get("die"):
            self.add_error("die", _("Enter the die of the trait you roll."))
        return data


class TrickForm(forms.Form):
    version = forms.IntegerField(widget=forms.HiddenInput, required=False)
    target = IdChoiceField(label=_("Target"), queryset=Character.objects.none())
    attribute = forms.ChoiceField(label=_("Attribute (the narrator picks)"), choices=TRAIT_CHOICES[2:4])

    def __init__(self, *args: Any, targets: Any, **kwargs: Any) -> None:
        kwargs.setdefault("auto_id", "id_trick_%s")  # beside the roll form, which has a target too
        super().__init__(*args, **kwargs)
        model_choice_field(self, "target").queryset = targets


class SheetForm(forms.Form):
    version = forms.IntegerField(widget=forms.HiddenInput, required=False)
    vigor_die = _die_field(_("Vigour die"))
    spirit_die = _die_field(_("Spirit die"))
    agility_die = _die_field(_("Agility die"))
    smarts_die = _die_field(_("Smarts die"))
    wild_card = forms.BooleanField(label=_("Wild Card"), required=False)
    base_pace = forms.IntegerField(label=_("Pace"), min_value=0, max_value=30)
    base_parry = forms.IntegerField(label=_("Parry"), min_value=0, max_value=30)

    def clean_vigor_die(self) -> str:
        return _clean_die(self.cleaned_data.get("vigor_die", ""))

    def clean_spirit_die(self) -> str:
        return _clean_die(self.cleaned_data.get("spirit_die", ""))

    def clean_agility_die(self) -> str:
        return _clean_die(self.cleaned_data.get("agility_die", ""))

    def clean_smarts_die(self) -> str:
        return _clean_die(self.cleaned_data.get("smarts_die", ""))


# « Vigour and Spirit dice not entered on a sheet are read from the character's rank »: from which Aptitude.
ATTRIBUTE_LABELS = {
    "vigor": _("Vigour is read from"),
    "spirit": _("Spirit is read from"),
    "agility": _("Agility is read from"),
    "smarts": _("Smarts is read from"),
}


class SavageSettingsForm(forms.Form):
    version = forms.IntegerField(widget=forms.HiddenInput)
    revers_to_wounds = forms.BooleanField(
        label=_("Physical Revers become wounds"),
        required=False,
        help_text=_("Revers 1 wound, serious Revers 2, decisive Revers 3 and the incapacitation roll."),
    )
    weigh_on_cecj = forms.BooleanField(
        label=_("States weigh on MicroFudge Tests and draws"),
        required=False,
        help_text=_(
            "Each wound and fatigue level is −1 rank in a Test and −1 card in a draw; Shaken allows no attack; "
            "État critique and unconsciousness keep the character out of Tests and draws."
        ),
    )

    def __init__(self, *args: Any, aptitudes: list[tuple[str, str]] | None = None, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        for value in RANK_VALUES:
            self.fields[f"rank_{value}"] = forms.CharField(
                label=f"{RANK_LABELS[value]} ({value})", max_length=8, widget=forms.TextInput(attrs={"size": 6})
            )
        # The Aptitude each attribute's rank is read from, among the campaign's list (its related Aptitude).
        by_name = [("", _("The Aptitude bearing its name"))]
        for trait, label in ATTRIBUTE_LABELS.items():
            self.fields[f"reads_{trait}"] = forms.ChoiceField(
                label=label, required=False, choices=[*by_name, *(aptitudes or [])]
            )

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        for value in RANK_VALUES:
            name = f"rank_{value}"
            if data.get(name):
                try:
                    data[name] = _clean_die(data[name])
                except forms.ValidationError as exc:
                    self.add_error(name, exc)
        return data

    def rank_dice(self) -> dict[str, str]:
        return {str(v): self.cleaned_data[f"rank_{v}"] for v in RANK_VALUES}

    def attribute_traits(self) -> dict[str, str]:
        return {trait: code for trait in ATTRIBUTE_LABELS if (code := self.cleaned_data.get(f"reads_{trait}"))}

    def rank_fields(self) -> list[forms.BoundField]:
        return [self[f"rank_{v}"] for v in RANK_VALUES]

    def reads_fields(self) -> list[forms.BoundField]:
        return [self[f"reads_{trait}"] for trait in ATTRIBUTE_LABELS]
