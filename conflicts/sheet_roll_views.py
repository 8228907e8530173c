"""Rolling from the sheet: a trait row's one-tap Test or its dialog, and the result card's Atout follow-ups.

The Test itself is ``conflicts.services.fudge_tests``; the dialog's form and its remembered choices are
``conflicts.sheet_roll``. These views only parse, check who may roll, and render the result card.
"""

from __future__ import annotations

from typing import Any

from django.core.exceptions import PermissionDenied
from django.http import HttpResponse
from django.shortcuts import get_object_or_404, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from campaigns.access import MemberRequest, campaign_member
from campaigns.models import Event, Membership
from characters.models import Character
from conflicts import sheet_roll as sheet_roll_rules
from conflicts import sheets
from conflicts.services.fudge_tests import fudge_test_roll
from conflicts.services.roll_follow_ups import fudge_test_change_die, fudge_test_reroll
from core.errors import ServiceError


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
    return render(request, "conflicts/partials/roll_card.html", _sheet_roll_context(character, result, memory))


@campaign_member
@require_POST
def sheet_roll_atout(request: MemberRequest, campaign_id: int, character_id: int) -> HttpResponse:
    """The result card's follow-ups (appendix 4): spend an Atout to re-roll the dice or to change one die."""
    character = _own_character(request, campaign_id, character_id)
    roll = request.POST.get("roll", "")
    try:
        if request.POST.get("use") == "change":
            index, face = int(request.POST.get("index", "")), int(request.POST.get("face", ""))
            after = fudge_test_change_die(character=character, actor=request.user, roll=roll,
                                                      index=index, face=face)  # fmt: skip
        else:
            after = fudge_test_reroll(character=character, actor=request.user, roll=roll)
    except ValueError:
        return HttpResponse(_("Choose a die and the face it shows."), status=400)
    except ServiceError as exc:
        return HttpResponse(exc.message, status=exc.status)
    # The service has checked that this Test is this character's; the card reads it the same way.
    rolled = Event.objects.filter(
        campaign_id=campaign_id, kind="test.rolled", payload__roll=roll, characters=character
    ).first()
    result = {**(rolled.payload if rolled else {}), **after, "atout_use": after.get("use")}
    memory = sheet_roll_rules.remembered(request.session, character.pk)
    return render(request, "conflicts/partials/roll_card.html", _sheet_roll_context(character, result, memory))
