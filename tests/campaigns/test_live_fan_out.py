"""Issue 26: a draw reaches twenty open screens for a bounded cost. Each open page receives exactly the regions whose
declarations the draw's subjects touch: a player whose characters are not in the Sequence receives its log entry
and nothing of the "now" block or the « Sequences under way » card; the narrator's dashboard receives the drawer's
panel only when the draw changed the character; and the queries of the whole fan-out do not grow with the number of
pages open."""

from __future__ import annotations

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from campaigns.live import home_subject
from campaigns.live_pages import OpenPage
from campaigns.live_render import EventRendering, note_position
from campaigns.models import Event
from conflicts.models import Participant
from conflicts.rules.budget import Split
from conflicts.services.sequences import participant_add, sequence_create
from core.regions import version_pass
from tests.campaigns.factories import membership
from tests.characters.factories import pc
from tests.conflicts.factories import draw, fight, npc

pytestmark = pytest.mark.django_db


def _players(f, count: int, sequence_of):  # type: ignore[no-untyped-def]
    """``count`` more players at the fight's table, each with a character put in the Sequence ``sequence_of(i)``
    names, on the heroes' side."""
    from tests.campaigns.factories import UserFactory

    others = []
    for i in range(count):
        user = UserFactory()
        f.campaign.memberships.create(user=user, role="player")
        character = pc(f.campaign, user, name=f"Joueur {i}", ranks={"combat": 3})
        participant_add(sequence=sequence_of(i), actor=f.narrator, character=character, side="PJ", trait_code="combat")
        others.append(user)
    return others


def _table_with_players(count: int):  # type: ignore[no-untyped-def]
    """The fight of ``tests.conflicts.factories`` and ``count`` more players, each with a character in a duel of
    their own against a thug of the narrator's."""
    f = fight(npcs=1)

    def duel(i: int):  # type: ignore[no-untyped-def]
        seq = sequence_create(scene=f.scene, actor=f.narrator, data={"title": f"Duel {i}"})
        thug = npc(f.campaign, f.narrator, f"Brute {i}")
        participant_add(sequence=seq, actor=f.narrator, character=thug, side="Truands", trait_code="combat")
        return seq

    return f, _players(f, count, duel)


def _pages(f, users):  # type: ignore[no-untyped-def]
    home = frozenset({home_subject(f.campaign.pk), f"feed:{f.campaign.pk}"})
    return [OpenPage(membership(f.campaign, user).pk, home, "fr") for user in users]


def _fan_out(f, users):  # type: ignore[no-untyped-def]
    """The hero's first draw (the thug still has to draw), rendered for every page: each member's copy."""
    draw(f.pc, f.player, Split(attack={f.npcs[0].key: 5}), seed=3)
    event = Event.objects.filter(kind="sequence.drew").for_display().latest("pk")
    assert "outcome" not in event.payload
    rendering = EventRendering(event)
    pages = _pages(f, users)
    note_position(f.campaign.pk, event.position)  # as the process's open sockets have heard of it
    with CaptureQueriesContext(connection) as queries:
        rendering.render_for(pages)
    with version_pass():
        copies = {
            page.membership_id: rendering.ready_html_for(
                page.membership_id, watching=page.watching, language="fr", csrf_token="t"
            )
            for page in pages
        }
    return copies, len(queries)


def test_a_draw_sends_each_page_only_what_it_changed_there() -> None:
    f, others = _table_with_players(3)
    copies, _queries = _fan_out(f, [f.narrator, f.player, *others])
    bystander = copies[membership(f.campaign, others[0]).pk]
    assert bystander is not None and 'hx-swap-oob="afterbegin:#live-feed"' in bystander  # the log's new entry
    # Nothing of the "now" block, the card or the grid: the draw changed none of it for this player.
    assert 'id="now-' not in str(bystander) and 'id="running-sequences"' not in str(bystander)
    narrator = str(copies[membership(f.campaign, f.narrator).pk])
    # No character's panel, nor the grid: a draw changes the drawer's cards, not their character.
    assert f'id="character-panel-{f.hero.pk}"' not in narrator and 'id="character-panels"' not in narrator
    assert 'id="now-draw"' in narrator  # the narrators' « still to draw » lost the hero
    drawer = str(copies[membership(f.campaign, f.player).pk])
    assert 'id="now-draw"' in drawer and 'id="running-sequences"' in drawer  # the hero's own turn is gone


