"""A setup that waits forever has a way out that adds no rule: once the time to react has run out with
the game still waiting on someone's Compétences (no default: « obligatoirement 3 Compétences »), a
waiting player may cancel it; any seated player may leave a game in setup, and concede during play."""

from __future__ import annotations

import datetime as dt

import pytest
from django.urls import reverse
from django.utils import timezone

from campaigns.chronicle import describe
from campaigns.models import Event
from core.errors import PermissionRefused, ServiceError
from tests.campaigns.factories import PASSWORD, UserFactory, campaign_with, narrator_of
from tests.tragic.test_web import GANG, SKILLS, STEEL, duel, english
from tragic import services
from tragic.models import Game, GameStatus
from tragic.services import load_state

pytestmark = pytest.mark.django_db


def stalled(campaign_id: int | None = None, alice=None, bob=None) -> tuple[Game, object, object]:  # type: ignore[no-untyped-def]
    """Alice has chosen her Compétences, Bob never does."""
    alice, bob = alice or UserFactory(), bob or UserFactory()
    game = services.game_create(user=alice, deck_ref=STEEL, opponent="invite", seed=5, campaign_id=campaign_id)
    game = services.game_join(token=game.invite_token, user=bob, deck_ref=GANG)
    for user in (alice, bob):
        game = services.game_act(
            game=game, user=user, action={"kind": "choose_traits", "traits": []}, expected_version=game.version
        )
    game = services.game_act(
        game=game, user=alice, action={"kind": "choose_skills", "skills": SKILLS}, expected_version=game.version
    )
    assert load_state(game).current_players() == [1]
    return game, alice, bob


def unchanged(game: Game) -> tuple[object, ...]:
    game.refresh_from_db()
    return (game.status, game.version, list(game.actions), game.snapshot, list(game.log), game.winner_seat)


def later(game: Game) -> dt.datetime:
    return game.last_action_at + dt.timedelta(seconds=game.reaction_seconds + 1)


def test_refusals_change_nothing():
    game, alice, bob = stalled()
    before = unchanged(game)
    with pytest.raises(ServiceError, match="The others still have time to choose."):
        services.game_cancel(game=game, user=alice, expected_version=game.version)
    with pytest.raises(ServiceError, match="You are the one being waited for."):
        services.game_cancel(game=game, user=bob, expected_version=game.version, now=later(game))
    with pytest.raises(PermissionRefused):
        services.game_cancel(game=game, user=UserFactory(), expected_version=game.version, now=later(game))
    with pytest.raises(ServiceError, match="acted first"):
        services.game_cancel(game=game, user=alice, expected_version=game.version - 1, now=later(game))
    assert unchanged(game) == before

    started, carol, _dave = duel()
    before = unchanged(started)
    with pytest.raises(ServiceError, match="can no longer be cancelled"):
        services.game_cancel(game=started, user=carol, expected_version=started.version, now=later(started))
    assert unchanged(started) == before


def test_a_permitted_cancel_is_recorded_once_in_the_game_and_the_campaign_logs():
    campaign = campaign_with(players=1)
    alice = narrator_of(campaign)
    game, alice, bob = stalled(campaign.pk, alice=alice)
    game = services.game_cancel(game=game, user=alice, expected_version=game.version, now=later(game))
    assert game.status == GameStatus.ABANDONED and game.winner_seat is None
    assert [e for e in game.log if e["t"] == "game_cancelled"] == [
        {"t": "game_cancelled", "player": 0, "waiting_for": [1], "phase": "choose_skills"}
    ]
    events = Event.objects.filter(campaign=campaign, kind="tragic.game_cancelled")
    assert events.count() == 1
    assert describe(events.get()) == (
        f"The TRAGIC duel {alice.username} against {bob.username} is cancelled by {alice.username} "
        f"during setup: {bob.username} never chose."
    )
    before = unchanged(game)
    with pytest.raises(ServiceError, match="not being played"):
        services.game_cancel(game=game, user=alice, expected_version=game.version, now=later(game))
    with pytest.raises(ServiceError, match="not being played"):
        services.game_act(
            game=game, user=bob, action={"kind": "choose_skills", "skills": SKILLS}, expected_version=game.version
        )
    assert unchanged(game) == before
    assert Event.objects.filter(campaign=campaign, kind="tragic.game_cancelled").count() == 1


