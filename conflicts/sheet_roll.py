"""Rolling a Test from the sheet: one tap at the last difficulty, or a compact dialog.

The sheet remembers, per character and per browser session, the last difficulty and the situational
modifier the player chose (« une Action … d'une difficulté Moyenne » is the usual case, so a first roll is
Average with no modifier). The roll itself is the ordinary Test service (``services.fudge_test_roll``):
same modifiers, same log line, same Revers for a hazardous failure.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _

from characters.models import Character
from conflicts.labels import difficulty_label
from conflicts.rules.fudge import FudgeTestSetup, Modifier, success_chance
from conflicts.rules.ranks import Difficulty
from core.form_fields import choice_field

SESSION_KEY = "sheet_rolls"
DEFAULT_DIFFICULTY = int(Difficulty.MOYENNE)
# The chips of the dialog: the difficulties a table uses (n.a. rolls nothing; Impossible stays on the full form).
CHIPS = [
    (int(Difficulty.FACILE), _("Easy")),
    (int(Difficulty.SIMPLE), _("Simple")),
    (int(Difficulty.MOYENNE), _("Average")),
    (int(Difficulty.DIFFICILE), _("Hard")),
    (int(Difficulty.TRES_DIFFICILE), _("Very hard")),
    (int(Difficulty.EXTREME), _("Extreme")),
]
SITUATIONAL = (-2, -1, 0, 1, 2)


@dataclass(frozen=True)
class RollMemory:
    difficulty: int = DEFAULT_DIFFICULTY
    other: int = 0


def remembered(session: Any, character_id: int) -> RollMemory:
    raw = (session.get(SESSION_KEY) or {}).get(str(character_id)) or {}
    try:
        memory = RollMemory(int(raw.get("difficulty", DEFAULT_DIFFICULTY)), int(raw.get("other", 0)))
    except (TypeError, ValueError):
        return RollMemory()
    valid = memory.difficulty in dict(CHIPS) and memory.other in SITUATIONAL
    return memory if valid else RollMemory()


def remember(session: Any, character_id: int, memory: RollMemory) -> None:
    """Keep the choice for the next tap; the same choice again leaves the session unwritten (no save per roll)."""
    if remembered(session, character_id) == memory and str(character_id) in (session.get(SESSION_KEY) or {}):
        return
    rolls = dict(session.get(SESSION_KEY) or {})
    rolls[str(character_id)] = {"difficulty": memory.difficulty, "other": memory.other}
    session[SESSION_KEY] = rolls


def chance_percent(rank: int, difficulty: int, other: int = 0, applied: tuple[Modifier, ...] = ()) -> str:
    """The exact chance shown before rolling (Fudge dice: 81 outcomes), with the modifiers the roll will carry
    (``applied``: the sheet's standing lines and the trait's boost) and the situational one."""
    modifiers = (*applied, Modifier("other", other)) if other else applied
    setup = FudgeTestSetup(trait_rank=rank, difficulty=Difficulty(difficulty), modifiers=modifiers)
    return f"{100 * float(success_chance(setup)):.0f}"


REVERS_DOMAINS = ("physical", "social", "mental")


@dataclass(frozen=True)
class Standing:
    """What the sheet brings to every Test of this character before the player chooses anything: the lines a
    one-tap roll carries (state cards' wounds and fatigue; no Revers, whose domain the tap does not name) and
    each domain's worst Revers, shown on the dialog's Revers chips."""

    lines: tuple[Modifier, ...] = ()
    revers: tuple[tuple[str, int], ...] = ()
    boosts: tuple[tuple[str, int], ...] = ()

    def applied(self, trait_code: str) -> tuple[Modifier, ...]:
        """The one-tap Test's modifiers for a trait: the standing lines and the trait's running boost."""
        boost = dict(self.boosts).get(trait_code, 0)
        return (*self.lines, Modifier("power", boost)) if boost else self.lines


def standing(character: Character, revers: Any = None) -> Standing:
    """``Standing`` of a character, read once per page (the three trait lists of a sheet share it); ``revers``:
    its active Revers when the page has them already."""
    cached: Standing | None = getattr(character, "_roll_standing", None)
    if cached is not None:
        return cached
    from conflicts import sheets
    from conflicts.services.fudge_tests import standing_modifiers

    # The sheet has read the state row and its fatigue tracks for its badges (characters.views.sheet).
    lines = standing_modifiers(sheets.states_effect(character, domain="", loaded=True), domain="", penalty=0)
    penalties = sheets.revers_penalty_by_domain(character, REVERS_DOMAINS, revers)
    target = (character.power_boost or {}).get("target", "")
    boost = sum(amount for _code, amount, use in sheets.boost_lines(character, target) if use == "any") if target else 0
    result = Standing(tuple(lines), tuple(penalties.items()), ((target, boost),) if boost else ())
    character._roll_standing = result  # type: ignore[attr-defined]  # cached on the instance this page renders
    return result


RELATEDNESS = (
    ("close", _("Closely related")),
    ("related", _("Related but not central (−1)")),
    ("distant", _("Distant (−2)")),
)
NO_GEAR = "none"  # « Inférieur ou pas de matériel : -1 »
SAVAGE_ATTRIBUTES = ("vigor", "spirit", "agility", "smarts")


class SheetRollForm(forms.Form):
    """What one tap (or the dialog) sends: the trait (or, with states on, a Savage attribute) and optionally a
    difficulty, a situation, the Revers that apply, relatedness, the gear used, the character's scale, an Atout;
    on a power domain a power's rank (a power use); for the narrator an opponent (a simple conflict, or their
    trait as the Difficulty). Every choice is picked among what the sheet offers, never typed."""

    trait_code = forms.CharField(max_length=64, required=False)
    attribute = forms.ChoiceField(choices=[("", ""), *((a, a) for a in SAVAGE_ATTRIBUTES)], required=False)
    difficulty = forms.TypedChoiceField(choices=CHIPS, coerce=int, required=False, empty_value=None)
    other = forms.TypedChoiceField(
        choices=[(n, str(n)) for n in SITUATIONAL], coerce=int, required=False, empty_value=None
    )
    revers_domain = forms.ChoiceField(
        choices=[("", ""), ("physical", ""), ("social", ""), ("mental", "")], required=False
    )
    relatedness = forms.ChoiceField(choices=RELATEDNESS, required=False)
    gear = forms.ChoiceField(required=False)
    scale = forms.BooleanField(required=False)
    atout = forms.BooleanField(required=False)
    power_rank = forms.TypedChoiceField(
        choices=[(r, str(r)) for r in range(2, 8)], coerce=int, required=False, empty_value=None
    )
    several_objects = forms.BooleanField(required=False)
    masked = forms.BooleanField(required=False)
    fed_by = forms.ChoiceField(required=False)
    opponent = forms.TypedChoiceField(coerce=int, required=False, empty_value=None)
    resisted_by = forms.TypedChoiceField(coerce=int, required=False, empty_value=None)
    opponent_trait = forms.ChoiceField(required=False)
    against = forms.ChoiceField(choices=[("conflict", ""), ("difficulty", "")], required=False)

    def __init__(self, *args: Any, character: Character, codes: set[str], facts: Any = None, **kwargs: Any) -> None:
        """``facts``: the dialog's ``DialogFacts`` (gear, feeds, opponents, the traits an opponent may use)."""
        super().__init__(*args, **kwargs)
        self.character = character
        self.codes = codes
        self.facts = facts
        gear = facts.gear if facts is not None else ()
        choice_field(self, "gear").choices = [("", ""), (NO_GEAR, ""), *((str(g.pk), g.name) for g in gear)]
        feeds = facts.feeds if facts is not None else ()
        choice_field(self, "fed_by").choices = [("", ""), *feeds]
        opponents = facts.opponents if facts is not None else ()
        choice_field(self, "opponent").choices = [("", ""), *((o.pk, o.name) for o in opponents)]
        choice_field(self, "resisted_by").choices = [("", ""), *((o.pk, o.name) for o in opponents)]
        traits = facts.opponent_traits if facts is not None else ()
        choice_field(self, "opponent_trait").choices = [("", ""), *((code, name) for code, name in traits)]

    def clean_trait_code(self) -> str:
        code: str = self.cleaned_data["trait_code"]
        if code and code not in self.codes:
            raise forms.ValidationError(_("This character has no such trait."))
        return code

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        if not data.get("trait_code") and not data.get("attribute"):
            raise forms.ValidationError(_("Choose the trait to roll."))
        if data.get("power_rank") is not None and not (self.facts and data.get("trait_code") in self.facts.domains):
            raise forms.ValidationError(_("Only a power domain uses a power."))
        return data


