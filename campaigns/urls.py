from __future__ import annotations

from django.urls import path

from campaigns import archive_views, settings_page, views

app_name = "campaigns"

urlpatterns = [
    path("", views.campaign_list, name="list"),
    path("<id:campaign_id>/", views.campaign_home, name="home"),
    path("<id:campaign_id>/dashboard/", views.dashboard, name="dashboard"),
    path("import/", archive_views.archive_upload, name="archive_upload"),
    path("<id:campaign_id>/archive.json", archive_views.archive_download, name="archive_download"),
    path("<id:campaign_id>/settings/", settings_page.campaign_settings, name="settings"),
    path("<id:campaign_id>/settings/<slug:key>/", settings_page.settings_section_save, name="settings_section"),
    path("<id:campaign_id>/members/", views.members, name="members"),
    path("<id:campaign_id>/invitations/<id:invitation_id>/revoke/", views.invitation_revoke, name="invitation_revoke"),
    path("<id:campaign_id>/members/<id:membership_id>/role/", views.member_role, name="member_role"),
    path("<id:campaign_id>/sessions/", views.sessions, name="sessions"),
    path(
        "<id:campaign_id>/sessions/<id:session_id>/<str:action>/",
        views.session_transition,
        name="session_transition",
    ),
    path("<id:campaign_id>/clock/", views.clock_advance, name="clock_advance"),
    path("<id:campaign_id>/log/", views.log, name="log"),
    path("<id:campaign_id>/log/export.<str:fmt>", views.log_export, name="log_export"),
    path("<id:campaign_id>/log/notes/", views.note_create, name="note_create"),
    path("<id:campaign_id>/log/<id:event_id>/correct/", views.event_correct, name="event_correct"),
    path("<id:campaign_id>/log/publish/", views.public_log_toggle, name="public_log_toggle"),
    path("invitation/<token:token>/", views.invitation, name="invitation"),
    path("public/<token:token>/", views.public_log, name="public_log"),
]
