"""Catch-up by regions: a page that missed many events gets its regions as they stand now, in one message.

Replaying every missed event through the live rendering costs one rendering per event, and a page that was
away for a while (a phone locked through a scene) then received a megabyte of fragments, most of them
replaced by the next. Past ``settings.LIVE_CATCH_UP_REPLAY_MAX`` missed events (``campaigns.live_stream``), the
page is sent instead the current render of every region it watches, at the stream's head:

- a region declared with ``core.regions`` (the sheet, a Sequence's board, the Sequences under way) is rendered by
  the kept-fragment service for the member, exactly as its push and a fresh GET render it;
- the other regions are rendered by the function each app registers here for a watched kind
  (``@catch_up_region("home")``), built on the same selectors and templates as the app's live fragments and
  pages: the log feed, the "now" block and the game card (campaigns), a Sequence page's draw panels, Atouts after
  the draw and decks, the narrator's console and the panels it opened (conflicts), a character's states panel and
  the round tracker (states).

Everything is rendered for the socket's member as the table stands now, so a catch-up is filtered exactly like
a fresh GET: what the member may not see is not read. A page that watches a kind nobody registered cannot be
caught up that way: it is told to reload (``None``), never replayed event by event.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from django.template.loader import render_to_string
from django.utils import translation

from campaigns import selectors
from campaigns.live import Viewer, home_subject
from campaigns.models import Event
from campaigns.now import section_html, sections
from campaigns.selectors import lazy_log_entries
from core.kept_regions import region_html
from core.regions import Region, one_per_element, version_pass, watched_by

if TYPE_CHECKING:
    from campaigns.models import Membership


@dataclass(frozen=True)
class CatchUp:
    """One page's catch-up: who reads it (``viewer``: member, watched subjects, CSRF token) and the part of the
    stream it missed, ``after`` (the last position the page rendered) to ``head`` (what it is brought to)."""

    viewer: Viewer
    after: int
    head: int

    @property
    def membership(self) -> Membership:
        return self.viewer.membership


# The fragments of a watched ``<kind>:<pk>``'s regions for this catch-up, as out-of-band swaps; None when they
# cannot be rendered as they stand (the page then reloads).
CatchUpRenderer = Callable[[CatchUp, int], "list[str] | None"]

_renderers: dict[str, list[CatchUpRenderer]] = {}


def catch_up_region(watch_kind: str) -> Callable[[CatchUpRenderer], CatchUpRenderer]:
    """Register a renderer of the current regions a page watching ``<watch_kind>:<pk>`` shows (from an app's
    ``live.py``, imported by its ``AppConfig.ready()``)."""

    def register(func: CatchUpRenderer) -> CatchUpRenderer:
        found = _renderers.setdefault(watch_kind, [])
        if func not in found:
            found.append(func)
        return func

    return register


def regions_now(
    membership: Membership, *, watching: frozenset[str], csrf_token: str, language: str, after: int, head: int
) -> str | None:
    """Every region the page watches, rendered now for ``membership`` as out-of-band swaps, or None when one of
    them cannot be (the page should reload)."""
    if not watching:  # an older page that names nothing shows every region: only a reload brings them all
        return None
    catch_up = CatchUp(Viewer(membership, watching=watching, csrf_token=csrf_token), after, head)
    # In the page's order: a region (its element id and what it shows, rendered below), or the fragments of a renderer.
    pieces: list[tuple[str, tuple[Region, Any] | list[str]]] = []
    with translation.override(language), version_pass():
        for watched in sorted(watching):
            kind, _sep, pk = watched.partition(":")
            declared, renderers = watched_by(kind), _renderers.get(kind, [])
            if not pk.isdigit() or not (declared or renderers):
                return None
            for region in declared:
                thing = region.load(int(pk), membership)
                # None: the member may not see it, and gets nothing of it; nor of another campaign's, whatever the id.
                if (
                    thing is not None
                    and getattr(thing, "campaign_id", membership.campaign_id) == membership.campaign_id
                ):
                    pieces.append((region.element_id(thing), (region, thing)))
            for render in renderers:
                fragments = render(catch_up, int(pk))
                if fragments is None:
                    return None
                pieces.append(("", fragments))
        # As a live push does: of regions sharing an element id, the one the page ends with (``one_per_element``).
        return "".join(
            "".join(piece)
            if isinstance(piece, list)
            else str(region_html(piece[0], piece[1], membership, token=csrf_token, oob=True))
            for piece in one_per_element(pieces)
        )


# How many of the newest missed entries a page whose feed only gathers live entries (the log page, a states or
# round page) is given: the length of the campaign pages' feed.
FEED_ENTRIES = 30


@catch_up_region("feed")
def feed_now(catch_up: CatchUp, campaign_id: int) -> list[str] | None:
    """The log feed. A campaign page or dashboard (it watches the campaign's home too) shows the newest entries:
    its feed is rendered anew, from the same partial as its GET. Other pages' feeds gather the entries pushed
    since they opened (the log page's first entries are a filtered page of its own): the newest missed entries
    are added on top, as their pushes would have been."""
    membership = catch_up.membership
    if campaign_id != membership.campaign_id:
        return []
    campaign = membership.campaign
    if catch_up.viewer.watches(home_subject(campaign_id)):
        template = (
            "campaigns/dashboard.html#dashboard-feed" if membership.is_narrator else "campaigns/home.html#home-feed"
        )
        context = {"entries": selectors.recent_entries(membership, FEED_ENTRIES), "membership": membership,
                   "campaign": campaign, "feed_html": None, "csrf_token": catch_up.viewer.csrf_token}  # fmt: skip
        return [f'<div hx-swap-oob="innerHTML:#live-feed">{render_to_string(template, context)}</div>']
    missed = Event.objects.visible_to(membership).filter(position__gt=catch_up.after, position__lte=catch_up.head)
    entries = lazy_log_entries(missed[:FEED_ENTRIES], membership, campaign)
    html = render_to_string(
        "campaigns/partials/entries.html",
        {"entries": entries, "campaign": campaign, "csrf_token": catch_up.viewer.csrf_token},
    )
    return [f'<div hx-swap-oob="afterbegin:#live-feed">{html}</div>']


@catch_up_region("home")
def home_now(catch_up: CatchUp, campaign_id: int) -> list[str] | None:
    """The campaign's own parts of its home page and dashboard: every section of the "now" block and a player's
    game card (clock and open session). The narrator's character panels are a region (``characters.panels``)."""
    membership = catch_up.membership
    if campaign_id != membership.campaign_id:
        return []
    campaign = membership.campaign
    fragments = [str(section_html(section, membership, oob=True)) for section in sections()]
    if not membership.is_narrator:
        context = {"campaign": campaign, "open_session": selectors.open_session(campaign), "oob": True}
        fragments.append(render_to_string("campaigns/partials/game_status.html", context))
    return fragments
