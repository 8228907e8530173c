"""The campaign's one settings page: every registered section, each saved on its own (campaigns/settings_sections.py).

A section's form posts to ``settings/<key>/``; saved, the narrator is sent back to the section (POST, redirect,
GET: a refresh resubmits nothing); refused, the page is drawn again with that section's forms as posted and the
reason, the other sections fresh. This module also lends the page the campaign's own two sections: the campaign
itself (its name and description) and the public log.
"""

from __future__ import annotations

import copy
from typing import Any

from django.contrib import messages
from django.http import Http404, HttpResponse
from django.shortcuts import redirect, render
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_POST

from campaigns import services
from campaigns.access import MemberRequest, campaign_narrator
from campaigns.forms import campaign_part_form
from campaigns.models import Campaign
from campaigns.settings_sections import (
    SectionAnswer,
    SettingsSection,
    register_settings_section,
    saved_or_refused,
    settings_section,
    settings_sections,
)


def settings_url(campaign_id: int, key: str) -> str:
    """Where a section sends the narrator back to: the page, scrolled to the section."""
    section = settings_section(key)
    anchor = f"#{section.anchor}" if section else ""
    return reverse("campaigns:settings", args=[campaign_id]) + anchor


def _page(request: MemberRequest, refused: tuple[SettingsSection, SectionAnswer] | None = None) -> HttpResponse:
    membership = request.membership
    campaign = membership.campaign
    drawn = []
    for section in settings_sections():
        context: dict[str, Any] = {"campaign": campaign, "membership": membership, "section": section}
        context.update(section.context(request))
        if refused is not None and refused[0].key == section.key:
            context.update(refused[1].context)
        drawn.append((section, render_to_string(section.template, context, request=request)))
    status = refused[1].status if refused else 200
    context = {"campaign": campaign, "membership": membership, "sections": drawn}
    return render(request, "campaigns/settings.html", context, status=status)


@campaign_narrator
@require_GET
def campaign_settings(request: MemberRequest, campaign_id: int) -> HttpResponse:
    return _page(request)


@campaign_narrator
@require_POST
def settings_section_save(request: MemberRequest, campaign_id: int, key: str) -> HttpResponse:
    section = settings_section(key)
    if section is None or section.post is None:
        raise Http404
    answer = section.post(request)
    if not answer.saved:
        return _page(request, (section, answer))
    if answer.message:
        messages.success(request, answer.message)
    return redirect(settings_url(campaign_id, key))


def section_redirect(key: str) -> Any:
    """An old settings page's address, kept for bookmarks: it sends the narrator to its section."""

    @campaign_narrator
    @require_GET
    def view(request: MemberRequest, campaign_id: int) -> HttpResponse:
        return redirect(settings_url(campaign_id, key))

    view.__name__ = f"{key.replace('-', '_')}_settings_moved"
    return view


# ---------------------------------------------------------------- the campaign's own sections

CampaignNameForm = campaign_part_form(("name", "description"))


def _campaign_context(request: MemberRequest) -> dict[str, Any]:
    campaign = request.membership.campaign
    return {"form": CampaignNameForm(instance=copy.copy(campaign), initial={"version": campaign.version})}


def _campaign_post(request: MemberRequest) -> SectionAnswer:
    campaign: Campaign = request.membership.campaign
    # The form validates a copy: the request's campaign row stays as stored for the other sections.
    form = CampaignNameForm(request.POST, instance=copy.copy(campaign))

    def apply() -> None:
        data = {k: v for k, v in form.cleaned_data.items() if k != "version"}
        services.campaign_settings_update(
            campaign=campaign, actor=request.user, data=data, expected_version=form.cleaned_data["version"]
        )

    return saved_or_refused({"form": form}, apply, message=_("Settings saved."))


def _public_log_context(request: MemberRequest) -> dict[str, Any]:
    return {"next_url": settings_url(request.membership.campaign_id, "public-log")}


def register() -> None:
    register_settings_section(SettingsSection(
        key="campaign", title=lambda: _("The campaign"), order=10,
        template="campaigns/settings/campaign.html", context=_campaign_context, post=_campaign_post,
    ))  # fmt: skip
    register_settings_section(SettingsSection(
        key="public-log", title=lambda: _("Public log"), order=90,
        template="campaigns/settings/public_log.html", context=_public_log_context,
    ))  # fmt: skip
    register_settings_section(SettingsSection(
        key="archive", title=lambda: _("Archive"), order=95,
        template="campaigns/settings/archive.html", context=lambda request: {},
    ))  # fmt: skip
