from __future__ import annotations

from django.urls import path

from campaigns.consumers import CampaignConsumer

websocket_urlpatterns = [
    path("ws/campaigns/<id:campaign_id>/", CampaignConsumer.as_asgi()),
]
