from __future__ import annotations

from django.urls import path

from conflicts import console_views, sheet_roll_views, views

app_name = "conflicts"

urlpatterns = [
    path("", views.home, name="home"),
    path("<int:campaign_id>/", views.scenes, name="scenes"),
    path("<int:campaign_id>/table/", views.table, name="table"),
    path("<int:campaign_id>/decks/<int:deck_id>/reshuffle/", views.reshuffle, name="reshuffle"),
    path("<int:campaign_id>/test/", views.fudge_test, name="test"),
    path("<int:campaign_id>/characters/<int:character_id>/roll/", sheet_roll_views.sheet_roll, name="sheet_roll"),
    path(
        "<int:campaign_id>/characters/<int:character_id>/roll/atout/",
        sheet_roll_views.sheet_roll_atout,
        name="sheet_roll_atout",
    ),
    path("<int:campaign_id>/test/chance/", views.test_chance, name="test_chance"),
    path("<int:campaign_id>/simple/", views.simple_conflict, name="simple"),
    path("<int:campaign_id>/scenes/<int:scene_id>/", views.scene, name="scene"),
    path("<int:campaign_id>/sequences/<int:sequence_id>/", views.sequence, name="sequence"),
    path("<int:campaign_id>/sequences/<int:sequence_id>/add/", console_views.participant_add, name="participant_add"),
    path("<int:campaign_id>/sequences/<int:sequence_id>/settle/", views.settle, name="settle"),
    path("<int:campaign_id>/sequences/<int:sequence_id>/draw-npcs/", console_views.draw_npcs, name="draw_npcs"),
    path("<int:campaign_id>/sequences/<int:sequence_id>/cut/", views.cut, name="cut"),
    path("<int:campaign_id>/participants/<int:participant_id>/", views.panel, name="panel"),
    path("<int:campaign_id>/participants/<int:participant_id>/odds/", views.odds, name="odds"),
    path("<int:campaign_id>/participants/<int:participant_id>/split/", views.split_submit, name="split"),
    path("<int:campaign_id>/participants/<int:participant_id>/declare/", views.declare, name="declare"),
    path("<int:campaign_id>/participants/<int:participant_id>/modifiers/", views.modifiers, name="modifiers"),
    path(
        "<int:campaign_id>/participants/<int:participant_id>/modifiers/form/",
        views.modifiers_form,
        name="modifiers_form",
    ),
    path("<int:campaign_id>/participants/<int:participant_id>/atout/", views.atout, name="atout"),
]
