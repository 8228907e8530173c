from __future__ import annotations

from django.urls import path

from tragic import views

app_name = "tragic"

urlpatterns = [
    path("", views.home, name="home"),
    path("games/new", views.game_create, name="game_create"),
    path("games/<int:pk>/", views.game, name="game"),
    path("games/<int:pk>/act", views.game_act, name="game_act"),
    path("games/<int:pk>/timeout", views.game_timeout, name="game_timeout"),
    path("games/<int:pk>/cancel", views.game_cancel, name="game_cancel"),
    path("games/<int:pk>/replay", views.replay, name="replay"),
    path("join/<str:token>/", views.invitation, name="invitation"),
    path("decks/new", views.deck_create, name="deck_create"),
    path("decks/<int:pk>/", views.deck, name="deck"),
    path("decks/<int:pk>/change", views.deck_change, name="deck_change"),
]
