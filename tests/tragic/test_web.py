"""Pages, services and the live board: only legal actions, stale clicks refused, hands never leaked."""

from __future__ import annotations

import json

import pytest
from django.urls import reverse
from django.utils import translation

from core.errors import ServiceError, StaleState
from tests.campaigns.factories import PASSWORD, UserFactory
from tests.tragic.helpers import pass_all
from tragic import services
from tragic.engine.card_files import default_pool
from tragic.models import Game, GameStatus
from tragic.services import load_state

pytestmark = pytest.mark.django_db
STEEL, GANG = "ready:acier-et-plomb", "ready:la-bande-des-terres-desolees"
SKILLS = ["medecine-1", "troc-1", "science-1"]


def english(client):  # type: ignore[no-untyped-def]
    client.cookies["django_language"] = "en"
    return client


def duel(seed: int = 11) -> tuple[Game, object, object]:
    alice, bob = UserFactory(), UserFactory()
    game = services.game_create(user=alice, deck_ref=STEEL, opponent="invite", seed=seed)
    game = services.game_join(token=game.invite_token, user=bob, deck_ref=GANG)
    for user in (alice, bob):
        game = services.game_act(
            game=game, user=user, action={"kind": "choose_traits", "traits": []}, expected_version=game.version
        )
    for user in (alice, bob):
        game = services.game_act(
            game=game, user=user, action={"kind": "choose_skills", "skills": SKILLS}, expected_version=game.version
        )
    return game, alice, bob


def opponent_hand_names(game: Game, seat: int) -> list[str]:
    """Names of cards in the other player's hand that nothing public shows."""
    state = load_state(game)
    pool = default_pool()
    other = 1 - seat
    visible = {
        state.cards[u].cid
        for p in state.players
        for z in ("play", "discard", "equipment", "special", "combat")
        for u in p.zones[z]
    }
    visible |= {state.cards[u].cid for u in state.players[seat].zones["hand"]}
    names = []
    for uid in state.players[other].zones["hand"]:
        cid = state.cards[uid].cid
        if cid not in visible:
            names += [pool[cid].name, pool[cid].name_en, cid]
    return names


def test_the_game_against_a_bot_starts_at_once_and_the_bot_answers():
    alice = UserFactory()
    game = services.game_create(user=alice, deck_ref=STEEL, opponent="heuristic", seed=4)
    assert game.status == GameStatus.PLAYING
    game = services.game_act(
        game=game, user=alice, action={"kind": "choose_traits", "traits": []}, expected_version=game.version
    )
    game = services.game_act(
        game=game, user=alice, action={"kind": "choose_skills", "skills": SKILLS}, expected_version=game.version
    )
    state = load_state(game)
    assert state.phase in ("main", "upkeep") and state.current_players() == [0]
    assert game.actions[0]["kind"] == "choose_traits" and any(a["player"] == 1 for a in game.actions)


def test_the_lobby_offers_the_search_bot_capped_at_a_second_of_wall_clock(client, monkeypatch):
    """Issue 15: the search bot is a difficulty level of the lobby; a person waits for it, so besides its
    counted work (the same as in ``tragic_sim``) it stops at a second of wall-clock per decision."""
    from tragic.engine.roster import SEARCH_SEATED
    from tragic.engine.search import SearchBot

    seated = []
    choose = SearchBot.choose

    def spied(self, state, player):
        seated.append((self.wall_cap, self.budget, self.rounds))
        return choose(self, state, player)

    monkeypatch.setattr(SearchBot, "choose", spied)
    alice = UserFactory()
    client.login(username=alice.username, password=PASSWORD)
    assert 'value="search"' in client.get(reverse("tragic:home")).content.decode()
    response = client.post(reverse("tragic:game_create"), {"deck": STEEL, "opponent": "search", "players": "2"})
    game = Game.objects.get()
    assert response.status_code == 302 and [s.bot for s in game.seats.order_by("index")] == ["", "search"]
    for kind, key, value in (("choose_traits", "traits", []), ("choose_skills", "skills", SKILLS)):
        game = services.game_act(
            game=game, user=alice, action={"kind": kind, key: value}, expected_version=game.version
        )
    assert seated and set(seated) == {(services.LOBBY_WALL_CAP, SEARCH_SEATED["budget"], SEARCH_SEATED["rounds"])}
    assert services.LOBBY_WALL_CAP <= 1.0 and SEARCH_SEATED["budget"] <= 1.0
    assert services.replay(game, len(game.actions)).to_json() == game.snapshot


