"""The campaign's stream head, as the regions' declarations name it (``core.regions.Depends.head``).

Every change a use case makes appends one Event, and every Event takes the next position of its campaign's live
stream in the same transaction (``campaigns.models.CampaignStream``, commit order, no holes). So the stream's head
names the state of the whole table: it is read with the membership, before anything else, and whatever the page
then reads is at least that recent. The campaign pages' parts are regions (``campaigns.page_regions``).
"""

from __future__ import annotations

from campaigns.models import Campaign, CampaignStream, Membership

# What a membership is read with so that ``table_head`` reads no more: its campaign and the campaign's stream.
WITH_HEAD = ("campaign", "campaign__stream")


def table_head(membership: Membership) -> int:
    """The campaign's stream head, as read with the membership (``campaigns.access.membership_or_404``, the
    page's first query), so that whatever the page reads next is at least that recent."""
    try:
        return membership.campaign.stream.position
    except CampaignStream.DoesNotExist:
        return 0  # no event since streams began: the first one creates the row


def campaign_row(campaign: Campaign) -> tuple[object, ...]:
    """The campaign row's own columns (options, clock, ``version``, the ``log_epoch`` renames bump), as a region's
    declaration names it in its ``rows``: not the rows loaded with it (its stream, read with the membership, moves
    with every Event, and would make every key the stream head's)."""
    return tuple(getattr(campaign, field.attname) for field in campaign._meta.concrete_fields)
