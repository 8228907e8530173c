"""Pages: the lobby creates games; the board is an SVG with tappable squares; others' hands never reach the HTML."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

from frag.engine import State
from frag.models import Game
from frag.selectors.naming import card_name
from tests.frag.factories import UserFactory, game_with

pytestmark = pytest.mark.django_db


def test_the_lobby_starts_a_game_mixing_a_person_and_bots(client, person) -> None:  # type: ignore[no-untyped-def]
    data = {"map_name": "raffinerie", "frags_to_win": 2}
    kinds = ["me", "heuristic", "random", "", "", ""]
    for i, kind in enumerate(kinds):
        data.update({f"seat{i}_kind": kind, f"seat{i}_health": 2, f"seat{i}_speed": 3, f"seat{i}_accuracy": 2})
    response = client.post(reverse("frag:home"), data)
    game = Game.objects.get()
    assert response.status_code == 302 and response.url == game.get_absolute_url()
    assert [s.bot for s in game.seats.all()] == ["", "heuristic", "random"]
    assert game.config["frags_to_win"] == 2


def test_the_lobby_refuses_attributes_that_do_not_add_up_to_seven(client, person) -> None:  # type: ignore[no-untyped-def]
    data = {"map_name": "entrepot", "frags_to_win": 3}
    for i, kind in enumerate(["me", "heuristic", "", "", "", ""]):
        data.update({f"seat{i}_kind": kind, f"seat{i}_health": 4, f"seat{i}_speed": 4, f"seat{i}_accuracy": 2})
    response = client.post(reverse("frag:home"), data)
    assert response.status_code == 200
    assert "must add up to 7" in response.content.decode()
    assert not Game.objects.exists()


def test_the_board_is_an_svg_with_tappable_squares_for_the_player_to_act(client, person) -> None:  # type: ignore[no-untyped-def]
    game = game_with(person)
    html = client.get(game.get_absolute_url()).content.decode()
    assert "<svg" in html and 'class="target reachable"' in html
    assert (
        f'data-live-url="/ws/frag/{game.pk}/" data-live-after="{game.version}" data-live-stream="frag:{game.pk}"'
        in html
    )


def test_the_table_names_its_version_in_the_games_own_stream_unless_bots_still_play_out(
    client, person, settings
) -> None:  # type: ignore[no-untyped-def]
    """X-Live-Position ``frag:<id>=<version>`` when the answer shows that version; an answer showing the moment after
    one's own action, the bots' turns still to be played out by the socket, names none (the frames and the board
    that follow must apply)."""
    settings.FRAG_LIVE_PACE = 0
    game = game_with(person)
    assert client.get(game.get_absolute_url())["X-Live-Position"] == f"frag:{game.pk}={game.version}"
    response = client.post(
        reverse("frag:act", args=[game.pk]), {"choice": 0, "version": game.version}, HTTP_HX_REQUEST="true"
    )
    game.refresh_from_db()
    assert response["X-Live-Position"] == f"frag:{game.pk}={game.version}"
    settings.FRAG_LIVE_PACE = 0.5
    game = game_with(person, bots=2)
    _to_action_phase(game, person)
    action = '{"type": "end_turn", "player": 0}'
    response = client.post(
        reverse("frag:act", args=[game.pk]), {"action": action, "version": game.version}, HTTP_HX_REQUEST="true"
    )
    assert 'id="frag-waiting"' in response.content.decode() and "X-Live-Position" not in response


def test_strangers_get_a_404(client) -> None:  # type: ignore[no-untyped-def]
    game = game_with(UserFactory())
    client.force_login(UserFactory())
    assert client.get(game.get_absolute_url()).status_code == 404
    assert client.get(reverse("frag:replay", args=[game.pk])).status_code == 404


def test_the_other_fighters_hands_are_not_in_the_page(client, person) -> None:  # type: ignore[no-untyped-def]
    game = game_with(person)
    state = State.from_json(game.snapshot)
    mine = {card_name(state.card(u)) for u in state.fighters[0].hand}
    theirs = {card_name(state.card(u)) for f in state.fighters[1:] for u in f.hand} - mine
    html = client.get(game.get_absolute_url()).content.decode()
    for name in mine:
        assert name in html
    for name in theirs:
        assert name not in html


def test_a_tap_posts_a_choice_and_the_htmx_answer_is_the_table(client, person) -> None:  # type: ignore[no-untyped-def]
    game = game_with(person)
    state = State.from_json(game.snapshot)
    index = 0
    response = client.post(
        reverse("frag:act", args=[game.pk]), {"choice": index, "version": game.version}, HTTP_HX_REQUEST="true"
    )
    assert response.status_code == 200
    html = response.content.decode()
    assert html.lstrip().startswith('<div id="frag-table"')
    game.refresh_from_db()
    assert game.steps.filter(seat=0, number__gte=1).exists()
    assert State.from_json(game.snapshot).to_json() != state.to_json()


def test_a_stale_tap_shows_someone_acted_first_and_the_fresh_board(client, person) -> None:  # type: ignore[no-untyped-def]
    game = game_with(person)
    old = game.version
    client.post(reverse("frag:act", args=[game.pk]), {"choice": 0, "version": old}, HTTP_HX_REQUEST="true")
    response = client.post(reverse("frag:act", args=[game.pk]), {"choice": 0, "version": old}, HTTP_HX_REQUEST="true")
    assert response.status_code == 409
    assert "Someone acted first" in response.content.decode()


def test_the_replay_steps_through_the_game(client, person) -> None:  # type: ignore[no-untyped-def]
    game = game_with(person)
    client.post(reverse("frag:act", args=[game.pk]), {"choice": 0, "version": game.version})
    url = reverse("frag:replay", args=[game.pk])
    html = client.get(url + "?step=0").content.decode()
    assert re.search(r"Step 0 of \d+", html)
    partial = client.get(url + "?step=1", HTTP_HX_REQUEST="true").content.decode()
    assert partial.lstrip().startswith('<div id="frag-replay"')
    assert "Step 1 of" in partial


def test_the_board_page_takes_a_bounded_number_of_queries(client, person, django_assert_max_num_queries) -> None:  # type: ignore[no-untyped-def]
    game = game_with(person)
    with django_assert_max_num_queries(8):
        client.get(game.get_absolute_url())


def test_a_tournament_winner_brings_one_more_point(client, person) -> None:  # type: ignore[no-untyped-def]
    """« le vainqueur gagne le droit d'augmenter une de ses caractéristiques de 1 point »"""
    data = {"map_name": "entrepot", "frags_to_win": 3}
    for i, kind in enumerate(["me", "heuristic", "", "", "", ""]):
        data.update({f"seat{i}_kind": kind, f"seat{i}_health": 2, f"seat{i}_speed": 3, f"seat{i}_accuracy": 2})
    data.update({"seat0_health": 3, "seat0_wins": 1})
    client.post(reverse("frag:home"), data)
    game = Game.objects.get()
    assert game.config["players"][0] == {"name": person.username, "health": 3, "speed": 3, "accuracy": 2, "wins": 1}


