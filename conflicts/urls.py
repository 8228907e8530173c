from __future__ import annotations

from django.urls import path

from campaigns.settings_page import section_redirect
from conflicts import (
    asked_test_views,
    console_views,
    fudge_test_views,
    jeton_views,
    sheet_roll_views,
    story_views,
    views,
)

app_name = "conflicts"

urlpatterns = [
    path("", views.home, name="home"),
    path("<id:campaign_id>/", views.scenes, name="scenes"),
    # Moved to the campaign settings page; old links land on its section.
    path("<id:campaign_id>/table/", section_redirect("cards"), name="table"),
    path("<id:campaign_id>/decks/<id:deck_id>/reshuffle/", views.reshuffle, name="reshuffle"),
    path("<id:campaign_id>/test/", fudge_test_views.fudge_test, name="test"),
    path("<id:campaign_id>/characters/<id:character_id>/roll/", sheet_roll_views.sheet_roll, name="sheet_roll"),
    path(
        "<id:campaign_id>/characters/<id:character_id>/roll/dialog/",
        sheet_roll_views.sheet_roll_dialog,
        name="sheet_roll_dialog",
    ),
    path(
        "<id:campaign_id>/characters/<id:character_id>/roll/atout/",
        sheet_roll_views.sheet_roll_atout,
        name="sheet_roll_atout",
    ),
    path("<id:campaign_id>/characters/<id:character_id>/jeton/", sheet_roll_views.sheet_unshake, name="sheet_unshake"),
    path(
        "<id:campaign_id>/characters/<id:character_id>/tests/others/",
        sheet_roll_views.other_tests,
        name="other_tests",
    ),
    path("<id:campaign_id>/test/chance/", fudge_test_views.test_chance, name="test_chance"),
    path("<id:campaign_id>/tests/ask/", asked_test_views.ask, name="asked_test_create"),
    path("<id:campaign_id>/tests/asked/<id:asked_id>/roll/", asked_test_views.roll, name="asked_test_roll"),
    path("<id:campaign_id>/tests/asked/<id:asked_id>/withdraw/", asked_test_views.withdraw, name="asked_test_withdraw"),
    path("<id:campaign_id>/simple/", fudge_test_views.simple_conflict, name="simple"),
    path("<id:campaign_id>/scenes/<id:scene_id>/", views.scene, name="scene"),
    path("<id:campaign_id>/sequences/<id:sequence_id>/", views.sequence, name="sequence"),
    path("<id:campaign_id>/sequences/<id:sequence_id>/story/", story_views.story, name="story"),
    path("<id:campaign_id>/sequences/<id:sequence_id>/add/", console_views.participant_add, name="participant_add"),
    path("<id:campaign_id>/sequences/<id:sequence_id>/settle/", views.settle, name="settle"),
    path("<id:campaign_id>/sequences/<id:sequence_id>/draw-npcs/", console_views.draw_npcs, name="draw_npcs"),
    path("<id:campaign_id>/sequences/<id:sequence_id>/cut/", views.cut, name="cut"),
    path("<id:campaign_id>/sequences/<id:sequence_id>/take-out/", console_views.take_out, name="take_out"),
    path("<id:campaign_id>/sequences/<id:sequence_id>/end/", console_views.end, name="end"),
    path("<id:campaign_id>/participants/<id:participant_id>/", views.panel, name="panel"),
    path("<id:campaign_id>/participants/<id:participant_id>/odds/", views.odds, name="odds"),
    path("<id:campaign_id>/participants/<id:participant_id>/split/", views.split_submit, name="split"),
    path("<id:campaign_id>/participants/<id:participant_id>/declare/", views.declare, name="declare"),
    path("<id:campaign_id>/participants/<id:participant_id>/modifiers/", views.modifiers, name="modifiers"),
    path(
        "<id:campaign_id>/participants/<id:participant_id>/modifiers/form/",
        views.modifiers_form,
        name="modifiers_form",
    ),
    path("<id:campaign_id>/participants/<id:participant_id>/atout/", views.atout, name="atout"),
    path("<id:campaign_id>/participants/<id:participant_id>/jeton/", jeton_views.unshake, name="unshake"),
]
