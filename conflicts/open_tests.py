"""Reads of the Tests another character may still help or counter with an Atout."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from campaigns.models import Event, Membership


@dataclass(frozen=True)
class OpenTest:
    """Another character's Test an Atout may still act on (help, counter): what the sheet's form names."""

    roll: str
    character_id: int
    character: str
    trait: str
    difficulty: str


def tests_open_to_others(membership: Membership, character: Any, *, limit: int = 6) -> list[OpenTest]:
    """The last Test of each other character of the campaign this member may see, rolled in the current session
    and without a Revers written: « Un joueur ne peut dépenser des Atouts pour apporter de l'aide qu'une fois par
    jet de dé » names one roll, so the form offers these and nothing typed. Narrators-only Tests (an NPC's) stay
    off players' lists.

    « Ce bonus est accordé pour un tirage de cartes ou un lancer de dés »: help is given at the table, to a roll
    being played. With a session open, only its Tests are listed; with none open, only the Tests filed under no
    session since the last one closed (a scene played between sessions). Last week's Test is not a roll anyone
    is still playing (docs/rules-decisions.md, « Help lists the current session's Tests »)."""
    from django.utils.translation import get_language

    from campaigns.models import GameSession, SessionStatus, Visibility

    events = Event.objects.filter(campaign_id=character.campaign_id, kind="test.rolled").exclude(characters=character)
    sessions = GameSession.objects.filter(campaign_id=character.campaign_id)
    current = sessions.filter(status=SessionStatus.OPEN).values_list("pk", flat=True).first()
    if current is not None:
        events = events.filter(game_session_id=current)
    else:
        events = events.filter(game_session__isnull=True)
        closed = sessions.filter(closed_at__isnull=False).order_by("-closed_at").values_list("closed_at", flat=True)
        last_closed = closed.first()
        if last_closed is not None:
            events = events.filter(created_at__gt=last_closed)
    if not membership.is_narrator:
        events = events.filter(visibility=Visibility.EVERYONE)
    tests: list[OpenTest] = []
    seen: set[int] = set()
    for payload, character_id in events.order_by("-pk").values_list("payload", "characters__id")[:50]:
        if character_id is None or character_id in seen:
            continue
        seen.add(character_id)
        if payload.get("rolled") and not payload.get("revers"):
            english = (get_language() or "fr")[:2] == "en" and payload.get("trait_name_en")
            trait = (payload["trait_name_en"] if english else payload.get("trait_name")) or payload.get("trait") or ""
            tests.append(OpenTest(payload["roll"], character_id, payload["character"], trait, payload["difficulty"]))
        if len(tests) >= limit:
            break
    return tests
