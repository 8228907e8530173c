"""A character's first state: forms drawn before the state row exists still carry a version (issue 14, item 5).

They used to carry ``version=""``, which skipped the stale check: twenty simultaneous "take 1 wound" on a fresh
character applied four, up to Incapacitated. A form now expects the row's first version; the service creates
the row at that version inside its locked transaction, so the first request applies and the others are stale.
"""

from __future__ import annotations

import re
import threading

import pytest
from django.db import connection
from django.test import Client
from django.urls import reverse

from campaigns.models import Event
from characters.models import Character, CharacterKind
from states.models import SavageRound, SavageState
from tests.campaigns.factories import campaign_with, narrator_of, players_of

CLIENTS = 20


def _fresh_character() -> tuple[Character, object]:
    campaign = campaign_with(players=1, savage_states=True)
    player = players_of(campaign)[0]
    character = Character.objects.create(campaign=campaign, owner=player, kind=CharacterKind.PC, name="Frais")
    return character, player


def _client(user: object) -> Client:
    client = Client()
    client.force_login(user)  # type: ignore[arg-type]
    client.cookies["django_language"] = "en"
    return client


def _posted_version(client: Client, character: Character) -> str:
    """The version the state page's forms carry, as a browser would post it back."""
    page = client.get(reverse("states:savage_state", args=[character.pk])).content.decode()
    versions = set(re.findall(r'name="version" value="([^"]*)"', page))
    assert len(versions) == 1, versions
    return versions.pop()


def _take_one_wound(client: Client, character: Character, version: str) -> int:
    url = reverse("states:savage_action", args=[character.pk, "wounds_take"])
    return client.post(url, {"count": "1", "version": version}, HTTP_HX_REQUEST="true").status_code


@pytest.mark.django_db
def test_the_forms_of_a_character_without_a_state_expect_its_first_version() -> None:
    character, player = _fresh_character()
    assert not SavageState.objects.filter(character=character).exists()
    first = SavageState._meta.get_field("version").default
    assert _posted_version(_client(player), character) == str(first)


@pytest.mark.django_db
def test_a_double_tap_from_a_fresh_characters_page_applies_once() -> None:
    """The second post of the same form finds the row the first created, at a later version: refused as stale."""
    character, player = _fresh_character()
    client = _client(player)
    version = _posted_version(client, character)
    assert _take_one_wound(client, character, version) == 200
    assert _take_one_wound(client, character, version) == 409
    assert SavageState.objects.get(character=character).wounds == 1
    assert Event.objects.filter(kind="savage.wounds_taken").count() == 1


@pytest.mark.django_db
def test_the_round_trackers_first_form_expects_its_first_version() -> None:
    character, _player = _fresh_character()
    campaign = character.campaign
    client = _client(narrator_of(campaign))
    url = reverse("states:savage_round_action", args=[campaign.pk, "participants"])
    page = client.get(reverse("states:savage_round", args=[campaign.pk])).content.decode()
    first = str(SavageRound._meta.get_field("version").default)
    assert set(re.findall(r'name="version" value="([^"]*)"', page)) == {first}
    data = {"version": first, "characters": [str(character.pk)]}
    assert client.post(url, data, HTTP_HX_REQUEST="true").status_code == 200
    version = SavageRound.objects.get(campaign=campaign).version
    assert client.post(url, data, HTTP_HX_REQUEST="true").status_code == 409
    assert SavageRound.objects.get(campaign=campaign).version == version


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_twenty_simultaneous_first_wounds_apply_exactly_one(on_postgres: bool) -> None:
    if not on_postgres:
        pytest.skip("row locks are only meaningful on PostgreSQL")
    character, player = _fresh_character()
    version = _posted_version(_client(player), character)
    barrier = threading.Barrier(CLIENTS)
    statuses: list[int] = []
    errors: list[BaseException] = []

    def tap() -> None:
        try:
            client = _client(player)
            barrier.wait(timeout=60)  # a thread that died before it must fail the test, not hang it
            statuses.append(_take_one_wound(client, character, version))
        except BaseException as exc:  # noqa: BLE001 - reported by the main thread
            errors.append(exc)
        finally:
            connection.close()

    threads = [threading.Thread(target=tap) for _ in range(CLIENTS)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=120)
    assert errors == []
    assert sorted(statuses) == [200] + [409] * (CLIENTS - 1)
    state = SavageState.objects.get(character=character)
    assert (state.wounds, state.incapacitated) == (1, False)
    assert Event.objects.filter(kind="savage.wounds_taken", characters=character).count() == 1
