"""Pages and one-tap actions of the Savage-style states: thin views over states.services."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.http import require_GET, require_POST

from campaigns.access import MemberRequest, campaign_member, campaign_narrator
from campaigns.chronicle import describe
from campaigns.live import feed_subject
from campaigns.models import Campaign, Event, Membership
from characters.access import can_edit, character_for_viewer, reach_character
from characters.models import Character
from core.errors import ServiceError
from core.forms import posted_ids
from core.http import AuthenticatedRequest, allow_methods
from core.kept_regions import region_html
from states.chronicle import roll_text
from states.forms import CountForm, RollForm, SheetForm, TrickForm
from states.models import SavageRound, SavageState
from states.regions import (
    PANEL,
    ROUND_TRACKER,
    RoundOf,
    StatePanel,
    expected_version,
    panel_context,
    panel_state,
    round_context,
)
from states.rules.states import INCAPACITATING_WOUND
from states.selectors import (
    round_of,
    savage_targets,
)
from states.services import rolls
from states.services.fatigue import savage_fatigue_action, savage_fatigue_gain, savage_fatigue_lose
from states.services.rolls import savage_trait_roll
from states.services.rounds import (
    savage_round_deal,
    savage_round_end,
    savage_round_next_turn,
    savage_round_set_participants,
)
from states.services.shaken import savage_shaken_roll, savage_shaken_set, savage_token_award, savage_token_unshake
from states.services.sheet import savage_sheet_update
from states.services.situations import savage_situation_toggle, savage_total_defence, savage_tricked_clear
from states.services.wounds import (
    savage_bleeding_roll,
    savage_bleeding_set,
    savage_incapacitation_roll,
    savage_wounds_set,
    savage_wounds_take,
)
from states.subjects import round_subject, states_subject


def _int(value: Any, default: int | None = None) -> int | None:
    try:
        return int(value)
    except (TypeError, ValueError):
        return default


def _respond(
    request: AuthenticatedRequest, character: Character, membership: Membership, error: str = "", status: int = 200
) -> HttpResponse:
    if request.htmx and request.POST.get("from") == "round":
        return _round_answer(request, character.campaign, membership, error, status)
    if request.htmx:
        context = panel_context(character, membership)
        context["error"] = error
        if not error:
            # What just happened, dice and penalties included, even before the live feed brings it.
            latest = (
                Event.objects.visible_to(membership)
                .filter(kind__startswith="savage.", characters=character)
                .select_related("actor")
                .order_by("-pk")
                .first()
            )
            context["notice"] = describe(latest) if latest else ""
        return render(request, "states/partials/panel.html", context, status=status)
    if error:
        messages.error(request, error)
    return redirect("states:savage_state", character.pk)


@login_required
@allow_methods("GET", reach=reach_character)
def savage_state(request: AuthenticatedRequest, character_id: int) -> HttpResponse:
    character, membership = character_for_viewer(request.user, character_id)
    if not character.campaign.savage_states:
        raise Http404
    # The panel is the region (states.regions.PANEL), kept by its declaration; the forms beside it read the state
    # row's version alone.
    panel = StatePanel(character, panel_state(character))
    state = panel.state
    context: dict[str, Any] = {
        "character": character, "campaign": character.campaign, "membership": membership,
        "can_edit": can_edit(membership, character), "is_narrator": membership.is_narrator,
        "version": expected_version(state, SavageState),
        "panel_html": region_html(PANEL, panel, membership, request=request),
    }  # fmt: skip
    targets = savage_targets(membership, exclude=character.pk)
    context["roll_form"] = RollForm(targets=targets, initial={"version": context["version"]})
    context["trick_form"] = TrickForm(targets=targets, initial={"version": context["version"]})
    initial: dict[str, Any] = {"wild_card": True, "base_pace": 6, "base_parry": 2}
    if state is not None:
        initial = {
            f: getattr(state, f)
            for f in ("vigor_die", "spirit_die", "agility_die", "smarts_die", "wild_card", "base_pace", "base_parry")
        }
    initial["version"] = context["version"]
    context["sheet_form"] = SheetForm(initial=initial)
    context["live_watch"] = [states_subject(character.pk), feed_subject(character.campaign_id)]
    return render(request, "states/state.html", context)


Action = Callable[[AuthenticatedRequest, Character, int | None], object]


def _one_tap_actions() -> dict[str, tuple[bool, Action]]:
    """Action name → (narrator only, call). Every call passes the actor and the expected version."""
    p = lambda request, name: request.POST.get(name, "")  # noqa: E731

    return {
        "shaken_on": (
            False,
            lambda r, c, v: savage_shaken_set(character=c, actor=r.user, shaken=True, expected_version=v),
        ),
        "shaken_off": (
            False,
            lambda r, c, v: savage_shaken_set(character=c, actor=r.user, shaken=False, expected_version=v),
        ),
        "shaken_roll": (
            False,
            lambda r, c, v: savage_shaken_roll(character=c, actor=r.user, expected_version=v),
        ),
        "token_unshake": (
            False,
            lambda r, c, v: savage_token_unshake(character=c, actor=r.user, expected_version=v),
        ),
        "token_award": (
            True,
            lambda r, c, v: savage_token_award(
                character=c, actor=r.user, count=_count(r, "token_award"), expected_version=v
            ),
        ),
        "wounds_set": (
            False,
            lambda r, c, v: savage_wounds_set(
                character=c, actor=r.user, count=_count(r, "wounds_set"), expected_version=v
            ),
        ),
        "wounds_take": (
            False,
            lambda r, c, v: savage_wounds_take(
                character=c,
                actor=r.user,
                count=_count(r, "wounds_take"),
                soak=p(r, "soak") == "on",
                lethal=p(r, "nonlethal") != "on",
                expected_version=v,
            ),
        ),
        "incapacitation_roll": (
            False,
            lambda r, c, v: savage_incapacitation_roll(character=c, actor=r.user, expected_version=v),
        ),
        "bleeding_on": (
            False,
            lambda r, c, v: savage_bleeding_set(character=c, actor=r.user, bleeding=True, expected_version=v),
        ),
        "bleeding_off": (
            False,
            lambda r, c, v: savage_bleeding_set(character=c, actor=r.user, bleeding=False, expected_version=v),
        ),
        "bleeding_roll": (
            False,
            lambda r, c, v: savage_bleeding_roll(character=c, actor=r.user, expected_version=v),
        ),
        "fatigue_gain": (
            False,
            lambda r, c, v: savage_fatigue_gain(character=c, actor=r.user, source=p(r, "source"), expected_version=v),
        ),
        "fatigue_lose": (
            False,
            lambda r, c, v: savage_fatigue_lose(character=c, actor=r.user, source=p(r, "source"), expected_version=v),
        ),
        "recovery": (
            False,
            lambda r, c, v: savage_fatigue_action(
                character=c, actor=r.user, action=p(r, "recovery"), expected_version=v
            ),
        ),
        "situation": (
            False,
            lambda r, c, v: savage_situation_toggle(
                character=c, actor=r.user, situation=p(r, "situation"), expected_version=v
            ),
        ),
        "total_defence": (
            False,
            lambda r, c, v: savage_total_defence(character=c, actor=r.user, die=p(r, "die"), expected_version=v),
        ),
        "trick_end": (
            False,
            lambda r, c, v: savage_tricked_clear(character=c, actor=r.user, expected_version=v),
        ),
    }


# Action → (lowest, highest, default when not posted, refusal). The bounds are the panel's own: wounds 0–4
# (« Une quatrième le fait passer en État Critique »), 1–4 incoming, tokens a handful per tap.
MAX_TOKEN_AWARD = 10
_COUNTS: dict[str, tuple[int, int, int | None, Callable[[], str]]] = {
    "wounds_set": (0, INCAPACITATING_WOUND, None, lambda: _("Choose a number of wounds from 0 to 4.")),
    "wounds_take": (1, INCAPACITATING_WOUND, 1, lambda: _("Choose from 1 to 4 incoming wounds.")),
    "token_award": (
        1,
        MAX_TOKEN_AWARD,
        1,
        lambda: (
            ngettext(
                "Award from 1 to %(count)s token at a time.",
                "Award from 1 to %(count)s tokens at a time.",
                MAX_TOKEN_AWARD,
            )
            % {"count": MAX_TOKEN_AWARD}
        ),
    ),
}


def _count(request: HttpRequest, action: str) -> int:
    low, high, default, refusal = _COUNTS[action]
    form = CountForm(request.POST, low=low, high=high, default=default)
    if not form.is_valid():
        raise ServiceError(refusal())
    return form.value()


@login_required
@allow_methods("POST", reach=reach_character)
def savage_action(request: AuthenticatedRequest, character_id: int, action: str) -> HttpResponse:
    """One tap: apply or remove a state, or roll what the state asks for."""
    character, membership = character_for_viewer(request.user, character_id)
    actions = _one_tap_actions()
    if action not in actions:
        raise Http404
    narrator_only, call = actions[action]
    if not can_edit(membership, character) or (narrator_only and not membership.is_narrator):
        raise PermissionDenied(_("You can only change your own characters."))
    try:
        call(request, character, _int(request.POST.get("version")))
    except ServiceError as exc:
        return _respond(request, character, membership, exc.message, exc.status)
    return _respond(request, character, membership)


@login_required
@allow_methods("POST", reach=reach_character)
def savage_roll(request: AuthenticatedRequest, character_id: int) -> HttpResponse:
    """The roll dialog: the penalties of wounds, fatigue and situations are applied by the service."""
    character, membership = character_for_viewer(request.user, character_id)
    if not can_edit(membership, character):
        raise PermissionDenied(_("You can only change your own characters."))
    form = RollForm(request.POST, targets=savage_targets(membership, exclude=character.pk))
    result = ""
    error = ""
    status = 200
    if form.is_valid():
        data = form.cleaned_data
        try:
            roll = savage_trait_roll(
                character=character,
                actor=request.user,
                trait=data["trait"],
                die=data["die"],
                modifier=data.get("modifier") or 0,
                attack=data.get("attack") or "",
                target=data.get("target"),
                distance=data.get("distance") or 1,
                surprise=data.get("surprise", False),
                expected_version=data.get("version"),
            )
            result = roll_text(roll.to_json())
        except ServiceError as exc:
            error, status = exc.message, exc.status
    else:
        status = 400
    context = panel_context(character, membership)
    context.update(roll_form=form, roll_result=result, roll_error=error)
    if request.htmx:
        return render(request, "states/partials/roll_form.html", context, status=status)
    if error:
        messages.error(request, error)
    elif result:
        messages.success(request, result)
    return redirect("states:savage_state", character.pk)


@login_required
@allow_methods("POST", reach=reach_character)
def savage_trick(request: AuthenticatedRequest, character_id: int) -> HttpResponse:
    character, membership = character_for_viewer(request.user, character_id)
    if not can_edit(membership, character):
        raise PermissionDenied(_("You can only change your own characters."))
    form = TrickForm(request.POST, targets=savage_targets(membership, exclude=character.pk))
    error = ""
    if form.is_valid():
        try:
            rolls.savage_trick(
                character=character,
                target=form.cleaned_data["target"],
                actor=request.user,
                attribute=form.cleaned_data["attribute"],
                expected_version=form.cleaned_data.get("version"),
            )
        except ServiceError as exc:
            error = exc.message
    else:
        error = _("Choose the target and the attribute.")
    return _respond(request, character, membership, error, 400 if error else 200)


@login_required
@allow_methods("POST", reach=reach_character)
def savage_sheet(request: AuthenticatedRequest, character_id: int) -> HttpResponse:
    character, membership = character_for_viewer(request.user, character_id)
    if not can_edit(membership, character):
        raise PermissionDenied(_("You can only change your own characters."))
    form = SheetForm(request.POST)
    if not form.is_valid():
        messages.error(request, _("Enter trait dice such as d4, d8 or d12+1."))
        return redirect("states:savage_state", character.pk)
    try:
        savage_sheet_update(
            character=character,
            actor=request.user,
            data=form.cleaned_data,
            expected_version=form.cleaned_data.get("version"),
        )
    except ServiceError as exc:
        messages.error(request, exc.message)
    return redirect("states:savage_state", character.pk)


@campaign_member
@require_GET
def savage_round(request: MemberRequest, campaign_id: int) -> HttpResponse:
    membership: Membership = request.membership
    campaign = membership.campaign
    if not campaign.savage_states:
        raise Http404
    tracker = round_of(campaign)
    round_html = region_html(ROUND_TRACKER, RoundOf(campaign, tracker), membership, request=request)
    if request.htmx:
        return HttpResponse(round_html)
    context: dict[str, Any] = {"campaign": campaign, "membership": membership, "is_narrator": membership.is_narrator,
                               "version": expected_version(tracker, SavageRound), "round_html": round_html}  # fmt: skip
    if membership.is_narrator:
        chosen = set(tracker.participants.values_list("pk", flat=True)) if tracker else set()
        context["candidates"] = [(c, c.pk in chosen) for c in Character.objects.filter(campaign=campaign)]
    context["live_watch"] = [round_subject(campaign.pk), feed_subject(campaign.pk)]
    return render(request, "states/round.html", context)


@campaign_narrator
@require_POST
def savage_round_action(request: MemberRequest, campaign_id: int, action: str) -> HttpResponse:
    membership: Membership = request.membership
    campaign = membership.campaign
    version = _int(request.POST.get("version"))
    try:
        if action == "participants":
            # Each id bounded to the column's range: a 20-digit one was an OverflowError on SQLite (a 500).
            ids = posted_ids(request.POST.getlist("characters"))
            chosen = list(Character.objects.filter(campaign=campaign, pk__in=ids))
            savage_round_set_participants(
                campaign=campaign, actor=request.user, characters=chosen, expected_version=version
            )
        elif action == "deal":
            savage_round_deal(campaign=campaign, actor=request.user, expected_version=version)
        elif action == "next":
            savage_round_next_turn(campaign=campaign, actor=request.user, expected_version=version)
        elif action == "end":
            savage_round_end(campaign=campaign, actor=request.user, expected_version=version)
        else:
            raise Http404
    except ServiceError as exc:
        if request.htmx:
            return _round_answer(request, campaign, membership, exc.message, exc.status)
        messages.error(request, exc.message)
    if request.htmx:
        return _round_answer(request, campaign, membership)
    return redirect("states:savage_round", campaign.pk)


def _round_answer(
    request: AuthenticatedRequest, campaign: Campaign, membership: Membership, error: str = "", status: int = 200
) -> HttpResponse:
    """The round tracker as an htmx answer: the region (states.regions.ROUND_TRACKER), or with the refusal's reason
    rendered from the same template and context builder, never kept."""
    if not error:
        return HttpResponse(
            region_html(ROUND_TRACKER, RoundOf(campaign, round_of(campaign)), membership, request=request)
        )
    context = round_context(campaign, membership)
    context["error"] = error
    return render(request, "states/partials/round.html", context, status=status)
