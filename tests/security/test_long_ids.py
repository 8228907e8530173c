"""Ids a request carries outside a path, bounded to the column's range before any lookup (issue 30, item 8).

A 20-digit id reached SQLite, which cannot bind an integer past 64 bits (``OverflowError``, a 500): a character
id in the narrator's round tracker and a TRAGIC new game's campaign."""

from __future__ import annotations

import pytest
from django.urls import reverse

from core.forms import MAX_ID, posted_id, posted_ids
from states.models import SavageRound
from tests.security.conftest import STEEL, World
from tragic.models import Game as TragicGame

pytestmark = pytest.mark.django_db

TWENTY_DIGITS = "9" * 20


def test_an_id_is_bounded_to_the_column() -> None:
    assert posted_id(str(MAX_ID)) == MAX_ID
    assert posted_id(str(MAX_ID + 1)) is None
    assert posted_id(TWENTY_DIGITS) is None
    assert posted_id("-3") is None and posted_id("0") is None and posted_id("1.5") is None
    assert posted_id("٣") is None  # a digit Python's int() reads, not an ASCII id
    assert posted_ids(["4", TWENTY_DIGITS, "x", "7"]) == [4, 7]


def test_a_twenty_digit_character_in_the_round_tracker_is_dropped(client, world: World) -> None:
    world.login(client, world.narrator)
    url = reverse("states:savage_round_action", args=[world.campaign.pk, "participants"])
    response = client.post(url, {"characters": [str(world.alice_pc.pk), TWENTY_DIGITS]})
    assert response.status_code == 302
    tracker = SavageRound.objects.get(campaign=world.campaign)
    assert list(tracker.participants.all()) == [world.alice_pc]


def test_a_twenty_digit_campaign_for_a_new_tragic_game_is_refused(client, world: World) -> None:
    world.login(client, world.alice)
    before = TragicGame.objects.count()
    response = client.post(
        reverse("tragic:game_create"), {"deck": STEEL, "opponent": "invite", "campaign": TWENTY_DIGITS}
    )
    assert response.status_code == 302
    assert TragicGame.objects.count() == before


def test_the_tragic_service_refuses_a_campaign_id_no_column_holds(world: World) -> None:
    from core.errors import ServiceError
    from tragic import services

    with pytest.raises(ServiceError):
        services.game_create(user=world.alice, deck_ref=STEEL, opponent="invite", campaign_id=10**20)


@pytest.mark.parametrize("cursor", ["1_9999999999999999999", "1_9223372036854775808"])
def test_a_log_cursor_past_the_column_is_ignored(client, world: World, cursor: str) -> None:
    """The log's page cursor took 19 digits of id: past 2⁶³−1 they reached SQLite (an OverflowError)."""
    world.login(client, world.narrator)
    for direction in ("before", "after"):
        for search in ({}, {"q": "note"}):  # a search pages by the full-text index's rowid, bound raw
            response = client.get(reverse("campaigns:log", args=[world.campaign.pk]), {direction: cursor, **search})
            assert response.status_code == 200
