"""Characters' panels reach the narrators' dashboards live; players' sockets never get them."""

from __future__ import annotations

import pytest
from asgiref.sync import sync_to_async

from characters import services
from tests.campaigns.test_live import connect
from tests.characters.factories import pc, table

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.asyncio]


async def test_a_new_character_appears_on_the_narrators_dashboard_and_changes_refresh_its_panel() -> None:
    campaign, narrator, (player, other) = await sync_to_async(table)()
    narrator_socket, connected = await connect(narrator, campaign.pk)
    assert connected
    other_socket, connected = await connect(other, campaign.pk)
    assert connected

    jim = await sync_to_async(pc)(campaign, player)
    html = await narrator_socket.receive_from(timeout=5)
    assert 'hx-swap-oob="beforeend:#character-panels"' in html
    assert f'id="character-panel-{jim.pk}"' in html
    seen_by_player = await other_socket.receive_from(timeout=5)
    assert "character-panel" not in seen_by_player  # no narrator panel, only the log line and the sheet's strip
    assert f'id="sheet-summary-{jim.pk}" hx-swap-oob="true"' in seen_by_player

    await sync_to_async(services.revers_inflict)(
        character=jim, actor=narrator, domain="physical", severity=2, source="Zombie"
    )
    html = await narrator_socket.receive_from(timeout=5)
    assert f'id="character-panel-{jim.pk}" hx-swap-oob="true"' in html
    assert "Revers sérieux" in html or "Serious Revers" in html
    seen_by_player = await other_socket.receive_from(timeout=5)
    assert f'id="sheet-summary-{jim.pk}"' in seen_by_player and "+1 Atout" not in seen_by_player
    await narrator_socket.disconnect()
    await other_socket.disconnect()


async def test_npc_changes_never_reach_players() -> None:
    campaign, narrator, (player, _other) = await sync_to_async(table)()
    socket, connected = await connect(player, campaign.pk)
    assert connected
    await sync_to_async(services.npc_create)(campaign=campaign, actor=narrator, name="Comtesse", concept="Veuve noire")
    assert await socket.receive_nothing(timeout=0.5)
    await socket.disconnect()


async def test_regeneration_shows_live_on_the_sheets_strip() -> None:
    """Régénération runs on the game clock: the table sees it start and the wounds go on the sheet's strip."""
    campaign, narrator, (player, other) = await sync_to_async(table)()
    psy = await sync_to_async(pc)(campaign, player, {"conscience": 5})
    await sync_to_async(services.revers_inflict)(
        character=psy, actor=narrator, domain="physical", severity=1, source="Balle"
    )
    socket, connected = await connect(other, campaign.pk)
    assert connected
    await sync_to_async(services.regeneration_start)(character=psy, actor=player)
    seen = await socket.receive_from(timeout=5)
    assert f'id="sheet-summary-{psy.pk}"' in seen and "data-regenerating" in seen
    await socket.disconnect()