def test_an_action_and_all_the_bot_turns_it_triggers_take_a_bounded_number_of_queries(  # type: ignore[no-untyped-def]
    client, person, django_assert_max_num_queries
) -> None:
    game = game_with(person, bots=4)
    with django_assert_max_num_queries(25):
        client.post(reverse("frag:act", args=[game.pk]), {"choice": 0, "version": game.version}, HTTP_HX_REQUEST="true")


def test_the_replay_plays_itself_step_by_step(client, person) -> None:  # type: ignore[no-untyped-def]
    game = game_with(person)
    client.post(reverse("frag:act", args=[game.pk]), {"choice": 0, "version": game.version})
    url = reverse("frag:replay", args=[game.pk])
    partial = client.get(url + "?step=0&play=1", HTTP_HX_REQUEST="true").content.decode()
    assert 'hx-get="?step=1&amp;play=1" hx-trigger="load delay:700ms"' in partial


def test_a_garbled_post_is_refused_and_changes_nothing(client, person) -> None:  # type: ignore[no-untyped-def]
    game = game_with(person)
    before = (game.version, game.snapshot)
    url = reverse("frag:act", args=[game.pk])
    for data in (
        {"choice": "x", "version": game.version},
        {"choice": 999, "version": game.version},
        {"action": "{", "version": 1},
    ):
        response = client.post(url, data, HTTP_HX_REQUEST="true")
        assert response.status_code == 400
        assert "could not be read" in response.content.decode()
    game.refresh_from_db()
    assert (game.version, game.snapshot) == before


