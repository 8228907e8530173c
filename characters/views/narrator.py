"""The narrator's pages: the campaign's characters, a new NPC, the campaign's character options."""

from __future__ import annotations

from django.contrib import messages
from django.http import HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from campaigns.access import MemberRequest, campaign_member, campaign_narrator
from campaigns.models import Membership
from characters import selectors
from characters.forms import (
    CharacterRulesForm,
    NpcForm,
)
from characters.rules.traits import traits_to_toml
from characters.services import creation as creation_services
from characters.services.options import character_rules_update
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


@campaign_narrator
@require_http_methods(["GET", "POST"])
def character_rules(request: MemberRequest, campaign_id: int) -> HttpResponse:
    campaign = request.membership.campaign
    rules = selectors.character_rules(campaign)
    initial = {"version": rules.version, "trait_list_toml": traits_to_toml(selectors.trait_defs(rules))}
    form = CharacterRulesForm(request.POST or None, instance=rules, initial=initial)
    if request.method == "POST":
        rules.refresh_from_db()
        if form.is_valid():
            data = {k: v for k, v in form.cleaned_data.items() if k not in ("version", "trait_list_toml")}
            data["trait_list"] = form.cleaned_data["trait_list_toml"]
            try:
                character_rules_update(
                    campaign=campaign,
                    actor=request.user,
                    data=data,
                    expected_version=form.cleaned_data["version"],
                )
            except ServiceError as exc:
                form.add_error(None, exc.message)
            else:
                messages.success(request, _("Character options saved."))
                return redirect("characters:rules", campaign_id)
    return render(
        request, "characters/rules.html", {"campaign": campaign, "form": form}, status=400 if form.errors else 200
    )
