from __future__ import annotations

from django.urls import path

from campaigns import views

app_name = "campaigns"

urlpatterns = [
    path("", views.campaign_list, name="list"),
    path("<int:campaign_id>/", views.campaign_home, name="home"),
    path("<int:campaign_id>/dashboard/", views.dashboard, name="dashboard"),
    path("<int:campaign_id>/settings/", views.campaign_settings, name="settings"),
    path("<int:campaign_id>/members/", views.members, name="members"),
    path(
        "<int:campaign_id>/invitations/<int:invitation_id>/revoke/", views.invitation_revoke, name="invitation_revoke"
    ),
    path("<int:campaign_id>/members/<int:membership_id>/role/", views.member_role, name="member_role"),
    path("<int:campaign_id>/sessions/", views.sessions, name="sessions"),
    path(
        "<int:campaign_id>/sessions/<int:session_id>/<str:action>/",
        views.session_transition,
        name="session_transition",
    ),
    path("<int:campaign_id>/clock/", views.clock_advance, name="clock_advance"),
    path("<int:campaign_id>/log/", views.log, name="log"),
    path("<int:campaign_id>/log/export.<str:fmt>", views.log_export, name="log_export"),
    path("<int:campaign_id>/log/notes/", views.note_create, name="note_create"),
    path("<int:campaign_id>/log/<int:event_id>/correct/", views.event_correct, name="event_correct"),
    path("<int:campaign_id>/log/publish/", views.public_log_toggle, name="public_log_toggle"),
    path("invitation/<str:token>/", views.invitation, name="invitation"),
    path("public/<str:token>/", views.public_log, name="public_log"),
]