class OtherTestAtoutForm(forms.Form):
    """An Atout on another character's Test: help it (+1 rank, two Atouts) or counter its +1. The Test is chosen
    among the ones ``selectors.tests_open_to_others`` lists, never typed."""

    HELP, COUNTER = "help", "counter"

    roll = forms.ChoiceField(label=_("Which Test"))
    use = forms.ChoiceField(
        label=_("Atout"),
        choices=[(HELP, _("Help: +1 rank (2 Atouts)")), (COUNTER, _("Counter its Atout for +1 rank (1 Atout)"))],
        initial=HELP,
        widget=forms.RadioSelect,
    )
    justification = forms.CharField(label=_("How do you help?"), max_length=500, required=False)
    step = forms.IntegerField(required=False, widget=forms.HiddenInput)

    def __init__(self, *args: Any, tests: list[Any], **kwargs: Any) -> None:
        # Its own ids: the sheet it opens in has other forms with a "justification" field.
        kwargs.setdefault("auto_id", "id_other_test_%s")
        super().__init__(*args, **kwargs)
        self.tests = {t.roll: t for t in tests}
        choice_field(self, "roll").choices = [
            (t.roll, f"{t.character} · {t.trait} → {difficulty_label(t.difficulty)}") for t in tests
        ]

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        if data.get("use") == self.HELP and not (data.get("justification") or "").strip():
            # « le mieux est de décrire comment ils aident leur camarade »
            self.add_error("justification", _("Say how your character helps."))
        return data
