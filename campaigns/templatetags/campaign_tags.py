from __future__ import annotations

from django import template

from campaigns import selectors
from campaigns.chronicle import describe
from campaigns.models import Event, Membership

register = template.Library()


@register.filter
def chronicle(event: Event) -> str:
    return describe(event)


@register.filter
def can_correct(event: Event, membership: Membership | None) -> bool:
    return selectors.can_correct(event, membership)
