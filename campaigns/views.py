from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.contrib.auth.views import redirect_to_login
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.cache import patch_vary_headers
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_http_methods, require_POST
from django_htmx.http import HttpResponseClientRedirect

from campaigns import page_regions, selectors, services
from campaigns.access import MemberRequest, campaign_member, campaign_narrator
from campaigns.cast import cast
from campaigns.exports import log_as_json, log_as_markdown
from campaigns.forms import (
    CampaignForm,
    ClockAdvanceForm,
    CorrectionForm,
    GameSessionForm,
    InvitationForm,
    LogFilterForm,
    NoteForm,
)
from campaigns.kept import table_head
from campaigns.live import feed_subject, home_subject
from campaigns.log_pages import log_page
from campaigns.models import Campaign, Event, GameSession, Invitation, Membership
from campaigns.now import now_html
from campaigns.page_regions import part_html
from core.errors import ServiceError
from core.fragment_cache import page_token
from core.http import AuthenticatedRequest, allow_methods, posted_next_or
from core.kept_regions import region_html


def _membership(request: MemberRequest) -> Membership:
    return request.membership


@login_required
@require_http_methods(["GET", "POST"])
def campaign_list(request: AuthenticatedRequest) -> HttpResponse:
    form = CampaignForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        campaign = services.campaign_create(owner=request.user, data=form.cleaned_data)
        messages.success(request, _("Campaign created. Invite your players from the members page."))
        return redirect("campaigns:dashboard", campaign.pk)
    memberships = selectors.campaigns_of(request.user)
    status = 400 if form.errors else 200
    return render(request, "campaigns/list.html", {"memberships": memberships, "form": form}, status=status)


@campaign_member
@require_GET
def campaign_home(request: MemberRequest, campaign_id: int) -> HttpResponse:
    membership = _membership(request)
    if membership.is_narrator:
        return redirect("campaigns:dashboard", campaign_id)
    campaign = membership.campaign
    context: dict[str, Any] = {
        "campaign": campaign,
        "membership": membership,
        "live_watch": [home_subject(campaign.pk), feed_subject(campaign.pk)],
        "now_html": now_html(membership, token=page_token(request)),
    }
    context["note_form_html"] = part_html(page_regions.NOTE_FORM, membership, request, context)
    context["feed_html"] = part_html(page_regions.HOME_FEED, membership, request, context)
    context["aside_html"] = part_html(page_regions.HOME_ASIDE, membership, request, context)
    return render(request, "campaigns/home.html", context)


@campaign_narrator
@require_GET
def dashboard(request: MemberRequest, campaign_id: int) -> HttpResponse:
    membership = _membership(request)
    campaign = membership.campaign
    context: dict[str, Any] = {
        "campaign": campaign,
        "membership": membership,
        "panels_html": cast().panels(membership, request),
        "live_watch": [home_subject(campaign.pk), feed_subject(campaign.pk)],
        "now_html": now_html(membership, token=page_token(request)),
    }
    context["note_form_html"] = part_html(page_regions.NOTE_FORM, membership, request, context)
    context["feed_html"] = part_html(page_regions.DASHBOARD_FEED, membership, request, context)
    context["aside_html"] = part_html(page_regions.DASHBOARD_ASIDE, membership, request, context)
    return render(request, "campaigns/dashboard.html", context)


@campaign_narrator
@require_http_methods(["GET", "POST"])
def members(request: MemberRequest, campaign_id: int) -> HttpResponse:
    """Members and invitation links. Creating a link redirects (POST-redirect-GET): a refresh makes no second link;
    every link stays listed, copyable, until it is used, revoked or expired."""
    campaign = _membership(request).campaign
    form = InvitationForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        invitation = services.invitation_create(campaign=campaign, actor=request.user, role=form.cleaned_data["role"])
        return redirect(reverse("campaigns:members", args=[campaign_id]) + f"?new={invitation.pk}#invitations")
    invitations = campaign.invitations.filter(used_at__isnull=True, expires_at__gt=timezone.now())
    new_id = request.GET.get("new", "")
    return render(
        request,
        "campaigns/members.html",
        {
            "campaign": campaign,
            "members": selectors.members_of(campaign),
            "form": form,
            "invitations": invitations,
            "new_id": int(new_id) if new_id.isdigit() else None,
        },
        status=400 if form.errors else 200,
    )