def test_a_stale_click_is_refused_as_someone_acted_first():
    game, alice, bob = duel()
    state = load_state(game)
    active = alice if state.active == 0 else bob
    with pytest.raises(StaleState) as refusal:
        services.game_act(game=game, user=active, action={"kind": "end_turn"}, expected_version=game.version - 1)
    assert "Someone acted first" in refusal.value.message


def test_an_illegal_action_is_refused_with_its_reason_and_the_game_unchanged():
    game, alice, bob = duel()
    state = load_state(game)
    waiting = bob if state.active == 0 else alice
    before = (game.version, len(game.actions), game.snapshot)
    with pytest.raises(ServiceError) as refusal:
        services.game_act(game=game, user=waiting, action={"kind": "end_turn"}, expected_version=game.version)
    assert "It is not your turn" in refusal.value.message
    game.refresh_from_db()
    assert (game.version, len(game.actions), game.snapshot) == before


def test_the_stored_actions_replay_into_the_snapshot():
    game, alice, bob = duel()
    assert services.replay(game, len(game.actions)).to_json() == game.snapshot


def test_board_shows_only_legal_actions_and_never_the_opponent_hand(client):
    game, alice, bob = duel()
    client.login(username=alice.username, password=PASSWORD)
    english(client)
    html = client.get(reverse("tragic:game", args=[game.pk])).content.decode()
    state = load_state(game)
    offered = html.count('name="action"')
    # Conceding and the « stop me when I can respond » switch have their own buttons, whoever holds the
    # decision.
    assert offered == len([a for a in state.legal_actions(0) if a["kind"] != "concede"]) + 2
    for name in opponent_hand_names(game, 0):
        assert name not in html


def test_playing_through_the_board_pays_with_chosen_resources(client):
    game, alice, bob = duel()
    state = load_state(game)
    user = alice if state.active == 0 else bob
    seat = state.active
    client.login(username=user.username, password=PASSWORD)
    action = next(a for a in state.legal_actions(seat) if a["kind"] == "end_turn")
    response = client.post(
        reverse("tragic:game_act", args=[game.pk]),
        {"action": json.dumps(action), "version": game.version},
        HTTP_HX_REQUEST="true",
    )
    assert response.status_code == 200
    game.refresh_from_db()
    assert game.actions[-1]["kind"] in ("end_turn",) and load_state(game).active == 1 - seat


def test_refusal_over_http_shows_the_reason_with_status_409_for_stale(client):
    game, alice, bob = duel()
    client.login(username=alice.username, password=PASSWORD)
    english(client)
    response = client.post(
        reverse("tragic:game_act", args=[game.pk]),
        {"action": json.dumps({"kind": "end_turn"}), "version": 0},
        HTTP_HX_REQUEST="true",
    )
    assert response.status_code == 409 and "Someone acted first" in response.content.decode()


def test_non_players_get_404(client):
    game, alice, bob = duel()
    stranger = UserFactory()
    client.login(username=stranger.username, password=PASSWORD)
    assert client.get(reverse("tragic:game", args=[game.pk])).status_code == 404


