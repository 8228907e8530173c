"""Catch-up by regions (campaigns.live_catch_up): a page that missed many events gets its regions as they stand, in
one message, equal to a fresh GET region by region, with nothing its member may not see, and small."""

from __future__ import annotations

import json
import random
import re
from dataclasses import dataclass
from typing import Any
from unittest import mock

import pytest
from asgiref.sync import sync_to_async
from django.contrib.auth.models import User
from django.test import Client
from django.urls import reverse

from campaigns import services as campaign_services
from campaigns.models import Campaign, Membership
from characters.models import Character
from characters.services.atouts import atout_gain
from characters.services.creation import npc_create
from config.asgi import application
from conflicts.models import Participant
from conflicts.rules.budget import Split
from conflicts.services.drawing import participant_declare_split
from conflicts.services.fudge_tests import fudge_test_roll
from conflicts.services.sequences import participant_update
from conflicts.services.settling import sequence_settle
from states.services.rounds import savage_round_deal, savage_round_set_participants
from states.services.wounds import savage_wounds_set
from tests.campaigns.live_client import LiveCommunicator
from tests.campaigns.regions_dom import _Spans, apply_fragments, element
from tests.campaigns.test_live import session_cookie
from tests.characters.factories import open_session, pc, table
from tests.conflicts.factories import draw, fight

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.asyncio]

SECRETS = ("SECRET DE LISA", "SECRET DU MJ", "NOTES DU MJ SUR JIM", "NOTES DU MJ SUR LE BARON")


@dataclass
class Scene:
    campaign: Campaign
    narrator: User
    jim_player: User
    lisa_player: User
    jim: Character
    lisa: Character
    baron: Character  # the narrator's NPC: a player may not see its sheet


def _scene() -> Scene:
    campaign, narrator, (p1, p2) = table(players=2, savage_states=True)
    jim, lisa = pc(campaign, p1, name="Jim"), pc(campaign, p2, name="Lisa")
    baron = npc_create(campaign=campaign, actor=narrator, name="Le Baron", concept="Maître chanteur")
    Character.objects.filter(pk=jim.pk).update(narrator_notes="NOTES DU MJ SUR JIM")
    Character.objects.filter(pk=baron.pk).update(narrator_notes="NOTES DU MJ SUR LE BARON")
    open_session(campaign, narrator)
    return Scene(campaign, narrator, p1, p2, jim, lisa, baron)


def _member(scene: Scene, user: User) -> Membership:
    return Membership.objects.select_related("campaign").get(campaign=scene.campaign, user=user)


def _fresh(character: Character) -> Character:
    return Character.objects.select_related("campaign", "owner").get(pk=character.pk)


