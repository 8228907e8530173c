"""A Frag game may be recorded in one of its creator's campaigns: one event when it starts, one when it ends."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse
from django.utils import translation

from campaigns.chronicle import describe
from campaigns.models import Event, Visibility
from core.errors import ServiceError
from frag import services
from frag.engine import new_game
from frag.engine.bots import heuristic_bot
from frag.engine.rng import Dice
from frag.engine.state import State
from frag.models import Game, GameStatus
from tests.campaigns.factories import campaign_with, narrator_of, players_of
from tests.frag.factories import UserFactory

pytestmark = pytest.mark.django_db

FIGHTER = {"health": 2, "speed": 3, "accuracy": 2}


def frag_events(campaign) -> list[Event]:  # type: ignore[no-untyped-def]
    return list(Event.objects.filter(campaign=campaign, kind__startswith="frag.").order_by("pk"))


def seats_for(person, bots: int = 2) -> list[services.SeatSpec]:  # type: ignore[no-untyped-def]
    seats = [services.SeatSpec(name=person.username, user=person, **FIGHTER)]
    return seats + [services.SeatSpec(name=f"Bot {i + 1}", bot="random", **FIGHTER) for i in range(bots)]


def seed_where_first_player_is(seat_test, players: int = 3) -> int:  # type: ignore[no-untyped-def]
    config = {"map": "entrepot", "players": [{"name": f"P{i}", **FIGHTER} for i in range(players)]}
    for seed in range(1, 200):
        if seat_test(new_game(config, seed).turn.player):
            return seed
    raise AssertionError("no such seed")


def test_a_game_ended_by_a_bot_turn_writes_its_start_and_end_once() -> None:
    """Turn limit 1 and a bot first: once the person has placed, the bot's turn 1 ends the game."""
    campaign = campaign_with(players=1)
    narrator = narrator_of(campaign)
    seed = seed_where_first_player_is(lambda seat: seat != 0)
    game = services.game_create(
        creator=narrator,
        map_name="entrepot",
        seats=seats_for(narrator),
        seed=seed,
        turn_limit=1,
        campaign_id=campaign.pk,
    )
    assert game.status == GameStatus.ACTIVE and game.campaign == campaign
    assert [e.kind for e in frag_events(campaign)] == ["frag.game_started"]
    place = State.from_json(game.snapshot).legal_actions(0)[0]
    assert place["type"] == "place"
    services.game_act(game=game, user=narrator, action=place, expected_version=game.version)
    game.refresh_from_db()
    assert game.status == GameStatus.FINISHED
    last = game.steps.order_by("-number").first()
    assert last is not None and last.seat != 0  # a bot's action ended it
    events = frag_events(campaign)
    assert [e.kind for e in events] == ["frag.game_started", "frag.game_finished"]
    started, finished = events
    assert started.payload["map"] == "entrepot"
    assert [f["name"] for f in started.payload["fighters"]] == [narrator.username, "Bot 1", "Bot 2"]
    assert [f["bot"] for f in started.payload["fighters"]] == [None, "random", "random"]
    # The seed deals every hand again: it never reaches a log whose JSON export carries every payload.
    assert all("seed" not in e.payload for e in events)
    assert finished.payload["turns"] == 1 and finished.payload["winner"] is None
    assert [f["frags"] for f in finished.payload["frags"]] == [0, 0, 0]
    assert all(e.visibility == Visibility.EVERYONE for e in events)
    with translation.override("en"):
        assert describe(started) == (
            f"A Frag game begins on The Warehouse: {narrator.username}, Bot 1 (bot), Bot 2 (bot); "
            "first to 3 frags wins."
        )
        assert describe(finished).startswith("The Frag game on The Warehouse ends without a winner after 1 turn (")
    with translation.override("fr"):
        assert "Une partie de Frag commence" in describe(started)
        assert "sans vainqueur" in describe(finished)
    with pytest.raises(ServiceError):
        services.game_act(
            game=game, user=narrator, action={"type": "end_turn", "player": 0}, expected_version=game.version
        )
    assert len(frag_events(campaign)) == 2