def test_deck_builder_validates_as_you_add(client):
    user = UserFactory()
    client.login(username=user.username, password=PASSWORD)
    english(client)
    response = client.post(reverse("tragic:deck_create"), {"name": "Test", "copy_mode": "duo"})
    deck = user.tragic_decks.get()
    url = reverse("tragic:deck_change", args=[deck.pk])
    for _ in range(2):
        response = client.post(url, {"add": "coup-de-poing-1"}, HTTP_HX_REQUEST="true")
        assert response.status_code == 200
    response = client.post(url, {"add": "coup-de-poing-1"}, HTTP_HX_REQUEST="true")
    assert response.status_code == 400 and "no more copies" in response.content.decode()
    assert "2/60 cards" in response.content.decode()
    assert "exactly 60" in response.content.decode()
    # The column of the card just added stays open; the others stay folded.
    panel = response.content.decode()
    assert panel.count("<details open>") == 1
    opened = panel.split("<details open>")[1].split("</details>")[0]
    assert 'name="add" value="coup-de-poing-1"' in opened
    # The engine's checks read in French on a French page.
    client.cookies["django_language"] = "fr"
    page = client.get(reverse("tragic:deck", args=[deck.pk])).content.decode()
    assert "2 cartes : une bibliothèque en compte exactement 60." in page
    assert "Conseil : 0 carte SPECIAL : au moins 33 % (20) sont conseillées." in page


def test_home_lists_and_creates_games(client):
    user = UserFactory()
    client.login(username=user.username, password=PASSWORD)
    response = client.post(
        reverse("tragic:game_create"),
        {"deck": STEEL, "opponent": "random", "profile": "booklet", "reaction_seconds": "30"},
    )
    game = Game.objects.get()
    assert response.status_code == 302 and game.config["profile"] == "booklet" and game.reaction_seconds == 30
    assert client.get(reverse("tragic:home")).status_code == 200


def test_replay_steps_through_a_finished_game(client):
    game, alice, bob = duel()
    game = services.game_act(game=game, user=bob, action={"kind": "concede"}, expected_version=game.version)
    assert game.status == GameStatus.FINISHED
    client.login(username=alice.username, password=PASSWORD)
    english(client)
    page = client.get(reverse("tragic:replay", args=[game.pk]) + "?step=3").content.decode()
    assert "Step 3 of" in page
    assert "First step</a>" in page and "Back to the game</a>" in page
    end = client.get(reverse("tragic:replay", args=[game.pk])).content.decode()
    assert f"This step, {bob.username}: Concede" in end
    for name in opponent_hand_names(game, 0):
        assert name not in page


def test_the_board_is_a_full_page_or_an_htmx_partial_in_a_few_queries(client, django_assert_max_num_queries):
    game, alice, bob = duel()
    client.login(username=alice.username, password=PASSWORD)
    url = reverse("tragic:game", args=[game.pk])
    with django_assert_max_num_queries(8):
        full = client.get(url).content.decode()
    partial = client.get(url, HTTP_HX_REQUEST="true").content.decode()
    assert "<html" in full and "<html" not in partial and 'id="board"' in partial


def test_reaction_time_limit_passes_for_the_slow_player():
    import datetime as dt

    from django.utils import timezone

    game, alice, bob = duel(seed=7)  # Alice starts with a Coup de poing (see the e2e test)
    state = load_state(game)
    punch = next(
        a for a in state.legal_actions(0) if a["kind"] == "play" and state.cards[a["card"]].cid == "coup-de-poing-1"
    )
    game = services.game_act(game=game, user=alice, action=punch, expected_version=game.version)
    assert load_state(game).current_players() == [1]
    before = (game.version, list(game.actions), game.snapshot)
    with pytest.raises(ServiceError, match="not run out"):
        services.game_timeout(game=game, user=alice, expected_version=game.version)
    game.refresh_from_db()
    assert (game.version, game.actions, game.snapshot) == before
    later = timezone.now() + dt.timedelta(seconds=game.reaction_seconds + 1)
    game = services.game_timeout(game=game, user=alice, expected_version=game.version, now=later)
    assert game.actions[-1] == {"kind": "pass", "player": 1, "timed_out": True}
    assert {"t": "timed_out", "player": 1, "action": "pass"} in game.log
    assert not load_state(game).stack


