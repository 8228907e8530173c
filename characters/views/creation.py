"""The character creation wizard."""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods
from django_htmx.http import HttpResponseClientRedirect

from campaigns.access import MemberRequest, campaign_member
from campaigns.models import CreationMode, Membership, Role
from characters import selectors
from characters.rule_messages import rule_message
from characters.rules.ladder import Rank
from characters.rules.traits import TraitKind
from characters.services import creation as creation_services
from characters.services.creation import creation_preview, creation_traits, starting_ranks
from characters.views.sheet import _language
from core.errors import ServiceError

# The wizard's hidden count of player-named traits: no table names more, and a forged count must neither
# raise (a 500) nor make the view loop for a billion rounds.
MAX_CUSTOM_TRAITS = 40


def _custom_count(raw: str) -> int:
    return min(int(raw), MAX_CUSTOM_TRAITS) if raw.isascii() and raw.isdigit() else 0


def _wizard_state(request: HttpRequest, campaign: Any) -> tuple[dict[str, Any], dict[str, int], list[dict[str, str]]]:
    """Read the wizard's form: the words, the ranks by code, and player-named traits (free style)."""
    post = request.POST
    words = {k: post.get(k, "").strip() for k in ("name", "concept", "goal")}
    custom = []
    for index in range(_custom_count(post.get("custom_count", ""))):
        name = post.get(f"custom_name_{index}", "").strip()
        if name:
            custom.append({"name": name, "kind": post.get(f"custom_kind_{index}", TraitKind.FIELD)})
    new_name = post.get("new_trait", "").strip()
    if post.get("step") == "add_trait" and new_name:
        custom.append({"name": new_name, "kind": post.get("new_trait_kind", TraitKind.FIELD)})
    ranks: dict[str, int] = {}
    for key in post:
        value = post.get(key, "")
        if key.startswith("rank_") and value.lstrip("-").isdigit():
            ranks[key[5:]] = int(value)
    return words, ranks, custom


@campaign_member
@require_http_methods(["GET", "POST"])
def character_create(request: MemberRequest, campaign_id: int) -> HttpResponse:
    """The creation wizard: each +/− click posts the form and gets back the wizard with its budget."""
    membership: Membership = request.membership
    campaign = membership.campaign
    rules = selectors.character_rules(campaign)
    error = ""
    words: dict[str, Any] = {"name": "", "concept": "", "goal": ""}
    ranks: dict[str, int] = {}
    custom: list[dict[str, str]] = []
    if request.method == "POST":
        words, ranks, custom = _wizard_state(request, campaign)
    try:
        defs = creation_traits(campaign, rules, custom)
    except ServiceError as exc:
        defs, custom, error = creation_traits(campaign, rules), [], exc.message
    start = starting_ranks(campaign, defs)
    ranks = {code: ranks.get(code, start[code]) for code in start}
    step = request.POST.get("step", "")
    if step.startswith(("inc:", "dec:")):
        code = step[4:]
        if code in ranks:
            ranks[code] = max(Rank.ABYSSAL, ranks[code] + (1 if step.startswith("inc:") else -1))
    # A narrator may create a sheet for a player and give leave to pass the rank limits.
    players = (
        list(campaign.memberships.filter(role=Role.PLAYER).select_related("user").order_by("user__username"))
        if membership.is_narrator
        else []
    )
    owner_id = request.POST.get("owner", "")
    owner = next((m.user for m in players if str(m.user_id) == owner_id), None)
    leave = membership.is_narrator and request.POST.get("narrator_leave") == "on"
    if step == "create":
        try:
            character = creation_services.character_create(
                campaign=campaign,
                actor=request.user,
                ranks=ranks,
                custom_traits=custom,
                owner=owner,
                permitted=list(ranks) if leave else (),
                **words,
            )
        except ServiceError as exc:
            error = exc.message
        else:
            messages.success(request, _("%(name)s is ready to play.") % {"name": character.name})
            if request.htmx:
                return HttpResponseClientRedirect(character.get_absolute_url())
            return redirect(character.get_absolute_url())
    budget = creation_preview(campaign=campaign, ranks=ranks, custom_traits=custom)
    names = {t.code: t.name(_language()) for t in defs}
    lines = {line.code: line for line in budget.lines}
    rows: list[dict[str, Any]] = [
        {"trait": t, "name": t.name(_language()), "description": t.description(_language()), "rank": ranks[t.code],
         "start": start[t.code], "cost": lines[t.code].cost if t.code in lines else 0,
         "custom": t.code not in {d.code for d in selectors.trait_defs(rules)}}
        for t in defs
    ]  # fmt: skip
    groups = [
        (_("Aptitudes"), [r for r in rows if r["trait"].kind == TraitKind.APTITUDE]),
        (_("Fields of expertise"), [r for r in rows if r["trait"].kind == TraitKind.FIELD]),
        (_("Power domains"), [r for r in rows if r["trait"].kind == TraitKind.POWER_DOMAIN]),
    ]
    context = {
        "campaign": campaign,
        "words": words,
        "groups": groups,
        "custom": custom,
        "budget": budget,
        "violations": [rule_message(v, names) for v in budget.violations],
        "error": error,
        "free_naming": campaign.creation_mode == CreationMode.FREE or rules.players_name_traits,
        "players": players,
        "owner_id": owner_id,
        "leave": leave,
        "mode": campaign.get_creation_mode_display(),
    }
    status = 400 if error else 200
    template = "characters/create.html#wizard" if request.htmx else "characters/create.html"
    response = render(request, template, context, status=status)
    response["Vary"] = "HX-Request"
    return response