def test_a_person_turn_then_bots_reach_the_end_once() -> None:
    """The person plays turn 1, a bot's turn 2 reaches the turn limit: the end is written once, by that call."""
    campaign = campaign_with()
    narrator = narrator_of(campaign)
    seed = seed_where_first_player_is(lambda seat: seat == 0)
    game = services.game_create(
        creator=narrator,
        map_name="entrepot",
        seats=seats_for(narrator),
        seed=seed,
        turn_limit=2,
        campaign_id=campaign.pk,
    )
    assert [e.kind for e in frag_events(campaign)] == ["frag.game_started"]
    while game.status != GameStatus.FINISHED:
        state = State.from_json(game.snapshot)
        action = heuristic_bot(state, 0, Dice(game.version))
        services.game_act(game=game, user=narrator, action=action, expected_version=game.version)
        game.refresh_from_db()
    assert [e.kind for e in frag_events(campaign)] == ["frag.game_started", "frag.game_finished"]
    assert game.steps.order_by("-number").first().seat != 0  # type: ignore[union-attr]


def test_a_winner_reads_in_both_languages() -> None:
    campaign = campaign_with()
    event = Event(
        campaign=campaign,
        kind="frag.game_finished",
        payload={
            "game": 1,
            "map": "raffinerie",
            "map_title": {"fr": "La Raffinerie", "en": "The Refinery"},
            "winner": "Ana",
            "frags": [{"name": "Ana", "frags": 3}, {"name": "Bot 1", "frags": 1}],
            "turns": 42,
            "reason": "frags",
        },
    )
    with translation.override("en"):
        assert describe(event) == "Ana wins the Frag game on The Refinery after 42 turns (frags: Ana 3, Bot 1 1)."
    with translation.override("fr"):
        assert describe(event) == (
            "Ana remporte la partie de Frag sur La Raffinerie en 42 tours (frags : Ana 3, Bot 1 1)."
        )


def test_no_campaign_by_default_and_nothing_written() -> None:
    campaign = campaign_with()
    narrator = narrator_of(campaign)
    game = services.game_create(creator=narrator, map_name="entrepot", seats=seats_for(narrator), seed=1)
    assert game.campaign is None and frag_events(campaign) == []


def test_the_service_refuses_a_campaign_the_creator_is_not_in() -> None:
    campaign = campaign_with(players=1)
    stranger = UserFactory()
    with pytest.raises(ServiceError, match="campaign you are a member of"):
        services.game_create(
            creator=stranger, map_name="entrepot", seats=seats_for(stranger), seed=1, campaign_id=campaign.pk
        )
    assert not Game.objects.exists() and frag_events(campaign) == []


def lobby_post(campaign_id: object) -> dict[str, object]:
    data: dict[str, object] = {"map_name": "entrepot", "frags_to_win": 3, "campaign": campaign_id}
    for i, kind in enumerate(["me", "random", "", "", "", ""]):
        data.update({f"seat{i}_kind": kind, f"seat{i}_health": 2, f"seat{i}_speed": 3, f"seat{i}_accuracy": 2})
    return data


def test_the_lobby_offers_only_the_persons_campaigns_and_records_the_start(client) -> None:  # type: ignore[no-untyped-def]
    mine, other = campaign_with(players=1), campaign_with(name="Autre table")
    player = players_of(mine)[0]
    client.force_login(player)
    client.cookies["django_language"] = "en"
    html = client.get(reverse("frag:home")).content.decode()
    select = re.search(r'<select name="campaign".*?</select>', html, re.S)
    assert select is not None
    assert f'value="{mine.pk}"' in select.group() and f'value="{other.pk}"' not in select.group()
    response = client.post(reverse("frag:home"), lobby_post(mine.pk))
    game = Game.objects.get()
    assert response.status_code == 302 and game.campaign == mine
    assert [e.kind for e in frag_events(mine)] == ["frag.game_started"]
    # Everyone in the campaign reads it in the log, the narrator included.
    client.force_login(narrator_of(mine))
    log = client.get(reverse("campaigns:log", args=[mine.pk])).content.decode()
    assert "A Frag game begins on The Warehouse" in log


def test_the_lobby_has_no_campaign_choice_for_someone_in_none(client) -> None:  # type: ignore[no-untyped-def]
    client.force_login(UserFactory())
    client.cookies["django_language"] = "en"
    assert "Record in a campaign" not in client.get(reverse("frag:home")).content.decode()


@pytest.mark.parametrize(
    ("language", "message"),
    [
        ("en", "You can only record a game in a campaign you are a member of."),
        ("fr", "Vous ne pouvez consigner une partie que dans une campagne dont vous êtes membre."),
    ],
)
def test_the_lobby_refuses_another_campaign_and_saves_nothing(client, language, message) -> None:  # type: ignore[no-untyped-def]
    other = campaign_with(players=1)
    client.force_login(UserFactory())
    client.cookies["django_language"] = language
    response = client.post(reverse("frag:home"), lobby_post(other.pk))
    assert response.status_code == 200
    assert message in response.content.decode()
    assert not Game.objects.exists() and frag_events(other) == []
