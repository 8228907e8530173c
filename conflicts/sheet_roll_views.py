"""Rolling from the sheet: a trait row's one-tap Test or its dialog, and the result card's Atout follow-ups.

The Test itself is ``conflicts.services.fudge_tests``; the dialog's form and its remembered choices are
``conflicts.sheet_roll``. These views only parse, check who may roll, and render the result card.
"""

from __future__ import annotations

from typing import Any

from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _

from campaigns.access import MemberRequest, campaign_member
from campaigns.models import Membership
from characters.access import can_view
from characters.models import Character
from conflicts import open_tests, sheets
from conflicts import sheet_roll as sheet_roll_rules
from conflicts import sheet_roll_dialog as dialog
from conflicts.services.fudge_tests import fudge_test_roll, simple_conflict_roll
from conflicts.services.power_tests import power_test_roll
from conflicts.services.roll_follow_ups import (
    fudge_test_bonus_again,
    fudge_test_change_die,
    fudge_test_counter,
    fudge_test_help,
    fudge_test_reroll,
    fudge_test_state,
)
from core.errors import ServiceError, StaleState
from core.http import allow_methods


def _own_character(request: MemberRequest, campaign_id: int, character_id: int) -> Character:
    """The character rolled for: the narrator may roll for anyone of the campaign, a player for their own."""
    membership: Membership = request.membership
    character = get_object_or_404(
        Character.objects.select_related("campaign"), pk=character_id, campaign_id=campaign_id
    )
    if not can_view(membership, character):
        raise Http404  # an NPC the player may not see answers as a missing character (the sheet does too)
    if not (membership.is_narrator or character.owner_id == request.user.pk):
        raise PermissionDenied(_("You can only roll for your own characters."))
    return character


def _reach(request: MemberRequest, campaign_id: int, character_id: int, **_: Any) -> None:
    """The character's checks before the method's (core.http.allow_methods): one answer for "not yours"."""
    _own_character(request, campaign_id, character_id)


def _sheet_roll_context(character: Character, result: dict[str, Any], memory: Any) -> dict[str, Any]:
    return {"character": character, "result": result, "memory": memory, "faces": (-1, 0, 1)}


def _roll_form(request: MemberRequest, character: Character, data: Any) -> tuple[Any, Any]:
    # A roll reads what its choices name; the dialog (a GET) everything it offers.
    facts = dialog.dialog_facts(character, request.membership, choices=data if request.method == "POST" else None)
    form = sheet_roll_rules.SheetRollForm(data, character=character, codes=set(facts.lines), facts=facts)
    return form, facts


def _memory(request: MemberRequest, character: Character, data: dict[str, Any]) -> sheet_roll_rules.RollMemory:
    before = sheet_roll_rules.remembered(request.session, character.pk)
    return sheet_roll_rules.RollMemory(
        difficulty=data["difficulty"] if data["difficulty"] is not None else before.difficulty,
        other=data["other"] if data["other"] is not None else before.other,
    )


@campaign_member
@allow_methods("POST", reach=_reach)
def sheet_roll(request: MemberRequest, campaign_id: int, character_id: int) -> HttpResponse:
    """A roll from a row of the sheet: a Test in one tap at the remembered difficulty, or the dialog's choices —
    a power use on a power domain, a simple conflict or an opponent's trait as the Difficulty (the narrator's),
    a Savage attribute when states are on."""
    character = _own_character(request, campaign_id, character_id)
    form, facts = _roll_form(request, character, request.POST)
    if not form.is_valid():
        return HttpResponse(" ".join(str(e) for errors in form.errors.values() for e in errors), status=400)
    data = form.cleaned_data
    if data["attribute"]:
        return _attribute_roll(request, character, data)
    memory = _memory(request, character, data)
    roll_data = dialog.request_data(data, memory, facts)
    opponent = next((o for o in facts.opponents if o.pk == data["opponent"]), None)
    resisted_by = next((o for o in facts.opponents if o.pk == data["resisted_by"]), None)
    their = {"trait_code": data["opponent_trait"] or data["trait_code"]}
    try:
        if data["power_rank"] is not None:
            result = power_test_roll(character=character, actor=request.user, data=roll_data,
                                     power=dialog.power_choices(data), opponent=resisted_by, opponent_data=their)  # fmt: skip
        elif opponent is not None and data["against"] == "difficulty":
            # « la Difficulté peut provenir d'une Caractéristique du ou des adversaires » (V).
            result = fudge_test_roll(character=character, actor=request.user,
                                     data={**roll_data, "opponent": opponent, "opponent_trait": their["trait_code"]})  # fmt: skip
        elif opponent is not None:
            result = simple_conflict_roll(first=character, second=opponent, actor=request.user,
                                          first_data=dialog.data_without_difficulty(roll_data), second_data=their)  # fmt: skip
        else:
            result = fudge_test_roll(character=character, actor=request.user, data=roll_data)
    except ServiceError as exc:
        if shaken_refusal(character, exc):
            return render(
                request, "conflicts/partials/shaken_card.html", {"character": character, "error": exc.message}
            )
        return HttpResponse(exc.message, status=exc.status)
    sheet_roll_rules.remember(request.session, character.pk, memory)
    if "winner" in result:
        return render(request, "conflicts/partials/conflict_card.html", {"character": character, "result": result})
    result = {**result, "step": 0}
    return render(request, "conflicts/partials/roll_card.html", _sheet_roll_context(character, result, memory))


