"""One answer for "not yours" (issue 30, item 5): every URL pattern, walked with ids its visitor may not reach,
answers 404 to GET and POST alike, as it does for an id that does not exist; membership is checked before the
method. A 403 or a 405 there tells a player or an outsider that the object exists: the roll dialog for an NPC
answered 403 where its sheet answered 404, and an outsider got 405 on ``/characters/<id>/states/sheet/``.

The URL table (who may use what, and each pattern's ids) is tests/security/test_inventory.py's, which fails when a
pattern is missing from it: a new view is walked here without being listed again."""

from __future__ import annotations

from typing import Any

import pytest
from django.urls import reverse

from tests.security.conftest import World, fingerprint, tragic_duel
from tests.security.test_inventory import URLS, url_names

pytestmark = pytest.mark.django_db

MISSING = 999_999_999


def _codes(client: Any, url: str) -> dict[str, int]:
    return {method: getattr(client, method)(url).status_code for method in ("get", "post")}


def _walked() -> list[str]:
    return [name for name in url_names() if URLS[name].scope in ("campaign", "game", "deck")]


def test_an_outsider_gets_404_to_every_method_of_everything_of_a_campaign_a_game_or_a_deck(
    client, world: World
) -> None:
    world.login(client, world.stranger)
    before = fingerprint()
    problems = {}
    for name in _walked():
        codes = _codes(client, reverse(name, kwargs=URLS[name].kwargs(world)))
        if set(codes.values()) != {404}:
            problems[name] = codes
    assert not problems, "\n".join(f"{k}: {v}" for k, v in problems.items())
    assert fingerprint() == before


def test_anonymous_visitors_are_sent_to_log_in_whatever_the_method(client, world: World) -> None:
    problems = {}
    for name in _walked():
        url = reverse(name, kwargs=URLS[name].kwargs(world))
        for method in ("get", "post"):
            response = getattr(client, method)(url)
            if response.status_code != 302 or not response["Location"].startswith("/accounts/login/"):
                problems[f"{method} {name}"] = response.status_code
    assert not problems, "\n".join(f"{k}: {v}" for k, v in problems.items())


def _foreign_for_a_player(world: World) -> dict[str, Any]:
    """Ids in the player's own campaign (or the games pages) of things they may not see: the narrator's NPC,
    another's private note and a narrator-only event, a game they do not sit at, another's deck."""
    from tests.frag.factories import game_with

    return {
        "character_id": world.npc.pk,
        "event_id": world.private_note.pk,
        "tragic_pk": tragic_duel(world.alice, world.narrator, seed=3).pk,
        "game_id": game_with(world.alice, others=[world.narrator], bots=0).pk,
        "deck_pk": world.tragic_deck.pk,
    }


def _with(kwargs: dict[str, Any], name: str, ids: dict[str, Any]) -> dict[str, Any] | None:
    """``kwargs`` with its object id replaced by ``ids``' (None when the pattern names none of them)."""
    changed = dict(kwargs)
    for key in ("character_id", "event_id", "game_id"):
        if key in changed:
            changed[key] = ids[key]
    if "pk" in changed:
        changed["pk"] = ids["deck_pk"] if name.startswith("tragic:deck") else ids["tragic_pk"]
    return changed if changed != kwargs else None


def test_a_player_gets_404_alike_for_what_they_may_not_see_and_for_what_does_not_exist(client, world: World) -> None:
    foreign = _foreign_for_a_player(world)
    missing = dict.fromkeys(foreign, MISSING)
    world.login(client, world.bob)
    before = fingerprint()
    problems = {}
    walked = 0
    for name in _walked():
        kwargs = URLS[name].kwargs(world)
        theirs, nobodys = _with(kwargs, name, foreign), _with(kwargs, name, missing)
        if theirs is None or nobodys is None:
            continue
        walked += 1
        codes = {"theirs": _codes(client, reverse(name, kwargs=theirs))}
        codes["nobody's"] = _codes(client, reverse(name, kwargs=nobodys))
        if {code for answer in codes.values() for code in answer.values()} != {404}:
            problems[name] = codes
    assert walked >= 20, walked
    assert not problems, "\n".join(f"{k}: {v}" for k, v in problems.items())
    assert fingerprint() == before


def test_the_private_note_of_another_is_not_correctable_nor_revealed(client, world: World) -> None:
    """The narrator-only event too: a player's correction of it is a 404 like a missing event's."""
    world.login(client, world.bob)
    for event in (world.secret_event, world.private_note):
        url = reverse("campaigns:event_correct", kwargs={"campaign_id": world.campaign.pk, "event_id": event.pk})
        assert _codes(client, url) == {"get": 404, "post": 404}
