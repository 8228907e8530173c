"""Render once per audience, send only the regions a page shows (campaigns.live_render, campaigns.live).

Twenty phones watching one draw used to cost twenty renders of the board; now the narrators, the player
who drew and the other players are three audiences. These tests hold the two promises that make the
sharing safe: a viewer never gets another audience's fragment (secrets, controls), and a page gets only
the regions it names in ``?watch=``, live and in a catch-up alike.
"""

from __future__ import annotations

import re

import pytest
from asgiref.sync import sync_to_async
from django.contrib.auth.models import User
from django.template import Context, Template

from campaigns import services
from campaigns.live import feed_subject, home_subject, sequence_subject
from campaigns.live_render import CSRF_MARKER, _renderings, may_see, rendering_of
from campaigns.models import Event, Membership, Role
from characters.services.revers import revers_inflict
from characters.subjects import sheet_subject
from config.asgi import application
from conflicts.rules.budget import Split
from conflicts.services.drawing import participant_declare_split
from conflicts.services.sequences import participant_add
from tests.campaigns.factories import UserFactory, campaign_with, membership
from tests.campaigns.live_client import LiveCommunicator
from tests.campaigns.test_live import session_cookie
from tests.characters.factories import pc, table
from tests.conflicts.factories import Fight, draw, fight

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.asyncio]


async def watching(user: User, campaign_id: int, *subjects: str, csrf: str = "") -> LiveCommunicator:
    """A socket as a page opens it, naming the regions the page shows."""
    cookie = await sync_to_async(session_cookie)(user)
    if csrf:
        cookie += f"; csrftoken={csrf}"
    headers = [(b"origin", b"http://127.0.0.1"), (b"host", b"127.0.0.1"), (b"cookie", cookie.encode())]
    query = "&".join(f"watch={s}" for s in subjects)
    socket = LiveCommunicator(application, f"/ws/campaigns/{campaign_id}/?{query}", headers=headers)
    connected, _code = await socket.connect()
    assert connected
    return socket


def fight_with_onlookers(onlookers: int) -> tuple[Fight, list[User]]:
    f = fight(npcs=1)
    users = [UserFactory() for _ in range(onlookers)]
    for user in users:
        Membership.objects.create(campaign=f.campaign, user=user, role=Role.PLAYER)
    return f, users


async def test_a_draw_is_rendered_once_per_audience_and_the_onlookers_share_one_copy() -> None:
    f, onlookers = await sync_to_async(fight_with_onlookers)(3)
    subject = sequence_subject(f.sequence.pk)
    narrator = await watching(f.narrator, f.campaign.pk, subject)
    drawer = await watching(f.player, f.campaign.pk, subject)
    others = [await watching(user, f.campaign.pk, subject) for user in onlookers]
    await sync_to_async(draw)(f.pc, f.player, Split(attack={f.npcs[0].key: 3}, defence={f.pc.key: 2}))
    seen_by_narrator = await narrator.receive_from(timeout=5)
    seen_by_drawer = await drawer.receive_from(timeout=5)
    seen_by_others = [await socket.receive_from(timeout=5) for socket in others]

    assert len(set(seen_by_others)) == 1  # one copy for the players the draw does not concern
    assert seen_by_drawer != seen_by_others[0] and seen_by_narrator not in (seen_by_drawer, seen_by_others[0])
    assert f'id="panel-{f.pc.pk}"' in seen_by_drawer  # the drawer's own controls...
    assert f'id="panel-{f.pc.pk}"' not in seen_by_others[0]  # ...reach nobody else's page
    assert f'id="panel-{f.npcs[0].pk}"' not in seen_by_others[0] + seen_by_drawer  # the narrator's panels neither
    (rendering,) = [r for r in _renderings.values() if r.event.kind == "sequence.drew"]
    # Three audiences (narrators, the drawer, the others) × the board and the decks; the log entry is not on
    # a Sequence page, and the list of sequences under way only on home pages: nothing else is rendered.
    assert rendering.renders <= 3 * len(rendering.parts)
    for socket in [narrator, drawer, *others]:
        await socket.disconnect()


