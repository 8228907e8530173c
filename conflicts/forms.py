"""Forms validate what the pages post; services act on it."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _
from django_stubs_ext import StrOrPromise

from characters.models import Character
from conflicts import sheets
from conflicts.models import Era, Participant, Sequence, TableSettings
from conflicts.rules.budget import Split
from conflicts.rules.equipment import VEHICLES
from conflicts.rules.ranged import RANGE_TABLE, WeaponClass, defence_cards, shot_difficulty
from conflicts.rules.ranks import Difficulty
from conflicts.rules.relatedness import Relatedness
from core.errors import ServiceError
from core.form_fields import model_choice_field
from core.forms import IdChoiceField

DIFFICULTY_CHOICES = [
    (Difficulty.NA.value, _("n.a. (no roll)")),
    (Difficulty.FACILE.value, _("Easy (Faible)")),
    (Difficulty.SIMPLE.value, _("Simple (Médiocre)")),
    (Difficulty.MOYENNE.value, _("Average (Moyen)")),
    (Difficulty.DIFFICILE.value, _("Hard (Bon)")),
    (Difficulty.TRES_DIFFICILE.value, _("Very hard (Excellent)")),
    (Difficulty.EXTREME.value, _("Extreme (Exceptionnel)")),
    (Difficulty.IMPOSSIBLE.value, _("Impossible (Légendaire)")),
]
RELATEDNESS_CHOICES = [
    (Relatedness.CLOSE.value, _("Closely related")),
    (Relatedness.RELATED.value, _("Related but not central (−1 rank)")),
    (Relatedness.DISTANT.value, _("Distant (−2 ranks)")),
]
DOMAIN_CHOICES = [("", _("none")), ("physical", _("Physical")), ("social", _("Social")), ("mental", _("Mental"))]


class SceneForm(forms.Form):
    title = forms.CharField(label=_("Title"), max_length=120)
    description = forms.CharField(label=_("Description"), required=False, widget=forms.Textarea(attrs={"rows": 2}))


class SequenceForm(forms.ModelForm):
    class Meta:
        model = Sequence
        fields = ["title", "kind", "collective", "friendly", "secret_cut", "domain", "nature"]


class TableSettingsForm(forms.ModelForm):
    version = forms.IntegerField(widget=forms.HiddenInput)

    class Meta:
        model = TableSettings
        fields = ["success_rule", "layout", "cover_mode"]


def _trait_field(campaign: Any, required: bool = False, npcs: bool = True) -> forms.ChoiceField:
    """The campaign's list, then the traits characters named themselves (they are tested like any other)."""
    choices: list[Any] = [("", "—"), *sheets.campaign_traits(campaign)]
    listed = {code for code, _name in choices}
    named = [(code, name) for code, name in sheets.named_traits(campaign, npcs=npcs) if code not in listed]
    if named:
        choices.append((_("Named traits"), named))
    return forms.ChoiceField(label=_("Trait"), required=required, choices=choices)


