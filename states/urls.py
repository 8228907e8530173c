"""Routes of the Savage-style states (namespace ``states``), mounted under ``characters/`` to keep the public paths."""

from __future__ import annotations

from django.urls import path

from campaigns.settings_page import section_redirect
from states import views

app_name = "states"

urlpatterns = [
    path("<id:character_id>/states/", views.savage_state, name="savage_state"),
    path("<id:character_id>/states/roll/", views.savage_roll, name="savage_roll"),
    path("<id:character_id>/states/trick/", views.savage_trick, name="savage_trick"),
    path("<id:character_id>/states/sheet/", views.savage_sheet, name="savage_sheet"),
    path("<id:character_id>/states/<slug:action>/", views.savage_action, name="savage_action"),
    path("campaign/<id:campaign_id>/round/", views.savage_round, name="savage_round"),
    path("campaign/<id:campaign_id>/round/<slug:action>/", views.savage_round_action, name="savage_round_action"),
    # Moved to the campaign settings page; old links land on its section.
    path("campaign/<id:campaign_id>/savage-settings/", section_redirect("states"), name="savage_settings"),
]
