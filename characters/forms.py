"""Forms of the character pages: they validate input, the services act."""

from __future__ import annotations

from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext

from characters.labels import domain_label, severity_label
from characters.models import (
    Character,
    EquipmentCategory,
    EraChoice,
    Revers,
    ReversDomain,
    ReversNature,
)
from characters.rules.atouts import AtoutUse
from characters.rules.equipment import vehicles
from characters.rules.ladder import Rank, rank_label
from characters.rules.traits import TraitKind
from core.form_fields import choice_field, model_choice_field
from core.forms import IdChoiceField

# Uses a player picks from the sheet; raises have their own form. The uses that act on a roll, a draw or a
# Revers (+1, counter, re-roll, change a result, help, take a Revers) are spent where that roll, draw or Revers
# is shown (the Test's result card, the Sequence's panel, the forms naming another's Test or Revers), so that
# they change the game and not only the ledger.
SPEND_USES = [
    (AtoutUse.SAVE_YOUR_SKIN.value, _("Save your skin")),
    (AtoutUse.NARRATIVE_CONTROL.value, _("Narrative control")),
    (AtoutUse.MONOLOGUE.value, _("Monologue")),
    (AtoutUse.RIGHT_MOMENT.value, _("Arrive at the right moment")),
]


def rank_choices(top: int = Rank.LEGENDAIRE) -> list[tuple[int, str]]:
    return [(value, f"{rank_label(value)} ({value})") for value in range(0, top + 1)]


class VersionedForm(forms.Form):
    version = forms.IntegerField(widget=forms.HiddenInput)


class CharacterWordsForm(VersionedForm):
    name = forms.CharField(label=_("Name"), max_length=120)
    concept = forms.CharField(label=_("Concept"), max_length=240)
    goal = forms.CharField(label=_("Goal"), max_length=240)


class NarratorFieldsForm(VersionedForm):
    narrator_notes = forms.CharField(
        label=_("Narrator's notes"), widget=forms.Textarea(attrs={"rows": 3}), required=False
    )
    award_adjustment = forms.IntegerField(
        label=_("Atouts at the next session close"),
        min_value=0,
        max_value=20,
        required=False,
        help_text=_("Empty: the campaign's award."),
    )
    out_after_revers = forms.TypedChoiceField(
        label=_("NPC out of action after"),
        choices=[("", "—"), (1, _("1 Revers")), (2, _("2 Revers"))],
        coerce=int,
        empty_value=None,
        required=False,
    )

    scales = forms.CharField(
        label=_("Scales"),
        required=False,
        help_text=_("Appendix 8, e.g. “+1 size combat” for an ogre; several separated by “;”."),
    )

    def __init__(self, *args: Any, npc: bool = True, **kwargs: Any) -> None:
        kwargs.setdefault(
            "auto_id", "id_narrator_%s"
        )  # the sheet shows several forms: distinct ids, so each label names its own field
        super().__init__(*args, **kwargs)
        if not npc:
            del self.fields["out_after_revers"]

    def clean_scales(self) -> list[dict[str, Any]]:
        from characters.rule_messages import rule_message
        from characters.rules.errors import RuleViolation
        from characters.rules.scales import parse_scales

        try:
            scales = parse_scales(self.cleaned_data["scales"])
        except RuleViolation as violation:
            raise forms.ValidationError(rule_message(violation)) from violation
        return [{"value": s.value, "domains": sorted(s.domains)} for s in scales]


class AtoutSpendForm(forms.Form):
    use = forms.ChoiceField(label=_("Use"), choices=SPEND_USES)
    justification = forms.CharField(label=_("What happens"), max_length=500, required=False)

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        kwargs.setdefault(
            "auto_id", "id_spend_%s"
        )  # the sheet shows several forms: distinct ids, so each label names its own field
        super().__init__(*args, **kwargs)


class ReversTakeForm(forms.Form):
    """« Un Atout peut être dépensé pour supporter un Revers à la place d'un autre »: which Revers, chosen among
    the other characters' (each choice carries its sheet's version), never typed."""

    revers = forms.ChoiceField(label=_("Which Revers"))
    justification = forms.CharField(label=_("How do you step in?"), max_length=500, required=False)

    def __init__(self, *args: Any, revers: list[Revers] | None = None, **kwargs: Any) -> None:
        kwargs.setdefault("auto_id", "id_take_revers_%s")  # the sheet's other forms have a justification too
        super().__init__(*args, **kwargs)
        self.choices = {f"{r.pk}@{r.character.version}": r for r in revers or []}
        choice_field(self, "revers").choices = [
            (key, ngettext("%(name)s: %(revers)s (%(domain)s), %(n)s Atout",
                           "%(name)s: %(revers)s (%(domain)s), %(n)s Atouts", r.severity)
             % {"name": r.character.name, "revers": severity_label(r.severity), "domain": r.domain_name or domain_label(r.domain),
                "n": r.severity})
            for key, r in self.choices.items()
        ]  # fmt: skip

    def chosen(self) -> tuple[Revers, int]:
        key = self.cleaned_data["revers"]
        return self.choices[key], int(key.split("@")[1])