@campaign_narrator
@require_POST
def invitation_revoke(request: MemberRequest, campaign_id: int, invitation_id: int) -> HttpResponse:
    invitation = get_object_or_404(Invitation, pk=invitation_id, campaign_id=campaign_id)
    try:
        services.invitation_revoke(campaign=_membership(request).campaign, actor=request.user, pk=invitation.pk)
    except ServiceError as exc:
        messages.error(request, exc.message)
    else:
        messages.success(request, _("The invitation link no longer works."))
    return redirect(reverse("campaigns:members", args=[campaign_id]) + "#invitations")


@campaign_narrator
@require_POST
def member_role(request: MemberRequest, campaign_id: int, membership_id: int) -> HttpResponse:
    target = get_object_or_404(Membership, pk=membership_id, campaign_id=campaign_id)
    try:
        services.membership_role_set(membership=target, actor=request.user, role=request.POST.get("role", ""))
    except ServiceError as exc:
        messages.error(request, exc.message)
    return redirect("campaigns:members", campaign_id)


@require_http_methods(["GET", "POST"])
def invitation(request: HttpRequest, token: str) -> HttpResponse:
    """The link a narrator sends. Someone not signed in sees which campaign and which narrator invite them,
    with sign-up and log-in links that come back here (a bare login page named neither); joining needs an
    account, so their POST goes to log in first."""
    invitation = Invitation.objects.select_related("campaign", "created_by").filter(token=token).first()
    error = None
    if request.method == "POST":
        user = request.user
        if not user.is_authenticated:
            return redirect_to_login(request.get_full_path())
        try:
            membership = services.invitation_accept(token=token, user=user)
        except ServiceError as exc:
            error = exc.message
        else:
            messages.success(request, _("Welcome to %(name)s!") % {"name": membership.campaign.name})
            return redirect("campaigns:home", membership.campaign_id)
    else:
        error = services.invitation_problem(invitation, timezone.now())
    status = 410 if error else 200
    context = {"invitation": invitation, "error": error, "here": request.path}
    return render(request, "campaigns/invitation.html", context, status=status)


@campaign_narrator
@require_http_methods(["GET", "POST"])
def sessions(request: MemberRequest, campaign_id: int) -> HttpResponse:
    campaign = _membership(request).campaign
    form = GameSessionForm(request.POST or None, initial={"date": timezone.localdate()})
    if request.method == "POST" and form.is_valid():
        services.game_session_create(
            campaign=campaign, actor=request.user, date=form.cleaned_data["date"], title=form.cleaned_data["title"]
        )
        return redirect("campaigns:sessions", campaign_id)
    status = 400 if form.errors else 200
    return render(
        request,
        "campaigns/sessions.html",
        {"campaign": campaign, "form": form, "game_sessions": campaign.game_sessions.order_by("-number")},
        status=status,
    )


@campaign_narrator
@require_POST
def session_transition(request: MemberRequest, campaign_id: int, session_id: int, action: str) -> HttpResponse:
    game_session = get_object_or_404(GameSession, pk=session_id, campaign_id=campaign_id)
    try:
        if action == "open":
            services.game_session_open(game_session=game_session, actor=request.user)
            messages.success(
                request,
                _("Session %(number)s is open: what happens now is logged in it.") % {"number": game_session.number},
            )
        elif action == "close":
            services.game_session_close(game_session=game_session, actor=request.user)
            messages.success(request, _("Session %(number)s is closed.") % {"number": game_session.number})
        else:
            raise Http404
    except ServiceError as exc:
        messages.error(request, exc.message)
    return redirect(posted_next_or(request, reverse("campaigns:sessions", args=[campaign_id])))


