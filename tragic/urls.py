from __future__ import annotations

from django.urls import path

from tragic import views

app_name = "tragic"

urlpatterns = [
    path("", views.home, name="home"),
    path("games/new", views.game_create, name="game_create"),
    path("games/<id:pk>/", views.game, name="game"),
    path("games/<id:pk>/act", views.game_act, name="game_act"),
    path("games/<id:pk>/timeout", views.game_timeout, name="game_timeout"),
    path("games/<id:pk>/cancel", views.game_cancel, name="game_cancel"),
    path("games/<id:pk>/replay", views.replay, name="replay"),
    path("join/<token:token>/", views.invitation, name="invitation"),
    path("decks/new", views.deck_create, name="deck_create"),
    path("decks/<id:pk>/", views.deck, name="deck"),
    path("decks/<id:pk>/change", views.deck_change, name="deck_change"),
]
