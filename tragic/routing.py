from __future__ import annotations

from django.urls import path

from tragic.consumers import GameConsumer

websocket_urlpatterns = [
    path("ws/tragic/games/<id:game_id>/", GameConsumer.as_asgi()),
]