def shaken_refusal(character: Character, exc: ServiceError) -> bool:
    """Whether ``exc`` is Secoué's refusal (« ne peut faire que des actions gratuites »): the sheet then answers
    with a card that says so and offers the Jeton that ends it, never a bare 400."""
    effect = sheets.states_effect(character, domain="")
    return bool(effect.shaken) and not effect.out and exc.message == sheets.states_refusal(effect, test=True)


@campaign_member
@allow_methods("POST", reach=_reach)
def sheet_unshake(request: MemberRequest, campaign_id: int, character_id: int) -> HttpResponse:
    """« il est possible d'utiliser un jeton à tout moment pour éliminer un état Secoué … Dans ce cas, le personnage
    peut agir normalement » (state cards): one Jeton from the sheet; the card says what it did, or why not."""
    from states.services.shaken import savage_token_unshake

    character = _own_character(request, campaign_id, character_id)
    try:
        savage_token_unshake(character=character, actor=request.user, expected_version=None)
    except ServiceError as exc:
        context = {"character": character, "error": exc.message}
        return render(
            request, "conflicts/partials/shaken_card.html", context, status=200 if request.htmx else exc.status
        )
    if not request.htmx:
        return redirect(character.get_absolute_url())
    return render(request, "conflicts/partials/shaken_card.html", {"character": character, "unshaken": True})


def _attribute_roll(request: MemberRequest, character: Character, data: dict[str, Any]) -> HttpResponse:
    """A Savage attribute (states on): the state cards' penalties are applied by the roll itself."""
    from states.chronicle import roll_text
    from states.services.rolls import savage_trait_roll

    if not character.campaign.savage_states:
        return HttpResponse(_("The states are off in this campaign."), status=400)
    try:
        roll = savage_trait_roll(character=character, actor=request.user, trait=data["attribute"],
                                 expected_version=None, modifier=data["other"] or 0)  # fmt: skip
    except ServiceError as exc:
        return HttpResponse(exc.message, status=exc.status)
    context = {"character": character, "roll": roll.to_json(), "text": roll_text(roll.to_json()),
               "trait": data["attribute"]}  # fmt: skip
    return render(request, "conflicts/partials/attribute_card.html", context)


@campaign_member
@allow_methods("GET", reach=_reach)
def sheet_roll_dialog(request: MemberRequest, campaign_id: int, character_id: int) -> HttpResponse:
    """The dialog's body for a row and the choices made so far: the trait it rolls, every modifier with its reason
    and the exact chance of each way to roll. Loaded by the row's "…" that opens the sheet's one dialog, and again
    on each change."""
    character = _own_character(request, campaign_id, character_id)
    form, facts = _roll_form(request, character, request.GET)
    if not form.is_valid():
        return HttpResponse(" ".join(str(e) for errors in form.errors.values() for e in errors), status=400)
    data = form.cleaned_data
    memory = _memory(request, character, data)
    context: dict[str, Any] = {"character": character, "memory": memory, "choices": data, "facts": facts}
    if data["attribute"]:
        from states.bridge import attribute_rolls

        attribute = next((a for a in attribute_rolls(character) if a.trait == data["attribute"]), None)
        if attribute is None:
            return HttpResponse(_("The states are off in this campaign."), status=400)
        context["attribute"] = attribute
        context["situations"] = sheet_roll_rules.SITUATIONAL
        return render(request, "conflicts/partials/attribute_dialog.html", context)
    context["line"] = facts.lines[data["trait_code"]]  # its heading: the dialog's shell is one for every row
    context["dialog"] = dialog.dialog(character, facts, data, memory)
    context["situations"] = sheet_roll_rules.SITUATIONAL
    context["relatedness"] = sheet_roll_rules.RELATEDNESS
    return render(request, "conflicts/partials/roll_dialog.html", context)