def hundred_events(scene: Scene, count: int = 100) -> None:
    """Notes, Tests, wounds and Atouts by various people, some private to Lisa's player or to the narrator."""
    rng = random.Random(30)
    narrator, jim_side, lisa_side = (_member(scene, u) for u in (scene.narrator, scene.jim_player, scene.lisa_player))
    for step in range(count):
        match step % 7:
            case 0:
                campaign_services.note_write(membership=jim_side, text=f"Jim note {step}")
            case 1:
                campaign_services.note_write(membership=lisa_side, text=f"SECRET DE LISA {step}", private=True)
            case 2:
                campaign_services.note_write(membership=narrator, text=f"SECRET DU MJ {step}", private=True)
            case 3:
                who = _fresh([scene.jim, scene.lisa][step % 2])
                fudge_test_roll(character=who, actor=who.owner, data={"trait_code": "medecine", "difficulty": 4},
                                rng=rng)  # fmt: skip
            case 4:
                who = _fresh([scene.jim, scene.lisa, scene.baron][step % 3])
                savage_wounds_set(
                    character=who, actor=scene.narrator, count=1 + (step // 21) % 3, expected_version=None
                )
            case 5:
                atout_gain(character=_fresh([scene.jim, scene.lisa][step % 2]), actor=scene.narrator, amount=1)
            case _:
                campaign_services.note_write(membership=narrator, text=f"Le MJ raconte {step}")


def _client(user: User) -> Client:
    client = Client()
    client.force_login(user)
    return client


def _get(user: User, url: str) -> tuple[int, str]:
    response = _client(user).get(url)
    return response.status_code, response.content.decode()


def _position(html: str) -> int:
    found = re.search(r'data-live-after="(\d+)"', html)
    assert found is not None
    return int(found.group(1))


def _watch(*subjects: str) -> str:
    return "".join(f"&watch={subject}" for subject in subjects)


async def _catch_up(user: User, campaign_id: int, after: int, *subjects: str) -> tuple[dict[str, Any], str]:
    cookie = await sync_to_async(session_cookie)(user)
    # The page's CSRF cookie: the forms of the regions carry a token, as a fresh GET's do.
    headers = [
        (b"origin", b"http://127.0.0.1"),
        (b"host", b"127.0.0.1"),
        (b"cookie", f"{cookie}; csrftoken={'c' * 32}".encode()),
    ]
    socket = LiveCommunicator(
        application, f"/ws/campaigns/{campaign_id}/?after={after}{_watch(*subjects)}", headers=headers
    )
    connected, _code = await socket.connect()
    assert connected
    frame = await socket.receive_json_frame(timeout=20)
    assert await socket.receive_nothing(timeout=0.3), "the catch-up is one message"
    await socket.disconnect()
    raw = json.dumps(frame, separators=(",", ":"))
    return frame, raw


async def test_each_sheet_page_that_missed_100_events_gets_its_sheet_as_a_fresh_get_shows_it() -> None:
    """Jim's player keeps three sheet pages open (Jim's, Lisa's, the Baron's) through 100 events: each catches up with
    its sheet as a fresh GET shows it, in one message, and the Baron's (the narrator's secret) with nothing. One page per
    sheet: a page holds one ``#sheet``, and a page watching several gets the last one only (``one_per_element``)."""
    scene = await sync_to_async(_scene)()
    characters = (scene.jim, scene.lisa, scene.baron)
    _status, page = await sync_to_async(_get)(scene.jim_player, scene.jim.get_absolute_url())
    after = _position(page)
    await sync_to_async(hundred_events)(scene)
    head = await sync_to_async(lambda: scene.campaign.stream.position)()
    shown = 0
    for character in characters:
        frame, raw = await _catch_up(scene.jim_player, scene.campaign.pk, after, f"character:{character.pk}")
        assert frame["t"] == "at" and frame["missed"] == [] and frame["p"] == head, "the regions, not every event"
        sheets = [frame["regions"][start:end] for start, end, _attrs in _Spans(frame["regions"]).top]
        status, fresh = await sync_to_async(_get)(scene.jim_player, character.get_absolute_url())
        if status == 200:
            assert [element(sheet, "sheet") for sheet in sheets] == [element(fresh, "sheet")]
            shown += 1
        else:
            assert character == scene.baron and status == 404 and sheets == []
        for secret in SECRETS:
            assert secret not in raw
        assert len(raw.encode()) < 100_000, len(raw.encode())
    assert shown == 2  # Jim's and Lisa's: the Baron's sheet is the narrator's secret


async def test_a_campaign_page_and_the_dashboard_that_missed_100_events_equal_a_fresh_get_region_by_region() -> None:
    scene = await sync_to_async(_scene)()
    home = reverse("campaigns:home", args=[scene.campaign.pk])
    dashboard = reverse("campaigns:dashboard", args=[scene.campaign.pk])
    pages = {user: (await sync_to_async(_get)(user, url))[1]
             for user, url in ((scene.lisa_player, home), (scene.narrator, dashboard))}  # fmt: skip
    await sync_to_async(hundred_events)(scene)
    subjects = (f"feed:{scene.campaign.pk}", f"home:{scene.campaign.pk}")
    for user, url in ((scene.lisa_player, home), (scene.narrator, dashboard)):
        frame, raw = await _catch_up(user, scene.campaign.pk, _position(pages[user]), *subjects)
        assert frame["t"] == "at" and frame["missed"] == [] and frame["regions"]
        assert len(raw.encode()) < 100_000, len(raw.encode())
        caught_up = apply_fragments(pages[user], frame["regions"])
        _status, fresh = await sync_to_async(_get)(user, url)
        ids = ["live-feed", "running-sequences", *re.findall(r'id="(now-[a-z-]+)"', fresh)]
        ids += ["character-panels"] if user == scene.narrator else ["game-status"]
        for region_id in ids:
            assert element(fresh, region_id) is not None, region_id
            assert element(caught_up, region_id) == element(fresh, region_id), (user.username, region_id)
        assert element(pages[user], "live-feed") != element(fresh, "live-feed")  # the check is not vacuous
        if user == scene.lisa_player:  # her own private notes are hers to read; nobody else's secrets
            assert "SECRET DE LISA" in raw
            for secret in ("SECRET DU MJ", "NOTES DU MJ SUR JIM", "NOTES DU MJ SUR LE BARON"):
                assert secret not in raw


async def test_a_page_that_missed_a_few_events_still_gets_them_one_by_one(settings) -> None:  # type: ignore[no-untyped-def]
    settings.LIVE_CATCH_UP_REPLAY_MAX = 10
    scene = await sync_to_async(_scene)()
    _status, page = await sync_to_async(_get)(scene.jim_player, scene.jim.get_absolute_url())
    await sync_to_async(hundred_events)(scene, count=7)  # 5 of them are Jim's player's to see
    frame, _raw = await _catch_up(scene.jim_player, scene.campaign.pk, _position(page), f"character:{scene.jim.pk}")
    assert "regions" not in frame and len(frame["missed"]) == 5


async def test_a_page_whose_regions_cannot_be_rendered_anew_is_told_to_reload() -> None:
    """A page naming a kind of region nobody can render anew is not replayed event by event: it reloads."""
    scene = await sync_to_async(_scene)()
    _status, page = await sync_to_async(_get)(scene.jim_player, scene.jim.get_absolute_url())
    await sync_to_async(hundred_events)(scene, count=30)
    frame, _raw = await _catch_up(scene.jim_player, scene.campaign.pk, _position(page), "nothing-known:1")
    assert frame == {"t": "reload"}


def _sequence_played(f: Any) -> None:
    """A Sequence played while the pages were away: the narrator's secrets (a thug's trait value and split), the
    table's notes, Jim's draw, the thug's (it resolves the draw), the Revers written on the sheets."""
    thug = f.npcs[0]
    participant_update(participant=thug, actor=f.narrator, data={"trait_value": 7},
                       expected_version=f.reload().sequence.version)  # fmt: skip
    split = Split(attack={f.pc.key: 4}, defence={thug.key: 3})  # a trait value of 7: seven cards
    participant_declare_split(participant=thug, actor=f.narrator, split=split)
    narrator = Membership.objects.select_related("campaign").get(campaign=f.campaign, user=f.narrator)
    for step in range(12):
        campaign_services.note_write(membership=narrator, text=f"Le MJ raconte {step}")
    draw(Participant.objects.get(pk=f.pc.pk), f.player, Split(attack={thug.key: 3}, defence={f.pc.key: 2}))
    draw(Participant.objects.get(pk=thug.pk), f.narrator, split, seed=4)
    sequence_settle(sequence=f.reload().sequence, actor=f.narrator, expected_version=f.sequence.version)


async def test_a_sequence_page_that_missed_many_events_equals_a_fresh_get_region_by_region() -> None:
    """Issue 30, catch-up by regions, for Sequence pages (they used to reload): the narrator's console and Jim's
    player's page, away through a played Sequence, get its board (a region), their draw panels, Atouts after the
    draw and decks as they stand, equal to a fresh GET; the player gets nothing of the narrator's secrets."""
    f = await sync_to_async(fight)(npcs=1)
    url = f.sequence.get_absolute_url()
    people = {"narrator": f.narrator, "player": f.player}
    pages = {who: (await sync_to_async(_get)(user, url))[1] for who, user in people.items()}
    await sync_to_async(_sequence_played)(f)
    board = f"sequence-board-{f.sequence.pk}"
    for who, user in people.items():
        watched = [f"sequence:{f.sequence.pk}"] + ([f"console:{f.sequence.pk}"] if who == "narrator" else [])
        frame, raw = await _catch_up(user, f.campaign.pk, _position(pages[who]), *watched)
        assert frame["t"] == "at" and frame["missed"] == [] and frame["regions"], who
        assert len(raw.encode()) < 100_000, len(raw.encode())
        caught_up = apply_fragments(pages[who], frame["regions"])
        _status, fresh = await sync_to_async(_get)(user, url)
        ids = [board, "decks", *(f"{part}-{p.pk}" for p in (f.pc, *f.npcs) for part in ("panel", "after-draw"))]
        for region_id in ids:
            assert element(caught_up, region_id) == element(fresh, region_id), (who, region_id)
        assert element(pages[who], board) != element(fresh, board), who  # not vacuous
        if who == "player":
            thug = f.npcs[0]
            assert f"bulk-attack-{thug.pk}" not in raw and "⚔ 4 →" not in raw


async def test_a_states_page_and_the_round_tracker_that_missed_many_events_equal_a_fresh_get() -> None:
    """Their panel and tracker as a fresh GET shows them; their feed (it gathers the entries pushed since the page
    opened) gets the newest entries its member may read on top."""
    scene = await sync_to_async(_scene)()
    await sync_to_async(savage_round_set_participants)(
        campaign=scene.campaign, actor=scene.narrator, characters=[scene.jim, scene.lisa], expected_version=None
    )
    urls = {
        "states": reverse("states:savage_state", args=[scene.jim.pk]),
        "round": reverse("states:savage_round", args=[scene.campaign.pk]),
    }
    pages = {name: (await sync_to_async(_get)(scene.jim_player, url))[1] for name, url in urls.items()}
    await sync_to_async(hundred_events)(scene, count=40)
    await sync_to_async(savage_round_deal)(campaign=scene.campaign, actor=scene.narrator, expected_version=None)
    feed = f"feed:{scene.campaign.pk}"
    watched = {"states": f"states:{scene.jim.pk}", "round": f"round:{scene.campaign.pk}"}
    regions = {"states": f"savage-panel-{scene.jim.pk}", "round": f"savage-round-{scene.campaign.pk}"}
    for name, url in urls.items():
        frame, raw = await _catch_up(scene.jim_player, scene.campaign.pk, _position(pages[name]), watched[name], feed)
        assert frame["t"] == "at" and frame["regions"]
        caught_up = apply_fragments(pages[name], frame["regions"])
        _status, fresh = await sync_to_async(_get)(scene.jim_player, url)
        assert element(caught_up, regions[name]) == element(fresh, regions[name]), name
        assert element(pages[name], regions[name]) != element(fresh, regions[name]), name  # not vacuous
        assert "Jim note 35" in raw and "Le MJ raconte 34" in raw
        for secret in SECRETS:
            assert secret not in raw


async def test_a_catch_up_shows_nothing_of_another_campaign_whatever_the_page_names() -> None:
    """The regions are read for the socket's member in its own campaign: a page naming another campaign's character,
    home or feed gets nothing of them."""
    scene = await sync_to_async(_scene)()
    other = await sync_to_async(_scene)()
    await sync_to_async(Character.objects.filter(pk=other.jim.pk).update)(name="Autre Jim")
    _status, page = await sync_to_async(_get)(scene.jim_player, scene.jim.get_absolute_url())
    await sync_to_async(hundred_events)(scene, count=30)
    await sync_to_async(hundred_events)(other, count=30)
    subjects = (f"character:{other.jim.pk}", f"home:{other.campaign.pk}", f"feed:{other.campaign.pk}")
    frame, raw = await _catch_up(scene.jim_player, scene.campaign.pk, _position(page), *subjects)
    assert frame["t"] == "at" and frame["regions"] == ""
    assert "Autre Jim" not in raw and "Jim note" not in raw


async def test_an_older_page_that_names_no_region_reloads() -> None:
    """A socket that watches nothing stands for a page showing every region: only a reload brings them all."""
    scene = await sync_to_async(_scene)()
    _status, page = await sync_to_async(_get)(scene.jim_player, scene.jim.get_absolute_url())
    await sync_to_async(hundred_events)(scene, count=30)
    frame, _raw = await _catch_up(scene.jim_player, scene.campaign.pk, _position(page))
    assert frame == {"t": "reload"}


async def test_a_page_back_in_the_foreground_that_missed_many_events_asks_and_gets_its_regions() -> None:
    """``{"resume": <position>}`` on an open socket (a phone unlocked) is answered the same way as a reconnection."""
    scene = await sync_to_async(_scene)()
    _status, page = await sync_to_async(_get)(scene.jim_player, scene.jim.get_absolute_url())
    after = _position(page)
    cookie = await sync_to_async(session_cookie)(scene.jim_player)
    headers = [(b"origin", b"http://127.0.0.1"), (b"host", b"127.0.0.1"), (b"cookie", cookie.encode())]
    path = f"/ws/campaigns/{scene.campaign.pk}/?after={after}&watch=character:{scene.jim.pk}"
    socket = LiveCommunicator(application, path, headers=headers)
    connected, _code = await socket.connect()
    assert connected
    assert (await socket.receive_json_frame(timeout=5))["missed"] == []
    with mock.patch("campaigns.live.broadcast", return_value=False):  # the phone slept: it heard none of them
        await sync_to_async(hundred_events)(scene, count=30)
    await socket.send_to(text_data=json.dumps({"resume": after}))
    frame = await socket.receive_json_frame(timeout=20)
    assert frame["t"] == "at" and frame["missed"] == [] and 'id="sheet"' in frame["regions"]
    await socket.disconnect()
