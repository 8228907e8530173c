"""The live table: every committed Event is pushed to the campaign's WebSocket group.

Only the event's id crosses the channel layer. Each connected consumer loads the event, checks
that its own user may see it and renders it for that user, so a secret never reaches the wrong
socket. Apps add their own out-of-band fragments (a character panel, a sequence view) with
``@live_fragment("kind.prefix")``.

A page may ask for more about what it shows: its socket URL carries ``?watch=<subject>`` (e.g.
``character:12`` on a character sheet, ``home:3`` on a campaign's home page or dashboard), and renderers check ``viewer.watches(subject)`` before
sending a whole section rather than sending it to every member of the campaign.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
from django.db import transaction

if TYPE_CHECKING:
    from campaigns.models import Event, Membership


logger = logging.getLogger(__name__)


def campaign_group(campaign_id: int) -> str:
    return f"campaign-{campaign_id}"


MAX_WATCHED = 4


def watched_subjects(values: list[str]) -> frozenset[str]:
    """The subjects a socket watches, from its ``watch`` query values: ``<name>:<id>`` only, a few at most."""
    subjects = set()
    for value in values[:MAX_WATCHED]:
        name, _sep, pk = value.partition(":")
        if name.isidentifier() and pk.isascii() and pk.isdigit():  # "²".isdigit() but int("²") raises
            subjects.add(f"{name}:{int(pk)}")
    return frozenset(subjects)


def home_subject(campaign_id: int) -> str:
    """What a campaign's home page or dashboard watches: its game card and the sequences under way."""
    return f"home:{campaign_id}"


@dataclass(frozen=True)
class Viewer:
    """Who a live fragment is rendered for: the membership, what the page watches (``watching``) and
    the page's CSRF token for forms in the fragments (empty when the socket carries no CSRF cookie)."""

    membership: Membership
    watching: frozenset[str] = frozenset()
    csrf_token: str = ""

    def watches(self, subject: str) -> bool:
        return subject in self.watching

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


class _BroadcastHealth:
    """Logs a failing channel layer once per outage rather than once per write."""

    failing = False

    def failed(self, error: BaseException) -> None:
        if not self.failing:
            self.failing = True
            logger.warning("live broadcast failed; pages will catch up when the channel layer is back: %r", error)

    def succeeded(self) -> None:
        if self.failing:
            self.failing = False
            logger.warning("live broadcasts work again")


broadcast_health = _BroadcastHealth()


def broadcast(campaign_id: int, message: dict[str, object]) -> bool:
    """Send one message to the campaign's group; a failing channel layer is logged, never raised:
    the write it announces has already committed, and the pages ask for what they missed."""
    layer = get_channel_layer()
    if layer is None:
        return False
    try:
        async_to_sync(layer.group_send)(campaign_group(campaign_id), message)
    except Exception as error:  # any layer failure (Redis down, a timeout) must not fail a write
        broadcast_health.failed(error)
        return False
    broadcast_health.succeeded()
    return True


def broadcast_on_commit(event: Event) -> None:
    """Announce the event to the campaign's sockets once the transaction that wrote it commits."""
    message = {"type": "event.created", "event_id": event.pk, "position": event.position}
    campaign_id = event.campaign_id
    transaction.on_commit(lambda: broadcast(campaign_id, message))
