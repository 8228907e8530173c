"""The character sheet page and its print view; ``sheet_context`` is what the page and the live layer render."""

from __future__ import annotations

from typing import Any

from django.contrib.auth.decorators import login_required
from django.db.models import prefetch_related_objects
from django.http import HttpResponse
from django.shortcuts import render
from django.utils.translation import get_language, ngettext
from django.utils.translation import gettext as _

from campaigns.models import Membership, Role
from characters import selectors
from characters.access import can_edit, can_view, character_for_viewer, reach_character
from characters.forms import (
    AtoutGainForm,
    AtoutSpendForm,
    CharacterWordsForm,
    EquipmentForm,
    FeedForm,
    FirstAidForm,
    HandAllyForm,
    NarratorFieldsForm,
    PowerUseForm,
    ReversForm,
    TraitRaiseForm,
    TraitSetForm,
)
from characters.fragments import sheet_depends
from characters.models import Character, CharacterKind
from characters.rules import psychic
from characters.rules.atouts import progression_cost
from characters.rules.equipment import vehicles
from characters.rules.ladder import Rank
from characters.rules.scales import scales_to_text
from characters.rules.traits import TraitKind
from characters.services.creation import progression_scheme
from characters.sheet_atouts import parts_context, sheet_frame_depends
from characters.subjects import sheet_subject
from characters.trait_rows import trait_rows_of
from core.fragment_cache import page_token
from core.http import AuthenticatedRequest, allow_methods
from core.kept_regions import region_html
from core.regions import Frame, Region, register


def _language() -> str:
    return (get_language() or "fr")[:2]


def sheet_context(
    character: Character, membership: Membership, forms: dict[str, Any] | None = None, *, parts: bool = True
) -> dict[str, Any]:
    """What ``detail.html#sheet`` needs for this member: the page, its htmx answers and its live pushes
    (characters.live) all render from here, so each viewer gets only what their role may see. ``parts=False``
    leaves out the values of the parts an Atout changes (``characters.sheet_atouts``), which the sheet's kept frame
    does not print."""
    # The traits, and the state row with its fatigue tracks, read once: the sheet, the badges, the roll dialog's
    # state lines (states.bridge.cecj_effect) and the Savage attributes' dice take them from the character.
    prefetch_related_objects([character], "traits", "savage_state__fatigue_tracks")
    sheet = selectors.sheet(character, ledger=False)
    editable = can_edit(membership, character)
    trait_choices = [(line.code, line.name) for line in sheet.all_lines]
    in_session = selectors.session_open(character.campaign)
    scheme = progression_scheme(sheet.rules, character.campaign, character)
    raise_choices = [
        (line.code, ngettext("%(name)s (%(rank)s) — %(cost)s Atout a rank", "%(name)s (%(rank)s) — %(cost)s Atouts a rank", cost)
         % {"name": line.name, "rank": line.label, "cost": cost})
        for line in sheet.all_lines
        for cost in [1 if in_session else progression_cost(TraitKind(line.kind), line.rank, scheme=scheme)]
    ]  # fmt: skip
    domains = [(line.code, line.name) for line in sheet.power_domains if line.rank >= Rank.FAIBLE]
    players = [
        (m.user_id, m.user.username)
        for m in character.campaign.memberships.filter(role=Role.PLAYER).select_related("user")
    ] if membership.is_narrator and character.kind == CharacterKind.NPC else []  # fmt: skip
    context: dict[str, Any] = {
        "character": character,
        "campaign": character.campaign,
        "membership": membership,
        "sheet": sheet,
        "can_edit": editable,
        # Its owner and the narrators roll Tests from the trait rows (conflicts' sheet roll).
        "can_roll": membership.is_narrator or character.owner_id == membership.user_id,
        "is_narrator": membership.is_narrator,
        "in_session": in_session,
        # Its version is printed by the sheet's version part (characters/partials/action_form.html).
        "words_form": CharacterWordsForm(initial={"version": character.version, "name": character.name,
                                                   "concept": character.concept, "goal": character.goal}),
        "spend_form": AtoutSpendForm(),
        "raise_form": TraitRaiseForm(traits=raise_choices),
        "equipment_form": EquipmentForm(language=_language()),
        "power_form": PowerUseForm(domains=domains, feeds=_feed_choices(sheet)) if domains else None,
        "healing_choices": _healing_choices(character, sheet),
        "powers": [p for p in psychic.powers() if any(code == p.domain for code, _n in domains)],
        "vehicles": {v.code: v for v in vehicles()},
        "scales": selectors.scales_of(character),
        "live_watch": sheet_subject(character.pk),
        # The trait lists, nested regions kept by their own declaration (characters.trait_rows).
        "trait_rows": trait_rows_of(character, sheet),
    }  # fmt: skip
    if membership.is_narrator:
        context.update(
            {
                "narrator_form": NarratorFieldsForm(npc=character.kind == CharacterKind.NPC, initial={"version": character.version,
                                                             "narrator_notes": character.narrator_notes,
                                                             "award_adjustment": character.award_adjustment,
                                                             "out_after_revers": character.out_after_revers,
                                                             "scales": scales_to_text(selectors.scales_of(character))}),
                "gain_form": AtoutGainForm(),
                "trait_set_form": TraitSetForm(traits=trait_choices),
                "revers_form": ReversForm(),
                "first_aid_form": FirstAidForm(character=character, revers=sheet.revers),
                "feed_form": _feed_form(sheet) if any(line.on_sheet for line in sheet.power_domains) else None,
                "hand_form": HandAllyForm(players=players) if character.kind == CharacterKind.NPC else None,
            }
        )  # fmt: skip
    if parts:
        context.update(parts_context(character, membership))
    context.update(forms or {})
    return context