async def test_a_player_never_receives_the_narrators_copy_of_a_secret_split() -> None:
    """The narrator's audience sees the NPC's split the moment it is declared; the players' audience gets nothing."""
    f, (onlooker,) = await sync_to_async(fight_with_onlookers)(1)
    subject = sequence_subject(f.sequence.pk)
    narrator = await watching(f.narrator, f.campaign.pk, subject, feed_subject(f.campaign.pk))
    player = await watching(f.player, f.campaign.pk, subject, feed_subject(f.campaign.pk))
    other = await watching(onlooker, f.campaign.pk, subject, feed_subject(f.campaign.pk))
    t = f.npcs[0]
    await sync_to_async(participant_declare_split)(
        participant=t, actor=f.narrator, split=Split(attack={f.pc.key: 4}, defence={t.key: 3})
    )
    assert "Répartition" in await narrator.receive_from(timeout=5)
    assert await player.receive_nothing(timeout=0.3) and await other.receive_nothing(timeout=0.3)
    for socket in (narrator, player, other):
        await socket.disconnect()


async def test_a_page_not_showing_a_sequence_gets_no_board_and_a_sequence_page_no_log_feed() -> None:
    f = await sync_to_async(fight)(npcs=1)
    home = await watching(f.player, f.campaign.pk, home_subject(f.campaign.pk), feed_subject(f.campaign.pk))
    board_page = await watching(f.player, f.campaign.pk, sequence_subject(f.sequence.pk))
    other_board = await watching(f.player, f.campaign.pk, sequence_subject(f.sequence.pk + 1000))
    await sync_to_async(draw)(f.pc, f.player, Split(attack={f.npcs[0].key: 3}, defence={f.pc.key: 2}))

    on_home = await home.receive_from(timeout=5)
    assert "#live-feed" in on_home and 'id="running-sequences"' in on_home
    assert "sequence-board-" not in on_home and 'id="decks"' not in on_home and "panel-" not in on_home
    on_board = await board_page.receive_from(timeout=5)
    assert f'id="board-head-{f.sequence.pk}"' in on_board and "#live-feed" not in on_board
    assert 'id="running-sequences"' not in on_board
    assert await other_board.receive_nothing(timeout=0.3)  # a page showing another Sequence gets nothing
    for socket in (home, board_page, other_board):
        await socket.disconnect()


async def test_a_catch_up_sends_only_the_regions_the_page_shows() -> None:
    """The replay goes through the same rendering as live messages: a home page missing a draw gets its
    entry, not the board."""
    f = await sync_to_async(fight)(npcs=1)
    head = await sync_to_async(lambda: Event.objects.filter(campaign=f.campaign).count())()
    await sync_to_async(draw)(f.pc, f.player, Split(attack={f.npcs[0].key: 3}, defence={f.pc.key: 2}))
    cookie = await sync_to_async(session_cookie)(f.player)
    headers = [(b"origin", b"http://127.0.0.1"), (b"host", b"127.0.0.1"), (b"cookie", cookie.encode())]
    path = f"/ws/campaigns/{f.campaign.pk}/?watch=home:{f.campaign.pk}&watch=feed:{f.campaign.pk}&after={head}"
    socket = LiveCommunicator(application, path, headers=headers)
    assert (await socket.connect())[0]
    missed = await socket.receive_from(timeout=5)
    assert "#live-feed" in missed and "sequence-board-" not in missed
    await socket.disconnect()


async def test_members_of_one_audience_get_their_own_csrf_token_in_the_shared_html() -> None:
    """Forms in a shared fragment post with each page's own CSRF token (the owner's sheet open on a phone and a
    laptop: one audience, two pages)."""
    campaign, narrator, (owner,) = await sync_to_async(table)(players=1)
    jim = await sync_to_async(pc)(campaign, owner)
    subject = sheet_subject(jim.pk)
    first = await watching(owner, campaign.pk, subject, csrf="a" * 32)
    second = await watching(owner, campaign.pk, subject, csrf="b" * 32)
    await sync_to_async(revers_inflict)(character=jim, actor=narrator, domain="physical", severity=1, source="Balle")
    one, two = await first.receive_from(timeout=5), await second.receive_from(timeout=5)
    tokens = [set(re.findall(r'name="csrfmiddlewaretoken" value="([^"]*)"', html)) for html in (one, two)]
    assert all(len(found) == 1 and "" not in found for found in tokens) and tokens[0] != tokens[1]
    assert CSRF_MARKER not in one + two
    (rendering,) = [r for r in _renderings.values() if r.event.kind.startswith("character.")]
    assert rendering.renders == 1  # one sheet for both pages; the log entry no page here shows is not rendered
    await first.disconnect()
    await second.disconnect()