def test_the_fan_out_costs_the_same_queries_for_three_or_nine_bystanders() -> None:
    f, few = _table_with_players(3)
    _copies, with_few = _fan_out(f, [f.narrator, f.player, *few])
    g, many = _table_with_players(9)
    _copies, with_many = _fan_out(g, [g.narrator, g.player, *many])
    assert with_many == with_few
    assert with_many <= 25


def test_what_an_event_touched_is_read_from_the_characters_loaded_with_it(django_assert_num_queries) -> None:  # type: ignore[no-untyped-def]
    """The live layer loads an event with its characters (``for_display``): the subjects it touched are named from
    them, with no query of their own; an event loaded without them reads their ids."""
    from campaigns.live_regions import touched

    f = fight(npcs=1)
    draw(f.pc, f.player, Split(attack={f.npcs[0].key: 3}, defence={f.pc.key: 2}))
    drew = Event.objects.filter(campaign=f.campaign, kind="sequence.drew").for_display().get()
    with django_assert_num_queries(0):
        assert f"turn:{f.hero.pk}" in touched(drew)
    bare = Event.objects.get(pk=drew.pk)
    with django_assert_num_queries(1):
        assert touched(bare) == touched(drew)


def _players_in_the_fight(count: int):  # type: ignore[no-untyped-def]
    """The fight, and ``count`` more players whose characters are in it, on Jim's side."""
    f = fight(npcs=1)
    return f, _players(f, count, lambda _i: f.sequence)


def _a_draw_on_sequence_pages(count: int, built: list[int]):  # type: ignore[no-untyped-def]
    """The fight and ``count`` more players in it, every player on the Sequence page: Jim draws and the pass renders
    every page's copy. The fight, the other players, how many boards the pass built (``built`` is counted into by the
    test) and the last player's copy."""
    from campaigns.live import sequence_subject

    f, others = _players_in_the_fight(count)
    draw(f.pc, f.player, Split(attack={f.npcs[0].key: 5}), seed=3)
    event = Event.objects.filter(campaign=f.campaign, kind="sequence.drew").for_display().latest("pk")
    watching = frozenset({sequence_subject(f.sequence.pk)})
    pages = [OpenPage(membership(f.campaign, user).pk, watching, "fr") for user in [f.player, *others]]
    note_position(f.campaign.pk, event.position)
    rendering = EventRendering(event)
    built.clear()
    rendering.render_for(pages)
    boards = len(built)
    with version_pass():
        copy = rendering.ready_html_for(pages[-1].membership_id, watching=watching, language="fr", csrf_token="t")
    assert copy is not None
    return f, others, boards, copy


