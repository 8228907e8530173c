"""Pages of the Fudge Tests: a Test rolled, a simple conflict, the chance of a Test before it is rolled."""

from __future__ import annotations

from typing import Any

from django.http import HttpResponse
from django.shortcuts import render
from django.views.decorators.http import require_POST

from campaigns.access import MemberRequest, campaign_member, campaign_narrator
from campaigns.models import Membership
from characters.models import Character
from conflicts.forms import FudgeTestForm, SimpleConflictForm
from conflicts.rules.fudge import success_chance
from conflicts.services.fudge_tests import fudge_test_roll, fudge_test_setup, simple_conflict_roll
from core.errors import ServiceError


def _membership(request: MemberRequest) -> Membership:
    return request.membership


def _characters_for_tests(membership: Membership) -> Any:
    characters = Character.objects.filter(campaign_id=membership.campaign_id)
    return characters if membership.is_narrator else characters.filter(owner=membership.user)


def test_form(data: Any, membership: Membership) -> FudgeTestForm:
    """The Test form; narrators may also take the difficulty from an opponent's trait."""
    opponents = Character.objects.filter(campaign_id=membership.campaign_id) if membership.is_narrator else None
    return FudgeTestForm(
        data, campaign=membership.campaign, characters=_characters_for_tests(membership), opponents=opponents
    )


@campaign_member
@require_POST
def fudge_test(request: MemberRequest, campaign_id: int) -> HttpResponse:
    membership = _membership(request)
    form = test_form(request.POST, membership)
    result = None
    if form.is_valid():
        data = dict(form.cleaned_data)
        character = data.pop("character")
        try:
            result = fudge_test_roll(character=character, actor=request.user, data=data)
        except ServiceError as exc:
            form.add_error(None, exc.message)
    return render(request, "conflicts/test_result.html", {"campaign": membership.campaign, "membership": membership,
                  "form": form, "result": result}, status=200 if result else 400)  # fmt: skip


@campaign_narrator
@require_POST
def simple_conflict(request: MemberRequest, campaign_id: int) -> HttpResponse:
    membership = _membership(request)
    form = SimpleConflictForm(request.POST, campaign=membership.campaign)
    result = None
    if form.is_valid():
        d = form.cleaned_data
        try:
            result = simple_conflict_roll(first=d["first"], second=d["second"], actor=request.user,
                                                   first_data={"trait_code": d["first_trait"]},
                                                   second_data={"trait_code": d["second_trait"]})  # fmt: skip
        except ServiceError as exc:
            form.add_error(None, exc.message)
    return render(request, "conflicts/test_result.html", {"campaign": membership.campaign, "membership": membership,
                  "simple_form": form, "simple": result}, status=200 if result else 400)  # fmt: skip


@campaign_member
@require_POST
def test_chance(request: MemberRequest, campaign_id: int) -> HttpResponse:
    """htmx: the exact chance of the Test being set up, before anyone rolls."""
    membership = _membership(request)
    form = test_form(request.POST, membership)
    context: dict[str, Any] = {"preview": None}
    if form.is_valid():
        data = dict(form.cleaned_data)
        setup, _code = fudge_test_setup(data.pop("character"), data)
        context["preview"] = {
            "setup": setup,
            "modifiers": [(m.code, m.amount) for m in setup.modifiers],
            "percent": f"{100 * float(success_chance(setup)):.1f}",
        }
    return render(request, "conflicts/partials/test_chance.html", context)