async def test_may_see_is_visible_to_for_one_event() -> None:
    """The per-socket check of the shared rendering reads exactly as the log's query, for every reader."""

    def check() -> None:
        campaign = campaign_with(players=2)
        other = campaign_with(players=1)
        narrator = campaign.memberships.get(role=Role.NARRATOR)
        alice, bob = campaign.memberships.filter(role=Role.PLAYER).order_by("pk")
        services.note_write(membership=narrator, text="public")
        services.note_write(membership=narrator, text="narrators", private=True)
        services.note_write(membership=alice, text="to me", private=True)
        readers = [narrator, alice, bob, *other.memberships.all()]
        for event in Event.objects.filter(campaign__in=[campaign, other]):
            for reader in readers:
                expected = Event.objects.visible_to(reader).filter(pk=event.pk).exists()
                assert may_see(event, membership(reader.campaign, reader.user)) == expected, (event.payload, reader)

    await sync_to_async(check)()


async def test_the_socket_url_names_every_region_of_the_page() -> None:
    template = Template("{% load live_socket %}{{ watch|watch_query }}")
    assert template.render(Context({"watch": ["home:3", "feed:3"]})) == "?watch=home%3A3&amp;watch=feed%3A3"
    assert template.render(Context({"watch": "character:12"})) == "?watch=character%3A12"
    assert template.render(Context({"watch": None})) == ""


async def test_a_copy_is_never_rendered_by_a_viewer_who_left_its_audience_since_the_facts_were_read() -> None:
    """Bob joins the Sequence after the draw's audiences were first read: when the players' copy of the draw
    is rendered later (a catch-up), Bob's controls must not end up in the copy Carol gets."""

    def check() -> None:
        f, (bob, carol) = fight_with_onlookers(2)
        draw(f.pc, f.player, Split(attack={f.npcs[0].key: 3}, defence={f.pc.key: 2}))
        drew = Event.objects.filter(campaign=f.campaign, kind="sequence.drew").get()
        rendering = rendering_of(drew.pk)
        assert rendering is not None
        subject = frozenset({sequence_subject(f.sequence.pk)})
        as_narrator = membership(f.campaign, f.narrator)
        rendering.html_for(as_narrator, watching=subject, language="fr", csrf_token="")  # reads the facts
        bobs = pc(f.campaign, bob, ranks={"combat": 3}, name="Bob")
        joined = participant_add(
            sequence=f.sequence, actor=f.narrator, character=bobs, side="PJ", goal="aider", trait_code="combat"
        )
        bobs_copy = rendering.html_for(membership(f.campaign, bob), watching=subject, language="fr", csrf_token="")
        carols_copy = rendering.html_for(membership(f.campaign, carol), watching=subject, language="fr", csrf_token="")
        # Bob's Atout buttons: his controls (the slots of the Atouts after the draw are not sent while drawing).
        assert f'id="atouts-{joined.pk}"' in bobs_copy
        assert f'id="atouts-{joined.pk}"' not in carols_copy

    await sync_to_async(check)()


@pytest.mark.parametrize("committed_here", [True, False])
async def test_the_copies_of_a_processs_pages_are_rendered_in_one_pass_and_each_socket_gets_its_audiences(
    committed_here: bool,
) -> None:
    """Six pages, three audiences. When the draw is committed in the sockets' process, the request renders every
    copy right after the commit (campaigns.live_announce) and no socket takes a turn on the database thread; when
    it is committed in another process, the first socket renders them all in one turn. Either way each socket gets
    its own audience's copy: the drawer's controls reach no one else, nor the narrator's copy."""
    from unittest import mock

    f, onlookers = await sync_to_async(fight_with_onlookers)(4)
    subject = sequence_subject(f.sequence.pk)
    narrator = await watching(f.narrator, f.campaign.pk, subject)
    drawer = await watching(f.player, f.campaign.pk, subject)
    others = [await watching(user, f.campaign.pk, subject) for user in onlookers]
    elsewhere = mock.patch("campaigns.live_announce.open_pages", return_value=[])  # the committing process has none
    # The consumer looks the rendering up once per turn on the database thread (CampaignConsumer._render).
    with mock.patch("campaigns.consumers.rendering_of", wraps=rendering_of) as thread_turns:
        if committed_here:
            await sync_to_async(draw)(f.pc, f.player, Split(attack={f.npcs[0].key: 3}, defence={f.pc.key: 2}))
        else:
            with elsewhere:
                await sync_to_async(draw)(f.pc, f.player, Split(attack={f.npcs[0].key: 3}, defence={f.pc.key: 2}))
        seen_by_narrator = await narrator.receive_from(timeout=5)
        seen_by_drawer = await drawer.receive_from(timeout=5)
        seen_by_others = [await socket.receive_from(timeout=5) for socket in others]
    assert thread_turns.call_count == (0 if committed_here else 1)
    assert len(set(seen_by_others)) == 1
    assert f'id="panel-{f.pc.pk}"' in seen_by_drawer and f'id="panel-{f.pc.pk}"' not in seen_by_others[0]
    assert seen_by_narrator not in (seen_by_drawer, seen_by_others[0])
    assert f'id="panel-{f.npcs[0].pk}"' not in seen_by_others[0] + seen_by_drawer
    for socket in [narrator, drawer, *others]:
        await socket.disconnect()


