"""Character pages: thin views that parse, check permission, call a service and render.

Each page has one template; htmx requests get the named partial (``page.html#sheet``).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.contrib.auth.models import User
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import get_language, ngettext
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_http_methods, require_POST
from django_htmx.http import HttpResponseClientRedirect

from campaigns.access import campaign_member, campaign_narrator
from campaigns.models import CreationMode, Membership, Role
from characters import selectors
from characters.access import can_edit, character_for_viewer
from characters.forms import (
    AtoutGainForm,
    AtoutSpendForm,
    CharacterRulesForm,
    CharacterWordsForm,
    EquipmentForm,
    FeedForm,
    FirstAidForm,
    HandAllyForm,
    NarratorFieldsForm,
    NpcForm,
    PowerUseForm,
    ReversForm,
    TraitRaiseForm,
    TraitSetForm,
)
from characters.labels import power_name
from characters.live import sheet_subject
from characters.models import AtoutEntry, Character, CharacterKind, Equipment, PowerFeed, Revers
from characters.rule_messages import rule_message
from characters.rules import psychic
from characters.rules.atouts import progression_cost
from characters.rules.equipment import vehicles
from characters.rules.ladder import Rank
from characters.rules.scales import scales_to_text
from characters.rules.traits import TraitKind, traits_to_toml
from characters.services import creation as creation_services
from characters.services import powers as powers_services
from characters.services import revers as revers_services
from characters.services import sheet as sheet_services
from characters.services.allies import ally_hand
from characters.services.atouts import atout_gain, atout_refund, atout_spend, trait_raise
from characters.services.creation import creation_preview, creation_traits, progression_scheme, starting_ranks
from characters.services.equipment import equipment_add, equipment_remove
from characters.services.options import character_rules_update
from characters.services.powers import character_rest, feed_allow, feed_revoke, healing_start, power_use
from characters.services.revers import revers_heal, revers_inflict
from characters.services.sheet import character_update, trait_veto
from core.errors import ServiceError


def _language() -> str:
    return (get_language() or "fr")[:2]


# ---------------------------------------------------------------- the sheet


def sheet_context(character: Character, membership: Membership, forms: dict[str, Any] | None = None) -> dict[str, Any]:
    """What ``detail.html#sheet`` needs for this member: the page, its htmx answers and its live pushes
    (characters.live) all render from here, so each viewer gets only what their role may see."""
    sheet = selectors.sheet(character)
    editable = can_edit(membership, character)
    others = [c for c in selectors.visible_characters(character.campaign, membership) if c.pk != character.pk]
    trait_choices = [(line.code, line.name) for line in sheet.all_lines]
    in_session = character.campaign.game_sessions.filter(status="open").exists()
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
        "words_form": CharacterWordsForm(initial={"version": character.version, "name": character.name,
                                                   "concept": character.concept, "goal": character.goal}),
        "spend_form": AtoutSpendForm(others=others),
        "raise_form": TraitRaiseForm(traits=raise_choices),
        "equipment_form": EquipmentForm(language=_language()),
        "power_form": PowerUseForm(domains=domains, feeds=_feed_choices(sheet)) if domains else None,
        "healing_choices": _healing_choices(character, sheet),
        "powers": [p for p in psychic.powers() if any(code == p.domain for code, _n in domains)],
        "vehicles": {v.code: v for v in vehicles()},
        "scales": selectors.scales_of(character),
        "live_watch": sheet_subject(character.pk),
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
                "first_aid_form": FirstAidForm(character=character),
                "feed_form": _feed_form(sheet) if any(line.on_sheet for line in sheet.power_domains) else None,
                "hand_form": HandAllyForm(players=players) if character.kind == CharacterKind.NPC else None,
            }
        )  # fmt: skip
    context.update(forms or {})
    return context


def _healing_choices(character: Character, sheet: selectors.Sheet) -> list[dict[str, Any]]:
    """The healing power running, or those of Conscience the sheet offers to start, with what each does."""
    running = [psychic.healing_power(character.healing_power)] if character.healing_power else []
    line = next((line for line in sheet.power_domains if line.code == psychic.HEALING_DOMAIN), None)
    available = psychic.healing_powers_at(line.rank - line.lowered) if line is not None else []
    choices = []
    for power in running or available:
        if power.max_cycles == "domain":
            helptext = _(
                "One Potential point per %(hours)s-hour day of near-complete rest and meditation, kept spent while it "
                "runs; each day takes a step off every physical Revers that heals by the week; at most as many days "
                "as the domain's value."
            ) % {"hours": power.ordinary_cycle // 3600}
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


def _render_sheet(request: HttpRequest, character: Character, membership: Membership, status: int = 200,
                  forms: dict[str, Any] | None = None) -> HttpResponse:  # fmt: skip
    template = "characters/detail.html#sheet" if request.htmx else "characters/detail.html"  # type: ignore[attr-defined]
    response = render(request, template, sheet_context(character, membership, forms), status=status)
    response["Vary"] = "HX-Request"
    return response


@login_required
@require_GET
def character_detail(request: HttpRequest, character_id: int) -> HttpResponse:
    character, membership = character_for_viewer(request.user, character_id)
    return _render_sheet(request, character, membership)


@login_required
@require_GET
def character_print(request: HttpRequest, character_id: int) -> HttpResponse:
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


# ---------------------------------------------------------------- actions on a sheet

Action = Callable[[HttpRequest, Character, Membership], tuple[str, dict[str, Any]]]
_actions: dict[str, tuple[Action, bool]] = {}


def action(name: str, *, narrator_only: bool = False) -> Callable[[Action], Action]:
    def register(func: Action) -> Action:
        _actions[name] = (func, narrator_only)
        return func

    return register


class FormInvalid(Exception):
    def __init__(self, name: str, form: Any) -> None:
        self.name, self.form = name, form


def _valid(name: str, form: Any) -> Any:
    if not form.is_valid():
        raise FormInvalid(name, form)
    return form.cleaned_data


@login_required
@require_POST
def character_action(request: HttpRequest, character_id: int, name: str) -> HttpResponse:
    """One POST endpoint per sheet action; the answer is the refreshed sheet (or its htmx partial)."""
    character, membership = character_for_viewer(request.user, character_id)
    if name not in _actions:
        raise PermissionDenied
    func, narrator_only = _actions[name]
    if (narrator_only and not membership.is_narrator) or not can_edit(membership, character):
        raise PermissionDenied(_("Only this character's player or a narrator can change this sheet."))
    try:
        message, forms = func(request, character, membership)
    except FormInvalid as invalid:
        character.refresh_from_db()
        return _render_sheet(request, character, membership, 400, {invalid.name: invalid.form})
    except ServiceError as exc:
        character.refresh_from_db()
        if request.htmx and request.POST.get("return") == "panel":  # type: ignore[attr-defined]
            return HttpResponse(exc.message, status=exc.status)
        if request.htmx:  # type: ignore[attr-defined]
            return _render_sheet(request, character, membership, exc.status, {"error": exc.message})
        messages.error(request, exc.message)
        return redirect(character.get_absolute_url())
    if request.htmx and request.POST.get("return") == "panel":  # type: ignore[attr-defined]
        # A quick edit from a character's panel (dashboard, list): answer with the panel alone.
        panel = selectors.characters_for_panels(character.campaign).get(pk=character.pk)
        return render(request, "characters/partials/panel.html", {"character": panel, "quick": True})
    character.refresh_from_db()
    if not request.htmx:  # type: ignore[attr-defined]
        messages.success(request, message)
        return redirect(character.get_absolute_url())
    return _render_sheet(request, character, membership, forms={"notice": message, **forms})


@action("words")
def _words(request: HttpRequest, character: Character, membership: Membership) -> tuple[str, dict[str, Any]]:
    data = _valid("words_form", CharacterWordsForm(request.POST))
    character_update(character=character, actor=request.user, data=data,  # type: ignore[arg-type]
                              expected_version=data["version"])  # fmt: skip
    return _("Sheet saved."), {}


@action("narrator", narrator_only=True)
def _narrator_fields(request: HttpRequest, character: Character, membership: Membership) -> tuple[str, dict[str, Any]]:
    data = _valid("narrator_form", NarratorFieldsForm(request.POST, npc=character.kind == CharacterKind.NPC))
    character_update(character=character, actor=request.user, data=data,  # type: ignore[arg-type]
                              expected_version=data["version"])  # fmt: skip
    return _("Sheet saved."), {}


@action("spend")
def _spend(request: HttpRequest, character: Character, membership: Membership) -> tuple[str, dict[str, Any]]:
    form = AtoutSpendForm(request.POST, others=list(Character.objects.filter(campaign=character.campaign)))
    data = _valid("spend_form", form)
    atout_spend(
        character=character, actor=request.user, use=data["use"], amount=data["amount"],  # type: ignore[arg-type]
        justification=data["justification"], context=form.context(),
    )  # fmt: skip
    return _("Atout spent."), {}


@action("raise")
def _raise(request: HttpRequest, character: Character, membership: Membership) -> tuple[str, dict[str, Any]]:
    codes = [(line.code, line.name) for line in selectors.sheet(character, ledger=False).all_lines]
    data = _valid("raise_form", TraitRaiseForm(request.POST, traits=codes))
    trait_raise(
        character=character, actor=request.user, trait_code=data["trait"],  # type: ignore[arg-type]
        justification=data["justification"], ranks=data["ranks"],
    )  # fmt: skip
    return _("Trait raised."), {}


@action("gain", narrator_only=True)
def _gain(request: HttpRequest, character: Character, membership: Membership) -> tuple[str, dict[str, Any]]:
    data = _valid("gain_form", AtoutGainForm(request.POST))
    atout_gain(character=character, actor=request.user, amount=data["amount"], note=data["note"])  # type: ignore[arg-type]
    return _("Atouts given."), {}


@action("refund", narrator_only=True)
def _refund(request: HttpRequest, character: Character, membership: Membership) -> tuple[str, dict[str, Any]]:
    entry = get_object_or_404(AtoutEntry, pk=request.POST.get("entry"), character=character)
    atout_refund(entry=entry, actor=request.user)  # type: ignore[arg-type]
    return _("Atout given back."), {}


@action("trait_set", narrator_only=True)
def _trait_set(request: HttpRequest, character: Character, membership: Membership) -> tuple[str, dict[str, Any]]:
    codes = [(line.code, line.name) for line in selectors.sheet(character, ledger=False).all_lines]
    data = _valid("trait_set_form", TraitSetForm(request.POST, traits=codes))
    sheet_services.trait_set(character=character, actor=request.user, code=data["code"] or "",  # type: ignore[arg-type]
                       rank=data["rank"], name=data["name"], kind=data["kind"])  # fmt: skip
    return _("Trait set."), {}


@action("veto", narrator_only=True)
def _veto(request: HttpRequest, character: Character, membership: Membership) -> tuple[str, dict[str, Any]]:
    trait_veto(character=character, actor=request.user, code=request.POST.get("code", ""))  # type: ignore[arg-type]
    return _("Trait vetoed."), {}


@action("revers", narrator_only=True)
def _revers(request: HttpRequest, character: Character, membership: Membership) -> tuple[str, dict[str, Any]]:
    data = _valid("revers_form", ReversForm(request.POST))
    revers_inflict(character=character, actor=request.user, **data)  # type: ignore[arg-type]
    return _("Revers written on the sheet."), {}


@action("heal", narrator_only=True)
def _heal(request: HttpRequest, character: Character, membership: Membership) -> tuple[str, dict[str, Any]]:
    revers = get_object_or_404(Revers, pk=request.POST.get("revers"), character=character)
    revers_heal(revers=revers, actor=request.user, steps=3 if request.POST.get("all") else 1)  # type: ignore[arg-type]
    return _("Revers healed."), {}


@action("first_aid", narrator_only=True)
def _first_aid(request: HttpRequest, character: Character, membership: Membership) -> tuple[str, dict[str, Any]]:
    data = _valid("first_aid_form", FirstAidForm(request.POST, character=character))
    revers_services.first_aid(revers=data["revers"], actor=request.user, success=data["success"])  # type: ignore[arg-type]
    return _("First aid recorded."), {}


@action("equipment")
def _equipment(request: HttpRequest, character: Character, membership: Membership) -> tuple[str, dict[str, Any]]:
    data = _valid("equipment_form", EquipmentForm(request.POST, language=_language()))
    equipment_add(character=character, actor=request.user, data=data)  # type: ignore[arg-type]
    return _("Equipment added."), {}


@action("unequip")
def _unequip(request: HttpRequest, character: Character, membership: Membership) -> tuple[str, dict[str, Any]]:
    item = get_object_or_404(Equipment, pk=request.POST.get("item"), character=character)
    equipment_remove(item=item, actor=request.user)  # type: ignore[arg-type]
    return _("Equipment removed."), {}


@action("power")
def _power(request: HttpRequest, character: Character, membership: Membership) -> tuple[str, dict[str, Any]]:
    domains = [(t.code, t.name_fr) for t in character.traits.filter(kind=TraitKind.POWER_DOMAIN)]
    feeds = [(code, code) for code in character.power_feeds.filter(allowed=True).values_list("trait", flat=True)]
    data = _valid("power_form", PowerUseForm(request.POST, domains=domains, feeds=feeds))
    result = power_use(character=character, actor=request.user, **data)  # type: ignore[arg-type]
    from characters.labels import difficulty_label, rank_display

    return _("Power used: a %(difficulty)s test (required rank %(rank)s).") % {
        "difficulty": difficulty_label(result.difficulty), "rank": rank_display(result.required_rank),
    }, {"power_result": result}  # fmt: skip


@action("rest")
def _rest(request: HttpRequest, character: Character, membership: Membership) -> tuple[str, dict[str, Any]]:
    character_rest(character=character, actor=request.user)  # type: ignore[arg-type]
    return _("Rested: Potential and Vigour restored."), {}


@action("feed", narrator_only=True)
def _feed(request: HttpRequest, character: Character, membership: Membership) -> tuple[str, dict[str, Any]]:
    data = _valid("feed_form", _feed_form(selectors.sheet(character, ledger=False, feeds=False), request.POST))
    feed_allow(character=character, actor=request.user, domain=data["domain"], trait=data["trait"])  # type: ignore[arg-type]
    return _("The trait may now feed the domain."), {}


@action("unfeed", narrator_only=True)
def _unfeed(request: HttpRequest, character: Character, membership: Membership) -> tuple[str, dict[str, Any]]:
    feed = get_object_or_404(PowerFeed, pk=request.POST.get("feed"), character=character)
    feed_revoke(feed=feed, actor=request.user)  # type: ignore[arg-type]
    return _("The trait no longer feeds the domain."), {}


@action("healing")
def _healing(request: HttpRequest, character: Character, membership: Membership) -> tuple[str, dict[str, Any]]:
    power = request.POST.get("power", "")
    healing_start(character=character, actor=request.user, power=power)  # type: ignore[arg-type]
    return _("%(power)s started: the game clock heals and spends Potential.") % {"power": power_name(power)}, {}


@action("healing_stop")
def _healing_stop(request: HttpRequest, character: Character, membership: Membership) -> tuple[str, dict[str, Any]]:
    power = character.healing_power
    powers_services.healing_stop(character=character, actor=request.user)  # type: ignore[arg-type]
    return _("%(power)s stopped.") % {"power": power_name(power)}, {}


@action("hand", narrator_only=True)
def _hand(request: HttpRequest, character: Character, membership: Membership) -> tuple[str, dict[str, Any]]:
    players = [(m.user_id, m.user.username) for m in character.campaign.memberships.select_related("user")]
    data = _valid("hand_form", HandAllyForm(request.POST, players=players))
    player = User.objects.filter(pk=data["player"]).first() if data["player"] else None
    ally_hand(character=character, actor=request.user, player=player)  # type: ignore[arg-type]
    return _("Ally handed over."), {}


# ---------------------------------------------------------------- creation wizard


def _wizard_state(request: HttpRequest, campaign: Any) -> tuple[dict[str, Any], dict[str, int], list[dict[str, str]]]:
    """Read the wizard's form: the words, the ranks by code, and player-named traits (free style)."""
    post = request.POST
    words = {k: post.get(k, "").strip() for k in ("name", "concept", "goal")}
    custom = []
    for index in range(int(post.get("custom_count", 0) or 0)):
        name = post.get(f"custom_name_{index}", "").strip()
        if name:
            custom.append({"name": name, "kind": post.get(f"custom_kind_{index}", TraitKind.FIELD)})
    new_name = post.get("new_trait", "").strip()
    if post.get("step") == "add_trait" and new_name:
        custom.append({"name": new_name, "kind": post.get("new_trait_kind", TraitKind.FIELD)})
    ranks: dict[str, int] = {}
    for key, value in post.items():
        if key.startswith("rank_") and value.lstrip("-").isdigit():
            ranks[key[5:]] = int(value)
    return words, ranks, custom