def test_both_libraries_follow_the_games_copy_mode():
    """A library the player built is played as built (refused if it breaks the game's mode); a starter deck
    (written for Quad) is fitted to the mode, for the person and for the bots."""
    alice = UserFactory()
    own = services.deck_create(
        owner=alice, name="Quad", copy_mode="quad", cards=services.ready_decks()["acier-et-plomb"].cards
    )
    with pytest.raises(ServiceError, match="cannot be played"):
        services.game_create(user=alice, deck_ref=str(own.pk), opponent="invite", copy_mode="triplette")
    with pytest.raises(ServiceError, match="copy mode"):
        services.game_create(user=alice, deck_ref=STEEL, opponent="invite", copy_mode="octuple")
    game = services.game_create(user=alice, deck_ref=STEEL, opponent="heuristic", copy_mode="singleton")
    assert game.status == GameStatus.PLAYING
    assert load_state(game).config["copy_mode"] == "singleton"


def test_the_games_timer_is_recorded_as_an_action_and_ends_on_equal_turns():
    import datetime as dt

    game, alice, bob = duel()
    game.timer_minutes = 1
    game.started_at = game.started_at - dt.timedelta(minutes=2)
    game.save()
    state = load_state(game)
    first, second = (alice, bob) if state.active == 0 else (bob, alice)
    game = services.game_act(game=game, user=first, action={"kind": "end_turn"}, expected_version=game.version)
    assert {"kind": "time_up"} in game.actions and game.status == GameStatus.PLAYING
    state = load_state(game)
    while state.phase != "main":
        action = next(a for a in state.legal_actions(state.active) if a["kind"] == "end_upkeep")
        game = services.game_act(game=game, user=second, action=action, expected_version=game.version)
        state = load_state(game)
    game = services.game_act(game=game, user=second, action={"kind": "end_turn"}, expected_version=game.version)
    assert game.status == GameStatus.FINISHED


def test_the_defender_splits_the_blow_among_blockers_in_the_form(client):
    from tests.tragic.helpers import give, turn_of

    game, alice, bob = duel()
    state = turn_of(load_state(game), 0)
    brute = give(state, 0, "brute-super-mutante-2", "play")
    m1, m2 = give(state, 1, "milicien-1", "play"), give(state, 1, "milicien-1", "play")
    state.apply({"kind": "ally_attack", "player": 0, "allies": [brute], "target": {"player": 1}})
    pass_all(state)
    game.snapshot = state.to_json()
    game.save()
    client.login(username=bob.username, password=PASSWORD)
    html = client.get(reverse("tragic:game", args=[game.pk])).content.decode()
    assert f'name="split_{m1}"' in html
    assert "vous choisissez la répartition" in html  # the page speaks French by default
    both = next(a for a in state.legal_actions(1) if len(a.get("blockers", [])) == 2)
    response = client.post(
        reverse("tragic:game_act", args=[game.pk]),
        {"action": json.dumps(both), "version": game.version, f"split_{m1}": "1", f"split_{m2}": "4"},
        HTTP_HX_REQUEST="true",
    )
    assert response.status_code == 200
    state = load_state(Game.objects.get(pk=game.pk))
    assert state.cards[m2].zone == "discard" and state.ally_life(m1) == 1


def test_decouverte_is_one_choice_per_card_in_the_board(client):
    from tests.tragic.helpers import give, turn_of

    game, alice, bob = duel()
    state = turn_of(load_state(game), 0)
    scouting = give(state, 0, "reperage-1")
    state.apply({"kind": "play", "player": 0, "card": scouting, "pay": {"P": 1}})
    pass_all(state)
    top3 = state.pending["cards"]
    game.snapshot = state.to_json()
    game.save()
    client.login(username=alice.username, password=PASSWORD)
    html = client.get(reverse("tragic:game", args=[game.pk])).content.decode()
    assert html.count('name="place_') == 3 and '"kind":"discover"' not in html
    post = {"kind": "discover", "version": game.version, "card": [str(u) for u in top3]}
    post.update({f"place_{top3[0]}": "discard", f"place_{top3[1]}": "bottom", f"place_{top3[2]}": "top"})
    assert client.post(reverse("tragic:game_act", args=[game.pk]), post, HTTP_HX_REQUEST="true").status_code == 200
    state = load_state(Game.objects.get(pk=game.pk))
    assert state.cards[top3[0]].zone == "discard" and state.players[0].zones["library"][0] == top3[1]