async def test_a_copy_taken_on_the_event_loop_reads_no_database_and_needs_every_piece_rendered() -> None:
    f, (onlooker,) = await sync_to_async(fight_with_onlookers)(1)
    await sync_to_async(draw)(f.pc, f.player, Split(attack={f.npcs[0].key: 3}, defence={f.pc.key: 2}))
    event = await sync_to_async(lambda: Event.objects.filter(kind="sequence.drew").latest("pk"))()
    rendering = await sync_to_async(rendering_of)(event.pk)
    assert rendering is not None
    watch = frozenset({sequence_subject(f.sequence.pk)})
    drawer = await sync_to_async(membership)(f.campaign, f.player)
    other = await sync_to_async(membership)(f.campaign, onlooker)
    # Nothing loaded yet: not even the members (reading them would need the database).
    assert rendering.ready_html_for(other.pk, watching=watch, language="fr", csrf_token="t") is None
    drawers = await sync_to_async(rendering.html_for)(
        await sync_to_async(rendering.membership)(drawer.pk), watching=watch, language="fr", csrf_token="t"
    )
    # The drawer's copy is rendered; the onlooker's audience is not: no copy, never the drawer's.
    assert rendering.ready_html_for(other.pk, watching=watch, language="fr", csrf_token="t") is None
    assert rendering.ready_html_for(drawer.pk, watching=watch, language="fr", csrf_token="t") == drawers
    onlookers = await sync_to_async(rendering.html_for)(
        await sync_to_async(rendering.membership)(other.pk), watching=watch, language="fr", csrf_token="u"
    )
    assert rendering.ready_html_for(other.pk, watching=watch, language="fr", csrf_token="u") == onlookers
    assert f'id="panel-{f.pc.pk}"' not in onlookers


async def test_the_narrators_console_gets_only_the_draw_panels_it_has_opened() -> None:
    """The console's rows open their panels on demand (``console:<sequence>``): a closed row's panel is never
    rendered for it; a row opened (``{"panels": [...]}``) follows from the next event. A player naming the
    narrator's NPC panel still gets none of it: panels go to those who control them."""
    import json

    from campaigns.live import console_subject

    f = await sync_to_async(fight)(npcs=2)
    subject, console = sequence_subject(f.sequence.pk), console_subject(f.sequence.pk)
    narrator = await watching(f.narrator, f.campaign.pk, subject, console)
    player = await watching(f.player, f.campaign.pk, subject)
    thug, other_thug = f.npcs
    await sync_to_async(draw)(f.pc, f.player, Split(attack={thug.key: 3}, defence={f.pc.key: 2}))
    closed = await narrator.receive_from(timeout=5)
    assert f'id="participant-{f.pc.pk}"' in closed
    for p in (f.pc, thug, other_thug):
        assert (
            f'id="panel-{p.pk}"' not in closed and f"atouts-{p.pk}" not in closed and f"after-draw-{p.pk}" not in closed
        )
    await player.receive_from(timeout=5)
    await narrator.send_to(text_data=json.dumps({"panels": [str(thug.pk), "x", -3]}))
    await player.send_to(text_data=json.dumps({"panels": [str(thug.pk)]}))
    await sync_to_async(draw)(other_thug, f.narrator, Split(attack={f.pc.key: 2}, defence={other_thug.key: 1}), seed=5)
    opened = await narrator.receive_from(timeout=5)
    assert f"atouts-{thug.pk}" in opened  # its row is open: its Atout buttons carry the new version
    assert f'id="panel-{other_thug.pk}"' not in opened and f"after-draw-{other_thug.pk}" not in opened
    seen_by_player = await player.receive_from(timeout=5)
    assert f"atouts-{thug.pk}" not in seen_by_player and f'id="panel-{thug.pk}"' not in seen_by_player
    for socket in (narrator, player):
        await socket.disconnect()
