"""Characters' panels reach the narrators' dashboards live (a region, characters.panels); players' sockets never
get them."""

from __future__ import annotations

import re

import pytest
from asgiref.sync import sync_to_async
from channels.testing import WebsocketCommunicator

from characters.services.creation import npc_create
from characters.services.powers import healing_start
from characters.services.revers import revers_inflict
from characters.services.sheet import character_update, trait_set
from config.asgi import application
from tests.campaigns.live_client import LiveCommunicator
from tests.campaigns.test_live import connect, session_cookie
from tests.characters.factories import pc, table

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.asyncio]


async def dashboard(user, campaign_id: int) -> LiveCommunicator:  # type: ignore[no-untyped-def]
    """A socket as the dashboard opens it: ``?watch=home:<campaign>&watch=feed:<campaign>``."""
    cookie = await sync_to_async(session_cookie)(user)
    headers = [(b"origin", b"http://127.0.0.1"), (b"host", b"127.0.0.1"), (b"cookie", cookie.encode())]
    path = f"/ws/campaigns/{campaign_id}/?watch=home:{campaign_id}&watch=feed:{campaign_id}"
    socket = LiveCommunicator(application, path, headers=headers)
    connected, _code = await socket.connect()
    assert connected
    return socket


async def test_a_new_character_appears_on_the_narrators_dashboard_and_changes_refresh_its_panel() -> None:
    campaign, narrator, (player, other) = await sync_to_async(table)()
    narrator_socket = await dashboard(narrator, campaign.pk)
    other_socket, connected = await connect(other, campaign.pk)
    assert connected
    player_dashboard = await dashboard(player, campaign.pk)  # a player's home page watches the same subjects

    jim = await sync_to_async(pc)(campaign, player)
    html = await narrator_socket.receive_from(timeout=5)
    assert 'id="character-panels" hx-swap-oob="true"' in html  # the grid, with the new panel in its place
    assert f'id="character-panel-{jim.pk}"' in html and 'id="no-characters"' not in html
    assert "character-panel" not in await player_dashboard.receive_from(timeout=5)
    seen_by_player = await other_socket.receive_from(timeout=5)
    assert "character-panel" not in seen_by_player  # no narrator panel, only the log line and the sheet's strip
    assert f'id="sheet-summary-{jim.pk}" hx-swap-oob="true"' in seen_by_player

    await sync_to_async(revers_inflict)(character=jim, actor=narrator, domain="physical", severity=2, source="Zombie")
    html = await narrator_socket.receive_from(timeout=5)
    # A change of one character sends its panel alone, swapped by its id: not the whole grid.
    assert f'id="character-panel-{jim.pk}" hx-swap-oob="true"' in html and 'id="character-panels"' not in html
    assert "Revers sérieux" in html or "Serious Revers" in html
    seen_by_player = await other_socket.receive_from(timeout=5)
    assert f'id="sheet-summary-{jim.pk}"' in seen_by_player and "+1 Atout" not in seen_by_player
    assert "character-panel" not in await player_dashboard.receive_from(timeout=5)
    for socket in (narrator_socket, other_socket, player_dashboard):
        await socket.disconnect()


async def test_npc_changes_never_reach_players() -> None:
    campaign, narrator, (player, _other) = await sync_to_async(table)()
    socket, connected = await connect(player, campaign.pk)
    assert connected
    await sync_to_async(npc_create)(campaign=campaign, actor=narrator, name="Comtesse", concept="Veuve noire")
    assert await socket.receive_nothing(timeout=0.5)
    await socket.disconnect()


async def test_regeneration_shows_live_on_the_sheets_strip() -> None:
    """Régénération runs on the game clock: the table sees it start and the wounds go on the sheet's strip."""
    campaign, narrator, (player, other) = await sync_to_async(table)()
    psy = await sync_to_async(pc)(campaign, player, {"conscience": 5})
    await sync_to_async(revers_inflict)(character=psy, actor=narrator, domain="physical", severity=1, source="Balle")
    socket, connected = await connect(other, campaign.pk)
    assert connected
    await sync_to_async(healing_start)(character=psy, actor=player, power="regeneration")
    seen = await socket.receive_from(timeout=5)
    assert f'id="sheet-summary-{psy.pk}"' in seen and 'data-healing="regeneration"' in seen
    await socket.disconnect()


async def watch_sheet(user, character) -> WebsocketCommunicator:  # type: ignore[no-untyped-def]
    """A socket as the sheet page opens it: ``?watch=character:<pk>`` on the campaign's socket."""
    cookie = await sync_to_async(session_cookie)(user)
    headers = [
        (b"origin", b"http://127.0.0.1"),
        (b"host", b"127.0.0.1"),
        (b"cookie", f"{cookie}; django_language=en".encode()),
    ]
    path = f"/ws/campaigns/{character.campaign_id}/?watch=character:{character.pk}"
    socket = LiveCommunicator(application, path, headers=headers)
    connected, _code = await socket.connect()
    assert connected
    return socket


def _trait_row(html: str, code: str) -> str:
    return html.split(f'data-trait="{code}"')[1].split("</tr>")[0]


async def test_a_player_watching_a_pc_sheet_gets_the_narrators_new_rank() -> None:
    """The whole open sheet follows a narrator's quick edit: the new rank, as the watcher may see it."""
    campaign, narrator, (player, other) = await sync_to_async(table)()
    jim = await sync_to_async(pc)(campaign, player)
    owner, onlooker = await watch_sheet(player, jim), await watch_sheet(other, jim)
    await sync_to_async(trait_set)(character=jim, actor=narrator, code="medecine", rank=6)
    for socket in (owner, onlooker):
        html = await socket.receive_from(timeout=5)
        assert f'id="sheet" class="sheet" data-version="{jim.version + 1}" hx-swap-oob="true"' in html
        assert '<strong>Great</strong> <span class="muted">(6)</span>' in _trait_row(html, "medecine")
        assert "narrator-tools" not in html and "Set a trait" not in html
    await owner.disconnect()
    await onlooker.disconnect()


