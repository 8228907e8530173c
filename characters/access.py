"""Who may see and change a character: its owner and the narrators; other players see PCs only."""

from __future__ import annotations

from typing import Any

from django.db.models import Q, QuerySet
from django.http import Http404

from campaigns import answer_position
from campaigns.access import membership_or_404
from campaigns.models import CampaignStream, Membership
from characters.models import Character, CharacterKind
from core.prepared import PreparedRead

# The campaign's stream head comes in the same statement as the character (its stream row, joined), so it is the head
# that character was read at: the answer shows at least that position (X-Live-Position, a sheet's socket starts
# there). The head read later with the membership could be newer than the character the page shows. Every sheet, its
# answers and its actions read it: compiled once (core.prepared), compiling it cost more than running it.
_character_of = PreparedRead(
    lambda character_id: (
        Character.objects.select_related("campaign", "owner", "campaign__stream").filter(pk=character_id).order_by()[:1]
    )
)


def character_for_viewer(user: Any, character_id: int) -> tuple[Character, Membership]:
    found = _character_of(int(character_id))
    if not found:
        raise Http404
    character = found[0]
    membership = membership_or_404(user, character.campaign_id)
    if not can_view(membership, character):
        raise Http404
    try:
        head = character.campaign.stream.position
    except CampaignStream.DoesNotExist:
        head = 0  # no event since streams began
    answer_position.note(answer_position.campaign_stream(character.campaign_id), head)
    return character, membership


def reach_character(request: Any, character_id: int, **_: Any) -> None:
    """404 unless the visitor may see the character (before a view checks the method: core.http.allow_methods)."""
    character_for_viewer(request.user, character_id)


def can_view(membership: Membership, character: Character) -> bool:
    # NPC sheets are the narrator's secrets unless handed to a player to run.
    return membership.is_narrator or character.kind == CharacterKind.PC or character.owner_id == membership.user_id


def can_edit(membership: Membership, character: Character) -> bool:
    return membership.is_narrator or character.owner_id == membership.user_id


def viewable_characters(membership: Membership) -> QuerySet[Character]:
    """The campaign's characters this member may see (as ``can_view``): never the narrator's NPCs."""
    characters = Character.objects.filter(campaign_id=membership.campaign_id)
    if membership.is_narrator:
        return characters
    return characters.filter(Q(kind=CharacterKind.PC) | Q(owner_id=membership.user_id))
