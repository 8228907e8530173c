"""Every app's WebSocket routes, gathered for config.asgi."""

from __future__ import annotations

from campaigns.routing import websocket_urlpatterns as campaign_routes
from frag.routing import websocket_urlpatterns as frag_routes
from tragic.routing import websocket_urlpatterns as tragic_routes

websocket_urlpatterns = [*campaign_routes, *frag_routes, *tragic_routes]
