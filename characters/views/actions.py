"""The one-tap actions on a sheet (``/characters/<pk>/act/<name>/``): each parses a form and calls one service."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.contrib.auth.models import User
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect
from django.utils.translation import gettext as _

from campaigns.models import Membership
from characters import selectors
from characters.access import can_edit, character_for_viewer, reach_character
from characters.forms import (
    AtoutGainForm,
    AtoutSpendForm,
    CharacterWordsForm,
    EquipmentForm,
    FirstAidForm,
    HandAllyForm,
    NarratorFieldsForm,
    PowerUseForm,
    ReversForm,
    ReversTakeForm,
    TraitRaiseForm,
    TraitSetForm,
    VetoForm,
)
from characters.labels import power_name
from characters.models import AtoutEntry, Character, CharacterKind, Equipment, PowerFeed, Revers
from characters.panels import panel_html
from characters.rules.traits import TraitKind
from characters.services import powers as powers_services
from characters.services import revers as revers_services
from characters.services import sheet as sheet_services
from characters.services.allies import ally_hand
from characters.services.atouts import atout_gain, atout_refund, atout_spend, trait_raise
from characters.services.equipment import equipment_add, equipment_remove
from characters.services.powers import character_rest, feed_allow, feed_revoke, healing_start, power_use
from characters.services.revers import revers_heal, revers_inflict, revers_take
from characters.services.sheet import character_update, trait_veto
from characters.views.sheet import _feed_form, _language, _render_sheet
from core.errors import ServiceError
from core.forms import picked
from core.http import AuthenticatedRequest, allow_methods

Action = Callable[[AuthenticatedRequest, Character, Membership], tuple[str, dict[str, Any]]]
_actions: dict[str, tuple[Action, bool]] = {}


def action(name: str, *, narrator_only: bool = False) -> Callable[[Action], Action]:
    def register(func: Action) -> Action:
        _actions[name] = (func, narrator_only)
        return func

    return register


class FormInvalid(Exception):
    def __init__(self, name: str, form: Any) -> None:
        self.name, self.form = name, form


def _picked(request: HttpRequest, field: str, queryset: Any) -> Any:
    """The sheet line a one-tap form names (``item``, ``revers``, ``entry``, ``feed``), or a refusal."""
    row = picked(request.POST, field, queryset)
    if row is None:
        raise ServiceError(_("This line is no longer on the sheet. Reload the page."))
    return row


def _valid(name: str, form: Any) -> Any:
    if not form.is_valid():
        raise FormInvalid(name, form)
    return form.cleaned_data


@login_required
@allow_methods("POST", reach=reach_character)
def character_action(request: AuthenticatedRequest, character_id: int, name: str) -> HttpResponse:
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
        if request.htmx and request.POST.get("return") == "panel":
            return HttpResponse(exc.message, status=exc.status)
        if request.htmx:
            return _render_sheet(request, character, membership, exc.status, {"error": exc.message})
        messages.error(request, exc.message)
        return redirect(character.get_absolute_url())
    if request.htmx and request.POST.get("return") == "panel":
        # A quick edit from a character's panel (dashboard, list): answer with the panel alone.
        return HttpResponse(panel_html(character, membership, request))
    character.refresh_from_db()
    if not request.htmx:
        messages.success(request, message)
        return redirect(character.get_absolute_url())
    return _render_sheet(request, character, membership, forms={"notice": message, **forms})


@action("words")
def _words(request: AuthenticatedRequest, character: Character, membership: Membership) -> tuple[str, dict[str, Any]]:
    data = _valid("words_form", CharacterWordsForm(request.POST))
    character_update(character=character, actor=request.user, data=data,
                              expected_version=data["version"])  # fmt: skip
    return _("Sheet saved."), {}


@action("narrator", narrator_only=True)
def _narrator_fields(
    request: AuthenticatedRequest, character: Character, membership: Membership
) -> tuple[str, dict[str, Any]]:
    data = _valid("narrator_form", NarratorFieldsForm(request.POST, npc=character.kind == CharacterKind.NPC))
    character_update(character=character, actor=request.user, data=data,
                              expected_version=data["version"])  # fmt: skip
    return _("Sheet saved."), {}


@action("spend")
def _spend(request: AuthenticatedRequest, character: Character, membership: Membership) -> tuple[str, dict[str, Any]]:
    data = _valid("spend_form", AtoutSpendForm(request.POST))
    atout_spend(character=character, actor=request.user, use=data["use"],
                justification=data["justification"])  # fmt: skip
    return _("Atout spent."), {}


@action("take_revers")
def _take_revers(
    request: AuthenticatedRequest, character: Character, membership: Membership
) -> tuple[str, dict[str, Any]]:
    form = ReversTakeForm(request.POST, revers=selectors.revers_others(character, membership))
    _valid("take_revers_form", form)
    revers, version = form.chosen()
    revers_take(taker=character, revers=revers, actor=request.user,
                justification=form.cleaned_data["justification"], expected_version=version)  # fmt: skip
    return _("%(name)s takes the Revers of %(other)s.") % {"name": character.name, "other": revers.character.name}, {}


@action("raise")
def _raise(request: AuthenticatedRequest, character: Character, membership: Membership) -> tuple[str, dict[str, Any]]:
    codes = [(line.code, line.name) for line in selectors.sheet(character, ledger=False).all_lines]
    data = _valid("raise_form", TraitRaiseForm(request.POST, traits=codes))
    trait_raise(
        character=character, actor=request.user, trait_code=data["trait"],
        justification=data["justification"], ranks=data["ranks"],
    )  # fmt: skip
    return _("Trait raised."), {}


@action("gain", narrator_only=True)
def _gain(request: AuthenticatedRequest, character: Character, membership: Membership) -> tuple[str, dict[str, Any]]:
    data = _valid("gain_form", AtoutGainForm(request.POST))
    atout_gain(character=character, actor=request.user, amount=data["amount"], note=data["note"])
    return _("Atouts given."), {}


@action("refund", narrator_only=True)
def _refund(request: AuthenticatedRequest, character: Character, membership: Membership) -> tuple[str, dict[str, Any]]:
    entry = _picked(request, "entry", AtoutEntry.objects.filter(character=character))
    atout_refund(entry=entry, actor=request.user)
    return _("Atout given back."), {}


@action("trait_set", narrator_only=True)
def _trait_set(
    request: AuthenticatedRequest, character: Character, membership: Membership
) -> tuple[str, dict[str, Any]]:
    codes = [(line.code, line.name) for line in selectors.sheet(character, ledger=False).all_lines]
    data = _valid("trait_set_form", TraitSetForm(request.POST, traits=codes))
    sheet_services.trait_set(character=character, actor=request.user, code=data["code"] or "",
                       rank=data["rank"], name=data["name"], kind=data["kind"])  # fmt: skip
    return _("Trait set."), {}


@action("veto", narrator_only=True)
def _veto(request: AuthenticatedRequest, character: Character, membership: Membership) -> tuple[str, dict[str, Any]]:
    form = VetoForm(request.POST, traits=list(character.traits.filter(custom=True).values_list("code", "name_fr")))
    if not form.is_valid():  # a code no player named here, a NUL byte: the service's own refusal
        raise ServiceError(_("Only a player-named trait can be vetoed."))
    trait_veto(character=character, actor=request.user, code=form.cleaned_data["code"])
    return _("Trait vetoed."), {}


@action("revers", narrator_only=True)
def _revers(request: AuthenticatedRequest, character: Character, membership: Membership) -> tuple[str, dict[str, Any]]:
    data = _valid("revers_form", ReversForm(request.POST))
    revers_inflict(character=character, actor=request.user, **data)
    return _("Revers written on the sheet."), {}


@action("heal", narrator_only=True)
def _heal(request: AuthenticatedRequest, character: Character, membership: Membership) -> tuple[str, dict[str, Any]]:
    revers = _picked(request, "revers", Revers.objects.filter(character=character))
    revers_heal(revers=revers, actor=request.user, steps=3 if request.POST.get("all") else 1)
    return _("Revers healed."), {}


@action("first_aid", narrator_only=True)
def _first_aid(
    request: AuthenticatedRequest, character: Character, membership: Membership
) -> tuple[str, dict[str, Any]]:
    data = _valid("first_aid_form", FirstAidForm(request.POST, character=character))
    revers_services.first_aid(revers=data["revers"], actor=request.user, success=data["success"])
    return _("First aid recorded."), {}


@action("equipment")
def _equipment(
    request: AuthenticatedRequest, character: Character, membership: Membership
) -> tuple[str, dict[str, Any]]:
    data = _valid("equipment_form", EquipmentForm(request.POST, language=_language()))
    equipment_add(character=character, actor=request.user, data=data)
    return _("Equipment added."), {}


@action("unequip")
def _unequip(request: AuthenticatedRequest, character: Character, membership: Membership) -> tuple[str, dict[str, Any]]:
    item = _picked(request, "item", Equipment.objects.filter(character=character))
    equipment_remove(item=item, actor=request.user)
    return _("Equipment removed."), {}


@action("power")
def _power(request: AuthenticatedRequest, character: Character, membership: Membership) -> tuple[str, dict[str, Any]]:
    domains = [(t.code, t.name_fr) for t in character.traits.filter(kind=TraitKind.POWER_DOMAIN)]
    feeds = [(code, code) for code in character.power_feeds.filter(allowed=True).values_list("trait", flat=True)]
    data = _valid("power_form", PowerUseForm(request.POST, domains=domains, feeds=feeds))
    result = power_use(character=character, actor=request.user, **data)
    from characters.labels import difficulty_label, rank_display

    return _("Power used: a %(difficulty)s test (required rank %(rank)s).") % {
        "difficulty": difficulty_label(result.difficulty), "rank": rank_display(result.required_rank),
    }, {"power_result": result}  # fmt: skip


@action("rest")
def _rest(request: AuthenticatedRequest, character: Character, membership: Membership) -> tuple[str, dict[str, Any]]:
    character_rest(character=character, actor=request.user)
    return _("Rested: Potential and Vigour restored."), {}


@action("feed", narrator_only=True)
def _feed(request: AuthenticatedRequest, character: Character, membership: Membership) -> tuple[str, dict[str, Any]]:
    data = _valid("feed_form", _feed_form(selectors.sheet(character, ledger=False, feeds=False), request.POST))
    feed_allow(character=character, actor=request.user, domain=data["domain"], trait=data["trait"])
    return _("The trait may now feed the domain."), {}


@action("unfeed", narrator_only=True)
def _unfeed(request: AuthenticatedRequest, character: Character, membership: Membership) -> tuple[str, dict[str, Any]]:
    feed = _picked(request, "feed", PowerFeed.objects.filter(character=character))
    feed_revoke(feed=feed, actor=request.user)
    return _("The trait no longer feeds the domain."), {}


@action("healing")
def _healing(request: AuthenticatedRequest, character: Character, membership: Membership) -> tuple[str, dict[str, Any]]:
    power = request.POST.get("power", "")
    healing_start(character=character, actor=request.user, power=power)
    return _("%(power)s started: the game clock heals and spends Potential.") % {"power": power_name(power)}, {}


@action("healing_stop")
def _healing_stop(
    request: AuthenticatedRequest, character: Character, membership: Membership
) -> tuple[str, dict[str, Any]]:
    power = character.healing_power
    powers_services.healing_stop(character=character, actor=request.user)
    return _("%(power)s stopped.") % {"power": power_name(power)}, {}


@action("hand", narrator_only=True)
def _hand(request: AuthenticatedRequest, character: Character, membership: Membership) -> tuple[str, dict[str, Any]]:
    players = [(m.user_id, m.user.username) for m in character.campaign.memberships.select_related("user")]
    data = _valid("hand_form", HandAllyForm(request.POST, players=players))
    player = User.objects.filter(pk=data["player"]).first() if data["player"] else None
    ally_hand(character=character, actor=request.user, player=player)
    return _("Ally handed over."), {}
