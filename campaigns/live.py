"""The live table: every committed Event is pushed to the campaign's WebSocket group.

Only the event's id crosses the channel layer. Each connected consumer loads the event, checks
that its own user may see it and renders it for that user, so a secret never reaches the wrong
socket. Apps add their own out-of-band fragments (a character panel, a sequence view) with
``@live_fragment("kind.prefix")``.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
from django.db import transaction

if TYPE_CHECKING:
    from campaigns.models import Event, Membership


def campaign_group(campaign_id: int) -> str:
    return f"campaign-{campaign_id}"


@dataclass(frozen=True)
class Viewer:
    """Who a live fragment is rendered for."""

    membership: Membership

    @property
    def user_id(self) -> int:
        return self.membership.user_id

    @property
    def is_narrator(self) -> bool:
        return self.membership.is_narrator


FragmentRenderer = Callable[["Event", Viewer], list[str]]
_fragment_renderers: list[tuple[str, FragmentRenderer]] = []


def live_fragment(kind_prefix: str) -> Callable[[FragmentRenderer], FragmentRenderer]:
    """Register a renderer of extra hx-swap-oob fragments for events whose kind starts with the prefix."""

    def register(func: FragmentRenderer) -> FragmentRenderer:
        _fragment_renderers.append((kind_prefix, func))
        return func

    return register


def extra_fragments(event: Event, viewer: Viewer) -> list[str]:
    fragments: list[str] = []
    for prefix, renderer in _fragment_renderers:
        if event.kind.startswith(prefix):
            fragments.extend(renderer(event, viewer))
    return fragments


def broadcast_on_commit(event: Event) -> None:
    """Announce the event to the campaign's sockets once the transaction that wrote it commits."""
    campaign_id, event_id = event.campaign_id, event.pk

    def send() -> None:
        layer = get_channel_layer()
        if layer is not None:
            async_to_sync(layer.group_send)(
                campaign_group(campaign_id), {"type": "event.created", "event_id": event_id}
            )

    transaction.on_commit(send)
