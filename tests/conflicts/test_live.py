"""Through the real socket: the narrator sees a split at once; a player sees the draw, never the NPC's secrets."""

from __future__ import annotations

import pytest
from asgiref.sync import sync_to_async

from conflicts.rules.budget import Split
from conflicts.services.drawing import participant_declare_split
from conflicts.services.sequences import participant_update
from tests.campaigns.test_live import connect
from tests.conflicts.factories import draw, fight

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.asyncio]


async def test_the_narrator_sees_the_split_live_and_the_player_sees_only_the_draw() -> None:
    f = await sync_to_async(fight)(npcs=1)
    t = f.npcs[0]
    await sync_to_async(participant_update)(
        participant=t, actor=f.narrator, data={"trait_value": 7}, expected_version=f.sequence.version
    )
    player_socket, ok_player = await connect(f.player, f.campaign.pk)
    narrator_socket, ok_narrator = await connect(f.narrator, f.campaign.pk)
    assert ok_player and ok_narrator

    await sync_to_async(participant_declare_split)(
        participant=t, actor=f.narrator, split=Split(attack={f.pc.key: 4}, defence={t.key: 3})
    )
    seen = await narrator_socket.receive_from(timeout=5)
    assert f'id="sequence-board-{f.sequence.pk}"' in seen and "Répartition" in seen  # French: no language cookie

    await sync_to_async(draw)(t, f.narrator, Split(attack={f.pc.key: 4}, defence={t.key: 3}))
    html = await player_socket.receive_from(timeout=5)
    assert f'id="sequence-board-{f.sequence.pk}"' in html and "data-card=" in html
    assert "Exceptionnel" not in html and "Superb" not in html
    assert await player_socket.receive_nothing(timeout=0.3)  # the narrators-only split never reached the player
    await player_socket.disconnect()
    await narrator_socket.disconnect()
