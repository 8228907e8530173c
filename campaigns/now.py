"""The "now" block that heads a campaign's pages: what the table expects of this member at this moment.

A player's page opens on it (their character, then what they must do: draw in a Sequence, create a character),
the narrator's dashboard too (who still has to draw, who is Shaken, who is in État critique). Each part belongs to
the app that knows it: the feature apps register a ``NowSection`` from their ``AppConfig.ready()``, so that
``campaigns`` imports none of them (the layers contract). Each section is its own region
(``id="now-<key>"``) and is pushed again, rendered for each member, when an event of the kinds it names is
committed, to the pages watching the campaign's home (``home_subject``). A section may instead be a region
(``core.regions``, ``now_region``): the kept-fragment service renders it, and the live layer pushes it from its
declaration (``campaigns.live_regions``), not from event kinds.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from django.utils.html import format_html
from django.utils.safestring import SafeString, mark_safe

from campaigns.live import NOT_SHOWN, Viewer, home_subject, live_fragment
from core.kept_regions import region_html

if TYPE_CHECKING:
    from campaigns.models import Event, Membership
    from core.regions import Region


@dataclass(frozen=True)
class NowSection:
    key: str  # the region's id is ``now-<key>``
    order: int  # lower first: a player's character before what they must do
    # The section's inner HTML for this member ("" when it has nothing to say to them).
    render: Callable[[Membership], str]
    # The event kinds (prefixes) whose commit may change what the section shows.
    kinds: tuple[str, ...]
    # Who reads the section alike when ``event`` is pushed: members with equal keys get one rendering (read what
    # the key needs once per event, with ``event_fact``). None: every member reads their own.
    audience: Callable[[Event, Membership], Hashable] | None = None
    # A region (its root is ``id="now-<key>"``), loaded from the campaign's id (``region.load``, as a page watching
    # ``home:<campaign>`` loads it): then ``render`` is not used.
    region: Region | None = None


_sections: dict[str, NowSection] = {}


def register_now(section: NowSection) -> NowSection:
    """Called from a feature app's ``ready()``; registering a key again replaces it (tests, reloads)."""
    _sections[section.key] = section
    return section


def sections() -> list[NowSection]:
    return sorted(_sections.values(), key=lambda s: (s.order, s.key))


def now_region(key: str, order: int, region: Region) -> NowSection:
    """A section that is a region watched under the campaign's home (``region.watch == "home"``): kept and pushed
    by its declaration, with the page's CSRF token in its forms."""
    return NowSection(key, order, render=lambda membership: "", kinds=(), region=region)


def section_html(
    section: NowSection, membership: Membership, *, oob: bool = False, token: str | None = None
) -> SafeString:
    if section.region is not None:
        thing = section.region.load(membership.campaign_id, membership)
        return region_html(section.region, thing, membership, token=token, oob=oob)
    inner = section.render(membership)
    return format_html(
        '<div id="now-{}" class="now-part"{}>{}</div>',
        section.key,
        mark_safe(' hx-swap-oob="true"') if oob else "",  # noqa: S308 - a constant
        mark_safe(inner),  # noqa: S308 - each section renders through an escaping template
    )


def now_html(membership: Membership, token: str | None = None) -> SafeString:
    """Every section's region, in order (an empty region stays, so that a push can fill it); ``token``: the
    page's CSRF token, for the sections with forms."""
    return mark_safe("".join(section_html(s, membership, token=token) for s in sections()))  # noqa: S308 - built above


def _matching(kind: str) -> list[NowSection]:
    return [s for s in sections() if any(kind.startswith(prefix) for prefix in s.kinds)]


def now_audience(event: Event, viewer: Viewer) -> Hashable:
    """A section speaks to one member ("your character", "your turn") unless it says who reads it alike (the
    narrators together, the players with the same draws waiting); a page not showing the campaign's home, or an
    event no section follows, costs nothing."""
    matching = _matching(event.kind) if viewer.watches(home_subject(event.campaign_id)) else []
    if not matching:
        return NOT_SHOWN
    membership = viewer.membership
    return tuple(
        s.audience(event, membership) if s.audience is not None else ("member", membership.pk) for s in matching
    )


@live_fragment("", audience=now_audience, by_page=False)
def now_fragments(event: Event, viewer: Viewer) -> list[str]:
    if not viewer.watches(home_subject(event.campaign_id)):
        return []
    return [section_html(s, viewer.membership, oob=True) for s in _matching(event.kind)]
