"""A Jeton spent from a Sequence's draw panel: « il est possible d'utiliser un jeton à tout moment pour éliminer un
état Secoué, y compris après avoir fait son jet d'Âme. Dans ce cas, le personnage peut agir normalement » (state
cards). The use case is the states app's; this view only answers with the draw panel, attack cards back."""

from __future__ import annotations

from django.http import HttpResponse
from django.views.decorators.http import require_POST

from campaigns.access import MemberRequest, campaign_member
from conflicts.views import _back, _mine, _panel_response
from core.errors import ServiceError
from states.services.shaken import savage_token_unshake


@campaign_member
@require_POST
def unshake(request: MemberRequest, campaign_id: int, participant_id: int) -> HttpResponse:
    membership, _everyone, me = _mine(request, campaign_id, participant_id)
    try:
        savage_token_unshake(character=me.character, actor=request.user, expected_version=None)
    except ServiceError as exc:
        return _panel_response(request, membership, me, error=exc.message, status=200 if request.htmx else exc.status)
    if request.htmx:
        return _panel_response(request, membership, me)
    return _back(request, me)
