"""Forged or malformed moves are refused with a reason (never a server error) and change nothing."""

from __future__ import annotations

import json

import pytest
from django.test import Client
from django.urls import reverse

from frag.engine import State as FragState
from tests.sampling import WHOLE, sample_and_whole
from tests.security.conftest import World, fingerprint
from tragic.services import load_state

pytestmark = pytest.mark.django_db


def _post_all(world: World, user, url: str, payloads: list[dict]) -> list[str]:  # type: ignore[no-untyped-def]
    client = Client(raise_request_exception=False)
    world.login(client, user)
    problems = []
    before = fingerprint()
    for data in payloads:
        response = client.post(url, data, HTTP_HX_REQUEST="true")
        if not 400 <= response.status_code < 500:
            problems.append(f"{data}: {response.status_code}")
    if fingerprint() != before:
        problems.append("the database changed")
    return problems


def _forged(player: int, key: str, kinds: list[str], version: int, extent: str) -> list[dict]:
    """Every kind with every malformed extra (``whole``, slow); the fast sample gives each kind two of the
    extras, in turn, so every kind and every extra is still sent."""
    extras = (
        {},
        {"card": "nope", "to": "nope", "path": "nope", "target": "x", "weapon": [], "pile": {}},
        {"card": 10**9, "to": -1, "path": [10**9], "target": 99, "weapon": 99, "pile": 99},
        {"card": None, "to": None, "path": None, "blockers": "x", "split": None, "pay": "x"},
        {"card": [1], "to": {}, "path": {"a": 1}, "blockers": 5, "split": 5, "pay": [1], "target": [[1]]},
        {"card": 1.5, "blockers": [[1], {}], "pay": {"S": "x", "A": None, "1": [1]}, "target": {"player": []}},
        {"card": True, "blockers": [None], "pay": {"S": 10**30}, "target": {"card": "x", "aim": []}},
    )
    actions: list[object] = [
        {key: kind, "player": player, **extra}
        for k, kind in enumerate(kinds)
        for e, extra in enumerate(extras)
        if extent == WHOLE or e % len(extras) in (k % len(extras), (k + 3) % len(extras))
    ]
    actions += [[], "x", None, 7, {key: None}, {"player": player}, {key: [], "player": player}, {key: {}}]
    return [{"action": json.dumps(a), "version": version} for a in actions] + [
        {"action": "{not json", "version": version},
        {"action": json.dumps({key: "end_turn", "player": player}), "version": "abc"},
        {"choice": "abc", "version": version},
        {"choice": 10**6, "version": version},
    ]


@sample_and_whole()
def test_forged_frag_moves_are_refused_cleanly(world, extent):
    game = world.frag
    state = FragState.from_json(game.snapshot)
    seat = state.current_players()[0]
    user = world.alice if seat == 0 else world.bob
    kinds = ["place", "discard", "roll", "move", "jump", "end_turn", "attack", "take_weapon", "teleport",
             "play", "drop", "spend_blood", "accept_frag", "take_blood", "no_such_move"]  # fmt: skip
    problems = _post_all(
        world, user, reverse("frag:act", args=[game.pk]), _forged(seat, "type", kinds, game.version, extent)
    )
    assert not problems


@sample_and_whole()
def test_forged_tragic_moves_are_refused_cleanly(world, extent):
    game = world.tragic
    seat = load_state(game).active
    user = world.alice if seat == 0 else world.bob
    kinds = ["play", "block", "search", "discover", "react", "place_special", "upkeep", "end_upkeep", "keep",
             "mulligan", "attack", "no_such_move"]  # fmt: skip
    payloads = _forged(seat, "kind", kinds, game.version, extent)
    problems = _post_all(world, user, reverse("tragic:game_act", args=[game.pk]), payloads)
    assert not problems