class TraitRaiseForm(forms.Form):
    trait = forms.ChoiceField(label=_("Trait"))
    ranks = forms.IntegerField(label=_("Ranks"), min_value=1, max_value=5, initial=1)
    justification = forms.CharField(label=_("Plausible explanation"), max_length=500, required=False)

    def __init__(self, *args: Any, traits: list[tuple[str, str]] | None = None, **kwargs: Any) -> None:
        kwargs.setdefault(
            "auto_id", "id_raise_%s"
        )  # the sheet shows several forms: distinct ids, so each label names its own field
        super().__init__(*args, **kwargs)
        choice_field(self, "trait").choices = traits or []


class AtoutGainForm(forms.Form):
    amount = forms.IntegerField(label=_("Atouts"), min_value=1, max_value=20, initial=1)
    note = forms.CharField(label=_("Why"), max_length=200, required=False)


class TraitSetForm(forms.Form):
    code = forms.ChoiceField(label=_("Trait"), required=False)
    name = forms.CharField(label=_("New trait name"), max_length=80, required=False)
    kind = forms.ChoiceField(
        label=_("Kind"),
        choices=[(TraitKind.APTITUDE, _("Aptitude")), (TraitKind.FIELD, _("Field of expertise")),
                 (TraitKind.POWER_DOMAIN, _("Power domain"))],
        initial=TraitKind.FIELD,
    )  # fmt: skip
    rank = forms.TypedChoiceField(label=_("Rank"), coerce=int, choices=rank_choices(12))

    def __init__(self, *args: Any, traits: list[tuple[str, str]] | None = None, **kwargs: Any) -> None:
        kwargs.setdefault(
            "auto_id", "id_trait_set_%s"
        )  # the sheet shows several forms: distinct ids, so each label names its own field
        super().__init__(*args, **kwargs)
        choice_field(self, "code").choices = [("", _("— a new trait, named below —"))] + list(traits or [])

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        if not data.get("code") and not data.get("name", "").strip():
            raise forms.ValidationError(_("Choose a trait or name a new one."))
        return data