def test_a_duel_can_be_recorded_in_a_campaign_log():
    from campaigns.chronicle import describe
    from campaigns.models import Event
    from tests.campaigns.factories import campaign_with, narrator_of

    campaign = campaign_with(players=0)
    narrator = narrator_of(campaign)
    game = services.game_create(user=narrator, deck_ref=STEEL, opponent="random", seed=3, campaign_id=campaign.pk)
    game = services.game_act(game=game, user=narrator, action={"kind": "concede"}, expected_version=game.version)
    kinds = list(
        Event.objects.filter(campaign=campaign, kind__startswith="tragic.")
        .order_by("pk")
        .values_list("kind", flat=True)
    )
    assert kinds == ["tragic.game_started", "tragic.game_finished"]
    finished = Event.objects.get(campaign=campaign, kind="tragic.game_finished")
    assert "wins the TRAGIC duel" in describe(finished)
    stranger = UserFactory()
    with pytest.raises(ServiceError, match="not a member"):
        services.game_create(user=stranger, deck_ref=STEEL, opponent="random", campaign_id=campaign.pk)


def test_joining_by_the_invitation_link(client):
    alice, bob = UserFactory(), UserFactory()
    game = services.game_create(user=alice, deck_ref=STEEL, opponent="invite", seed=2)
    url = reverse("tragic:invitation", args=[game.invite_token])
    client.login(username=bob.username, password=PASSWORD)
    english(client)
    assert "invites you to a duel" in client.get(url).content.decode()
    response = client.post(url, {"deck": GANG})
    game.refresh_from_db()
    assert response.status_code == 302 and game.status == GameStatus.PLAYING
    assert [s.user for s in game.seats.order_by("index")] == [alice, bob]
    response = client.post(url, {"deck": GANG}, follow=True)
    assert "Someone already took that seat." in response.content.decode()


def test_booklet_players_may_agree_to_the_mulligan(client):
    user = UserFactory()
    client.login(username=user.username, password=PASSWORD)
    client.post(
        reverse("tragic:game_create"),
        {"deck": STEEL, "opponent": "random", "profile": "booklet", "mulligan_agreed": "on"},
    )
    assert Game.objects.get().config["mulligan_agreed"] is True


def test_three_people_play_clockwise_by_invitation():
    alice, bob, carol = UserFactory(), UserFactory(), UserFactory()
    game = services.game_create(user=alice, deck_ref=STEEL, opponent="invite", players=3, seed=5)
    game = services.game_join(token=game.invite_token, user=bob, deck_ref=GANG)
    assert game.status == GameStatus.WAITING
    game = services.game_join(token=game.invite_token, user=carol, deck_ref=STEEL)
    assert game.status == GameStatus.PLAYING and len(load_state(game).players) == 3
    for user in (alice, bob, carol):
        game = services.game_act(
            game=game, user=user, action={"kind": "choose_traits", "traits": []}, expected_version=game.version
        )
    for user in (alice, bob, carol):
        game = services.game_act(
            game=game, user=user, action={"kind": "choose_skills", "skills": SKILLS}, expected_version=game.version
        )
    state = load_state(game)
    assert state.phase in ("main", "upkeep") and state.turn == 1
    with pytest.raises(ServiceError):
        services.game_create(user=alice, deck_ref=STEEL, opponent="invite", players=3, profile="booklet")


def test_simultaneous_hidden_choices_are_never_stale():
    alice, bob = UserFactory(), UserFactory()
    game = services.game_create(user=alice, deck_ref=STEEL, opponent="invite", seed=11)
    game = services.game_join(token=game.invite_token, user=bob, deck_ref=GANG)
    seen = game.version
    game = services.game_act(
        game=game, user=alice, action={"kind": "choose_traits", "traits": []}, expected_version=seen
    )
    game = services.game_act(game=game, user=bob, action={"kind": "choose_traits", "traits": []}, expected_version=seen)
    assert load_state(game).phase == "choose_skills"
    with pytest.raises(ServiceError):
        services.game_act(game=game, user=bob, action={"kind": "choose_traits", "traits": []}, expected_version=seen)


