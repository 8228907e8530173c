from __future__ import annotations

from django.urls import path

from frag import views

app_name = "frag"

urlpatterns = [
    path("", views.home, name="home"),
    path("games/<id:game_id>/", views.game, name="game"),
    path("games/<id:game_id>/act/", views.act, name="act"),
    path("games/<id:game_id>/reveal/", views.reveal, name="reveal"),
    path("games/<id:game_id>/replay/", views.replay, name="replay"),
]
