"""The Tests the narrator asked, as the campaign's "now" block shows them: a region (``core.regions``).

A player sees the Tests asked of the characters they run, first on their page, each with its exact chance and a
one-tap roll (``conflicts.services.asked_tests.asked_test_roll``); a narrator sees who still has to roll, each
ask with a button to withdraw it. Nobody else's asks are shown to a player: what the table expects of *them*.
The page, the POST answers and the live pushes render this one region, kept and pushed by its declaration.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property
from typing import TYPE_CHECKING, Any

from django import forms
from django.db.models import QuerySet
from django.utils.translation import gettext_lazy as _

from campaigns.event_subjects import ASKS, CHARACTER, SETTINGS, STATES
from campaigns.kept import table_head
from campaigns.now import now_region
from characters.models import Character
from conflicts import sheet_roll, sheets
from conflicts.labels import difficulty_label
from conflicts.models import AskedTest, AskStatus
from conflicts.rules.ranks import Difficulty
from conflicts.services.asked_tests import (
    ASKABLE_DIFFICULTIES,
    DEFAULT_DIFFICULTY,
    MAX_ASKED,
    askable_characters,
    too_many,
)
from core.prepared import PreparedRead
from core.regions import Depends, Region, pass_fact, register, subject

if TYPE_CHECKING:
    from campaigns.models import Campaign, Membership

TEMPLATE = "conflicts/partials/asked_tests.html"
FORM_TEMPLATE = "conflicts/partials/ask_form.html"
BODY_TEMPLATE = "conflicts/partials/ask_form_body.html"


@dataclass(frozen=True)
class AskLine:
    """One Test waiting, as the region prints it."""

    pk: int
    character: Character
    trait_name: str
    rank: int
    difficulty: str  # the label of the Difficulty rolled at
    difficulty_set: bool  # False: the narrator set none, the roll is at Moyenne
    note: str
    chance: str  # the one-tap's exact chance, in hundredths (players only)


class Asks:
    """What the region shows, loaded once per rendering (``ASKED.load``): a page, an answer, a push each load
    their own, so the declaration and the context share one read of the asks waiting and none outlives it."""

    def __init__(self, campaign: Campaign, membership: Membership) -> None:
        self.campaign = campaign
        self.campaign_id = campaign.pk  # the live catch-up checks a region is the member's campaign's
        self.membership = membership

    @cached_property
    def pending(self) -> list[AskedTest]:
        """The asks waiting that this member may see: every one for a narrator, their characters' for a player."""
        campaign_id = self.campaign.pk
        # Every member's asks in one read per render pass (the twenty pages a live event is rendered for).
        every: list[AskedTest] = pass_fact(
            ("asks waiting", campaign_id), lambda: _every_pending(campaign_id, str(AskStatus.PENDING))
        )
        if self.membership.is_narrator:
            return list(every)
        return [asked for asked in every if asked.character.owner_id == self.membership.user_id]


def _pending(campaign_id: int, status: str) -> QuerySet[AskedTest]:
    return AskedTest.objects.filter(campaign_id=campaign_id, status=status).select_related("character__campaign")


# Read on every campaign page whose stream moved (the declaration names the characters asked): compiled once
# (``core.prepared``), building the query cost more than running it. Arguments in the SQL's order.
_every_pending = PreparedRead(lambda campaign_id, status: _pending(campaign_id, status).order_by("asked_at", "pk"))


def _line(asked: AskedTest, *, odds: bool) -> AskLine:
    from django.utils.translation import get_language

    character = asked.character
    facts = sheets.trait_facts(character, asked.trait_code)
    english = (get_language() or "fr")[:2] == "en"
    difficulty = asked.difficulty if asked.difficulty is not None else DEFAULT_DIFFICULTY
    # The one-tap Test's chance: what the roll will carry (the states' lines, a running boost), as the sheet's chip.
    chance = ""
    if odds:
        applied = sheet_roll.standing(character).applied(asked.trait_code)
        chance = sheet_roll.chance_percent(facts.rank, difficulty, 0, applied)
    return AskLine(
        pk=asked.pk, character=character, trait_name=(facts.name_en if english and facts.name_en else facts.name_fr),
        rank=facts.rank, difficulty=difficulty_label(Difficulty(difficulty).name),
        difficulty_set=asked.difficulty is not None, note=asked.note, chance=chance,
    )  # fmt: skip


def asked_context(asks: Asks, membership: Membership, request: Any = None) -> dict[str, Any]:
    """The region's context (reads only): the Tests waiting that this member may see."""
    narrator = membership.is_narrator
    lines = [_line(asked, odds=not narrator) for asked in asks.pending]
    return {"asks": lines, "narrator": narrator, "campaign_id": asks.campaign.pk}