def test_the_waiting_board_offers_the_cancel_once_the_time_is_up(client):
    game, alice, bob = stalled()
    client.login(username=alice.username, password=PASSWORD)
    english(client)
    page = client.get(reverse("tragic:game", args=[game.pk])).content.decode()
    assert "you may cancel the game" in page and "Cancel the game</button>" not in page
    Game.objects.filter(pk=game.pk).update(last_action_at=timezone.now() - dt.timedelta(seconds=600))
    page = client.get(reverse("tragic:game", args=[game.pk])).content.decode()
    assert "Cancel the game</button>" in page and "hx-confirm" in page
    response = client.post(
        reverse("tragic:game_cancel", args=[game.pk]), {"version": game.version}, HTTP_HX_REQUEST="true"
    )
    page = response.content.decode()
    assert response.status_code == 200 and "Game cancelled during setup: nobody wins." in page
    assert "did not choose in time. Nobody wins." in page
    assert "Leave the game" not in page and 'id="tragic-setup"' not in page
    assert Game.objects.get(pk=game.pk).status == GameStatus.ABANDONED


def test_the_player_waited_for_sees_no_cancel_and_anyone_seated_may_leave_the_setup(client):
    game, alice, bob = stalled()
    Game.objects.filter(pk=game.pk).update(last_action_at=timezone.now() - dt.timedelta(seconds=600))
    client.login(username=bob.username, password=PASSWORD)
    english(client)
    page = client.get(reverse("tragic:game", args=[game.pk])).content.decode()
    assert 'id="tragic-setup"' in page and "Cancel the game" not in page and "Leave the game</button>" in page
    client.login(username=alice.username, password=PASSWORD)
    page = client.get(reverse("tragic:game", args=[game.pk])).content.decode()
    leave = page.split('id="tragic-leave"')[1]
    assert "Leave this game?" in leave and "concede" in leave
    response = client.post(
        reverse("tragic:game_act", args=[game.pk]),
        {"version": game.version, "action": '{"kind":"concede"}'},
        HTTP_HX_REQUEST="true",
    )
    game.refresh_from_db()
    assert response.status_code == 200 and game.status == GameStatus.FINISHED and game.winner_seat == 1


def test_a_player_may_concede_from_the_board_during_play_with_a_confirmation(client):
    game, alice, bob = duel()
    active = load_state(game).current_players()[0]
    idle = bob if active == 0 else alice
    client.login(username=idle.username, password=PASSWORD)
    english(client)
    page = client.get(reverse("tragic:game", args=[game.pk])).content.decode()
    leave = page.split('id="tragic-leave"')[1].split("</section>")[0]
    assert "Concede? You are out" in leave and "Concede</button>" in leave
    actions = page.split('id="tragic-actions"')[1] if 'id="tragic-actions"' in page else ""
    assert "concede" not in actions.split('id="tragic-leave"')[0]
    client.post(
        reverse("tragic:game_act", args=[game.pk]),
        {"version": game.version, "action": '{"kind":"concede"}'},
        HTTP_HX_REQUEST="true",
    )
    game.refresh_from_db()
    assert game.status == GameStatus.FINISHED and game.winner_seat == active


def test_the_page_of_an_invitation_shows_its_link_and_the_invitation_can_be_withdrawn(client):
    alice, bob = UserFactory(), UserFactory()
    game = services.game_create(user=alice, deck_ref=STEEL, opponent="invite", seed=5)
    client.login(username=alice.username, password=PASSWORD)
    english(client)
    response = client.get(reverse("tragic:game", args=[game.pk]))
    page = response.content.decode()
    assert response.status_code == 200 and "Waiting for an opponent. 1 of 2 seats taken." in page
    assert reverse("tragic:invitation", args=[game.invite_token]) in page and "Cancel the invitation" in page

    before = unchanged(game)
    with pytest.raises(PermissionRefused):
        services.game_cancel(game=game, user=bob, expected_version=game.version)
    assert unchanged(game) == before
    response = client.post(
        reverse("tragic:game_cancel", args=[game.pk]), {"version": game.version}, HTTP_HX_REQUEST="true"
    )
    page = response.content.decode()
    assert response.status_code == 200 and "Invitation cancelled." in page
    assert f"{alice.username} cancels the invitation." in page
    game.refresh_from_db()
    assert game.status == GameStatus.ABANDONED and game.winner_seat is None
    with pytest.raises(ServiceError, match="This invitation has been cancelled."):
        services.game_join(token=game.invite_token, user=bob, deck_ref=GANG)
    assert game.seats.count() == 1
