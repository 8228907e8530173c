"""Through the real socket: the narrator sees a split at once; a player sees the draw, never the NPC's secrets."""

from __future__ import annotations

import pytest
from asgiref.sync import sync_to_async

from config.asgi import application
from conflicts.rules.budget import Split
from conflicts.services.drawing import participant_declare_split
from conflicts.services.sequences import participant_update
from conflicts.services.settling import sequence_cut_short
from tests.campaigns.live_client import LiveCommunicator
from tests.campaigns.test_live import session_cookie
from tests.conflicts.factories import draw, fight
from tests.conflicts.test_sequence_services import after_a_draw

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.asyncio]


async def connect(user, f) -> tuple[LiveCommunicator, bool]:  # type: ignore[no-untyped-def]
    """A socket of the Sequence page: it names the Sequence it shows (its board is a region, sent to the pages that
    show it)."""
    cookie = await sync_to_async(session_cookie)(user)
    headers = [(b"origin", b"http://127.0.0.1"), (b"host", b"127.0.0.1"), (b"cookie", cookie.encode())]
    url = f"/ws/campaigns/{f.campaign.pk}/?watch=sequence:{f.sequence.pk}"
    communicator = LiveCommunicator(application, url, headers=headers)
    connected, _code = await communicator.connect()
    return communicator, connected


async def test_the_narrator_sees_the_split_live_and_the_player_sees_only_the_draw() -> None:
    f = await sync_to_async(fight)(npcs=1)
    t = f.npcs[0]
    await sync_to_async(participant_update)(
        participant=t, actor=f.narrator, data={"trait_value": 7}, expected_version=f.sequence.version
    )
    player_socket, ok_player = await connect(f.player, f)
    narrator_socket, ok_narrator = await connect(f.narrator, f)
    assert ok_player and ok_narrator

    await sync_to_async(participant_declare_split)(
        participant=t, actor=f.narrator, split=Split(attack={f.pc.key: 4}, defence={t.key: 3})
    )
    seen = await narrator_socket.receive_from(timeout=5)
    # The thug's row alone (``conflicts.regions``: a split changes its participant's row, not who takes part).
    row = seen.split(f'id="participant-{t.pk}" hx-swap-oob="outerHTML"')[1]
    assert "Répartition" in row  # French: no language cookie

    await sync_to_async(draw)(t, f.narrator, Split(attack={f.pc.key: 4}, defence={t.key: 3}))
    html = await player_socket.receive_from(timeout=5)
    assert f'id="participant-{t.pk}" hx-swap-oob="outerHTML"' in html and "data-card=" in html
    assert "Exceptionnel" not in html and "Superb" not in html
    assert await player_socket.receive_nothing(timeout=0.3)  # the narrators-only split never reached the player
    await player_socket.disconnect()
    await narrator_socket.disconnect()


async def test_the_narrators_panel_of_a_participant_follows_when_the_player_draws() -> None:
    """The narrator's Sequence page shows one panel per participant: after Jim draws on his phone, the
    narrator's panel for Jim says his cards are down (it used to keep the stale draw form, which answered 409)."""
    f = await sync_to_async(fight)(npcs=1)
    narrator_socket, ok = await connect(f.narrator, f)
    assert ok
    await sync_to_async(draw)(f.pc, f.player, Split(attack={f.npcs[0].key: 3}, defence={f.pc.key: 2}))
    html = await narrator_socket.receive_from(timeout=5)
    panel = html.split(f'id="panel-{f.pc.pk}"')[1].split("</div>")[0]
    assert 'hx-swap-oob="outerHTML"' in panel and "Vos cartes sont sur la table" in panel
    assert f'id="panel-{f.npcs[0].pk}"' not in html  # the thug's panel keeps what the narrator was typing
    await narrator_socket.disconnect()


async def test_every_panel_says_the_sequence_is_over_when_it_ends() -> None:
    """A Sequence that ends (cut short here, or a knock-out) says so on the players' panels, which used to keep
    "Waiting for the narrator to record the Revers."."""
    f = await sync_to_async(fight)(npcs=1)
    player_socket, ok = await connect(f.player, f)
    assert ok
    await sync_to_async(after_a_draw)(f, "winner", "PJ")
    await sync_to_async(sequence_cut_short)(
        sequence=f.sequence, actor=f.player, side="PJ", choice="cut", expected_version=f.sequence.version
    )
    html = await player_socket.receive_from(timeout=5)
    panel = html.split(f'id="panel-{f.pc.pk}"')[1].split("</div>")[0]
    assert "Cette Séquence est terminée." in panel
    await player_socket.disconnect()


async def test_a_reshuffle_made_elsewhere_refreshes_the_decks_of_an_open_sequence_page() -> None:
    """The decks are a region of the Sequence page declared by ``decks:<campaign>``: a reshuffle made from another
    page (its Event names no Sequence) still reaches an open Sequence page (it used to follow Sequence events only)."""
    from conflicts.models import Deck
    from conflicts.services.table import deck_reshuffle

    f = await sync_to_async(fight)(npcs=1)
    await sync_to_async(draw)(f.pc, f.player, Split(attack={f.npcs[0].key: 5}), seed=3)
    player_socket, ok = await connect(f.player, f)
    assert ok
    deck = await sync_to_async(lambda: Deck.objects.filter(campaign=f.campaign, player__isnull=True).first())()
    assert deck is not None
    await sync_to_async(deck_reshuffle)(campaign=f.campaign, actor=f.narrator, kind=deck.kind, holder=deck.holder)
    html = await player_socket.receive_from(timeout=5)
    assert 'id="decks"' in html and 'hx-swap-oob="outerHTML"' in html
    assert "dans la pioche" in html or "in the pile" in html
    await player_socket.disconnect()
