"""The board tells the last lines of a Sequence's story and links to the whole story, on a page of its own
(conflicts/story.py, ``ON_BOARD``): a long fight's draws no longer read, key and send a story that grows with each."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse
from django.utils.html import escape

from campaigns import chronicle
from campaigns.models import Event
from conflicts import story
from conflicts.regions import FOOT, BoardOf
from core.kept_regions import region_html
from tests.campaigns.factories import membership
from tests.conflicts.factories import fight

pytestmark = pytest.mark.django_db


def _told(f, user) -> list[str]:  # type: ignore[no-untyped-def]
    return list(story.sequence_story(f.sequence, membership(f.campaign, user), whole=True))


def _english(user) -> Client:  # type: ignore[no-untyped-def]
    client = Client()
    client.force_login(user)
    client.cookies["django_language"] = "en"  # the lines as the tests tell them
    return client


def _story_url(f) -> str:  # type: ignore[no-untyped-def]
    return reverse("conflicts:story", args=[f.campaign.pk, f.sequence.pk])


def test_a_long_story_shows_its_last_lines_on_the_board_and_all_of_them_on_its_page() -> None:
    f = fight(npcs=story.ON_BOARD + 2)  # the Sequence begins, then 23 join: 24 lines
    client = _english(f.player)
    told = _told(f, f.player)
    assert len(told) == story.ON_BOARD + 4
    board = client.get(f.sequence.get_absolute_url()).content.decode()
    shown = [line for line in told if f"<li>{escape(line)}</li>" in board]
    assert shown == told[-story.ON_BOARD :]  # the last ones, the beginning left to the story's page
    assert _story_url(f) in board
    page = client.get(_story_url(f))
    assert page.status_code == 200
    html = page.content.decode()
    positions = [html.index(f"<li>{escape(line)}</li>") for line in told]
    assert positions == sorted(positions)  # every line, in order
    assert f.sequence.get_absolute_url() in html  # and the way back


def test_a_short_story_is_all_on_the_board_with_no_link() -> None:
    f = fight(npcs=2)
    client = _english(f.narrator)
    board = client.get(f.sequence.get_absolute_url()).content.decode()
    for line in _told(f, f.narrator):
        assert f"<li>{escape(line)}</li>" in board
    assert _story_url(f) not in board


def test_the_foot_a_draw_sends_tells_no_more_than_the_boards_lines() -> None:
    """What every screen receives at each draw (the foot, rendered anew) stays the same size however long the
    story grows."""
    f = fight(npcs=story.ON_BOARD + 10)
    narrator = membership(f.campaign, f.narrator)
    foot = str(region_html(FOOT, BoardOf(f.sequence), narrator, oob=True))
    assert foot.count("<li>") == story.ON_BOARD
    assert Event.objects.filter(kind__startswith="sequence.").count() > story.ON_BOARD + 10


def test_the_story_page_is_the_members_own(client) -> None:  # type: ignore[no-untyped-def]
    f = fight(npcs=2)
    other = fight(npcs=1)
    client.force_login(f.player)
    assert client.get(_story_url(f)).status_code == 200
    # Another campaign's Sequence, named under this campaign or under its own: nothing of it.
    assert client.get(reverse("conflicts:story", args=[f.campaign.pk, other.sequence.pk])).status_code == 404
    assert client.get(_story_url(other)).status_code == 404
    assert client.post(_story_url(f)).status_code == 405


@pytest.mark.parametrize("thugs", [2, story.ON_BOARD + 8])
def test_the_story_page_reads_the_same_number_of_queries_however_long(
    thugs: int, django_assert_max_num_queries
) -> None:  # type: ignore[no-untyped-def]
    f = fight(npcs=thugs)
    client = Client()
    client.force_login(f.player)
    client.get(_story_url(f))  # the lines kept
    with django_assert_max_num_queries(8):
        assert client.get(_story_url(f)).status_code == 200


def test_the_story_page_in_english_and_french() -> None:
    f = fight(npcs=1)
    client = Client()
    client.force_login(f.player)
    french = client.get(_story_url(f)).content.decode()
    assert "Récit : Bagarre sur le quai" in french and "Retour à la Séquence" in french
    client.cookies["django_language"] = "en"
    english = client.get(_story_url(f)).content.decode()
    assert "Story: Bagarre sur le quai" in english and "Back to the sequence" in english


def test_a_line_for_one_player_stays_theirs_on_the_board_and_on_the_storys_page() -> None:
    """A line addressed to one player (``Visibility.PLAYER``) is theirs alone wherever the story is told, and the lines
    each reads apart follow the lines told: the whole story's for its page, the board's for the board."""
    from campaigns.models import Membership, Role, Visibility
    from campaigns.services import event_append
    from conflicts.services.sequences import participant_add
    from tests.campaigns.factories import UserFactory
    from tests.conflicts.factories import npc

    f = fight(npcs=1)
    other = UserFactory()
    Membership.objects.create(campaign=f.campaign, user=other, role=Role.PLAYER)
    joined = Event.objects.filter(kind="sequence.joined").order_by("pk").first()
    assert joined is not None
    private = event_append(
        campaign=f.campaign, kind="sequence.joined", payload={**joined.payload, "name": "Ombre"},
        visibility=Visibility.PLAYER, recipient=f.player,
    )  # fmt: skip
    for i in range(story.ON_BOARD):  # the private line falls out of the board's last lines
        thug = npc(f.campaign, f.narrator, f"Renfort {i}")
        participant_add(sequence=f.sequence, actor=f.narrator, character=thug, side="Truands", trait_code="combat")
    theirs = story.sequence_story(f.sequence, membership(f.campaign, f.player), whole=True)
    assert private.pk in theirs.read_apart()
    assert private.pk not in story.sequence_story(f.sequence, membership(f.campaign, f.player)).read_apart()
    line = escape(chronicle.describe(private))
    assert line in _english(f.player).get(_story_url(f)).content.decode()
    assert line not in _english(other).get(_story_url(f)).content.decode()
    assert line in _english(f.narrator).get(_story_url(f)).content.decode()