@pytest.mark.parametrize("players", [3, 4])
def test_the_lobby_seats_bots_in_three_and_four_player_games(client, players):
    """Wiki rules, 2 to 4 players: with a bot opponent, every other seat is a bot, and they play at once."""
    alice = UserFactory()
    client.login(username=alice.username, password=PASSWORD)
    response = client.post(
        reverse("tragic:game_create"), {"deck": STEEL, "opponent": "heuristic", "players": str(players)}
    )
    game = Game.objects.get()
    assert response.status_code == 302 and game.status == GameStatus.PLAYING
    assert [s.bot for s in game.seats.order_by("index")] == [""] + ["heuristic"] * (players - 1)
    for kind, key, value in (("choose_traits", "traits", []), ("choose_skills", "skills", SKILLS)):
        game = services.game_act(
            game=game, user=alice, action={"kind": kind, key: value}, expected_version=game.version
        )
    state = load_state(game)
    assert len(state.players) == players and state.turn >= 1
    assert state.is_over() or state.current_players() == [0]
    assert services.replay(game, len(game.actions)).to_json() == game.snapshot
    with translation.override("en"), pytest.raises(ServiceError, match="booklet 2"):
        services.game_create(user=alice, deck_ref=STEEL, opponent="random", players=3, profile="booklet")


def test_a_person_pays_any_legal_payment_and_a_refused_one_changes_nothing(client):
    """« choisir parmi l'ensemble des autres ressources SPECIAL disponible pour en tourner 2 de votre choix »
    (001): the form has one field per attribute; a covering payment other than the suggestion is accepted, a
    payment that does not settle the cost is refused with its reason and the game unchanged."""
    game, alice, bob = duel()
    state = load_state(game)
    seat = state.active
    user = alice if seat == 0 else bob
    barter = next(
        a for a in state.legal_actions(seat) if a.get("card") is not None and state.cards[a["card"]].cid == "troc-1"
    )
    assert state.card(barter["card"]).ability.cost == {"L": 1, "any": 1} and barter["pay"] != {"L": 1, "A": 1}
    client.login(username=user.username, password=PASSWORD)
    english(client)
    html = client.get(reverse("tragic:game", args=[game.pk])).content.decode()
    payload = json.dumps(barter, separators=(",", ":"), sort_keys=True).replace('"', "&quot;")
    form = html[html.index(payload) :]
    form = form[: form.index("</form>")]
    assert "Points to pay: 2" in form and all(f'name="pay_{a}"' in form for a in "SPECIAL")
    url = reverse("tragic:game_act", args=[game.pk])
    before = (game.version, list(game.actions), game.snapshot)

    def post(**pay: int):  # type: ignore[no-untyped-def]
        fields = {f"pay_{a}": str(pay.get(a, 0)) for a in "SPECIAL"}
        return client.post(
            url, {"action": json.dumps(barter), "version": game.version, **fields}, HTTP_HX_REQUEST="true"
        )

    for pay, reason in (
        ({"S": 1, "A": 1}, "needs 1 Luck point"),
        ({"L": 1}, "2 points, 1 offered"),
        ({"L": 1, "A": 2}, "only 1 Agility point"),
    ):
        refused = post(**pay)
        page = refused.content.decode()
        assert (
            refused.status_code == 400 and "The cost is not paid with the resources chosen" in page and reason in page
        )
        game.refresh_from_db()
        assert (game.version, game.actions, game.snapshot) == before
    assert post(L=1, A=1).status_code == 200
    game.refresh_from_db()
    assert game.actions[-1]["pay"] == {"L": 1, "A": 1}
    assert load_state(game).players[seat].engaged_points == {"S": 0, "P": 0, "E": 0, "C": 0, "I": 0, "A": 1, "L": 1}


