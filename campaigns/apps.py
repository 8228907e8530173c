from __future__ import annotations

from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class CampaignsConfig(AppConfig):
    name = "campaigns"
    verbose_name = _("Campaigns")

    def ready(self) -> None:
        from campaigns import (
            chronicle_kinds,  # noqa: F401  (registers this app's event texts)
            live_catch_up,  # noqa: F401  (registers the feed's and the home's catch-up)
            live_panels,  # noqa: F401  (registers the game card's live refresh)
            live_regions,  # noqa: F401  (registers the regions' live pushes)
            now,  # noqa: F401  (registers the "now" block's live refresh)
            settings_page,
            signals,
        )
        from campaigns.archive import campaign_tables
        from campaigns.event_subjects import campaign_versions, versions
        from core.regions import set_version_source

        signals.connect()
        set_version_source(versions, campaign_versions)
        settings_page.register()
        campaign_tables.register()