def _step(request: HttpRequest) -> int | None:
    """The follow-up count the card was showing: a double tap, or someone acting first, is then refused."""
    raw = request.POST.get("step", "")
    return int(raw) if raw.isdigit() else None


@campaign_member
@allow_methods("POST", reach=_reach)
def sheet_roll_atout(request: MemberRequest, campaign_id: int, character_id: int) -> HttpResponse:
    """The result card's follow-ups (appendix 4): spend an Atout to re-roll the dice, to change one die, or to
    buy the +1 rank again after a counter."""
    character = _own_character(request, campaign_id, character_id)
    roll, use, step = request.POST.get("roll", ""), request.POST.get("use"), _step(request)
    try:
        if use == "change":
            index, face = int(request.POST.get("index", "")), int(request.POST.get("face", ""))
            fudge_test_change_die(character=character, actor=request.user, roll=roll, index=index, face=face,
                                  expected_step=step)  # fmt: skip
        elif use == "bonus":
            fudge_test_bonus_again(character=character, actor=request.user, roll=roll, expected_step=step)
        else:
            fudge_test_reroll(character=character, actor=request.user, roll=roll, expected_step=step)
    except ValueError:
        return HttpResponse(_("Choose a die and the face it shows."), status=400)
    except StaleState as exc:
        # The card as it now stands, with the reason: the player sees what the first tap did.
        return _card(request, character, roll, error=exc.message, status=exc.status)
    except ServiceError as exc:
        return HttpResponse(exc.message, status=exc.status)
    return _card(request, character, roll)


def _card(
    request: MemberRequest, character: Character, roll: str, *, error: str = "", status: int = 200
) -> HttpResponse:
    # The service has checked that this Test is this character's; the card reads it the same way.
    result = fudge_test_state(character, roll).card()
    memory = sheet_roll_rules.remembered(request.session, character.pk)
    context = {**_sheet_roll_context(character, result, memory), "error": error}
    return render(request, "conflicts/partials/roll_card.html", context, status=status)


@campaign_member
def other_tests(request: MemberRequest, campaign_id: int, character_id: int) -> HttpResponse:
    """The sheet's « Atouts on another's Test » form: help a teammate's last Test (+1 rank) or counter its Atout.
    Loaded when opened, so that it lists the Tests rolled since the sheet was; the Test is picked, never typed."""
    spender = _own_character(request, campaign_id, character_id)
    membership: Membership = request.membership
    tests = open_tests.tests_open_to_others(membership, spender)
    form = sheet_roll_rules.OtherTestAtoutForm(request.POST or None, tests=tests)
    notice, error, status = "", "", 200
    if request.method == "POST":
        if not request.htmx:
            # Only the sheet's htmx form posts here; a plain POST goes back to the sheet (no resubmission).
            return redirect(spender.get_absolute_url())
        if form.is_valid():
            data = form.cleaned_data
            test = form.tests[data["roll"]]
            helped = get_object_or_404(Character, pk=test.character_id, campaign_id=campaign_id)
            try:
                if data["use"] == form.HELP:
                    fudge_test_help(character=helped, helper=spender, actor=request.user, roll=test.roll,
                                    justification=data["justification"])  # fmt: skip
                    notice = _("%(helper)s helps %(name)s: +1 rank.") % {"helper": spender.name, "name": helped.name}
                else:
                    fudge_test_counter(character=helped, counterer=spender, actor=request.user, roll=test.roll)
                    notice = _("%(name)s's Atout is countered.") % {"name": helped.name}
                form = sheet_roll_rules.OtherTestAtoutForm(tests=tests)
            except ServiceError as exc:
                error, status = exc.message, exc.status
        else:
            status = 400
    context = {"character": spender, "form": form, "tests": tests, "notice": notice, "error": error}
    return render(request, "conflicts/partials/other_tests.html", context, status=status)