@campaign_narrator
@require_POST
def clock_advance(request: MemberRequest, campaign_id: int) -> HttpResponse:
    campaign = _membership(request).campaign
    form = ClockAdvanceForm(request.POST)
    if form.is_valid():
        try:
            services.clock_advance(
                campaign=campaign,
                actor=request.user,
                delta=form.delta(),
                reason=form.cleaned_data["reason"],
                expected=form.cleaned_data["expected"],
            )
        except ServiceError as exc:
            messages.error(request, exc.message)
    else:
        for error in form.errors.values():
            messages.error(request, " ".join(str(message) for message in error))
    return redirect("campaigns:dashboard", campaign_id)


def _log_filter(request: HttpRequest, membership: Membership, events_kinds: list[str]) -> LogFilterForm:
    return page_regions.log_filter_form(membership, events_kinds, request.GET or None)


def _filter_values(form: LogFilterForm) -> selectors.LogFilter:
    if not form.is_bound or not form.is_valid():
        return selectors.LogFilter()
    data = form.cleaned_data
    return selectors.LogFilter(
        game_session=data["game_session"], character=data["character"], kind=data["kind"] or None,
        text=data["q"] or None,
    )  # fmt: skip


def _kinds_in(membership: Membership) -> list[str]:
    # Only the kinds of events this member may read: a kind alone can give a secret away.
    return selectors.log_kinds(membership, table_head(membership))


@campaign_member
@require_GET
def log(request: MemberRequest, campaign_id: int) -> HttpResponse:
    membership = _membership(request)
    campaign = membership.campaign
    # The stream's head (read with the membership, first) changes with every event, in commit order: the
    # kinds kept under it are exact.
    filter_form: LogFilterForm | None = None
    filter_html = ""
    if request.GET:  # a filtered page: its filter is bound to what was asked
        filter_form = _log_filter(request, membership, selectors.log_kinds(membership))
        log_filter = _filter_values(filter_form)
    else:  # the plain page's filter is a region, kept (campaigns.page_regions.LOG_FILTER)
        log_filter = selectors.LogFilter()
        if not request.htmx:
            thing = page_regions.LogFilterOf(campaign, membership)
            filter_html = region_html(page_regions.LOG_FILTER, thing, membership, request=request)
    context: dict[str, Any] = {
        "campaign": campaign,
        "membership": membership,
        "filter_form": filter_form,
        "filter_html": filter_html,
        "live_watch": [feed_subject(campaign.pk)],
    }
    if request.GET:
        events = selectors.filter_events(Event.objects.visible_to(membership), log_filter, campaign.pk)
        page = log_page(events, request.GET, request.path)
        context["page"] = page
        context["entries"] = selectors.lazy_entries_of_rows(page.rows, membership, campaign)
    else:  # the plain page's newest entries: a region, kept (campaigns.page_regions.LOG_ENTRIES)
        context["entries_html"] = region_html(page_regions.LOG_ENTRIES, campaign, membership, request=request)
    if not request.htmx:
        context["note_form_html"] = part_html(page_regions.NOTE_FORM, membership, request, context)
    template = "campaigns/log.html#log-entries" if request.htmx else "campaigns/log.html"
    response = render(request, template, context)
    patch_vary_headers(response, ["HX-Request"])
    return response


@campaign_member
@require_GET
def log_export(request: MemberRequest, campaign_id: int, fmt: str) -> HttpResponse:
    membership = _membership(request)
    campaign = membership.campaign
    filter_form = _log_filter(request, membership, _kinds_in(membership))
    events = selectors.log_events(membership, _filter_values(filter_form)).order_by("created_at", "pk")
    if fmt == "json":
        response = HttpResponse(
            log_as_json(campaign, events, reader=membership), content_type="application/json; charset=utf-8"
        )
    elif fmt == "md":
        response = HttpResponse(
            log_as_markdown(campaign, events, reader=membership), content_type="text/markdown; charset=utf-8"
        )
    else:
        raise Http404
    response["Content-Disposition"] = f'attachment; filename="campaign-{campaign.pk}-log.{fmt}"'
    return response


