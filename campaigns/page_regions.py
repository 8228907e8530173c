"""The campaign pages' own parts as regions (``core.regions``): the note form, the feeds and the side columns of the
dashboard and of a player's campaign page. Each declares what it reads, and ``core.kept_regions`` keeps it under
that declaration:

- the **note form** names the characters the member may tag (the cast: a character created, handed or renamed) and
  carries the page's address (its ``next``);
- a **feed** shows the newest entries the member may read: every Event adds one (``log:<campaign>``); the entries
  themselves are regions (``campaigns.entry_region``), so a new entry renders that entry alone;
- a **side column** shows the open session (``session``), the Sequences under way (``sequences``, with their
  characters), the game clock (the campaign row) and, on a player's page, their characters (``cast``).

The **log's filter** (the plain log page's, with nothing filtered yet) offers the sessions (``session``), the characters
the member may see (``cast``, ``characters``) and the kinds of the events they may read: those are read first (one
small query) and are among its ``rows``, so a note, which adds no kind, serves the filter kept.

Every declaration names the campaign row (options, clock, the ``log_epoch`` renames bump) and the member (role and
user) as the viewer. They are not pushed live (a page's feed gathers entries as they come, ``campaigns.live_render``).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property
from typing import TYPE_CHECKING, Any

from django.http import QueryDict
from django.utils.safestring import SafeString

from campaigns import selectors
from campaigns.cast import cast
from campaigns.chronicle import kind_label
from campaigns.event_subjects import CAST, CHARACTERS, LOG, MEMBERS, SEQUENCES, SESSION, SETTINGS
from campaigns.forms import ClockAdvanceForm, LogFilterForm, NoteForm
from campaigns.kept import campaign_row, table_head
from campaigns.log_pages import log_page
from campaigns.models import Event
from core.fragment_cache import page_token
from core.kept_regions import region_html
from core.regions import Declaration, Depends, Region, register, subject

if TYPE_CHECKING:
    from campaigns.models import Campaign, Membership


def _viewer(membership: Membership) -> tuple[int, str, int]:
    return (membership.pk, membership.role, membership.user_id)


def _declared(*names: str, by_address: bool = False) -> Declaration:
    """A declaration over the campaign-wide subjects ``names``, the campaign row and the member (and the page's
    address, ``by_address``, for a part that prints it)."""

    def depends(campaign: Campaign, membership: Membership, request: Any = None) -> Depends:
        path = request.get_full_path() if by_address and request is not None else ""
        return Depends(
            campaign_id=campaign.pk,
            subjects=frozenset(subject(name, campaign.pk) for name in names),
            rows=(campaign_row(campaign), path),
            viewer=_viewer(membership),
            head=table_head(membership),
        )

    return depends


def _own_campaign(campaign_id: int, membership: Membership) -> Campaign | None:
    return membership.campaign if campaign_id == membership.campaign_id else None


def note_form_context(campaign: Campaign, membership: Membership, request: Any = None) -> dict[str, Any]:
    return {"campaign": campaign, "note_form": NoteForm(membership=membership), "request": request}


NOTE_FORM = register(
    Region(
        name="note-form",
        template="campaigns/partials/note_form.html",
        load=_own_campaign,
        context=note_form_context,
        depends=_declared(CAST, MEMBERS, by_address=True),
        element_id=lambda _campaign: "note-form",
    )
)
"""The empty note form (its bound copy, with errors, is the POST's answer, rendered as it is)."""


def feed_context(campaign: Campaign, membership: Membership, request: Any = None) -> dict[str, Any]:
    # The feed is kept under the stream's head: its entries need no key under it (selectors.lazy_entries_of_rows).
    entries = selectors.recent_entries(membership, under_head=False)
    return {"campaign": campaign, "membership": membership, "entries": entries}


DASHBOARD_FEED = register(
    Region(
        name="dashboard-feed",
        template="campaigns/dashboard.html#dashboard-feed",
        load=_own_campaign,
        context=feed_context,
        depends=_declared(LOG),
    )
)
HOME_FEED = register(
    Region(
        name="home-feed",
        template="campaigns/home.html#home-feed",
        load=_own_campaign,
        context=feed_context,
        depends=_declared(LOG),
    )
)


def dashboard_aside_context(campaign: Campaign, membership: Membership, request: Any = None) -> dict[str, Any]:
    return {"campaign": campaign, "membership": membership, "open_session": selectors.open_session(campaign),
            "clock_form": ClockAdvanceForm(initial={"expected": campaign.game_clock})}  # fmt: skip


def home_aside_context(campaign: Campaign, membership: Membership, request: Any = None) -> dict[str, Any]:
    return {"campaign": campaign, "membership": membership, "open_session": selectors.open_session(campaign),
            "my_characters": list(cast().owned(campaign, membership.user))}  # fmt: skip


ASIDE_READS = (SESSION, SEQUENCES, CAST, CHARACTERS, MEMBERS, SETTINGS)

DASHBOARD_ASIDE = register(
    Region(
        name="dashboard-aside",
        template="campaigns/dashboard.html#dashboard-aside",
        load=_own_campaign,
        context=dashboard_aside_context,
        depends=_declared(*ASIDE_READS),
    )
)
HOME_ASIDE = register(
    Region(
        name="home-aside",
        template="campaigns/home.html#home-aside",
        load=_own_campaign,
        context=home_aside_context,
        depends=_declared(*ASIDE_READS),
    )
)


def log_entries_context(campaign: Campaign, membership: Membership, request: Any = None) -> dict[str, Any]:
    """The plain log page's newest entries and its links to older pages (``campaigns.log_pages``)."""
    newest = lambda limit: selectors.newest_rows(membership, limit)  # noqa: E731 - the newest page's rows, compiled once
    page = log_page(Event.objects.visible_to(membership), QueryDict(), request.path, newest)
    entries = selectors.lazy_entries_of_rows(page.rows, membership, campaign, under_head=False)
    return {"campaign": campaign, "membership": membership, "page": page, "entries": entries}


LOG_ENTRIES = register(
    Region(
        name="log-entries",
        template="campaigns/log.html#log-entries",
        load=_own_campaign,
        context=log_entries_context,
        depends=_declared(LOG, by_address=True),
        element_id=lambda _campaign: "log-entries",
    )
)
"""The plain log page's list: its newest entries (each a region, ``campaigns.entry_region``) and its page links, kept
as the dashboard's feed is (``log:<campaign>``, which every Event touches, and the page's address)."""


@dataclass
class LogFilterOf:
    """The log's filter for one member: the kinds of the events they may read, read once for its declaration and
    its context alike."""

    campaign: Campaign
    membership: Membership

    @cached_property
    def kinds(self) -> tuple[str, ...]:
        return tuple(selectors.log_kinds(self.membership))


def filter_choices(membership: Membership) -> tuple[list[tuple[int, str]], list[tuple[int, str]]]:
    """The sessions and the characters the log's filter offers this member."""
    sessions = [(s.pk, str(s)) for s in membership.campaign.game_sessions.order_by("number")]
    characters = [(c.pk, c.name) for c in cast().viewable(membership).only("pk", "name")]
    return sessions, characters


def log_filter_form(membership: Membership, kinds: tuple[str, ...] | list[str], data: Any = None) -> LogFilterForm:
    sessions, characters = filter_choices(membership)
    return LogFilterForm(data, sessions=sessions, characters=characters, kinds=[(k, kind_label(k)) for k in kinds])


def _log_filter_depends(thing: LogFilterOf, membership: Membership, request: Any = None) -> Depends:
    campaign = thing.campaign
    return Depends(
        campaign_id=campaign.pk,
        subjects=frozenset(subject(name, campaign.pk) for name in (SESSION, CAST, CHARACTERS, MEMBERS)),
        rows=(campaign_row(campaign), thing.kinds),
        viewer=_viewer(membership),
        head=table_head(membership),
    )


LOG_FILTER = register(
    Region(
        name="log-filter",
        template="campaigns/log.html#log-filter",
        load=lambda campaign_id, membership: (
            LogFilterOf(membership.campaign, membership) if campaign_id == membership.campaign_id else None
        ),
        context=lambda thing, membership, _request: {
            "campaign": thing.campaign,
            "filter_form": log_filter_form(membership, thing.kinds),
        },
        depends=_log_filter_depends,
        element_id=lambda _thing: "log-filters",
    )
)
"""The plain log page's filter (a filtered page's is bound to what was asked, and rendered as it is)."""


def part_html(region: Region, membership: Membership, request: Any, context: dict[str, Any]) -> SafeString:
    """``region`` of ``membership``'s campaign page, with the page's one CSRF token (kept in ``context``)."""
    token = str(context.get("csrf_token") or page_token(request))
    context["csrf_token"] = token
    return region_html(region, membership.campaign, membership, request=request, token=token)