def test_the_new_game_form_puts_each_label_above_its_field_and_starts_with_a_primary_button(client):
    """The campaigns' forms: a label (``for``) above each field, the main action a primary button."""
    import re

    user = UserFactory()
    client.login(username=user.username, password=PASSWORD)
    html = client.get(reverse("tragic:home")).content.decode()
    form = html[html.index('id="tragic-new-game"') :]
    form = form[: form.index("</form>")]
    fields = re.findall(r'<(?:select|input) [^>]*name="(\w+)"[^>]*id="(\w+)"', form)
    assert {name for name, _ in fields} >= {"deck", "opponent", "players", "profile", "copy_mode", "reaction_seconds"}
    for _name, field_id in fields:
        assert f'<label for="{field_id}">' in form
    assert re.search(r'<button type="submit" class="primary">', form)


def test_an_idle_opponents_board_is_passed_for_by_the_waiting_page_once_the_time_runs_out(client):
    """The waiting page posts the timeout when the time to react has run out (counted from the last
    action, as the server counts it); too early, the server refuses with its reason and nothing changes."""
    import datetime as dt
    import re

    from django.utils import timezone

    game, alice, bob = duel(seed=7)
    state = load_state(game)
    punch = next(
        a for a in state.legal_actions(0) if a["kind"] == "play" and state.cards[a["card"]].cid == "coup-de-poing-1"
    )
    game = services.game_act(game=game, user=alice, action=punch, expected_version=game.version)
    url = reverse("tragic:game_timeout", args=[game.pk])
    client.login(username=bob.username, password=PASSWORD)
    assert url not in client.get(reverse("tragic:game", args=[game.pk])).content.decode()  # Bob is asked
    client.login(username=alice.username, password=PASSWORD)
    english(client)
    html = client.get(reverse("tragic:game", args=[game.pk])).content.decode()
    assert f'hx-post="{url}"' in html
    delay = int(re.search(r'hx-trigger="load delay:(\d+)s, submit"', html).group(1))
    assert game.reaction_seconds - 2 <= delay <= game.reaction_seconds + 1

    before = (game.version, list(game.actions), game.snapshot)
    early = client.post(url, {"version": game.version}, HTTP_HX_REQUEST="true")
    assert early.status_code == 400 and "The time to react has not run out yet." in early.content.decode()
    game.refresh_from_db()
    assert (game.version, game.actions, game.snapshot) == before

    Game.objects.filter(pk=game.pk).update(last_action_at=timezone.now() - dt.timedelta(seconds=game.reaction_seconds))
    html = client.get(reverse("tragic:game", args=[game.pk])).content.decode()
    assert 'hx-trigger="load delay:1s, submit"' in html
    assert client.post(url, {"version": game.version}, HTTP_HX_REQUEST="true").status_code == 200
    game.refresh_from_db()
    assert game.actions[-1] == {"kind": "pass", "player": 1, "timed_out": True} and not load_state(game).stack


def test_a_move_answers_with_the_boards_version_in_the_games_own_stream(client):
    """The board page counts in its game's versions (X-Live-Position ``tragic:<id>=<version>``); tablee.js takes only
    its own stream's position, so a campaign position in the same header never moves a board."""
    game, alice, bob = duel()
    state = load_state(game)
    user = alice if state.active == 0 else bob
    client.login(username=user.username, password=PASSWORD)
    page = client.get(reverse("tragic:game", args=[game.pk]))
    assert page["X-Live-Position"] == f"tragic:{game.pk}={game.version}"
    assert f'data-live-after="{game.version}" data-live-stream="tragic:{game.pk}"' in page.content.decode()
    action = next(a for a in state.legal_actions(state.active) if a["kind"] == "end_turn")
    response = client.post(
        reverse("tragic:game_act", args=[game.pk]),
        {"action": json.dumps(action), "version": game.version},
        HTTP_HX_REQUEST="true",
    )
    game.refresh_from_db()
    assert response.status_code == 200 and response["X-Live-Position"] == f"tragic:{game.pk}={game.version}"
