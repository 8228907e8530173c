"""Game sessions are numbered, opened and closed by narrators; the game clock only moves forward."""

from __future__ import annotations

import datetime as dt

import pytest

from campaigns import hooks, services
from campaigns.models import Event, SessionStatus
from core.errors import ServiceError, StaleState
from tests.campaigns.factories import campaign_with, narrator_of

pytestmark = pytest.mark.django_db
TODAY = dt.date(2026, 11, 22)


def test_sessions_are_numbered_in_order() -> None:
    campaign = campaign_with()
    narrator = narrator_of(campaign)
    numbers = [services.game_session_create(campaign=campaign, actor=narrator, date=TODAY).number for _ in range(3)]
    assert numbers == [1, 2, 3]


def test_only_one_session_is_open_at_a_time() -> None:
    campaign = campaign_with()
    narrator = narrator_of(campaign)
    first = services.game_session_create(campaign=campaign, actor=narrator, date=TODAY)
    second = services.game_session_create(campaign=campaign, actor=narrator, date=TODAY)
    services.game_session_open(game_session=first, actor=narrator)
    with pytest.raises(ServiceError, match="Another session is open"):
        services.game_session_open(game_session=second, actor=narrator)
    second.refresh_from_db()
    assert second.status == SessionStatus.PLANNED


def test_events_are_filed_under_the_open_session() -> None:
    campaign = campaign_with()
    narrator = narrator_of(campaign)
    game_session = services.game_session_create(campaign=campaign, actor=narrator, date=TODAY)
    services.game_session_open(game_session=game_session, actor=narrator)
    event = services.event_append(campaign=campaign, kind="note", actor=narrator, payload={"text": "x"})
    assert event.game_session == game_session


def test_closing_a_session_runs_the_end_of_session_hooks_inside_the_transaction() -> None:
    campaign = campaign_with()
    narrator = narrator_of(campaign)
    game_session = services.game_session_create(campaign=campaign, actor=narrator, date=TODAY)
    services.game_session_open(game_session=game_session, actor=narrator)
    seen: list[int] = []

    def award(closing, actor):  # type: ignore[no-untyped-def]
        seen.append(closing.number)

    hooks.on_session_close(award)
    try:
        services.game_session_close(game_session=game_session, actor=narrator)
    finally:
        hooks._session_close_hooks.remove(award)
    assert seen == [1]
    game_session.refresh_from_db()
    assert game_session.status == SessionStatus.CLOSED
    assert Event.objects.filter(kind="session.closed", game_session=game_session).exists()


def test_a_failing_end_of_session_hook_leaves_the_session_open() -> None:
    campaign = campaign_with()
    narrator = narrator_of(campaign)
    game_session = services.game_session_create(campaign=campaign, actor=narrator, date=TODAY)
    services.game_session_open(game_session=game_session, actor=narrator)

    def broken(closing, actor):  # type: ignore[no-untyped-def]
        raise ServiceError("no")

    hooks.on_session_close(broken)
    try:
        with pytest.raises(ServiceError):
            services.game_session_close(game_session=game_session, actor=narrator)
    finally:
        hooks._session_close_hooks.remove(broken)
    game_session.refresh_from_db()
    assert game_session.status == SessionStatus.OPEN
    assert not Event.objects.filter(kind="session.closed").exists()


def test_a_closed_session_cannot_be_closed_again() -> None:
    campaign = campaign_with()
    narrator = narrator_of(campaign)
    game_session = services.game_session_create(campaign=campaign, actor=narrator, date=TODAY)
    with pytest.raises(ServiceError, match="Only an open session"):
        services.game_session_close(game_session=game_session, actor=narrator)


def test_advancing_the_clock_logs_old_and_new_time_and_runs_the_hooks() -> None:
    campaign = campaign_with()
    narrator = narrator_of(campaign)
    start = campaign.game_clock
    calls: list[tuple[dt.datetime, dt.datetime]] = []

    def heal(c, old, new, actor):  # type: ignore[no-untyped-def]
        calls.append((old, new))

    hooks.on_clock_advance(heal)
    try:
        services.clock_advance(campaign=campaign, actor=narrator, delta=dt.timedelta(days=1, hours=2), reason="Repos")
    finally:
        hooks._clock_advance_hooks.remove(heal)
    campaign.refresh_from_db()
    assert campaign.game_clock == start + dt.timedelta(days=1, hours=2)
    assert calls == [(start, campaign.game_clock)]
    event = Event.objects.get(kind="clock.advanced")
    assert event.payload["minutes"] == 26 * 60
    assert event.game_time == campaign.game_clock


def test_the_clock_never_goes_back() -> None:
    campaign = campaign_with()
    with pytest.raises(ServiceError, match="only moves forward"):
        services.clock_advance(campaign=campaign, actor=narrator_of(campaign), delta=dt.timedelta(hours=-1))


def test_a_stale_clock_form_is_refused_and_changes_nothing() -> None:
    campaign = campaign_with()
    narrator = narrator_of(campaign)
    seen = campaign.game_clock
    services.clock_advance(campaign=campaign, actor=narrator, delta=dt.timedelta(hours=1))
    with pytest.raises(StaleState):
        services.clock_advance(campaign=campaign, actor=narrator, delta=dt.timedelta(hours=1), expected=seen)
    campaign.refresh_from_db()
    assert campaign.game_clock == seen + dt.timedelta(hours=1)


def test_a_stale_settings_form_is_refused() -> None:
    campaign = campaign_with()
    narrator = narrator_of(campaign)
    services.campaign_settings_update(campaign=campaign, actor=narrator, data={"session_award": 2}, expected_version=1)
    with pytest.raises(StaleState):
        services.campaign_settings_update(
            campaign=campaign, actor=narrator, data={"session_award": 3}, expected_version=1
        )
    campaign.refresh_from_db()
    assert campaign.session_award == 2


def test_players_see_the_clock_move_without_reloading() -> None:
    """Advancing the clock refreshes the game card of a player's campaign page (not the narrator's dashboard,
    nor a page without the card)."""
    from campaigns.live import Viewer, extra_fragments, home_subject
    from tests.campaigns.factories import membership, narrator_of, players_of

    campaign = campaign_with(players=1)
    narrator = narrator_of(campaign)
    services.clock_advance(campaign=campaign, actor=narrator, delta=dt.timedelta(hours=2), reason="")
    event = Event.objects.filter(kind="clock.advanced").latest("pk")
    home = frozenset({home_subject(campaign.pk)})
    player = membership(campaign, players_of(campaign)[0])
    seen = "".join(extra_fragments(event, Viewer(player, watching=home)))
    assert '<div class="card" id="game-status" hx-swap-oob="outerHTML">' in seen
    assert extra_fragments(event, Viewer(player)) == []  # e.g. the log page: no game card there
    # The narrator's dashboard has no game card (an undeclared kind may re-render its regions: core.regions.TABLE).
    assert "game-status" not in "".join(extra_fragments(event, Viewer(membership(campaign, narrator), watching=home)))