@campaign_member
@require_http_methods(["GET", "POST"])
def character_create(request: HttpRequest, campaign_id: int) -> HttpResponse:
    """The creation wizard: each +/− click posts the form and gets back the wizard with its budget."""
    membership: Membership = request.membership  # type: ignore[attr-defined]
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
                **words,  # type: ignore[arg-type]
            )
        except ServiceError as exc:
            error = exc.message
        else:
            messages.success(request, _("%(name)s is ready to play.") % {"name": character.name})
            if request.htmx:  # type: ignore[attr-defined]
                return HttpResponseClientRedirect(character.get_absolute_url())
            return redirect(character.get_absolute_url())
    budget = creation_preview(campaign=campaign, ranks=ranks, custom_traits=custom)
    names = {t.code: t.name(_language()) for t in defs}
    lines = {line.code: line for line in budget.lines}
    rows = [
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
    template = "characters/create.html#wizard" if request.htmx else "characters/create.html"  # type: ignore[attr-defined]
    response = render(request, template, context, status=status)
    response["Vary"] = "HX-Request"
    return response


# ---------------------------------------------------------------- narrator pages


@campaign_member
@require_GET
def campaign_characters(request: HttpRequest, campaign_id: int) -> HttpResponse:
    """Every sheet a member may see: narrators all of them with quick edits, players the PCs and their allies."""
    membership: Membership = request.membership  # type: ignore[attr-defined]
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
def npc_create(request: HttpRequest, campaign_id: int) -> HttpResponse:
    membership: Membership = request.membership  # type: ignore[attr-defined]
    form = NpcForm(request.POST)
    if form.is_valid():
        data = form.cleaned_data
        try:
            character = creation_services.npc_create(
                campaign=membership.campaign, actor=request.user, name=data["name"], concept=data["concept"],  # type: ignore[arg-type]
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
def character_rules(request: HttpRequest, campaign_id: int) -> HttpResponse:
    campaign = request.membership.campaign  # type: ignore[attr-defined]
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
                    expected_version=form.cleaned_data["version"],  # type: ignore[arg-type]
                )
            except ServiceError as exc:
                form.add_error(None, exc.message)
            else:
                messages.success(request, _("Character options saved."))
                return redirect("characters:rules", campaign_id)
    return render(
        request, "characters/rules.html", {"campaign": campaign, "form": form}, status=400 if form.errors else 200
    )
