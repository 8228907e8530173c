"""Probes for holes found during the audit: each test states the rule it checks."""

from __future__ import annotations

import json

import pytest
from django.urls import reverse

from characters.services.creation import npc_create
from tests.security.conftest import World, fingerprint
from tragic.services import load_state

pytestmark = pytest.mark.django_db
HIDDEN_NPC = "Hidden-Villain-Name-9081"


def _hidden_npc(world: World):  # type: ignore[no-untyped-def]
    return npc_create(
        campaign=world.campaign, actor=world.narrator, name=HIDDEN_NPC, concept="Chef", ranks={"combat": 3}
    )


def test_an_npc_in_no_scene_is_not_named_on_a_players_pages(client, world):
    _hidden_npc(world)
    world.login(client, world.bob)
    c = world.campaign.pk
    for url in (
        reverse("campaigns:home", args=[c]),
        reverse("campaigns:log", args=[c]),
        reverse("characters:campaign", args=[c]),
        reverse("conflicts:scenes", args=[c]),
        reverse("conflicts:sequence", args=[c, world.sequence.pk]),
        reverse("states:savage_round", args=[c]),
    ):
        assert HIDDEN_NPC not in client.get(url).content.decode(), url


def test_a_player_cannot_act_for_the_other_seat_in_tragic(client, world):
    game = world.tragic
    state = load_state(game)
    active = state.active
    intruder = world.bob if active == 0 else world.alice
    world.login(client, intruder)
    before = fingerprint()
    response = client.post(
        reverse("tragic:game_act", args=[game.pk]),
        {"action": json.dumps({"kind": "end_turn", "player": active}), "version": game.version},
        HTTP_HX_REQUEST="true",
    )
    assert response.status_code in (400, 403, 409)
    assert fingerprint() == before


def test_a_player_cannot_act_for_the_other_seat_in_frag(client, world):
    game = world.frag
    world.login(client, world.bob)
    before = fingerprint()
    response = client.post(
        reverse("frag:act", args=[game.pk]),
        {"action": json.dumps({"type": "end_turn", "player": 0}), "version": game.version},
        HTTP_HX_REQUEST="true",
    )
    assert response.status_code in (400, 403, 409)
    assert fingerprint() == before


def test_a_player_cannot_tag_a_secret_npc_in_a_note(client, world):
    npc = _hidden_npc(world)
    world.login(client, world.bob)
    before = fingerprint()
    url = reverse("campaigns:note_create", args=[world.campaign.pk])
    response = client.post(url, {"text": "I know about you", "characters": [npc.pk]}, HTTP_HX_REQUEST="true")
    assert response.status_code == 400
    assert fingerprint() == before


def test_the_log_filter_lists_only_kinds_a_player_can_read(client, world):
    from campaigns import services as campaign_services
    from campaigns.models import Visibility

    campaign_services.event_append(
        campaign=world.campaign, kind="secret.plot", actor=world.narrator, visibility=Visibility.NARRATORS
    )
    world.login(client, world.bob)
    assert "secret.plot" not in client.get(reverse("campaigns:log", args=[world.campaign.pk])).content.decode()
    world.login(client, world.narrator)
    assert "secret.plot" in client.get(reverse("campaigns:log", args=[world.campaign.pk])).content.decode()


def test_a_player_cannot_edit_another_players_sheet(client, world):
    world.login(client, world.bob)
    before = fingerprint()
    response = client.post(
        reverse("characters:act", args=[world.alice_pc.pk, "words"]), {"name": "Pwned", "concept": "x", "goal": "y"}
    )
    assert response.status_code == 403
    response = client.post(reverse("states:savage_action", args=[world.alice_pc.pk, "shaken_on"]))
    assert response.status_code == 403
    assert fingerprint() == before


def test_a_player_cannot_correct_someone_elses_event(client, world):
    world.login(client, world.alice)
    before = fingerprint()
    url = reverse("campaigns:event_correct", args=[world.campaign.pk, world.public_event.pk])
    client.post(url, {"reason": "I say so"})
    assert fingerprint() == before


