"""The narrator's Sequence console: who takes part (adding a PC or an NPC, taking one out), the one tap that
draws for every NPC, and ending the sequence. The page itself is ``views.sequence``; these act on it and come back to it."""

from __future__ import annotations

from django.contrib import messages
from django.http import HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.http import require_http_methods, require_POST

from campaigns.access import MemberRequest, campaign_narrator
from conflicts import selectors
from conflicts.forms import ParticipantAddForm, bulk_splits_from_post
from conflicts.services import sequences as sequences_services
from conflicts.services.leaving import participant_take_out, sequence_end
from conflicts.services.npc_draws import sequence_draw_npcs
from conflicts.views import _board, _expected, _membership, _sequence_page
from core.errors import ServiceError


@campaign_narrator
@require_http_methods(["GET", "POST"])
def participant_add(request: MemberRequest, campaign_id: int, sequence_id: int) -> HttpResponse:
    """Add a PC or an NPC; GET is its form, fetched when the narrator opens its fold (htmx), or without
    JavaScript the sequence page with that fold open."""
    membership = _membership(request)
    sequence = selectors.sequence_for(membership, sequence_id)
    if request.method == "GET":
        if not request.htmx or request.htmx.boosted:
            return _sequence_page(request, membership, _board(membership, sequence_id), adding=True)
        context = {
            "campaign": membership.campaign,
            "sequence": sequence,
            "add_form": ParticipantAddForm(sequence=sequence),
        }
        return render(request, "conflicts/partials/add_participant.html", context)
    form = ParticipantAddForm(request.POST, sequence=sequence)
    if form.is_valid():
        data = form.cleaned_data
        try:
            sequences_services.participant_add(
                sequence=sequence, actor=request.user, character=data["character"], side=data["side"], goal=data["goal"],
                trait_code=data["trait_code"], trait_value=data["trait_value"], out_after=data["out_after"],
            )  # fmt: skip
        except ServiceError as exc:
            messages.error(request, exc.message)
    else:
        messages.error(request, _("Check the participant: %(errors)s") % {"errors": form.errors.as_text()})
    return redirect(sequence.get_absolute_url())


@campaign_narrator
@require_POST
def draw_npcs(request: MemberRequest, campaign_id: int, sequence_id: int) -> HttpResponse:
    """The console's one tap: every NPC still to draw draws, with the splits the rows set (services.npc_draws)."""
    membership = _membership(request)
    sequence = selectors.sequence_for(membership, sequence_id)
    try:
        splits = bulk_splits_from_post(request.POST, selectors.participants_of(sequence))
        drawn = sequence_draw_npcs(sequence=sequence, actor=request.user, expected_version=_expected(request),
                                   splits=splits)  # fmt: skip
    except ServiceError as exc:
        messages.error(request, exc.message)
    else:
        count = len(drawn)
        messages.success(request, ngettext("%(n)d NPC drew.", "%(n)d NPCs drew.", count) % {"n": count})
    return redirect(sequence.get_absolute_url())


@campaign_narrator
@require_POST
def take_out(request: MemberRequest, campaign_id: int, sequence_id: int) -> HttpResponse:
    """Take a participant out of the sequence, at any moment, with the reason for the log."""
    membership = _membership(request)
    sequence = selectors.sequence_for(membership, sequence_id)
    chosen = _int(request.POST.get("participant"))
    participant = sequence.participants.filter(pk=chosen).first() if chosen is not None else None
    if participant is None:
        messages.error(request, _("Choose a participant of this sequence."))
        return redirect(sequence.get_absolute_url())
    try:
        participant_take_out(participant=participant, actor=request.user, reason=request.POST.get("reason", ""),
                             expected_version=_expected(request))  # fmt: skip
    except ServiceError as exc:
        messages.error(request, exc.message)
    else:
        messages.success(request, _("%(name)s is out of the sequence.") % {"name": participant.character.name})
    return redirect(sequence.get_absolute_url())


@campaign_narrator
@require_POST
def end(request: MemberRequest, campaign_id: int, sequence_id: int) -> HttpResponse:
    """End the sequence at any moment, with the reason for the log."""
    membership = _membership(request)
    sequence = selectors.sequence_for(membership, sequence_id)
    try:
        sequence_end(sequence=sequence, actor=request.user, reason=request.POST.get("reason", ""),
                     expected_version=_expected(request))  # fmt: skip
    except ServiceError as exc:
        messages.error(request, exc.message)
    else:
        messages.success(request, _("The sequence is over."))
    return redirect(sequence.get_absolute_url())


def _int(value: str | None) -> int | None:
    try:
        return int(value or "")
    except ValueError:
        return None
