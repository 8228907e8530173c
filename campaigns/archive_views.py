"""The archive's two doors: a narrator downloads the campaign's archive; anyone logged in imports one as a new
campaign they narrate (campaigns.archive, docs/archive.md)."""

from __future__ import annotations

import json

from django import forms
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpResponse
from django.shortcuts import redirect
from django.utils import timezone
from django.utils.text import slugify
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_GET, require_POST

from campaigns.access import MemberRequest, campaign_narrator
from campaigns.archive.reading import max_archive_bytes
from campaigns.archive.restoring import campaign_import
from campaigns.archive.writing import campaign_archive
from core.errors import ServiceError
from core.http import AuthenticatedRequest


class ArchiveUploadForm(forms.Form):
    archive = forms.FileField(label=gettext_lazy("Campaign archive (.json)"))


def archive_filename(name: str) -> str:
    return f"{slugify(name) or 'campaign'}-{timezone.localdate():%Y-%m-%d}.tablee.json"


@campaign_narrator
@require_GET
def archive_download(request: MemberRequest, campaign_id: int) -> HttpResponse:
    """The whole campaign, secrets included: narrators only (``campaign_narrator``; players get 403)."""
    membership = request.membership
    archive = campaign_archive(campaign=membership.campaign, membership=membership)
    response = HttpResponse(json.dumps(archive, ensure_ascii=False, indent=1), content_type="application/json")
    response["Content-Disposition"] = f'attachment; filename="{archive_filename(membership.campaign.name)}"'
    # It holds the narrator's secrets: no cache on the way keeps a copy.
    response["Cache-Control"] = "no-store"
    return response


@login_required
@require_POST
def archive_upload(request: AuthenticatedRequest) -> HttpResponse:
    form = ArchiveUploadForm(request.POST, request.FILES)
    if not form.is_valid():
        messages.error(request, _("Choose a campaign archive to import."))
        return redirect("campaigns:list")
    upload = form.cleaned_data["archive"]
    limit = max_archive_bytes()
    if upload.size > limit:
        # Refused before reading it: the size is known from the upload itself.
        messages.error(request, _("This archive is too big: at most %(size)d MB.") % {"size": max(1, limit // 2**20)})
        return redirect("campaigns:list")
    try:
        campaign = campaign_import(data=upload.read(), importer=request.user)
    except ServiceError as refusal:
        messages.error(request, str(refusal))
        return redirect("campaigns:list")
    messages.success(
        request,
        _("Campaign imported. Send each member the invitation link made for them, on the members page."),
    )
    return redirect("campaigns:members", campaign.pk)