def test_narrator_notes_on_a_pc_stay_with_the_narrators(client, world):
    secret = "Narrator-notes-on-alice-5521"
    world.login(client, world.narrator)
    world.alice_pc.refresh_from_db()
    response = client.post(
        reverse("characters:act", args=[world.alice_pc.pk, "narrator"]),
        {"narrator_notes": secret, "version": world.alice_pc.version},
    )
    assert response.status_code == 302
    world.alice_pc.refresh_from_db()
    assert world.alice_pc.narrator_notes == secret
    assert secret in client.get(reverse("characters:detail", args=[world.alice_pc.pk])).content.decode()
    c = world.campaign.pk
    for user in (world.alice, world.bob):
        world.login(client, user)
        for url in (
            reverse("characters:detail", args=[world.alice_pc.pk]),
            reverse("characters:print", args=[world.alice_pc.pk]),
            reverse("states:savage_state", args=[world.alice_pc.pk]),
            reverse("characters:campaign", args=[c]),
            reverse("campaigns:home", args=[c]),
            reverse("campaigns:log", args=[c]),
            reverse("campaigns:log_export", args=[c, "json"]),
            reverse("campaigns:log_export", args=[c, "md"]),
        ):
            assert secret not in client.get(url).content.decode(), (user, url)


def test_a_player_creating_a_scene_gets_403(client, world):
    world.login(client, world.bob)
    before = fingerprint()
    response = client.post(reverse("conflicts:scenes", args=[world.campaign.pk]), {"title": "Mine"})
    assert fingerprint() == before
    assert response.status_code == 403


@pytest.mark.parametrize("role", ["", "admin", "narrator ", "x" * 50])
def test_a_role_outside_the_choices_is_refused(client, world, role):
    """Else the only narrator could be turned into a role that is neither, leaving the campaign without one."""
    from campaigns.models import Membership

    world.login(client, world.narrator)
    mine = Membership.objects.get(campaign=world.campaign, user=world.narrator)
    before = fingerprint()
    client.post(reverse("campaigns:member_role", args=[world.campaign.pk, mine.pk]), {"role": role})
    assert fingerprint() == before
    mine.refresh_from_db()
    assert mine.role == "narrator"


@pytest.mark.parametrize(
    "name", ["conflicts:panel", "conflicts:odds", "conflicts:split", "conflicts:declare", "conflicts:atout"]
)
def test_a_player_cannot_play_someone_elses_draw(client, world, name):
    """Bob cannot see or act on Alice's draw, and Alice cannot act on the narrator's NPC."""
    world.sequence.refresh_from_db()
    data = {"action": "draw", "version": world.sequence.version, f"attack_{world.participant.pk}": 2}
    before = fingerprint()
    for user, participant in ((world.bob, world.participant), (world.alice, world.npc_participant)):
        world.login(client, user)
        url = reverse(name, args=[world.campaign.pk, participant.pk])
        response = client.post(url, data) if name != "conflicts:panel" else client.get(url)
        assert response.status_code in (403, 404), (user, name, response.status_code)
    assert fingerprint() == before


def test_the_savage_state_page_does_not_name_a_secret_npc(client, world):
    _hidden_npc(world)
    world.login(client, world.bob)
    body = client.get(reverse("states:savage_state", args=[world.bob_pc.pk])).content.decode()
    assert HIDDEN_NPC not in body


def test_an_npc_joining_the_fight_becomes_a_target_for_players(client, world):
    """Once the narrator puts the NPC in the round tracker it is at the table, so players may aim at it."""
    from states.services.rounds import savage_round_set_participants

    npc = _hidden_npc(world)
    savage_round_set_participants(
        campaign=world.campaign, actor=world.narrator, characters=[world.bob_pc, npc], expected_version=None
    )
    world.login(client, world.bob)
    body = client.get(reverse("states:savage_state", args=[world.bob_pc.pk])).content.decode()
    assert HIDDEN_NPC in body
