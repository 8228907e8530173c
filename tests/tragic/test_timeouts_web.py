"""Every wait on another player's decision times out like the time to react (services and the waiting
page): the engine's default is recorded for the idle player, marked in the action list and the log."""

from __future__ import annotations

import datetime as dt

import pytest
from django.urls import reverse
from django.utils import timezone

from core.errors import ServiceError
from tests.campaigns.factories import PASSWORD
from tests.tragic.helpers import give, pass_all, turn_of
from tests.tragic.test_web import duel, english
from tragic import services
from tragic.models import Game
from tragic.presenters import card_name
from tragic.services import load_state

pytestmark = pytest.mark.django_db
NO_BLOCK = {"kind": "block", "player": 1, "blockers": [], "split": [], "timed_out": True}


def defender_to_choose(game: Game) -> Game:
    """Alice's Brute super-mutante attacks Bob, who has a Milicien to block with: Bob must choose."""
    state = turn_of(load_state(game), 0)
    brute = give(state, 0, "brute-super-mutante-2", "play")
    give(state, 1, "milicien-1", "play")
    state.apply({"kind": "ally_attack", "player": 0, "allies": [brute], "target": {"player": 1}})
    pass_all(state)
    assert state.pending["kind"] == "block"
    Game.objects.filter(pk=game.pk).update(snapshot=state.to_json(), last_action_at=timezone.now())
    game.refresh_from_db()
    return game


def unchanged(game: Game) -> tuple[object, ...]:
    game.refresh_from_db()
    return (game.version, list(game.actions), game.snapshot, list(game.log))


def test_an_idle_defender_takes_the_blow_once_the_time_runs_out():
    game, alice, bob = duel()
    game = defender_to_choose(game)
    before = unchanged(game)
    with pytest.raises(ServiceError, match="The time to decide has not run out yet."):
        services.game_timeout(game=game, user=alice, expected_version=game.version)
    assert unchanged(game) == before
    later = timezone.now() + dt.timedelta(seconds=game.reaction_seconds + 1)
    with pytest.raises(ServiceError, match="You are the one being waited for."):
        services.game_timeout(game=game, user=bob, expected_version=game.version, now=later)
    assert unchanged(game) == before
    life = load_state(game).players[1].life
    game = services.game_timeout(game=game, user=alice, expected_version=game.version, now=later)
    assert game.actions[-1] == NO_BLOCK
    assert {"t": "timed_out", "player": 1, "action": "block"} in game.log
    state = load_state(game)
    assert state.pending is None and state.players[1].life == life - 5


def test_the_active_players_own_turn_is_ended_for_them_only_once_the_games_timer_has_run_out():
    game, alice, bob = duel()
    active = load_state(game).current_players()[0]
    waiting = bob if active == 0 else alice
    later = timezone.now() + dt.timedelta(seconds=game.reaction_seconds + 1)
    before = unchanged(game)
    with pytest.raises(ServiceError, match="only ended for them once the game's time is up"):
        services.game_timeout(game=game, user=waiting, expected_version=game.version, now=later)
    assert unchanged(game) == before

    Game.objects.filter(pk=game.pk).update(timer_minutes=1, started_at=timezone.now() - dt.timedelta(minutes=2))
    game.refresh_from_db()
    with pytest.raises(ServiceError, match="The time to decide has not run out yet."):
        services.game_timeout(game=game, user=waiting, expected_version=game.version)
    assert unchanged(game) == before  # not even the timer was recorded
    game = services.game_timeout(game=game, user=waiting, expected_version=game.version, now=later)
    assert game.actions[-2:] == [{"kind": "time_up"}, {"kind": "end_turn", "player": active, "timed_out": True}]
    assert load_state(game).active != active


def test_the_waiting_page_offers_the_default_and_posts_it_once_the_time_runs_out(client):
    game, alice, bob = duel()
    game = defender_to_choose(game)
    url = reverse("tragic:game_timeout", args=[game.pk])
    client.login(username=bob.username, password=PASSWORD)
    english(client)
    html = client.get(reverse("tragic:game", args=[game.pk])).content.decode()
    assert url not in html and 'id="tragic-timeout-note"' in html and "Take the blow" in html  # Bob is asked
    client.login(username=alice.username, password=PASSWORD)
    english(client)
    html = client.get(reverse("tragic:game", args=[game.pk])).content.decode()
    form = html[html.index('<form id="tragic-timeout"') :]
    form = form[: form.index("</form>")]
    assert f'hx-post="{url}"' in form and f'action="{url}"' in form and 'method="post"' in form
    assert f'name="version" value="{game.version}"' in form and "csrfmiddlewaretoken" in form
    assert 'hx-trigger="load delay:' in form and "Take the blow" in form
    assert "Time is up: decide by default for them" in form

    before = unchanged(game)
    early = client.post(url, {"version": game.version}, HTTP_HX_REQUEST="true")
    assert early.status_code == 400 and "The time to decide has not run out yet." in early.content.decode()
    assert unchanged(game) == before

    Game.objects.filter(pk=game.pk).update(last_action_at=timezone.now() - dt.timedelta(seconds=game.reaction_seconds))
    response = client.post(url, {"version": game.version}, HTTP_HX_REQUEST="true")
    assert response.status_code == 200 and "Time ran out for" in response.content.decode()
    game.refresh_from_db()
    assert game.actions[-1] == NO_BLOCK


def test_a_player_cannot_slip_a_timed_out_mark_into_their_own_action():
    game, alice, bob = duel()
    active = load_state(game).current_players()[0]
    user = alice if active == 0 else bob
    game = services.game_act(
        game=game, user=user, action={"kind": "end_turn", "timed_out": True}, expected_version=game.version
    )
    assert game.actions[-1] == {"kind": "end_turn", "player": active}


def test_the_timeout_default_of_a_discovery_does_not_name_the_discovered_cards_to_the_others(client):
    """The cards of a DÉCOUVERTE are seen by the one who discovers them only, default or not."""
    game, alice, bob = duel()
    state = turn_of(load_state(game), 0)
    state.start_discover(0, 3)
    top = [state.cards[uid].cid for uid in state.pending["cards"]]
    Game.objects.filter(pk=game.pk).update(snapshot=state.to_json(), last_action_at=timezone.now())
    client.login(username=bob.username, password=PASSWORD)
    english(client)
    html = client.get(reverse("tragic:game", args=[game.pk])).content.decode()
    form = html[html.index('<form id="tragic-timeout"') :]
    form = form[: form.index("</form>")]
    assert "the discovered cards go back on top, in their order" in form
    assert not any(card_name(cid) in form for cid in top)
    client.login(username=alice.username, password=PASSWORD)
    english(client)
    note = client.get(reverse("tragic:game", args=[game.pk])).content.decode()
    assert 'id="tragic-timeout-note"' in note and card_name(top[0]) in note
