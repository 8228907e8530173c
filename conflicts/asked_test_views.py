"""The Tests the narrator asks for: ask, withdraw (the narrator's), roll one in a tap (its player's).

Thin: parse, call the use case (``conflicts.services.asked_tests``), answer with a feedback line where the tap was
(``#roll-result``, or the ask form itself) and the "now" region as it stands (``conflicts.asked_tests.ASKED``), the
same bytes a live push carries. A refusal is answered with its reason and changes nothing.
"""

from __future__ import annotations

import contextlib

from django.contrib import messages
from django.http import Http404, HttpResponse
from django.shortcuts import redirect, render
from django.utils.html import format_html
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.http import require_http_methods, require_POST

from campaigns.access import MemberRequest, campaign_member, campaign_narrator
from campaigns.models import CampaignStream
from conflicts.asked_tests import ASKED, BODY_TEMPLATE, FORM_TEMPLATE, AskTestForm, ask_form_context, ask_form_traits
from conflicts.models import AskedTest
from conflicts.services.asked_tests import (
    askable_characters,
    asked_test_create,
    asked_test_roll,
    asked_test_withdraw,
)
from conflicts.sheet_roll_views import shaken_refusal
from core.errors import ServiceError
from core.fragment_cache import page_token
from core.kept_regions import region_html


def _region(request: MemberRequest) -> str:
    membership = request.membership
    # The membership was read before this request's write, with the stream head of then: the region is kept under
    # the head after the write (core.kept_regions), or the answer would serve what a push kept before it.
    with contextlib.suppress(CampaignStream.DoesNotExist):
        membership.campaign.stream.refresh_from_db(fields=["position"])
    asks = ASKED.load(membership.campaign_id, membership)
    return str(region_html(ASKED, asks, membership, token=page_token(request), oob=True))


def _answer(request: MemberRequest, html: str, status: int = 200) -> HttpResponse:
    """The answer's own part and the region, out of band: what a live push would bring this page."""
    return HttpResponse(html + _region(request), status=status)


def _back(request: MemberRequest, text: str, *, error: bool = False) -> HttpResponse:
    # Without htmx (no script): the message on the campaign's page, which opens on the "now" block.
    (messages.error if error else messages.success)(request, text)
    return redirect("campaigns:home", request.membership.campaign_id)


def _line(text: str, *, error: bool = False) -> str:
    kind, role = ("error", "alert") if error else ("success", "status")
    return format_html('<p class="message {}" role="{}">{}</p>', kind, role, text)


@campaign_narrator
@require_http_methods(["GET", "POST"])
def ask(request: MemberRequest, campaign_id: int) -> HttpResponse:
    """« Ask for a Test »: GET is its form, fetched when the narrator opens the dashboard's fold (htmx), or without
    JavaScript a page of its own; POST checks the form's choices (a character of this table, a trait the form
    offers), and the use case each sheet."""
    membership = request.membership
    if request.method == "GET":
        if request.htmx and not request.htmx.boosted:
            return render(request, BODY_TEMPLATE, ask_form_context(membership))
        context = {**ask_form_context(membership), "campaign": membership.campaign}
        return render(request, "conflicts/ask_page.html", context)
    characters = list(askable_characters(campaign_id))
    form = AskTestForm(request.POST, characters=characters, traits=ask_form_traits(membership.campaign))
    status, error = 200, ""
    if not form.is_valid():
        status = 400
        error = " ".join(str(e) for errors in form.errors.values() for e in errors)
    else:
        data = form.cleaned_data
        try:
            rows = asked_test_create(campaign=membership.campaign, actor=request.user, character_ids=data["characters"],
                                     trait_code=data["trait_code"], difficulty=data["difficulty"], note=data["note"])  # fmt: skip
        except ServiceError as exc:
            status, error = exc.status, exc.message
        else:
            names = ", ".join(row.character.name for row in rows)
            notice = ngettext("Test asked of %(names)s.", "Tests asked of %(names)s.", len(rows)) % {"names": names}
            if not request.htmx:
                return _back(request, notice)
            html = render(request, FORM_TEMPLATE, ask_form_context(membership, notice=notice)).content
            return _answer(request, html.decode())
    if not request.htmx:
        return _back(request, error, error=True)
    html = render(request, FORM_TEMPLATE, ask_form_context(membership, form, error=error)).content
    return _answer(request, html.decode(), status)


def _visible_or_404(request: MemberRequest, campaign_id: int, asked_id: int) -> AskedTest:
    """The ask, if this member may see it: another campaign's, or another player's, answers as a missing one."""
    membership = request.membership
    found = AskedTest.objects.filter(pk=asked_id, campaign_id=campaign_id).select_related("character__campaign")
    if not membership.is_narrator:
        found = found.filter(character__owner_id=membership.user_id)
    asked = found.first()
    if asked is None:
        raise Http404
    return asked


@campaign_narrator
@require_POST
def withdraw(request: MemberRequest, campaign_id: int, asked_id: int) -> HttpResponse:
    _visible_or_404(request, campaign_id, asked_id)
    try:
        asked = asked_test_withdraw(campaign_id=campaign_id, actor=request.user, asked_id=asked_id)
    except ServiceError as exc:
        if not request.htmx:
            return _back(request, exc.message, error=True)
        return _answer(request, _line(exc.message, error=True), exc.status)
    text = _("Test withdrawn: %(name)s.") % {"name": asked.character.name}
    return _answer(request, _line(text)) if request.htmx else _back(request, text)


@campaign_member
@require_POST
def roll(request: MemberRequest, campaign_id: int, asked_id: int) -> HttpResponse:
    """The one-tap roll of a Test asked: the result card where the tap was, its Atout follow-ups as on the
    sheet; a second tap (the Test already rolled) is refused with the reason."""
    from conflicts.sheet_roll import remembered

    character = _visible_or_404(request, campaign_id, asked_id).character
    try:
        asked, result = asked_test_roll(campaign_id=campaign_id, actor=request.user, asked_id=asked_id)
    except ServiceError as exc:
        if not request.htmx:
            return _back(request, exc.message, error=True)
        # Secoué refuses the Test (« ne peut faire que des actions gratuites »): the card offers the Jeton that ends it.
        if shaken_refusal(character, exc):
            card = render(
                request, "conflicts/partials/shaken_card.html", {"character": character, "error": exc.message}
            )
            return _answer(request, card.content.decode())
        return _answer(request, _line(exc.message, error=True), exc.status)
    if not request.htmx:
        return redirect(asked.character.get_absolute_url())
    context = {"character": character, "result": {**result, "step": 0}, "faces": (-1, 0, 1),
               "memory": remembered(request.session, character.pk)}  # fmt: skip
    card = render(request, "conflicts/partials/roll_card.html", context)
    return _answer(request, card.content.decode())
