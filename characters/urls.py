from __future__ import annotations

from django.urls import path

from characters import views

app_name = "characters"

urlpatterns = [
    path("<int:character_id>/", views.character_detail, name="detail"),
    path("<int:character_id>/print/", views.character_print, name="print"),
    path("<int:character_id>/act/<slug:name>/", views.character_action, name="act"),
    path("campaign/<int:campaign_id>/", views.campaign_characters, name="campaign"),
    path("campaign/<int:campaign_id>/new/", views.character_create, name="create"),
    path("campaign/<int:campaign_id>/npc/", views.npc_create, name="npc_create"),
    path("campaign/<int:campaign_id>/options/", views.character_rules, name="rules"),
]