class ParticipantAddForm(forms.Form):
    character = IdChoiceField(label=_("Character"), queryset=Character.objects.none())
    side = forms.CharField(label=_("Side"), max_length=40)
    goal = forms.CharField(label=_("Goal"), max_length=240, required=False)
    trait_value = forms.IntegerField(
        label=_("Trait value (empty: from the sheet)"), required=False, min_value=0, max_value=20
    )
    out_after = forms.TypedChoiceField(
        label=_("NPC out after"),
        required=False,
        coerce=int,
        empty_value=None,
        choices=[("", _("a decisive Revers")), (1, _("1 Revers")), (2, _("2 Revers"))],
    )

    def __init__(self, *args: Any, sequence: Sequence, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        taken = sequence.participants.values_list("character_id", flat=True)
        model_choice_field(self, "character").queryset = Character.objects.filter(
            campaign_id=sequence.campaign_id
        ).exclude(pk__in=taken)
        self.fields["trait_code"] = _trait_field(sequence.campaign)
        # The trait right after the character; the sides already in play offered as suggestions, so
        # that a typo does not open a third side.
        self.order_fields(["character", "side", "goal", "trait_code", "trait_value", "out_after"])
        sides = sorted(set(sequence.participants.values_list("side", flat=True)))
        self.fields["side"].widget.attrs["list"] = "sides-in-play"
        self.sides_in_play = sides


class DeclareForm(forms.Form):
    """Goal and trait, chosen by the participant's player."""

    goal = forms.CharField(label=_("Goal"), max_length=240, required=False)
    version = forms.IntegerField(widget=forms.HiddenInput)

    def __init__(self, *args: Any, participant: Participant, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        choices = [(code, f"{name} ({value})") for code, name, value in sheets.trait_choices(participant.character)]
        self.fields["trait_code"] = forms.ChoiceField(label=_("Trait"), choices=[("", "—"), *choices], required=False)


SHOOTER_WEAPONS = [
    ("handgun", _("Handgun, bow, thrown")), ("carbine", _("Carbine")), ("rifle", _("Rifle")),
    ("heavy", _("Heavy or vehicle weapon")), ("spaceship", _("Spaceship")),
]  # fmt: skip


def _range_names() -> dict[str, StrOrPromise]:
    """The range bands as the rule book names them (« Combat à distance »)."""
    return {
        "point_blank": _("point blank"), "short": _("short"), "medium": _("medium"), "long": _("long"),
        "very_long": _("very long"), "extreme": _("extreme"), "far": _("far"), "very_far": _("very far"),
        "distant": _("distant"), "very_distant": _("very distant"), "local": _("local"), "district": _("district"),
        "regional": _("regional"), "continental": _("continental"), "planetary": _("planetary"),
        "high_orbit": _("high orbit"), "far_orbit": _("far orbit"), "interplanetary": _("interplanetary"),
    }  # fmt: skip


def _range_choices() -> list[tuple[str, str]]:
    names = _range_names()
    return [("", "—")] + [(b.code, f"{names.get(b.code, b.code)} ({b.distance})") for b in RANGE_TABLE]


def _vehicle_choices() -> list[tuple[str, str]]:
    """Small modern vehicles, named as in the rule book."""
    names = {
        "motorbike": _("motorbike"), "dirt_bike": _("dirt bike"), "sports_car": _("sports car"),
        "family_saloon": _("family saloon"), "luxury_saloon": _("luxury saloon"), "suv_pickup": _("SUV or pick-up"),
        "suv_4x4": _("4x4 SUV or pick-up"), "van": _("van or minibus"), "bus_truck": _("bus or truck"),
    }  # fmt: skip
    return [("", "—")] + [(code, str(names.get(code, code.replace("_", " ")))) for code in VEHICLES]


class ModifiersForm(forms.ModelForm):
    """Everything the narrator sets on a participant before a draw.

    Two helpers fill fields from the rule tables: the range band and the shooter's weapon give this
    target's defence cards (« Combat à distance »); a vehicle gives its Vitesse (chase) or Robustesse
    (demolition) to its driver.
    """

    version = forms.IntegerField(widget=forms.HiddenInput)
    range_band = forms.ChoiceField(label=_("Shot at from range"), required=False, choices=_range_choices)
    shooter_weapon = forms.ChoiceField(label=_("Shooter's weapon"), required=False, choices=SHOOTER_WEAPONS)
    vehicle_model = forms.ChoiceField(label=_("Vehicle"), required=False, choices=_vehicle_choices)

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        # An older page (posted without them) keeps the participant's figures.
        self.fields["relatedness"].required = False
        self.fields["telekinesis_mind"].required = False
        self.fields["inflicts"].required = False

    def clean_relatedness(self) -> str:
        return self.cleaned_data.get("relatedness") or self.instance.relatedness

    def clean_inflicts(self) -> str:
        return self.cleaned_data.get("inflicts") or self.instance.inflicts

    def clean_telekinesis_mind(self) -> int:
        value = self.cleaned_data.get("telekinesis_mind")
        return self.instance.telekinesis_mind if value is None else value

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        band = data.get("range_band")
        if band:
            cards = defence_cards(band, WeaponClass(data.get("shooter_weapon") or "handgun"))
            if cards is None:
                self.add_error("range_band", _("That weapon cannot reach this range."))
            else:
                data["range_defence"] = cards
        model = data.get("vehicle_model")
        if model:
            speed, robustness = VEHICLES[model]
            kind = self.instance.sequence.kind if self.instance.pk else "chase"
            data["vehicle"] = robustness if kind == "demolition" or data.get("robustness_as_armour") else speed
            if data.get("vehicle_era") is None:
                data["vehicle_era"] = Era.MODERN  # the table is « Petits véhicules de l'ère moderne »
        return data

    class Meta:
        model = Participant
        fields = [
            "side", "trait_value", "relatedness", "weapon", "weapon_use", "weapon_era", "weapon_firearm", "inflicts",
            "two_weapons", "two_weapons_use",
            "armour", "armour_era", "armour_bulletproof", "shield",
            "surprise", "conditions", "cover", "scale", "vehicle", "telekinesis_mind", "robustness_as_armour", "range_defence", "other", "defence_weight",
            "vehicle_size", "vehicle_era", "out_of_range_bands", "out_after",
        ]  # fmt: skip


def split_from_post(
    data: Mapping[str, Any], me: Participant, everyone: list[Participant]
) -> tuple[Split, dict[str, str]]:
    """Read ``attack_<id>``, ``defence_<id>``, ``reason_<id>`` and ``upper_hand``; bad numbers count as 0."""

    def number(name: str) -> int:
        try:
            return int(data.get(name) or 0)
        except (TypeError, ValueError):
            return 0

    attack, defence, reasons = {}, {}, {}
    for p in everyone:
        if p.side != me.side and number(f"attack_{p.pk}"):
            attack[p.key] = number(f"attack_{p.pk}")
        if p.side == me.side and number(f"defence_{p.pk}"):
            defence[p.key] = number(f"defence_{p.pk}")
        if p.side == me.side and p.pk != me.pk and data.get(f"reason_{p.pk}"):
            reasons[p.key] = str(data.get(f"reason_{p.pk}"))[:200]
    return Split(attack=attack, defence=defence, upper_hand=bool(data.get("upper_hand"))), reasons


def bulk_splits_from_post(data: Mapping[str, Any], everyone: list[Participant]) -> dict[int, Split]:
    """The console's "draw for all NPCs": ``attack_<id>`` cards on ``target_<id>``, ``defence_<id>`` in
    defence, for each NPC row that sent them (a row without fields keeps its saved split). A number that is
    not one, or a target that is not an opponent, is refused naming the NPC."""
    out: dict[int, Split] = {}
    for p in everyone:
        if f"attack_{p.pk}" not in data and f"defence_{p.pk}" not in data:
            continue
        name = p.character.name
        numbers = []
        for field in (f"attack_{p.pk}", f"defence_{p.pk}"):
            raw = str(data.get(field) or "0").strip()
            if not raw.isascii() or not raw.isdigit() or int(raw) > 30:
                raise ServiceError(
                    _("%(name)s: write each number of cards as a whole number from 0 to 30.") % {"name": name}
                )
            numbers.append(int(raw))
        attack, defence = numbers
        target = str(data.get(f"target_{p.pk}") or "")
        if attack and not any(q.key == target and q.side != p.side and q.active for q in everyone):
            raise ServiceError(_("%(name)s: choose an opponent still in the sequence to attack.") % {"name": name})
        out[p.pk] = Split(attack={target: attack} if attack else {}, defence={p.key: defence} if defence else {})
    return out


class FudgeTestForm(forms.Form):
    character = IdChoiceField(label=_("Character"), queryset=Character.objects.none())
    difficulty = forms.TypedChoiceField(label=_("Difficulty"), choices=DIFFICULTY_CHOICES, coerce=int, initial=4)
    relatedness = forms.ChoiceField(label=_("Field and concept"), choices=RELATEDNESS_CHOICES, initial="close")
    revers_domain = forms.ChoiceField(label=_("Revers that apply"), choices=DOMAIN_CHOICES, required=False)
    equipment = forms.TypedChoiceField(
        label=_("Equipment"), coerce=int, initial=0,
        choices=[(-1, _("Inferior or none (−1)")), (0, _("Average (+0)")), (1, _("Good (+1)")), (2, _("Superior (+2)"))],
    )  # fmt: skip
    scale = forms.IntegerField(label=_("Scale"), initial=0, min_value=-15, max_value=15)
    other = forms.IntegerField(label=_("Other modifier"), initial=0, min_value=-5, max_value=5)
    atout = forms.BooleanField(label=_("Spend an Atout for +1 rank"), required=False)
    allow_automatic = forms.BooleanField(label=_("Succeed without rolling if the trait is high enough"), required=False)
    highly_technical = forms.BooleanField(label=_("Highly technical field"), required=False)
    technical_policy = forms.ChoiceField(
        label=_("If untrained"), initial="fail",
        choices=[("fail", _("automatic failure")), ("harder", _("one step harder")), ("none", _("no effect"))],
    )  # fmt: skip
    range_band = forms.ChoiceField(label=_("A shot: difficulty from the range"), required=False, choices=_range_choices)
    shooter_weapon = forms.ChoiceField(label=_("Shooter's weapon"), required=False, choices=SHOOTER_WEAPONS)
    hazard_per_rank = forms.BooleanField(label=_("Hazardous: one Revers per rank short (max 3)"), required=False)
    hazard_fixed_revers = forms.TypedChoiceField(
        label=_("Hazardous: fixed Revers on failure"), required=False, coerce=int, empty_value=None,
        choices=[("", "—"), (1, "1"), (2, "2"), (3, "3")],
    )  # fmt: skip

    def __init__(self, *args: Any, campaign: Any, characters: Any, opponents: Any = None, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        model_choice_field(self, "character").queryset = characters
        # Players see their table's named traits, never an NPC's (opponents is set for narrators only).
        self.fields["trait_code"] = _trait_field(campaign, required=True, npcs=opponents is not None)
        self.order_fields(["character", "trait_code", "difficulty"])  # who tests what, then how hard
        if opponents is not None:
            # « la Difficulté peut provenir d'une Caractéristique du ou des adversaires » (the narrator's call).
            self.fields["opponent"] = IdChoiceField(
                label=_("Difficulty from an opponent"), queryset=opponents, required=False
            )
            self.fields["opponent_trait"] = _trait_field(campaign)
            self.fields["opponent_trait"].label = _("Opponent's trait")

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        band = data.get("range_band")
        if band:
            # « La table de combat à distance permet de déterminer la Difficulté d'un éventuel Test » (V).
            difficulty = shot_difficulty(band, WeaponClass(data.get("shooter_weapon") or "handgun"))
            if difficulty is None:
                self.add_error("range_band", _("That weapon cannot reach this range."))
            else:
                data["difficulty"] = int(difficulty)
        if data.get("opponent") and not data.get("opponent_trait"):
            self.add_error("opponent_trait", _("Say which of the opponent's traits sets the difficulty."))
        return data


class SimpleConflictForm(forms.Form):
    first = IdChoiceField(label=_("First"), queryset=Character.objects.none())
    second = IdChoiceField(label=_("Second"), queryset=Character.objects.none())

    def __init__(self, *args: Any, campaign: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        characters = Character.objects.filter(campaign=campaign)
        model_choice_field(self, "first").queryset = characters
        model_choice_field(self, "second").queryset = characters
        self.fields["first_trait"] = _trait_field(campaign, required=True)
        self.fields["second_trait"] = _trait_field(campaign, required=True)
