"""No seed reaches a member: with a game's config, a seed deals every library and hand again (issue 14, item 1)."""

from __future__ import annotations

import json

import pytest
from django.urls import reverse

from campaigns import services as campaign_services
from campaigns.models import Event
from tests.security.conftest import STEEL, World
from tragic import services as tragic_services

pytestmark = pytest.mark.django_db
LEGACY_SEED = 8_231_977_561_402_113


def _keys(value: object) -> set[str]:
    if isinstance(value, dict):
        return set(value) | {k for item in value.values() for k in _keys(item)}
    if isinstance(value, list):
        return {k for item in value for k in _keys(item)}
    return set()


def test_a_tragic_duel_recorded_in_a_campaign_writes_no_seed(world: World) -> None:
    """The event ``tragic.game_started`` used to carry ``"seed": game.seed``, read by every member."""
    game = tragic_services.game_create(
        user=world.alice, deck_ref=STEEL, opponent="heuristic", seed=LEGACY_SEED, campaign_id=world.campaign.pk
    )
    event = Event.objects.get(campaign=world.campaign, kind="tragic.game_started", payload__game=game.pk)
    assert "seed" not in _keys(event.payload)
    assert str(LEGACY_SEED) not in json.dumps(event.payload)


@pytest.mark.parametrize("who", ["narrator", "alice", "bob"])
def test_a_seed_stored_by_an_older_version_is_filtered_on_read(client, world: World, who: str) -> None:
    """Events are append-only: those written before the fix still hold the seed, so every page and export
    reads payloads through the per-reader filter. Narrators do not see it either (they need not sit at
    the table, and no page needs it)."""
    campaign_services.event_append(
        campaign=world.campaign,
        kind="tragic.game_started",
        actor=world.alice,
        payload={"game": world.tragic.pk, "players": ["alice", "bob"], "seed": LEGACY_SEED, "deep": [{"seed": 1}]},
    )
    world.login(client, getattr(world, who))
    c = world.campaign.pk
    export = client.get(reverse("campaigns:log_export", args=[c, "json"]))
    assert export.status_code == 200
    events = json.loads(export.content)["events"]
    started = [e for e in events if e["kind"] == "tragic.game_started"]
    assert started and all("seed" not in _keys(e["payload"]) for e in started)
    assert started[0]["payload"]["players"] == ["alice", "bob"]  # the rest of the payload is still there
    for url in (
        reverse("campaigns:log_export", args=[c, "json"]),
        reverse("campaigns:log_export", args=[c, "md"]),
        reverse("campaigns:log", args=[c]),
        reverse("campaigns:home", args=[c]),
    ):
        body = client.get(url).content.decode()
        assert str(LEGACY_SEED) not in body, url
        assert '"seed"' not in body, url
