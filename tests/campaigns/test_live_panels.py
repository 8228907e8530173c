"""The campaign's own live fragments (campaigns/live_panels.py): the game card follows the clock and the sessions
on a player's campaign page (the narrators' dashboard refreshes by their own actions), and a correction strikes
out the entry it corrects for each member who reads it, a private entry staying private."""

from __future__ import annotations

import datetime as dt

import pytest
from django.utils import translation

from campaigns import services
from campaigns.live import NOT_SHOWN, Viewer, feed_subject, home_subject, parts_for
from campaigns.live_panels import corrected_entry, correction_audience, everyone_alike, game_status
from campaigns.models import Event
from tests.campaigns.factories import campaign_with, membership, narrator_of, players_of

pytestmark = pytest.mark.django_db


def test_the_game_card_follows_the_clock_and_the_session_on_the_players_home_only() -> None:
    campaign = campaign_with(players=2)
    narrator, (alice, bob) = narrator_of(campaign), players_of(campaign)
    home = frozenset({home_subject(campaign.pk)})
    services.clock_advance(campaign=campaign, actor=narrator, delta=dt.timedelta(hours=2))
    moved = Event.objects.get(kind="clock.advanced")
    assert {part.render for part in parts_for("clock.advanced")} >= {game_status}

    alice_home, bob_home = Viewer(membership(campaign, alice), home), Viewer(membership(campaign, bob), home)
    with translation.override("en"):
        [card] = game_status(moved, alice_home)
    assert card.startswith('<div class="card" id="game-status" hx-swap-oob="outerHTML">')
    assert "No session is open." in card
    assert everyone_alike(moved, alice_home) == everyone_alike(moved, bob_home) != NOT_SHOWN  # one copy for all

    narrators_page = Viewer(membership(campaign, narrator), home)
    elsewhere = Viewer(membership(campaign, alice), frozenset({feed_subject(campaign.pk)}))
    for viewer in (narrators_page, elsewhere):
        assert game_status(moved, viewer) == []
        assert everyone_alike(moved, viewer) == NOT_SHOWN

    session = services.game_session_create(campaign=campaign, actor=narrator, date=dt.date(2026, 1, 2), title="Deux")
    services.game_session_open(game_session=session, actor=narrator)
    opened = Event.objects.filter(kind__startswith="session.").latest("pk")
    [card] = game_status(opened, alice_home)
    assert str(session) in card and 'class="badge ok"' in card


def test_a_correction_strikes_out_the_entry_for_those_who_read_it() -> None:
    campaign = campaign_with(players=2)
    narrator, (alice, bob) = narrator_of(campaign), players_of(campaign)
    feed = frozenset({feed_subject(campaign.pk)})
    alices = membership(campaign, alice)
    note = services.note_write(membership=alices, text="Un secret", private=True)
    fix = services.event_correct(membership=alices, event=note, reason="Mal dit")

    alice_sees = Viewer(alices, feed)
    [entry] = corrected_entry(fix, alice_sees)
    assert f'id="event-{note.pk}"' in entry and "corrected" in entry and "Mal dit" in entry
    assert 'hx-swap-oob="true"' in entry
    assert corrected_entry(fix, Viewer(membership(campaign, narrator), feed)) != []  # narrators read private notes
    assert corrected_entry(fix, Viewer(membership(campaign, bob), feed)) == []  # Bob never read it
    assert corrected_entry(fix, Viewer(alices, frozenset({home_subject(campaign.pk)}))) == []  # no feed there
    assert corrected_entry(note, alice_sees) == []  # not a correction

    # Each member on their own: the entry reads as that member may see it.
    assert correction_audience(fix, alice_sees) == ("member", alices.pk)
    assert correction_audience(fix, Viewer(membership(campaign, bob), feed)) != correction_audience(fix, alice_sees)
    assert correction_audience(note, alice_sees) == NOT_SHOWN
    assert correction_audience(fix, Viewer(alices, frozenset({home_subject(campaign.pk)}))) == NOT_SHOWN
