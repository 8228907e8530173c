"""The Sequence page's decks (``conflicts/partials/decks.html``): each deck's counts and its reshuffle form, a region
(``core.regions``) beside the board (``conflicts.regions``), which reads the campaign's decks when it is built."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.utils.safestring import SafeString

from campaigns.event_subjects import DECKS, SETTINGS
from campaigns.kept import table_head
from campaigns.models import Membership
from conflicts import selectors
from conflicts.models import Deck, Sequence
from conflicts.regions import BoardOf, member_viewer, sequence_of_page
from core.kept_regions import region_html
from core.regions import Depends, Region, register, subject


@dataclass(frozen=True)
class DecksOf:
    """The decks' counts on a Sequence page (its reshuffle forms come back to that page)."""

    sequence: Sequence
    campaign_decks: list[Deck] | None = None  # the campaign's, when the caller has read them (the board has)

    @property
    def campaign_id(self) -> int:
        return int(self.sequence.campaign_id)


def decks_depends(thing: DecksOf, membership: Membership, _request: Any = None) -> Depends:
    """The decks' cards (``decks:<campaign>``, touched by whatever deals, discards or reshuffles) and which decks
    there are (``settings:<campaign>``). Viewer: narrators alike (every deck), each player apart (their own deck
    besides the table's and the players')."""
    campaign_id = thing.campaign_id

    def alike() -> tuple[Any, ...]:
        # Players differ only by a deck of their own (most tables have none: then every player reads the same list).
        if membership.is_narrator:
            return ("narrator",)
        decks = thing.campaign_decks if thing.campaign_decks is not None else selectors.campaign_decks(campaign_id)
        return ("player", tuple(d.pk for d in decks if d.player_id == membership.user_id))

    return Depends(
        campaign_id=campaign_id,
        subjects=frozenset({subject(DECKS, campaign_id), subject(SETTINGS, campaign_id)}),
        rows=(thing.sequence.pk,),
        viewer=member_viewer(membership),
        head=table_head(membership),
        alike=alike,
    )


def _decks_context(thing: DecksOf, membership: Membership, _request: Any) -> dict[str, Any]:
    sequence = thing.sequence
    return {"decks": selectors.visible_decks(membership, thing.campaign_decks), "campaign": sequence.campaign,
            "next_url": sequence.get_absolute_url()}  # fmt: skip


def _decks_of(sequence_id: int, membership: Membership) -> DecksOf | None:
    sequence = sequence_of_page(membership, sequence_id)
    return None if sequence is None else DecksOf(sequence)


DECKS_REGION = register(
    Region(
        name="sequence-decks",
        template="conflicts/partials/decks.html",
        load=_decks_of,
        context=_decks_context,
        depends=decks_depends,
        watch="sequence",  # a Sequence page watches sequence:<pk>
        element_id=lambda _thing: "decks",
    )
)


def decks_html(thing: BoardOf, membership: Membership, *, request: Any = None) -> SafeString:
    """The decks region of a Sequence page, from the decks its board has read when it was built."""
    decks = thing.board.campaign_decks if thing.board is not None else None
    return region_html(DECKS_REGION, DecksOf(thing.sequence, decks), membership, request=request)