def _sheet_of(character_id: int, membership: Membership) -> Character | None:
    # This member's campaign only: a socket may name any id (a catch-up renders what it names, campaigns.live_catch_up).
    found = Character.objects.select_related("campaign", "owner").filter(
        pk=character_id, campaign_id=membership.campaign_id
    )
    character = found.first()
    return character if character is not None and can_view(membership, character) else None


SHEET = register(
    Region(
        name="sheet",
        template="characters/detail.html#sheet",
        load=_sheet_of,
        context=lambda character, membership, _request: sheet_context(character, membership),
        depends=sheet_depends,
        watch="character",  # a sheet page watches character:<pk> (characters.subjects.sheet_subject)
        element_id=lambda _character: "sheet",
        # Kept also as a frame around the parts an Atout changes (characters.sheet_atouts): after an Atout, only
        # those are rendered into it.
        frame=Frame(
            depends=sheet_frame_depends,
            context=lambda character, membership, _request: sheet_context(character, membership, parts=False),
        ),
    )
)
"""The whole sheet (``detail.html#sheet``): the page, its htmx answers and the live pushes all render it."""


def _healing_choices(character: Character, sheet: selectors.Sheet) -> list[dict[str, Any]]:
    """The healing power running, or those of Conscience the sheet offers to start, with what each does."""
    running = [psychic.healing_power(character.healing_power)] if character.healing_power else []
    line = next((line for line in sheet.power_domains if line.code == psychic.HEALING_DOMAIN), None)
    available = psychic.healing_powers_at(line.rank - line.lowered) if line is not None else []
    choices = []
    for power in running or available:
        if power.max_cycles == "domain":
            hours = power.ordinary_cycle // 3600
            helptext = ngettext(
                "One Potential point per %(hours)s-hour day of near-complete rest and meditation, kept spent while it "
                "runs; each day takes a step off every physical Revers that heals by the week; at most as many days "
                "as the domain's value.",
                "One Potential point per %(hours)s-hour day of near-complete rest and meditation, kept spent while it "
                "runs; each day takes a step off every physical Revers that heals by the week; at most as many days "
                "as the domain's value.",
                hours,
            ) % {"hours": hours}
        else:
            helptext = _(
                "One point per cycle (an hour, a day for month-long wounds), kept spent while it runs; it stops once "
                "the physical Revers are healed."
            )
        choices.append({"code": power.code, "helptext": helptext})
    return choices


def _feed_form(sheet: selectors.Sheet, *args: Any) -> FeedForm:
    """The narrator's « Let a trait feed a domain » form, as offered on the sheet and as checked on post:
    a power domain of the sheet, fed by any other trait."""
    domains = [(line.code, line.name) for line in sheet.power_domains if line.on_sheet]
    return FeedForm(*args, domains=domains, traits=[(line.code, line.name) for line in sheet.all_lines])


def _feed_choices(sheet: selectors.Sheet) -> list[tuple[str, str]]:
    """The traits the narrator lets feed a domain, as the power form's « Paid with » choices."""
    return [
        (feed.trait, _("%(trait)s → %(domain)s (−1 rank until rest)") % {"trait": feed.trait_name, "domain": feed.domain_name})
        for feed in sheet.feeds if feed.allowed
    ]  # fmt: skip


def _render_sheet(request: AuthenticatedRequest, character: Character, membership: Membership, status: int = 200,
                  forms: dict[str, Any] | None = None) -> HttpResponse:  # fmt: skip
    template = "characters/detail.html#sheet" if request.htmx else "characters/detail.html"
    if forms:
        context = sheet_context(character, membership, forms)
    else:
        # A plain sheet (no error, no notice, unbound forms) is the region, kept by its declaration
        # (characters.fragments.sheet_depends): the sheet's own reads run only when it is not kept yet.
        token = page_token(request)  # one token for the whole page, as {% csrf_token %} prints it
        html = region_html(SHEET, character, membership, request=request, token=token)
        context = {"character": character, "campaign": character.campaign, "membership": membership,
                   "live_watch": sheet_subject(character.pk), "sheet_html": html, "csrf_token": token}  # fmt: skip
    response = render(request, template, context, status=status)
    response["Vary"] = "HX-Request"
    return response


@login_required
@allow_methods("GET", reach=reach_character)
def character_detail(request: AuthenticatedRequest, character_id: int) -> HttpResponse:
    character, membership = character_for_viewer(request.user, character_id)
    return _render_sheet(request, character, membership)


@login_required
@allow_methods("GET", reach=reach_character)
def character_print(request: AuthenticatedRequest, character_id: int) -> HttpResponse:
    character, membership = character_for_viewer(request.user, character_id)
    return render(
        request,
        "characters/print.html",
        {
            "character": character,
            "sheet": selectors.sheet(character, ledger=False, feeds=False),
            "is_narrator": membership.is_narrator,
            "ladder": [rank.value for rank in Rank],
        },
    )
