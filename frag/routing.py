from __future__ import annotations

from django.urls import path

from frag.consumers import GameConsumer

websocket_urlpatterns = [
    path("ws/frag/<id:game_id>/", GameConsumer.as_asgi()),
]
