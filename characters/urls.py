from __future__ import annotations

from django.urls import path

from characters.views.actions import character_action
from characters.views.creation import character_create
from characters.views.narrator import campaign_characters, character_rules, npc_create
from characters.views.sheet import character_detail, character_print

app_name = "characters"

urlpatterns = [
    path("<id:character_id>/", character_detail, name="detail"),
    path("<id:character_id>/print/", character_print, name="print"),
    path("<id:character_id>/act/<slug:name>/", character_action, name="act"),
    path("campaign/<id:campaign_id>/", campaign_characters, name="campaign"),
    path("campaign/<id:campaign_id>/new/", character_create, name="create"),
    path("campaign/<id:campaign_id>/npc/", npc_create, name="npc_create"),
    path("campaign/<id:campaign_id>/options/", character_rules, name="rules"),
]
