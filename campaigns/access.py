"""Who may see and change what in a campaign. Non-members get 404: a campaign's existence is private."""

from __future__ import annotations

from collections.abc import Callable
from functools import wraps
from typing import Any

from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpResponse
from django.utils.translation import gettext as _

from campaigns import answer_position
from campaigns.kept import WITH_HEAD
from campaigns.models import Membership
from core.http import AuthenticatedRequest
from core.prepared import PreparedRead

View = Callable[..., HttpResponse]


class MemberRequest(AuthenticatedRequest):
    """The request of a view behind ``campaign_member`` or ``campaign_narrator``: the caller's membership."""

    membership: Membership


def membership_or_404(user: Any, campaign_id: int) -> Membership:
    if not user.is_authenticated:
        raise Http404
    found = _membership_of(int(campaign_id), int(user.pk))
    if not found:
        raise Http404
    return found[0]


# At most one row (one membership per user and campaign): no ordering, so no join for it. The campaign's stream
# row comes along: its head, read first, is what the kept parts of the pages are keyed by (campaigns.kept). Every
# campaign page and the odds keystroke read it: compiled once (core.prepared).
_membership_of = PreparedRead(
    lambda campaign_id, user_id: (
        Membership.objects.select_related(*WITH_HEAD).filter(campaign_id=campaign_id, user_id=user_id).order_by()[:1]
    )
)


def campaign_member(view: View) -> View:
    """Resolve ``campaign_id`` to the caller's Membership (``request.membership``) or 404."""

    @login_required
    @wraps(view)
    def wrapper(request: MemberRequest, campaign_id: int, *args: Any, **kwargs: Any) -> HttpResponse:
        # The request becomes a MemberRequest here: the view behind finds its membership on it.
        request.membership = membership_or_404(request.user, campaign_id)
        answer_position.note_head(request.membership)  # the answer shows at least this (X-Live-Position)
        return view(request, campaign_id, *args, **kwargs)

    return wrapper


def campaign_narrator(view: View) -> View:
    """As campaign_member, and only narrators may go on (players get 403)."""

    @campaign_member
    @wraps(view)
    def wrapper(request: MemberRequest, campaign_id: int, *args: Any, **kwargs: Any) -> HttpResponse:
        if not request.membership.is_narrator:
            raise PermissionDenied(_("Only a narrator can do this."))
        return view(request, campaign_id, *args, **kwargs)

    return wrapper