def asked_depends(asks: Asks, membership: Membership, request: Any = None) -> Depends:
    """What the region reads: the asks waiting (``asks:<campaign>``: an ask, a withdrawal, the roll that answers
    one), the trait list's names (``settings``), and each character it shows, its sheet and states (their ranks,
    names and the one-tap's modifiers), read when the stream has moved (the asks' one query, which the context
    reuses). Viewer: the narrators read it alike, each player their own."""
    campaign_id = asks.campaign.pk

    def subjects() -> frozenset[str]:
        named = {subject(ASKS, campaign_id), subject(SETTINGS, campaign_id)}
        for asked in asks.pending:
            named |= {subject(CHARACTER, asked.character_id), subject(STATES, asked.character_id)}
        return frozenset(named)

    viewer = ("narrator",) if membership.is_narrator else ("player", membership.user_id)
    return Depends(campaign_id=campaign_id, subjects=subjects, viewer=viewer, head=table_head(membership))


def _asks_of(campaign_id: int, membership: Membership) -> Asks | None:
    # A page watching ``home:<id>`` shows this member's own campaign only.
    return Asks(membership.campaign, membership) if campaign_id == membership.campaign_id else None


ASKED = register(
    Region(
        name="asked_tests",
        template=TEMPLATE,
        load=_asks_of,
        context=asked_context,
        depends=asked_depends,
        watch="home",  # the campaign's home and dashboard watch home:<campaign> (campaigns.live.home_subject)
        element_id=lambda _campaign: "now-ask",
    )
)


def register_section() -> None:
    """First in the "now" block: a Test the narrator waits for is the most pressing thing on a player's phone."""
    from campaigns.now import register_now as add

    add(now_region("ask", 5, ASKED))


class AskTestForm(forms.Form):
    """The narrator's « Ask for a Test »: who rolls, which trait, at which Difficulty (or none), and a note."""

    characters = forms.TypedMultipleChoiceField(
        label=_("Who rolls"), coerce=int, widget=forms.CheckboxSelectMultiple,
        error_messages={"required": _("Choose who rolls.")},
    )  # fmt: skip
    trait_code = forms.ChoiceField(label=_("Trait"))
    difficulty = forms.TypedChoiceField(label=_("Difficulty"), coerce=int, required=False, empty_value=None)
    note = forms.CharField(label=_("Note for the players"), max_length=200, required=False)

    def __init__(self, *args: Any, characters: list[Character], traits: list[tuple[str, str]], **kwargs: Any) -> None:
        kwargs.setdefault("auto_id", "id_ask_%s")  # the dashboard has other forms
        super().__init__(*args, **kwargs)
        choices: Any = [(c.pk, c.name) for c in characters]
        # django-stubs types a form's fields as Field, which has no ``choices``: these are choice fields.
        self.fields["characters"].choices = choices  # type: ignore[attr-defined]  # a ChoiceField, see above
        self.fields["trait_code"].choices = [("", "—"), *traits]  # type: ignore[attr-defined]  # as above
        labels = dict(sheet_roll.CHIPS)
        difficulties: Any = [("", _("Not set (Average)")), *((d, labels[d]) for d in ASKABLE_DIFFICULTIES)]
        self.fields["difficulty"].choices = difficulties  # type: ignore[attr-defined]  # as above

    def clean_characters(self) -> list[int]:
        chosen: list[int] = self.cleaned_data["characters"]
        if len(chosen) > MAX_ASKED:
            raise forms.ValidationError(too_many())
        return chosen


def ask_form_traits(campaign: Campaign) -> list[tuple[str, str]]:
    """The traits the form offers: the campaign's Aptitudes and Champs d'expertise and the ones its players named
    (each character's sheet is checked again when the ask is made)."""
    from django.utils.translation import get_language

    from characters.rules.traits import TraitKind
    from characters.selectors import character_rules, trait_defs

    language = get_language() or "fr"
    kinds = (TraitKind.APTITUDE, TraitKind.FIELD)
    listed = [(t.code, t.name(language)) for t in trait_defs(character_rules(campaign)) if t.kind in kinds]
    known = {code for code, _name in listed}
    named = [(code, name) for code, name in sheets.named_traits(campaign, npcs=False) if code not in known]
    return sorted([*listed, *named], key=lambda pair: pair[1].lower())


def ask_form_context(membership: Membership, form: AskTestForm | None = None, **extra: Any) -> dict[str, Any]:
    """The dashboard's « Ask for a Test » form, unbound unless ``form`` is given (its errors are then shown)."""
    characters = list(askable_characters(membership.campaign_id))
    if form is None:
        form = AskTestForm(characters=characters, traits=ask_form_traits(membership.campaign))
    return {"form": form, "campaign_id": membership.campaign_id, "has_characters": bool(characters), **extra}