async def test_a_member_not_watching_the_sheet_gets_only_its_strip() -> None:
    campaign, narrator, (player, other) = await sync_to_async(table)()
    jim = await sync_to_async(pc)(campaign, player)
    socket, connected = await connect(other, campaign.pk)
    assert connected
    await sync_to_async(trait_set)(character=jim, actor=narrator, code="medecine", rank=6)
    html = await socket.receive_from(timeout=5)
    assert f'id="sheet-summary-{jim.pk}"' in html and 'id="sheet"' not in html
    await socket.disconnect()


async def test_narrator_notes_reach_the_narrators_open_sheet_and_never_a_players() -> None:
    campaign, narrator, (player, _other) = await sync_to_async(table)()
    jim = await sync_to_async(pc)(campaign, player)
    players_socket, narrators_socket = await watch_sheet(player, jim), await watch_sheet(narrator, jim)
    await sync_to_async(character_update)(
        character=jim,
        actor=narrator,
        data={"narrator_notes": "SECRET-NOTE: il est le traître"},
        expected_version=jim.version,
    )
    seen_by_player = await players_socket.receive_from(timeout=5)
    assert (
        'id="sheet"' in seen_by_player
        and "SECRET-NOTE" not in seen_by_player
        and "narrator-tools" not in seen_by_player
    )
    assert await players_socket.receive_nothing(timeout=0.3)
    seen_by_narrator = await narrators_socket.receive_from(timeout=5)
    assert "SECRET-NOTE" in seen_by_narrator and 'id="narrator-tools"' in seen_by_narrator
    await players_socket.disconnect()
    await narrators_socket.disconnect()


async def test_an_npc_sheet_never_reaches_a_player_even_when_asked_for() -> None:
    """Watching is a wish, not a right: a player naming an NPC in ``watch`` still receives nothing of it."""
    campaign, narrator, (player, _other) = await sync_to_async(table)()
    npc = await sync_to_async(npc_create)(campaign=campaign, actor=narrator, name="Comtesse", concept="Veuve noire")
    socket = await watch_sheet(player, npc)
    await sync_to_async(character_update)(
        character=npc, actor=narrator, data={"narrator_notes": "NPC-SECRET"}, expected_version=npc.version
    )
    await sync_to_async(trait_set)(character=npc, actor=narrator, code="medecine", rank=6)
    assert await socket.receive_nothing(timeout=0.5)
    await socket.disconnect()


async def test_a_live_sheet_carries_a_csrf_token_for_its_forms() -> None:
    campaign, narrator, (player, _other) = await sync_to_async(table)()
    jim = await sync_to_async(pc)(campaign, player)
    cookie = await sync_to_async(session_cookie)(player)
    headers = [(b"origin", b"http://127.0.0.1"), (b"host", b"127.0.0.1"),
               (b"cookie", f"{cookie}; csrftoken={'a' * 32}".encode())]  # fmt: skip
    socket = LiveCommunicator(application, f"/ws/campaigns/{campaign.pk}/?watch=character:{jim.pk}", headers=headers)
    assert (await socket.connect())[0]
    await sync_to_async(trait_set)(character=jim, actor=narrator, code="medecine", rank=6)
    html = await socket.receive_from(timeout=5)
    token = re.search(r'name="csrfmiddlewaretoken" value="(\w+)"', html)
    assert token is not None and len(token.group(1)) == 64
    await socket.disconnect()


async def test_the_psychic_section_of_a_watched_sheet_follows_a_healing_power() -> None:
    """Potentiel and the healing power running reach a watching sheet when the player starts it elsewhere."""
    campaign, narrator, (player, _other) = await sync_to_async(table)()
    psy = await sync_to_async(pc)(campaign, player, {"conscience": 3})
    await sync_to_async(revers_inflict)(character=psy, actor=narrator, domain="physical", severity=1, source="Balle")
    socket = await watch_sheet(narrator, psy)
    await sync_to_async(healing_start)(character=psy, actor=player, power="fast_healing")
    html = await socket.receive_from(timeout=5)
    assert 'id="healing"' in html and 'data-healing="fast_healing"' in html
    assert "Fast healing running · Potential spent on it: 1" in html and "Potential 2" in _trait_row(html, "conscience")
    await socket.disconnect()


async def test_a_savage_state_change_reaches_the_badges_of_a_watched_sheet() -> None:
    """The sheet shows the Savage-style badges (``savage-badges-<pk>`` in its header): they follow live."""
    from states.services.shaken import savage_shaken_set

    campaign, narrator, (player, other) = await sync_to_async(table)(savage_states=True)
    jim = await sync_to_async(pc)(campaign, player)
    socket = await watch_sheet(other, jim)
    await sync_to_async(savage_shaken_set)(character=jim, actor=narrator, shaken=True, expected_version=None)
    html = await socket.receive_from(timeout=5)
    # The sheet is pushed whole (a region: characters.views.sheet.SHEET), its badge strip in its header.
    assert '<div id="sheet" class="sheet"' in html and 'hx-swap-oob="true"' in html
    assert f'id="savage-badges-{jim.pk}"' in html and 'data-state="shaken"' in html
    await socket.disconnect()
