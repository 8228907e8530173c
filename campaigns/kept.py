"""Parts of the campaign pages kept until the table changes: the note form, the dashboard's and the home
page's side column (session, clock, Sequences under way, the player's characters).

Every change a use case makes appends one Event, and every Event takes the next position of its
campaign's live stream in the same transaction (``campaigns.models.CampaignStream``, commit order, no
holes). So the stream's head names the state of the whole table: the head is read before anything
else, and whatever the page then reads is at least that recent. The key adds the campaign row (its
options, clock, ``version`` and the ``log_epoch`` renames bump), the reader's membership (role and
user), the page's address, the language and the time zone (core.fragment_cache). What changes without
an Event (the campaign's settings, a rename) is in the campaign row.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.http import HttpRequest
from django.middleware.csrf import get_token
from django.template.loader import render_to_string
from django.utils.safestring import SafeString

from campaigns.forms import NoteForm
from campaigns.models import CampaignStream, Membership
from core.fragment_cache import kept

NOTE_FORM = "campaigns/partials/note_form.html"


def table_head(membership: Membership) -> int:
    """The campaign's stream head, as read with the membership (``campaigns.access.membership_or_404``, the
    page's first query), so that whatever the page reads next is at least that recent."""
    try:
        return membership.campaign.stream.position
    except CampaignStream.DoesNotExist:
        return 0  # no event since streams began: the first one creates the row


def page_token(request: HttpRequest, context: dict[str, Any]) -> str:
    """One CSRF token for the whole page (kept parts and the rest print the same one)."""
    token = context.get("csrf_token") or get_token(request)
    context["csrf_token"] = token
    return str(token)


def kept_part(
    name: str,
    request: HttpRequest,
    membership: Membership,
    context: dict[str, Any],
    render: Callable[[str | None], str],
    template: str,
) -> SafeString:
    """Part ``name`` of a campaign page for ``membership``, drawn by ``template``, kept until the table changes."""
    key = (name, table_head(membership), membership, request.get_full_path())
    return kept(name, key, render, page_token(request, context), template=template)


def note_form_html(request: HttpRequest, membership: Membership, context: dict[str, Any]) -> SafeString:
    """The empty note form (it names the characters the member may tag: a character's creation, handing
    or renaming changes the key)."""

    def render(token: str | None) -> str:
        part = {"campaign": membership.campaign, "note_form": NoteForm(membership=membership), "request": request,
                "csrf_token": token}  # fmt: skip
        return render_to_string(NOTE_FORM, part)

    return kept_part("note-form", request, membership, context, render, NOTE_FORM)


def page_part_html(
    template: str, request: HttpRequest, membership: Membership, context: dict[str, Any], part: dict[str, Any]
) -> SafeString:
    """``template`` (a ``page.html#partial``) rendered with the page's ``context`` and ``part``'s lazy values
    (callables, evaluated only when the part is not kept yet)."""

    def render(token: str | None) -> str:
        values = {name: value() if callable(value) else value for name, value in part.items()}
        return render_to_string(template, {**context, **values, "csrf_token": token}, request=request)

    return kept_part(template, request, membership, context, render, template)
