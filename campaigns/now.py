"""The "now" block that heads a campaign's pages: what the table expects of this member at this moment.

A player's page opens on it (their character, then what they must do: draw in a Sequence, create a character),
the narrator's dashboard too (who still has to draw, who is Shaken, who is in État critique). Each part belongs to
the app that knows it: the feature apps register a ``NowSection`` from their ``AppConfig.ready()``, so that
``campaigns`` imports none of them (the layers contract). Each section is its own region
(``id="now-<key>"``) and declares the campaign-wide subjects it reads (``reads``, as a region's ``Depends`` names
them: ``characters``, ``sequences``…); it is pushed again, rendered for each member, to the pages watching the
campaign's home (``home_subject``) when a committed Event touched one of them (``campaigns.event_subjects``, the
same names the regions' live pushes follow; an Event of an undeclared kind touches every section). Its HTML is kept
by the kept-fragment service (``core.kept_regions``) under that declaration, for the member alone, with the sources
of the template it draws with (``template``) among its rows: a page after an Event that touched none of its reads
(a note) serves it without running it. A section may instead be a region (``core.regions``, ``now_region``): the
kept-fragment service renders it, and the live layer pushes it from its declaration (``campaigns.live_regions``).
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from django.utils.safestring import SafeString, mark_safe

from campaigns.kept import campaign_row, table_head
from campaigns.live import NOT_SHOWN, Viewer, event_fact, home_subject, live_fragment
from campaigns.live_regions import touched
from core.kept_regions import region_html
from core.regions import Depends, Region, subject
from core.template_digest import markup_version

if TYPE_CHECKING:
    from campaigns.models import Event, Membership
    from core.regions import Region


@dataclass(frozen=True)
class NowSection:
    key: str  # the region's id is ``now-<key>``
    order: int  # lower first: a player's character before what they must do
    # The section's inner HTML for this member ("" when it has nothing to say to them).
    render: Callable[[Membership], str]
    # The campaign-wide subjects (``campaigns.event_subjects``: ``characters``, ``cast``, ``sequences``…) whose change
    # may change what the section shows: its declaration, as a region's.
    reads: tuple[str, ...]
    # Who reads the section alike when ``event`` is pushed: members with equal keys get one rendering (read what
    # the key needs once per event, with ``event_fact``). None: every member reads their own.
    audience: Callable[[Event, Membership], Hashable] | None = None
    # A region (its root is ``id="now-<key>"``), loaded from the campaign's id (``region.load``, as a page watching
    # ``home:<campaign>`` loads it): then ``render`` and ``reads`` are not used, its declaration says what it reads.
    region: Region | None = None
    # The template ``render`` draws with: its sources are part of the kept HTML's key (a deploy that changes it
    # renders the section anew).
    template: str = ""
    # The subjects this member's section reads, when narrower than ``reads`` (a player's own characters rather than
    # every character of the campaign): then an Event changes the section of the members concerned only. Called
    # when the stream has moved (read what it needs with ``core.regions.pass_fact``: once for every member).
    subjects: Callable[[Membership], Iterable[str]] | None = None


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
    return NowSection(key, order, render=lambda membership: "", reads=(), region=region)


SECTION_TEMPLATE = "campaigns/partials/now_section.html"


def _section_depends(section: NowSection, membership: Membership, request: object = None) -> Depends:
    """A plain section's declaration: the subjects it reads, the campaign row (its options: whether states are
    played), its own template's sources, and the member alone (a section speaks to one member)."""
    return Depends(
        campaign_id=membership.campaign_id,
        subjects=lambda: _section_subjects(section, membership),
        rows=(
            section.key,
            markup_version(section.template) if section.template else "",
            campaign_row(membership.campaign),
        ),  # fmt: skip
        viewer=(membership.pk, membership.role, membership.user_id),
        head=table_head(membership),
    )


def _section_context(section: NowSection, membership: Membership, request: object = None) -> dict[str, object]:
    return {"key": section.key, "inner": mark_safe(section.render(membership))}  # noqa: S308 - an escaping template's


_plain_regions: dict[str, Region] = {}


def _plain_region(section: NowSection) -> Region:
    """A plain section as a region (not registered: the live layer pushes it through ``now_fragments``); the section
    itself is the thing it shows."""
    found = _plain_regions.get(section.key)
    if found is None:
        found = _plain_regions[section.key] = Region(
            name=f"now-{section.key}", template=SECTION_TEMPLATE, load=lambda pk, membership: None,
            context=_section_context, depends=_section_depends,
        )  # fmt: skip
    return found


def section_html(
    section: NowSection, membership: Membership, *, oob: bool = False, token: str | None = None
) -> SafeString:
    if section.region is not None:
        thing = section.region.load(membership.campaign_id, membership)
        return region_html(section.region, thing, membership, token=token, oob=oob)
    return region_html(_plain_region(section), section, membership, token=token, oob=oob)


def now_html(membership: Membership, token: str | None = None) -> SafeString:
    """Every section's region, in order (an empty region stays, so that a push can fill it); ``token``: the
    page's CSRF token, for the sections with forms."""
    return mark_safe("".join(section_html(s, membership, token=token) for s in sections()))  # noqa: S308 - built above


def _section_subjects(section: NowSection, membership: Membership) -> frozenset[str]:
    if section.subjects is not None:
        return frozenset(section.subjects(membership))
    return frozenset(subject(name, membership.campaign_id) for name in section.reads)


def declaration(section: NowSection, membership: Membership) -> Depends:
    """What ``section`` reads for ``membership``, as a region declares it (the catch-all ``table`` included)."""
    return Depends(campaign_id=membership.campaign_id, subjects=_section_subjects(section, membership))


def _matching(event: Event, membership: Membership) -> list[NowSection]:
    """The sections of ``membership`` this Event changes; a region section is pushed by ``campaigns.live_regions``
    instead."""

    def load() -> list[NowSection]:
        changed = touched(event)
        return [s for s in sections() if s.region is None and declaration(s, membership).changed_by(changed)]

    # Read once per event and member, on the thread that renders: each socket then finds its audience on the event
    # loop without the database (``campaigns.live_render.EventRendering.ready_html_for``).
    found: list[NowSection] = event_fact(event, f"now sections of {membership.pk}", load)
    return found


def now_audience(event: Event, viewer: Viewer) -> Hashable:
    """A section speaks to one member ("your character", "your turn") unless it says who reads it alike (the
    narrators together, the players with the same draws waiting); a page not showing the campaign's home, or an
    event no section follows, costs nothing."""
    membership = viewer.membership
    matching = _matching(event, membership) if viewer.watches(home_subject(event.campaign_id)) else []
    if not matching:
        return NOT_SHOWN
    return tuple(
        (s.key, s.audience(event, membership) if s.audience is not None else ("member", membership.pk))
        for s in matching
    )


@live_fragment("", audience=now_audience, by_page=False)
def now_fragments(event: Event, viewer: Viewer) -> list[str]:
    if not viewer.watches(home_subject(event.campaign_id)):
        return []
    return [section_html(s, viewer.membership, oob=True) for s in _matching(event, viewer.membership)]
