"""The narrator's pages: the campaign's characters, a new NPC (the character options are a section of the settings page)."""

from __future__ import annotations

from django.http import HttpResponse
from django.shortcuts import redirect, render
from django.views.decorators.http import require_GET, require_POST

from campaigns.access import MemberRequest, campaign_member, campaign_narrator
from campaigns.models import Membership
from characters import selectors
from characters.forms import NpcForm
from characters.services import creation as creation_services
from core.errors import ServiceError


@campaign_member
@require_GET
def campaign_characters(request: MemberRequest, campaign_id: int) -> HttpResponse:
    """Every sheet a member may see: narrators all of them with quick edits, players the PCs and their allies."""
    membership: Membership = request.membership
    campaign = membership.campaign
    characters = selectors.characters_for_panels(campaign)
    if not membership.is_narrator:
        characters = characters.filter(pk__in=selectors.visible_characters(campaign, membership).values("pk"))
    return render(
        request,
        "characters/campaign_list.html",
        {"campaign": campaign, "membership": membership, "characters": characters, "npc_form": NpcForm()},
    )


@campaign_narrator
@require_POST
def npc_create(request: MemberRequest, campaign_id: int) -> HttpResponse:
    membership: Membership = request.membership
    form = NpcForm(request.POST)
    if form.is_valid():
        data = form.cleaned_data
        try:
            character = creation_services.npc_create(
                campaign=membership.campaign, actor=request.user, name=data["name"], concept=data["concept"],
                goal=data["goal"], ranks=data["traits"], atouts=data["atouts"], out_after=data["out_after"],
            )  # fmt: skip
        except ServiceError as exc:
            form.add_error(None, exc.message)
        else:
            return redirect(character.get_absolute_url())
    return render(
        request,
        "characters/campaign_list.html",
        {"campaign": membership.campaign, "membership": membership,
         "characters": selectors.characters_for_panels(membership.campaign), "npc_form": form},
        status=400,
    )  # fmt: skip
