"""The live table: every committed Event is pushed to the campaign's WebSocket group.

Only the event's id and position cross the channel layer. The consumers of one process share the
event's rendering (campaigns.live_render.EventRendering): each fragment is rendered once per
*audience* (the viewers for whom it reads the same: the narrators, the players it does not concern,
and each player it does concern; × language × what the page shows) and every socket of that audience
gets the same HTML. Apps add their own out-of-band fragments (a character panel, a sequence view) with
``@live_fragment("kind.prefix", audience=…)``; the audience function says which viewers the fragment
reads the same for, and it must put apart any two viewers for whom it could differ (default: each
member on their own).

A page says what it shows: its socket URL carries ``?watch=<subject>`` for each region (``home:3`` on a
campaign's home page or dashboard, ``feed:3`` where the log feed is, ``sequence:7`` on a Sequence page,
``character:12`` on a sheet, ``round:3``, ``states:12``; the narrator's console adds ``console:7`` and
``?panel=<participant id>`` for each row it has opened, and says so over the socket as rows open), and renderers send a region's fragments only to
pages that show it (``viewer.shows(subject)``), so no page receives a fragment it has no place for. A
socket that names nothing (an older page) gets every region, as before subscriptions existed.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Hashable, Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

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
        # "²".isdigit() but int("²") raises; at most 18 digits, as core.converters, so the id fits its column.
        if name.isidentifier() and pk.isascii() and pk.isdigit() and len(pk) <= 18:
            subjects.add(f"{name}:{int(pk)}")
    return frozenset(subjects)


MAX_PANELS = 32


def opened_panels(values: list[str]) -> frozenset[str]:
    """The draw panels a page has opened on demand (the narrator's console rows), from its ``panel`` query
    values or its ``{"panels": [...]}`` message: ``panel:<participant id>``, a few dozen at most."""
    return frozenset(
        f"panel:{int(value)}"
        for value in values[:MAX_PANELS]
        if isinstance(value, str) and value.isascii() and value.isdigit() and len(value) <= 18
    )


def home_subject(campaign_id: int) -> str:
    """What a campaign's home page or dashboard watches: its game card and the sequences under way."""
    return f"home:{campaign_id}"


def feed_subject(campaign_id: int) -> str:
    """A page showing the campaign's log feed (``#live-feed``): new entries are added to it."""
    return f"feed:{campaign_id}"


def sequence_subject(sequence_id: int) -> str:
    """A page showing a Sequence's board and draw panels."""
    return f"sequence:{sequence_id}"


def console_subject(sequence_id: int) -> str:
    """The narrator's Sequence console: its rows open their draw panels on demand, and only the panels opened
    (``panel:<participant id>``) are sent to it."""
    return f"console:{sequence_id}"


def panel_subject(participant_id: int) -> str:
    return f"panel:{participant_id}"


@dataclass(frozen=True)
class Viewer:
    """Who a live fragment is rendered for: the membership, what the page watches (``watching``) and
    the page's CSRF token for forms in the fragments (empty when the socket carries no CSRF cookie)."""

    membership: Membership
    watching: frozenset[str] = frozenset()
    csrf_token: str = ""

    def watches(self, subject: str) -> bool:
        """The page names this subject: it shows that thing in full (a whole sheet rather than its strip)."""
        return subject in self.watching

    def shows(self, subject: str) -> bool:
        """The page has this region: it names it, or it names nothing (an older page gets every region)."""
        return not self.watching or subject in self.watching

    @property
    def user_id(self) -> int:
        return self.membership.user_id

    @property
    def is_narrator(self) -> bool:
        return self.membership.is_narrator


FragmentRenderer = Callable[["Event", Viewer], list[str]]
AudienceOf = Callable[["Event", Viewer], Hashable]
"""Which audience a viewer is in for one event's fragment: viewers with equal keys get the same HTML.
Called once per socket and event: it must be cheap (read per-event facts through ``event_fact``)."""


NOT_SHOWN = ("not shown",)
"""The audience of a viewer whose page has no place for the fragment (``viewer.shows`` says no): nothing is
rendered for it. An audience function returns it before reading any fact, so that the pages without the region
cost neither a render nor a query."""


def personal(event: Event, viewer: Viewer) -> Hashable:
    """Every member on their own (the safe default for a renderer that says nothing)."""
    return ("member", viewer.membership.pk)


def audience_unless_concerned(viewer: Viewer, concerned: Iterable[int | None]) -> Hashable:
    """The narrators together, and the players together, but each player the event concerns (whose
    user id is in ``concerned``: runs a character in it, wrote it…) on their own."""
    user = viewer.user_id if viewer.user_id in set(concerned) else 0
    return ("narrator" if viewer.is_narrator else "player", user)


def event_fact(event: Event, name: str, load: Callable[[], Any]) -> Any:
    """A fact about the event (who runs its characters…) loaded once per event and process: the event
    object is shared by every socket of the process (campaigns.live_render), so audiences read it once."""
    facts: dict[str, Any] = event.__dict__.setdefault("_live_facts", {})
    if name not in facts:
        facts[name] = load()
    return facts[name]


@dataclass(frozen=True)
class LivePart:
    kind_prefix: str
    render: FragmentRenderer
    audience: AudienceOf
    # False when the HTML is the same on every page that shows the region (the audience says NOT_SHOWN for the
    # others): pages watching different things then share one copy. True (the default) keys it by the whole
    # ``watching`` set, for renderers that send more or less to a page by what it watches.
    by_page: bool = True


_fragment_renderers: list[LivePart] = []


def live_fragment(
    kind_prefix: str, *, audience: AudienceOf = personal, by_page: bool = True
) -> Callable[[FragmentRenderer], FragmentRenderer]:
    """Register a renderer of extra hx-swap-oob fragments for events whose kind starts with the prefix,
    rendered once per ``audience`` (see the module's docstring) and, unless ``by_page=False``, per set of regions
    the page watches."""

    def register(func: FragmentRenderer) -> FragmentRenderer:
        _fragment_renderers.append(LivePart(kind_prefix, func, audience, by_page))
        return func

    return register


def parts_for(kind: str) -> list[LivePart]:
    return [part for part in _fragment_renderers if kind.startswith(part.kind_prefix)]


def extra_fragments(event: Event, viewer: Viewer) -> list[str]:
    fragments: list[str] = []
    for part in parts_for(event.kind):
        fragments.extend(part.render(event, viewer))
    return fragments


class OutageLog:
    """Logs a failing service (the channel layer, Redis) once per outage rather than once per write, and its return."""

    failing = False

    def __init__(self, down: str, back: str) -> None:
        self.down, self.back = down, back  # ``down`` takes the error (``%r``)

    def failed(self, error: BaseException) -> None:
        if not self.failing:
            self.failing = True
            logger.warning(self.down, error)

    def succeeded(self) -> None:
        if self.failing:
            self.failing = False
            logger.warning(self.back)


broadcast_health = OutageLog(
    "live broadcast failed; pages will catch up when the channel layer is back: %r", "live broadcasts work again"
)


def broadcast(campaign_id: int, message: dict[str, object]) -> bool:
    """Send one message to the campaign's group; a failing channel layer is logged, never raised:
    the write it announces has already committed, and the pages ask for what they missed."""
    return group_send_safely(campaign_group(campaign_id), message)


def group_send_safely(group: str, message: dict[str, object]) -> bool:
    """Send one message to a group (a campaign's, a game's) after a commit: a failing channel layer is logged
    once per outage and never raised, and the pages catch up from the database when they are back."""
    layer = get_channel_layer()
    if layer is None:
        return False
    try:
        async_to_sync(layer.group_send)(group, message)
    except Exception as error:  # any layer failure (Redis down, a timeout) must not fail a write
        broadcast_health.failed(error)
        return False
    broadcast_health.succeeded()
    return True


def group_send_on_commit(group: str, message: dict[str, object]) -> None:
    """Send a message to a group (a game's) once the transaction commits, never failing the write."""
    transaction.on_commit(lambda: group_send_safely(group, message))


def board_stream(kind: str, game_id: int) -> str:
    """The live stream of a game's board (``tragic:7``): its positions are the game's versions."""
    return f"{kind}:{game_id}"