def test_an_illegal_json_action_shows_the_engine_s_reason(client, person) -> None:  # type: ignore[no-untyped-def]
    game = game_with(person)
    action = '{"type": "attack", "player": 0, "target": 1, "weapon": "pistol"}'
    response = client.post(
        reverse("frag:act", args=[game.pk]), {"action": action, "version": game.version}, HTTP_HX_REQUEST="true"
    )
    assert response.status_code == 400
    assert "Refused: attacking is not allowed now (the fighters are being placed)." in response.content.decode()


def test_the_refusal_of_an_action_out_of_its_phase_reads_naturally_in_french(client, person) -> None:  # type: ignore[no-untyped-def]
    client.cookies["django_language"] = "fr"
    game = game_with(person)
    action = '{"type": "attack", "player": 0, "target": 1, "weapon": "pistol"}'
    response = client.post(
        reverse("frag:act", args=[game.pk]), {"action": action, "version": game.version}, HTTP_HX_REQUEST="true"
    )
    html = response.content.decode()
    assert "Refusé : attaquer n&#x27;est pas permis maintenant (placement des combattants en cours)." in html
    assert "attack " not in html.split("Refusé")[1][:120]


def _to_action_phase(game: Game, person) -> None:  # type: ignore[no-untyped-def]
    from frag import services

    while State.from_json(game.snapshot).phase != "action":
        action = State.from_json(game.snapshot).legal_actions(0)[0]
        services.game_act(game=game, user=person, action=action, expected_version=game.version)
        game.refresh_from_db()


def test_after_ending_the_turn_the_page_shows_that_moment_and_the_bots_play_out_live(client, person, settings) -> None:  # type: ignore[no-untyped-def]
    settings.FRAG_LIVE_PACE = 0.5
    game = game_with(person, bots=2)
    _to_action_phase(game, person)
    action = '{"type": "end_turn", "player": 0}'
    response = client.post(
        reverse("frag:act", args=[game.pk]), {"action": action, "version": game.version}, HTTP_HX_REQUEST="true"
    )
    html = response.content.decode()
    game.refresh_from_db()
    assert State.from_json(game.snapshot).current_players() == [0] or game.status == "finished"
    assert 'data-my-turn="no"' in html and 'id="frag-waiting"' in html
    assert 'hx-trigger="load delay:8s"' in html, "a fallback fetches the table should the socket be closed"


def test_without_pacing_the_page_shows_the_outcome_at_once(client, person, settings) -> None:  # type: ignore[no-untyped-def]
    settings.FRAG_LIVE_PACE = 0
    game = game_with(person, bots=2)
    _to_action_phase(game, person)
    action = '{"type": "end_turn", "player": 0}'
    html = client.post(
        reverse("frag:act", args=[game.pk]), {"action": action, "version": game.version}, HTTP_HX_REQUEST="true"
    ).content.decode()
    assert 'data-my-turn="yes"' in html


@pytest.mark.parametrize(("language", "label", "wrong"), [("en", "to place", ">out<"), ("fr", "à placer", "hors jeu")])
def test_a_fighter_waiting_to_be_placed_reads_to_place_not_out(client, person, language, label, wrong) -> None:  # type: ignore[no-untyped-def]
    client.cookies["django_language"] = language
    game = game_with(person)
    state = State.from_json(game.snapshot)
    assert state.phase == "placement" and state.current_players() == [0] and state.fighters[0].out
    html = client.get(game.get_absolute_url()).content.decode()
    assert f'<span class="badge" data-status="to_place">{label}</span>' in html
    assert wrong not in html


def _status(html: str) -> str:
    return " ".join(re.sub(r"<[^>]+>", "", html.split('id="frag-status">')[1].split("</p>")[0]).split())