def test_a_player_whose_own_rows_a_draw_left_alone_reads_the_others_rows_from_the_pass_s_one_board(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Which rows a draw changed is the same for every reader: a player who runs a row the draw did not change gets the
    drawer's row as every spectator reads it, and their own board (story, budgets) is not built for that."""
    from conflicts.regions import BoardOf

    built: list[int] = []
    real = BoardOf.built

    def counted(self: BoardOf, membership):  # type: ignore[no-untyped-def]
        built.append(membership.pk)
        return real(self, membership)

    monkeypatch.setattr(BoardOf, "built", counted)
    boards = {}
    for count in (2, 6):
        f, _others, boards[count], copy = _a_draw_on_sequence_pages(count, built)
        assert f'id="participant-{f.pc.pk}"' in copy  # the drawer's row, as spectators read it
    assert boards[6] == boards[2] <= 3


def test_a_live_pass_keeps_its_regions_under_their_versions_alone(monkeypatch: pytest.MonkeyPatch) -> None:
    """Twenty pages of one live event would each keep every region under their member and the new stream head too (a
    digest, a miss and a write per region and member) for a page load that the next event makes stale: the pass keeps
    them under their subjects' versions alone, which every member alike finds. A page's GET still keeps its own."""
    from django.test import Client

    from core import fragment_store

    f, others = _table_with_players(3)
    written: list[str] = []
    real = fragment_store.FragmentStore.set

    def noted(self, key, *args, **kwargs):  # type: ignore[no-untyped-def]
        written.append(key)
        return real(self, key, *args, **kwargs)

    monkeypatch.setattr(fragment_store.FragmentStore, "set", noted)
    copies, _queries = _fan_out(f, [f.narrator, f.player, *others])
    assert all(copies.values()) and written  # the pass rendered and kept regions
    assert not [key for key in written if "region-at:" in key], written
    written.clear()
    client = Client()
    client.force_login(f.player)
    assert client.get(f.campaign.get_absolute_url()).status_code == 200
    assert [key for key in written if "region-at:" in key]  # the page's own, under its member and head


def test_a_teammates_draw_refreshes_the_others_atouts_without_building_their_boards(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A draw sends every other player on the Sequence page their Atout buttons with the Sequence's new version
    (``conflicts.live``): that needs who is in it, not each player's board (budgets, odds, states), which each used to
    build for every draw. The number of boards a draw's pass builds does not grow with the players."""
    from conflicts import selectors

    built: list[int] = []
    real = selectors.sequence_board

    def counted(*args, **kwargs):  # type: ignore[no-untyped-def]
        built.append(1)
        return real(*args, **kwargs)

    monkeypatch.setattr(selectors, "sequence_board", counted)
    boards = {}
    for count in (2, 6):
        f, others, boards[count], copy = _a_draw_on_sequence_pages(count, built)
        mine = Participant.objects.get(sequence=f.sequence, character__owner=others[-1])
        assert f'<div id="atouts-{mine.pk}" hx-swap-oob="innerHTML">' in copy
        f.sequence.refresh_from_db()
        assert f'value="{f.sequence.version}" id="split-version-{mine.pk}"' in copy  # the draw's new version
    assert boards[6] == boards[2]


def test_a_draws_pass_reads_its_sequences_participants_once(monkeypatch: pytest.MonkeyPatch) -> None:
    """The boards' changed rows, the snapshot and the players' panels all read who is in the Sequence: one read for the
    pass (``conflicts.selectors.shared_participants``), the panels' included (they read it apart before)."""
    from conflicts import selectors

    reads: list[int] = []
    real = selectors.participants_of

    def counted(sequence):  # type: ignore[no-untyped-def]
        reads.append(sequence.pk)
        return real(sequence)

    monkeypatch.setattr(selectors, "participants_of", counted)
    f, _others, _boards, copy = _a_draw_on_sequence_pages(2, [])
    assert 'hx-swap-oob="innerHTML"' in copy  # the panels' Atout buttons are in the copy
    assert reads == [f.sequence.pk]


def test_a_page_watching_two_sequences_gets_the_one_decks_element_it_holds_once() -> None:
    """The decks are one element on a page (``id="decks"``), a region of each Sequence it watches: a page watching two
    gets it once, the last one, which is the one its swaps left on the page, and the decks are rendered for it once;
    a catch-up likewise."""
    from conflicts.decks_region import DECKS_REGION

    f = fight(npcs=1)
    other = sequence_create(scene=f.scene, actor=f.narrator, data={"title": "Ailleurs"})
    draw(f.pc, f.player, Split(attack={f.npcs[0].key: 5}), seed=3)
    event = Event.objects.filter(kind="sequence.drew").for_display().latest("pk")
    member = membership(f.campaign, f.player)
    one = frozenset({f"sequence:{f.sequence.pk}"})
    both = one | {f"sequence:{other.pk}"}
    rendered: list[int] = []
    real = DECKS_REGION.context

    def counted(thing, membership_, request):  # type: ignore[no-untyped-def]
        rendered.append(thing.sequence.pk)
        return real(thing, membership_, request)

    object.__setattr__(DECKS_REGION, "context", counted)
    try:
        with version_pass():
            copy = EventRendering(event).html_for(member, watching=both, language="fr", csrf_token="t")
    finally:
        object.__setattr__(DECKS_REGION, "context", real)
    assert copy.count('id="decks"') == 1
    last = max(f.sequence.pk, other.pk)  # the page's watched Sequences, in order: the last one's swap is what it shows
    assert f"/sequences/{last}/" in copy.split('id="decks"')[1].split("</div>")[0]
    assert rendered == [last]
    alone = EventRendering(event).html_for(member, watching=one, language="fr", csrf_token="t")
    assert alone.count('id="decks"') == 1 and f'id="board-head-{f.sequence.pk}"' in alone
    # A catch-up sends the page the same: one decks element, the last watched Sequence's, with both boards.
    from campaigns.live_catch_up import regions_now

    caught = regions_now(member, watching=both, csrf_token="t", language="fr", after=0, head=event.position)
    assert caught is not None and caught.count('id="decks"') == 1
    assert f"/sequences/{last}/" in caught.split('id="decks"')[1].split("</div>")[0]
    assert f'id="sequence-board-{f.sequence.pk}"' in caught and f'id="sequence-board-{other.pk}"' in caught
