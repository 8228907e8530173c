"""Who reads a Sequence's board alike (``conflicts.regions``, the board's ``alike``): the narrators together, and the
players by the lines of its story only they may read. The players' board is kept as its spectators read it, and
each player's own rows (their budgets, their splits) are put in their copy afterwards: a live draw renders it once
for all the table's players, not once each. A player given a private line keeps a board of their own, and it never
reaches another player."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from django.core.cache import caches
from django.test import Client
from django.test.signals import template_rendered
from django.urls import reverse
from django.utils.html import escape

from campaigns.live import console_subject, sequence_subject
from campaigns.live_pages import OpenPage
from campaigns.live_render import forget_renderings, rendering_of
from campaigns.models import Event, Membership, Role
from characters.services.allies import ally_hand
from conflicts.regions import BOARD_TEMPLATE, FOOT
from conflicts.services.sequences import participant_add, sequence_create
from tests.campaigns.factories import UserFactory
from tests.conflicts.factories import Fight, draw, fight, npc
from tests.conflicts.test_board_rows import _all_in_defence
from tests.conflicts.test_one_event_per_settle import _part_text, _settle

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _kept(settings: Any) -> Iterator[None]:
    settings.FRAGMENT_CACHE = True
    caches["fragments"].clear()
    forget_renderings()
    yield
    forget_renderings()


def _rendered(*names: str) -> tuple[list[str], Any]:
    seen: list[str] = []

    def note(sender: Any, template: Any, **kwargs: Any) -> None:
        if template.name in names:
            seen.append(template.name)

    template_rendered.connect(note)
    return seen, note


def _page(f: Fight, user: Any) -> OpenPage:
    member = Membership.objects.get(campaign=f.campaign, user=user)
    watching = {sequence_subject(f.sequence.pk)}
    if member.is_narrator:
        watching.add(console_subject(f.sequence.pk))
    return OpenPage(member.pk, frozenset(watching), "fr")


def test_a_live_draw_sends_the_parts_it_changed_rendered_once_for_the_players() -> None:
    """Five pages on the Sequence: the narrator's, the drawer's and three players' who run nobody in it. A draw that
    leaves others to draw changes the board's head, the drawer's row and the foot (its story), not who takes part: no
    page gets the whole board, with every participant's cards (``conflicts.regions``, ``Items``). The foot is rendered
    twice (not five times): the narrator's, and the players' one; the three spectators get the same bytes, and the
    drawer's copy has their own row, with their budget, which the spectators' has not."""
    f = fight(npcs=1)
    spectators = [UserFactory() for _ in range(3)]
    for user in spectators:
        Membership.objects.create(campaign=f.campaign, user=user, role=Role.PLAYER)
    draw(f.pc, f.player, _all_in_defence(f, f.pc))
    event = Event.objects.filter(campaign=f.campaign).order_by("-pk").first()
    assert event is not None and event.kind == "sequence.drew"
    seen, note = _rendered(BOARD_TEMPLATE, FOOT.template)
    try:
        rendering = rendering_of(event.pk)
        assert rendering is not None
        rendering.render_for([_page(f, user) for user in (f.narrator, f.player, *spectators)])
    finally:
        template_rendered.disconnect(note)
    assert seen.count(BOARD_TEMPLATE) == 0  # no whole board
    assert seen.count(FOOT.template) == 2  # the narrator's, the players' one

    def message(user: Any) -> str:
        page = _page(f, user)
        html = rendering.ready_html_for(page.membership_id, watching=page.watching, language="fr", csrf_token="t" * 32)
        assert html is not None
        return html

    def copy(user: Any) -> str:
        return message(user).split(f'id="participant-{f.pc.pk}"')[1].split('id="participant-')[0]  # Jim's row

    for user in (f.narrator, f.player, *spectators):
        sent = message(user)
        assert f'id="sequence-board-{f.sequence.pk}"' not in sent
        assert f'id="board-head-{f.sequence.pk}"' in sent and f'id="board-foot-{f.sequence.pk}"' in sent
        assert f'id="participant-{f.pc.pk}" hx-swap-oob="outerHTML"' in sent
        assert all(f'id="participant-{npc.pk}"' not in sent for npc in f.npcs)  # their rows did not change
    assert len({copy(user) for user in spectators}) == 1
    assert "cartes : " in copy(f.player) and "cartes : " not in copy(spectators[0])


def test_someone_joining_sends_the_whole_board() -> None:
    """Who takes part changed (``draw:<sequence>``): the board is sent whole, its sides and rows as they now stand."""
    f = fight(npcs=1)
    extra = npc(f.campaign, f.narrator, "Renfort")
    participant_add(sequence=f.sequence, actor=f.narrator, character=extra, side="Truands", trait_code="combat")
    sent = _pushed(f, "sequence.joined", f.player)
    assert f'id="sequence-board-{f.sequence.pk}" hx-swap-oob="outerHTML"' in sent and "Renfort" in sent


def _pushed(f: Fight, kind: str, user: Any) -> str:
    """The live message of the campaign's last Event (of ``kind``) for ``user``'s page on the Sequence."""
    event = Event.objects.filter(campaign=f.campaign).order_by("-pk").first()
    assert event is not None and event.kind == kind
    rendering = rendering_of(event.pk)
    assert rendering is not None
    page = _page(f, user)
    member = Membership.objects.get(pk=page.membership_id)
    return rendering.html_for(member, watching=page.watching, language="fr", csrf_token="t" * 32)


def _sequence_page(f: Fight, user: Any) -> str:
    client = Client()
    client.force_login(user)
    client.cookies["django_language"] = "en"
    response = client.get(f.sequence.get_absolute_url())
    assert response.status_code == 200
    return response.content.decode()


def test_a_player_given_a_private_line_of_the_story_reads_a_board_of_their_own() -> None:
    """An NPC ally's Revers, settled, are its runner's part of the settle (``campaigns.redaction``). Taken back by the
    narrator, the ally is no longer theirs, but the story still tells them its wounds: their board is rendered for
    them (first here, and kept), and the player beside them, who runs nobody either, never gets it."""
    f = fight(npcs=1)
    thug = f.npcs[0]
    runner, other = UserFactory(), UserFactory()
    for user in (runner, other):
        Membership.objects.create(campaign=f.campaign, user=user, role=Role.PLAYER)
    ally_hand(character=thug.character, actor=f.narrator, player=runner)
    event = _settle(f, {f.pc: 1, thug: 2}, wounds=False)
    secret = escape(_part_text(event, thug.character_id))
    ally_hand(character=thug.character, actor=f.narrator, player=None)  # taken back: the runner runs nobody now
    f.reload()
    assert secret in _sequence_page(f, runner)
    assert secret not in _sequence_page(f, other)


def test_two_sequences_pages_at_one_stream_head_show_each_its_own_board() -> None:
    """Two Sequences' boards read alike for one member (the same campaign, the same readers, the same stream head):
    they are still two things. A narrator opening one Sequence's page, then another's with no Event between, was served
    the first one's board (the key did not say which Sequence it showed); a page watching both got the first board
    twice. The key now holds what the region shows (its element's id)."""
    f = fight(npcs=1)
    other = sequence_create(scene=f.sequence.scene, actor=f.narrator, data={"title": "Autre bagarre"})
    participant_add(sequence=other, actor=f.narrator, character=f.pc.character, side="PJ", trait_code="combat")
    client = Client()
    client.force_login(f.narrator)
    first = client.get(f.sequence.get_absolute_url()).content.decode()
    second = client.get(other.get_absolute_url()).content.decode()
    assert f'id="sequence-board-{f.sequence.pk}"' in first and f'id="sequence-board-{other.pk}"' not in first
    assert f'id="sequence-board-{other.pk}"' in second and f'id="sequence-board-{f.sequence.pk}"' not in second
    assert "Autre bagarre" in second


@pytest.mark.django_db(transaction=True)  # what the request's Event touched is noted when it commits
def test_the_answer_to_ones_own_draw_carries_what_its_push_carries() -> None:
    """« The answer to your own POST carries the same regions at the same stream position »: a draw that leaves others
    to draw answers with the board's head, the drawer's row and the foot, as its push sends them, not the whole board;
    a refused draw (no Event) answers with the whole board as it stands."""
    f = fight(npcs=1)
    t = f.npcs[0]
    client = Client()
    client.force_login(f.player)
    url = reverse("conflicts:split", args=[f.campaign.pk, f.pc.pk])
    too_many = client.post(url, {f"attack_{t.pk}": 6, "action": "draw", "version": f.sequence.version},
                           HTTP_HX_REQUEST="true")  # fmt: skip
    assert too_many.status_code == 400
    assert f'id="sequence-board-{f.sequence.pk}" hx-swap-oob="outerHTML"' in too_many.content.decode()
    drew = client.post(url, {f"attack_{t.pk}": 3, f"defence_{f.pc.pk}": 2, "action": "draw",
                             "version": f.sequence.version}, HTTP_HX_REQUEST="true")  # fmt: skip
    answer = drew.content.decode()
    assert drew.status_code == 200 and f'id="sequence-board-{f.sequence.pk}"' not in answer
    for part in (f"board-head-{f.sequence.pk}", f"participant-{f.pc.pk}", f"board-foot-{f.sequence.pk}"):
        assert f'id="{part}"' in answer
    assert f'id="participant-{t.pk}"' not in answer  # the thug's row did not change
    pushed = _pushed(f, "sequence.drew", f.player)
    for part in (f"board-head-{f.sequence.pk}", f"participant-{f.pc.pk}", f"board-foot-{f.sequence.pk}"):
        assert f'id="{part}"' in pushed
