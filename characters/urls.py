from __future__ import annotations

from django.urls import path

from campaigns.settings_page import section_redirect
from characters.views.actions import character_action
from characters.views.creation import character_create
from characters.views.narrator import campaign_characters, npc_create
from characters.views.sheet import character_detail, character_print

app_name = "characters"

urlpatterns = [
    path("<id:character_id>/", character_detail, name="detail"),
    path("<id:character_id>/print/", character_print, name="print"),
    path("<id:character_id>/act/<slug:name>/", character_action, name="act"),
    path("campaign/<id:campaign_id>/", campaign_characters, name="campaign"),
    path("campaign/<id:campaign_id>/new/", character_create, name="create"),
    path("campaign/<id:campaign_id>/npc/", npc_create, name="npc_create"),
    # The character options and trait list moved to the campaign settings page; old links land on their section.
    path("campaign/<id:campaign_id>/options/", section_redirect("characters"), name="rules"),
]