@campaign_member
@require_POST
def note_create(request: MemberRequest, campaign_id: int) -> HttpResponse:
    membership = _membership(request)
    campaign = membership.campaign
    form = NoteForm(request.POST, membership=membership)
    if form.is_valid():
        try:
            services.note_write(
                membership=membership,
                text=form.cleaned_data["text"],
                private=form.cleaned_data["private"],
                characters=form.cleaned_data["characters"],
            )
        except ServiceError as exc:
            form.add_error("text", exc.message)
        else:
            form = NoteForm(membership=membership)
            if request.htmx:
                # The new entry arrives over the live socket; the form comes back empty.
                return _note_form_answer(request, campaign, form)
            return redirect(posted_next_or(request, reverse("campaigns:log", args=[campaign_id])))
    if request.htmx:
        return _note_form_answer(request, campaign, form, status=400)
    for error in form.errors.values():
        messages.error(request, " ".join(str(message) for message in error))
    return redirect(posted_next_or(request, reverse("campaigns:log", args=[campaign_id])))


def _note_form_answer(request: MemberRequest, campaign: Campaign, form: NoteForm, status: int = 200) -> HttpResponse:
    """The note form as the POST's answer: it still leads back to the page it was posted from, not to this URL."""
    next_url = posted_next_or(request, reverse("campaigns:log", args=[campaign.pk]))
    context = {"campaign": campaign, "note_form": form, "next_url": next_url}
    return render(request, "campaigns/partials/note_form.html", context, status=status)


def _reach_event(request: MemberRequest, campaign_id: int, event_id: int) -> None:
    """404 unless the member may read the event (before the method is checked: core.http.allow_methods)."""
    if not Event.objects.visible_to(_membership(request)).filter(pk=event_id).exists():
        raise Http404


@campaign_member
@allow_methods("POST", reach=_reach_event)
def event_correct(request: MemberRequest, campaign_id: int, event_id: int) -> HttpResponse:
    membership = _membership(request)
    event = Event.objects.visible_to(membership).filter(pk=event_id).first()
    if event is None:
        raise Http404
    form = CorrectionForm(request.POST)
    if form.is_valid():
        try:
            services.event_correct(membership=membership, event=event, reason=form.cleaned_data["reason"])
        except ServiceError as exc:
            messages.error(request, exc.message)
        else:
            messages.success(request, _("Correction recorded."))
    else:
        messages.error(request, _("Say what was wrong: a correction needs its reason."))
    target = reverse("campaigns:log", args=[campaign_id])
    if request.htmx:
        return HttpResponseClientRedirect(target)
    return redirect(target)


@campaign_narrator
@require_POST
def public_log_toggle(request: MemberRequest, campaign_id: int) -> HttpResponse:
    campaign = _membership(request).campaign
    if request.POST.get("publish") == "1":
        services.public_log_publish(campaign=campaign, actor=request.user)
    else:
        services.public_log_unpublish(campaign=campaign, actor=request.user)
    # From the settings page's section or the log's side column: back to the page it was posted from.
    return redirect(posted_next_or(request, reverse("campaigns:log", args=[campaign_id])))


@require_GET
def public_log(request: HttpRequest, token: str) -> HttpResponse:
    campaign = Campaign.objects.filter(public_log_token=token).first()
    if campaign is None or not token:
        raise Http404
    events = Event.objects.filter(campaign=campaign).public()
    page = log_page(events, request.GET, request.path)
    context = {
        "campaign": campaign,
        "page": page,
        "entries": selectors.lazy_entries_of_rows(page.rows, None, campaign),
    }
    return render(request, "campaigns/public_log.html", context)
