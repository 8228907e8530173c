"""Reads of the campaign app: what a page shows, in a constant number of queries."""

from __future__ import annotations

from dataclasses import dataclass

from django.contrib.auth.models import User
from django.db.models import QuerySet

from campaigns.models import Campaign, Event, GameSession, Membership, SessionStatus


def campaigns_of(user: User) -> QuerySet[Membership]:
    return Membership.objects.filter(user=user).select_related("campaign").order_by("campaign__name")


def members_of(campaign: Campaign) -> QuerySet[Membership]:
    return campaign.memberships.select_related("user").order_by("role", "user__username")


def open_session(campaign: Campaign) -> GameSession | None:
    return campaign.game_sessions.filter(status=SessionStatus.OPEN).first()


@dataclass(frozen=True)
class LogFilter:
    game_session: int | None = None
    character: int | None = None
    kind: str | None = None


def log_events(membership: Membership, log_filter: LogFilter) -> QuerySet[Event]:
    events = Event.objects.visible_to(membership)
    return filter_events(events, log_filter).for_display()


def public_log_events(campaign: Campaign, log_filter: LogFilter) -> QuerySet[Event]:
    events = Event.objects.filter(campaign=campaign).public()
    return filter_events(events, log_filter).for_display()


def filter_events(events: QuerySet[Event], log_filter: LogFilter) -> QuerySet[Event]:
    if log_filter.game_session:
        events = events.filter(game_session_id=log_filter.game_session)
    if log_filter.character:
        events = events.filter(characters__id=log_filter.character)
    if log_filter.kind:
        events = events.filter(kind=log_filter.kind)
    return events


def recent_events(membership: Membership, limit: int = 30) -> list[Event]:
    return list(Event.objects.visible_to(membership).for_display()[:limit])
