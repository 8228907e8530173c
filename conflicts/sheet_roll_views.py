"""Rolling from the sheet: a trait row's one-tap Test or its dialog, and the result card's Atout follow-ups.

The Test itself is ``conflicts.services.fudge_tests``; the dialog's form and its remembered choices are
``conflicts.sheet_roll``. These views only parse, check who may roll, and render the result card.
"""

from __future__ import annotations

from typing import Any

from django.core.exceptions import PermissionDenied
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from campaigns.access import MemberRequest, campaign_member
from campaigns.models import Membership
from characters.models import Character
from conflicts import selectors, sheets
from conflicts import sheet_roll as sheet_roll_rules
from conflicts.services.fudge_tests import fudge_test_roll
from conflicts.services.roll_follow_ups import (
    fudge_test_bonus_again,
    fudge_test_change_die,
    fudge_test_counter,
    fudge_test_help,
    fudge_test_reroll,
    fudge_test_state,
)
from core.errors import ServiceError, StaleState


def _own_character(request: MemberRequest, campaign_id: int, character_id: int) -> Character:
    """The character rolled for: the narrator may roll for anyone of the campaign, a player for their own."""
    membership: Membership = request.membership
    character = get_object_or_404(
        Character.objects.select_related("campaign"), pk=character_id, campaign_id=campaign_id
    )
    if not (membership.is_narrator or character.owner_id == request.user.pk):
        raise PermissionDenied(_("You can only roll for your own characters."))
    return character


def _sheet_roll_context(character: Character, result: dict[str, Any], memory: Any) -> dict[str, Any]:
    return {"character": character, "result": result, "memory": memory, "faces": (-1, 0, 1)}


@campaign_member
@require_POST
def sheet_roll(request: MemberRequest, campaign_id: int, character_id: int) -> HttpResponse:
    """A Test from a trait row of the sheet: one tap at the remembered difficulty, or the dialog's choices."""
    character = _own_character(request, campaign_id, character_id)
    codes = {code for code, _name, _value in sheets.trait_choices(character)}
    form = sheet_roll_rules.SheetRollForm(request.POST, character=character, codes=codes)
    if not form.is_valid():
        return HttpResponse(" ".join(str(e) for errors in form.errors.values() for e in errors), status=400)
    before = sheet_roll_rules.remembered(request.session, character.pk)
    data = form.cleaned_data
    memory = sheet_roll_rules.RollMemory(
        difficulty=data["difficulty"] if data["difficulty"] is not None else before.difficulty,
        other=data["other"] if data["other"] is not None else before.other,
    )
    try:
        result = fudge_test_roll(character=character, actor=request.user, data={
            "trait_code": data["trait_code"], "difficulty": memory.difficulty, "other": memory.other,
            "revers_domain": data["revers_domain"], "atout": data["atout"], "relatedness": "close",
        })  # fmt: skip
    except ServiceError as exc:
        return HttpResponse(exc.message, status=exc.status)
    sheet_roll_rules.remember(request.session, character.pk, memory)
    result = {**result, "step": 0}
    return render(request, "conflicts/partials/roll_card.html", _sheet_roll_context(character, result, memory))


def _step(request: HttpRequest) -> int | None:
    """The follow-up count the card was showing: a double tap, or someone acting first, is then refused."""
    raw = request.POST.get("step", "")
    return int(raw) if raw.isdigit() else None


@campaign_member
@require_POST
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
    tests = selectors.tests_open_to_others(membership, spender)
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
