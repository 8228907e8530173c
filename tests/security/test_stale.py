"""A stale click (an old ``version``) is refused with « someone acted first » and changes nothing."""

from __future__ import annotations

import json

import pytest
from django.urls import reverse

from tests.security.conftest import World, fingerprint
from tragic.services import load_state

pytestmark = pytest.mark.django_db


def _refused_unchanged(client, world: World, user, url: str, data: dict, codes=(409,)) -> str:  # type: ignore[no-untyped-def]
    world.login(client, user)
    before = fingerprint()
    response = client.post(url, data, HTTP_HX_REQUEST="true")
    assert response.status_code in codes, (url, response.status_code)
    assert fingerprint() == before
    return response.content.decode()


def test_a_stale_tragic_action_is_refused(client, world):
    game = world.tragic
    seat = load_state(game).active
    user = world.alice if seat == 0 else world.bob
    body = _refused_unchanged(
        client, world, user, reverse("tragic:game_act", args=[game.pk]),
        {"action": json.dumps({"kind": "end_turn", "player": seat}), "version": game.version - 1},
    )  # fmt: skip
    assert "Someone acted first" in body


def test_an_illegal_tragic_action_is_refused_with_its_reason(client, world):
    game = world.tragic
    seat = 1 - load_state(game).active
    user = world.alice if seat == 0 else world.bob
    body = _refused_unchanged(
        client, world, user, reverse("tragic:game_act", args=[game.pk]),
        {"action": json.dumps({"kind": "end_turn", "player": seat}), "version": game.version}, codes=(400, 403, 409),
    )  # fmt: skip
    assert "not your turn" in body


def test_a_stale_frag_choice_is_refused(client, world):
    game = world.frag
    body = _refused_unchanged(
        client, world, world.alice, reverse("frag:act", args=[game.pk]), {"choice": 0, "version": game.version - 1}
    )
    assert "Someone acted first" in body


def test_a_stale_sequence_draw_is_refused(client, world):
    url = reverse("conflicts:split", args=[world.campaign.pk, world.participant.pk])
    world.sequence.refresh_from_db()
    _refused_unchanged(client, world, world.alice, url, {"action": "draw", "version": world.sequence.version - 1})


def test_a_second_draw_with_the_same_version_is_refused(client, world):
    url = reverse("conflicts:split", args=[world.campaign.pk, world.participant.pk])
    world.sequence.refresh_from_db()
    data = {"action": "draw", "version": world.sequence.version, f"attack_{world.npc_participant.pk}": 2}
    world.login(client, world.alice)
    first = client.post(url, data, HTTP_HX_REQUEST="true")
    assert first.status_code == 200, first.content.decode()[-3000:]
    _refused_unchanged(client, world, world.alice, url, data, codes=(400, 409))


def test_a_stale_clock_advance_is_refused(client, world):
    campaign = world.campaign
    world.login(client, world.narrator)
    before = fingerprint()
    url = reverse("campaigns:clock_advance", args=[campaign.pk])
    data = {"expected": "1999-01-01 00:00", "days": 0, "hours": 1, "minutes": 0, "reason": "late"}
    response = client.post(url, data, follow=True)
    assert "moved the game clock first" in response.content.decode()
    assert fingerprint() == before


def test_a_stale_settings_form_is_refused(client, world):
    campaign = world.campaign
    world.login(client, world.narrator)
    before = fingerprint()
    response = client.post(
        reverse("campaigns:settings_section", args=[campaign.pk, "campaign"]),
        {"name": "Changed", "version": campaign.version - 1},
    )
    assert response.status_code == 409
    assert fingerprint() == before