class VetoForm(forms.Form):
    """« tant que le Narrateur ne met pas son veto »: one of the player-named traits of this sheet."""

    code = forms.ChoiceField(label=_("Trait"))

    def __init__(self, *args: Any, traits: list[tuple[str, str]] | None = None, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        choice_field(self, "code").choices = list(traits or [])


class ReversForm(forms.Form):
    domain = forms.ChoiceField(label=_("Domain"), choices=ReversDomain.choices)
    domain_name = forms.CharField(label=_("Named domain"), max_length=60, required=False)
    severity = forms.TypedChoiceField(
        label=_("Severity"),
        coerce=int,
        choices=[(1, _("Revers")), (2, _("Serious Revers")), (3, _("Decisive Revers"))],
    )
    nature = forms.ChoiceField(label=_("Healing"), choices=ReversNature.choices)
    source = forms.CharField(label=_("Source"), max_length=200, required=False)


class ReversChoiceField(IdChoiceField):
    def label_from_instance(self, obj: Revers) -> str:
        from characters.labels import domain_label, severity_label

        return f"{severity_label(obj.severity)} · {obj.domain_name or domain_label(obj.domain)} · {obj.source}"


class FirstAidForm(forms.Form):
    revers = ReversChoiceField(label=_("Revers"), queryset=Revers.objects.none())
    success = forms.BooleanField(label=_("The Medicine test succeeded"), required=False)

    def __init__(
        self, *args: Any, character: Character | None = None, revers: list[Revers] | None = None, **kwargs: Any
    ) -> None:
        """``revers``: the character's active Revers when the page has read them (the sheet): the choices are
        drawn from them; what is posted is still checked against the character's active Revers."""
        super().__init__(*args, **kwargs)
        if character is not None:
            field = model_choice_field(self, "revers")
            field.queryset = Revers.objects.filter(character=character, severity__gt=0)
            if revers is not None:
                field.choices = [("", field.empty_label or ""), *((r.pk, field.label_from_instance(r)) for r in revers)]


class EquipmentForm(forms.Form):
    category = forms.ChoiceField(label=_("Category"), choices=EquipmentCategory.choices)
    name = forms.CharField(label=_("Name"), max_length=120, required=False)
    bonus = forms.TypedChoiceField(
        label=_("Bonus"),
        coerce=int,
        choices=[(-1, _("−1 inferior gear")), (0, _("+0 average gear / light weapon")),
                 (1, _("+1 good gear / medium weapon / light armour")),
                 (2, _("+2 superior gear / heavy weapon / medium armour")),
                 (3, _("+3 massive weapon / heavy armour"))],
        initial=0,
    )  # fmt: skip
    era = forms.TypedChoiceField(label=_("Era"), coerce=int, choices=EraChoice.choices, initial=EraChoice.MODERN)
    firearm = forms.BooleanField(label=_("Firearm"), required=False)
    bulletproof = forms.BooleanField(label=_("Bulletproof"), required=False)
    vehicle_code = forms.ChoiceField(label=_("Vehicle"), required=False)

    def __init__(self, *args: Any, language: str = "fr", **kwargs: Any) -> None:
        kwargs.setdefault(
            "auto_id", "id_equipment_%s"
        )  # the sheet shows several forms: distinct ids, so each label names its own field
        super().__init__(*args, **kwargs)
        choice_field(self, "vehicle_code").choices = [("", "—")] + [
            (v.code, v.name_en if language.startswith("en") else v.name_fr) for v in vehicles()
        ]


class PowerUseForm(forms.Form):
    domain = forms.ChoiceField(label=_("Power domain"))
    power_rank = forms.TypedChoiceField(
        label=_("Power's rank"), coerce=int, choices=[(r, rank_label(r)) for r in range(2, 8)]
    )
    masked = forms.BooleanField(label=_("Mask the intrusion"), required=False)
    several_objects = forms.BooleanField(label=_("Several objects (Telekinesis)"), required=False)
    fed_by = forms.ChoiceField(
        label=_("Paid with"), required=False,
        help_text=_("A trait the narrator lets feed the domain pays instead of Potential: one rank lower until rest."),
    )  # fmt: skip

    def __init__(
        self, *args: Any, domains: list[tuple[str, str]] | None = None, feeds: list[tuple[str, str]] | None = None,
        **kwargs: Any,
    ) -> None:  # fmt: skip
        super().__init__(*args, **kwargs)
        choice_field(self, "domain").choices = domains or []
        if feeds:
            choice_field(self, "fed_by").choices = [("", _("Potential"))] + list(feeds)
        else:
            del self.fields["fed_by"]


class FeedForm(forms.Form):
    """« Le Narrateur peut également décider qu'une Aptitude […] peut servir à alimenter un Domaine de pouvoir »."""

    domain = forms.ChoiceField(label=_("Power domain"))
    trait = forms.ChoiceField(label=_("Fed by"))

    def __init__(
        self, *args: Any, domains: list[tuple[str, str]] | None = None, traits: list[tuple[str, str]] | None = None,
        **kwargs: Any,
    ) -> None:  # fmt: skip
        kwargs.setdefault("auto_id", "id_feed_%s")  # beside the power form on the sheet: distinct ids
        super().__init__(*args, **kwargs)
        choice_field(self, "domain").choices = domains or []
        choice_field(self, "trait").choices = traits or []


class HandAllyForm(forms.Form):
    player = forms.TypedChoiceField(label=_("Player"), coerce=int, required=False, empty_value=None)

    def __init__(self, *args: Any, players: list[tuple[int, str]] | None = None, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        choice_field(self, "player").choices = [("", _("The narrator"))] + list(players or [])


class NpcForm(forms.Form):
    name = forms.CharField(label=_("Name"), max_length=120)
    concept = forms.CharField(label=_("Concept"), max_length=240)
    goal = forms.CharField(label=_("Goal"), max_length=240, required=False)
    atouts = forms.IntegerField(label=_("Atouts kept for play"), min_value=0, max_value=30, initial=2)
    out_after = forms.TypedChoiceField(
        label=_("Out of action after"), coerce=int, choices=[(1, _("1 Revers")), (2, _("2 Revers"))], initial=2
    )
    traits = forms.CharField(
        label=_("A few traits"),
        required=False,
        help_text=_("One per line: trait = rank value, e.g. “combat = 5”."),
        widget=forms.Textarea(attrs={"rows": 3}),
    )

    def clean_traits(self) -> dict[str, int]:
        result: dict[str, int] = {}
        for number, line in enumerate(self.cleaned_data["traits"].splitlines(), start=1):
            if not line.strip():
                continue
            code, _sep, value = line.partition("=")
            if not value.strip().lstrip("-").isdigit():
                raise forms.ValidationError(_("Line %(n)s: write “trait = value”.") % {"n": number})
            result[code.strip().lower()] = int(value)
        return result
