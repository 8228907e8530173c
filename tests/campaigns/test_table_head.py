"""The stream head a region's declaration names (campaigns.kept.table_head)."""

from __future__ import annotations

import pytest

from campaigns.kept import campaign_row, table_head
from campaigns.models import CampaignStream
from tests.campaigns.factories import campaign_with, membership, narrator_of

pytestmark = pytest.mark.django_db


def test_the_head_is_the_streams_position_and_zero_before_any_stream() -> None:
    campaign = campaign_with()
    narrator = membership(campaign, narrator_of(campaign))
    assert table_head(narrator) == CampaignStream.objects.get(campaign=campaign).position > 0
    CampaignStream.objects.filter(campaign=campaign).delete()  # a campaign from before the streams began
    assert table_head(membership(campaign, narrator_of(campaign))) == 0


def test_the_campaign_row_is_its_own_columns_not_its_streams() -> None:
    campaign = campaign_with()
    before = campaign_row(campaign)
    CampaignStream.objects.filter(campaign=campaign).update(position=999)
    campaign.refresh_from_db()
    assert campaign_row(campaign) == before
    campaign.log_epoch += 1
    assert campaign_row(campaign) != before
