"""The sockets' dispatch without channels' connection sweep (``campaigns.live_socket.DispatchWithoutSweep``).

Channels 4.2 runs ``close_old_connections`` on the sockets' one database thread before every handler: a hop there
and back for each socket hearing of each event, one behind the other, although a copy the pass rendered is taken on
the event loop. The sweep stays where a database is read: every such read goes through ``database_sync_to_async``,
which closes old connections around its own work."""

from __future__ import annotations

import re
from pathlib import Path

import channels.db
import pytest
from asgiref.sync import sync_to_async

from campaigns.live import sequence_subject
from conflicts.rules.budget import Split
from tests.campaigns.test_live_audience import fight_with_onlookers, watching
from tests.conflicts.factories import draw

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.django_db(transaction=True)
@pytest.mark.asyncio
async def test_sockets_take_the_pass_copies_without_a_turn_on_the_database_thread(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    f, onlookers = await sync_to_async(fight_with_onlookers)(3)
    subject = sequence_subject(f.sequence.pk)
    sockets = [await watching(user, f.campaign.pk, subject) for user in (f.narrator, f.player, *onlookers)]
    swept: list[None] = []
    real = channels.db.close_old_connections
    monkeypatch.setattr(channels.db, "close_old_connections", lambda **kw: swept.append(None) or real(**kw))
    await sync_to_async(draw)(f.pc, f.player, Split(attack={f.npcs[0].key: 3}, defence={f.pc.key: 2}))

    copies = [await socket.receive_from(timeout=5) for socket in sockets]

    assert all(f"participant-{f.pc.pk}" in html for html in copies)  # each page got the draw...
    assert swept == []  # ...from the copies the draw's own request rendered, with no hop to the database thread
    for socket in sockets:
        await socket.disconnect()


@pytest.mark.parametrize("module", ["campaigns/consumers.py", "campaigns/live_boards.py"])
def test_the_sockets_read_the_database_only_through_database_sync_to_async(module: str) -> None:
    """Without the sweep before every handler, a read through plain ``sync_to_async`` could keep a connection the
    database has closed meanwhile; ``database_sync_to_async`` closes old ones before and after its work."""
    source = (ROOT / module).read_text()
    plain = [line for line in source.splitlines() if re.search(r"(?<!database_)sync_to_async\b", line)]
    assert plain == []
    assert "DispatchWithoutSweep" in source