def test_the_status_names_the_fighter_to_act_and_the_waiting_page_says_who_it_waits_for(client, person) -> None:  # type: ignore[no-untyped-def]
    other = UserFactory()
    game = game_with(person, others=[other], bots=0)
    state = State.from_json(game.snapshot)
    acting = state.current_players()[0]
    names = [person.username, other.username]
    waiting_user = other if acting == 0 else person
    client.force_login(waiting_user)
    html = client.get(game.get_absolute_url()).content.decode()
    assert f"{names[acting]} to play" in _status(html) and "Your move" not in _status(html)
    assert f"Waiting for {names[acting]}…" in html
    client.force_login(person if acting == 0 else other)
    html = client.get(game.get_absolute_url()).content.decode()
    assert f"{names[acting]} to play · Your move · Tap a free numbered square" in _status(html)


def test_after_a_tap_the_page_shows_what_just_happened_beside_the_actions(client, person) -> None:  # type: ignore[no-untyped-def]
    game = game_with(person, bots=2)
    while State.from_json(game.snapshot).phase != "movement":
        from frag import services

        action = State.from_json(game.snapshot).legal_actions(0)[0]
        services.game_act(game=game, user=person, action=action, expected_version=game.version)
        game.refresh_from_db()
    html = client.get(game.get_absolute_url()).content.decode()
    assert "Roll for movement, or play a teleport card." in _status(html)
    roll = '{"type": "roll", "player": 0}'
    html = client.post(
        reverse("frag:act", args=[game.pk]), {"action": roll, "version": game.version}, HTTP_HX_REQUEST="true"
    ).content.decode()
    just_now = html.split('id="frag-just-now"')[1].split("</section>")[0]
    assert "Just now" in just_now and "for movement" in just_now
    assert html.index('id="frag-just-now"') < html.index('id="frag-actions"')


def test_a_hurt_fighter_heals_from_the_page_in_another_s_turn(client, person) -> None:  # type: ignore[no-untyped-def]
    """« Quand il le souhaite, il peut le dépenser » : the page of a hurt fighter whose turn it is not offers
    *Heal now*, and the tap spends the blood marker."""
    other = UserFactory()
    game = game_with(person, bots=0, others=[other])
    state = State.from_json(game.snapshot)
    acting = state.current_players()[0]
    while state.phase == "placement":
        seat = state.current_players()[0]
        state.apply(state.legal_actions(seat)[0])
    mine = 1 - state.turn.player
    state.fighters[mine].hp, state.fighters[mine].blood = 1, 1
    game.snapshot = state.to_json()
    game.save()
    assert acting in (0, 1)
    client.force_login(person if mine == 0 else other)
    html = client.get(game.get_absolute_url()).content.decode()
    assert 'id="frag-heal-now"' in html and 'data-kind="spend_blood"' in html
    assert 'class="swatch acid"' in html
    index = state.legal_actions(mine).index({"type": "spend_blood", "player": mine})
    client.post(reverse("frag:act", args=[game.pk]), {"choice": index, "version": game.version})
    game.refresh_from_db()
    after = State.from_json(game.snapshot)
    assert (after.fighters[mine].hp, after.fighters[mine].blood) == (2, 0)
    assert after.turn.player == state.turn.player


def test_the_lobby_seats_the_search_bot_and_it_plays_its_turns(client, person, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    """The search bot is a difficulty of the lobby: offered, seated, and playing legal turns through the service."""
    from frag.engine import levels
    from frag.engine.search import SearchStats, search_bot_with

    page = client.get(reverse("frag:home")).content.decode()
    assert 'value="search"' in page
    stats = SearchStats()
    # A small budget keeps the test quick; the lobby's own bot is the same function with the default budget.
    monkeypatch.setitem(levels.BOTS, "search", search_bot_with(8, cap=None, stats=stats))
    data = {"map_name": "entrepot", "frags_to_win": 3}
    for i, kind in enumerate(["me", "search", "", "", "", ""]):
        data.update({f"seat{i}_kind": kind, f"seat{i}_health": 2, f"seat{i}_speed": 3, f"seat{i}_accuracy": 2})
    client.post(reverse("frag:home"), data)
    game = Game.objects.get()
    assert [s.bot for s in game.seats.all()] == ["", "search"]
    _to_action_phase(game, person)
    action = '{"type": "end_turn", "player": 0}'
    client.post(reverse("frag:act", args=[game.pk]), {"action": action, "version": game.version})
    game.refresh_from_db()
    state = State.from_json(game.snapshot)
    assert state.current_players() == [0] or game.status == "finished"
    assert game.steps.filter(seat=1).count() >= 2
    assert stats.decisions >= 1
