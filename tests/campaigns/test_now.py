"""Issue 28: a campaign page opens on "now": the player's character and what the table expects of them (draw in
this Sequence, create a character), then the feed; the narrator's dashboard opens on who still has to draw, who is
Shaken, who is in État critique. Each part follows the table live."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from campaigns.live import Viewer, extra_fragments, feed_subject, home_subject
from campaigns.models import Event
from conflicts.rules.budget import Split
from states.services.shaken import savage_shaken_set
from tests.campaigns.factories import PASSWORD, UserFactory, campaign_with, membership
from tests.conflicts.factories import draw, fight

pytestmark = pytest.mark.django_db


def login(user) -> Client:  # type: ignore[no-untyped-def]
    client = Client()
    client.login(username=user.username, password=PASSWORD)
    client.cookies["django_language"] = "en"
    return client


def test_a_players_page_opens_on_their_character_and_their_draw_before_the_feed() -> None:
    f = fight(npcs=1)
    html = login(f.player).get(reverse("campaigns:home", args=[f.campaign.pk])).content.decode()
    now, feed = html.index('id="now"'), html.index('id="live-feed"')
    assert now < feed
    block = html[now : html.index("</section>", now)]
    assert f"Your turn to draw: {f.hero.name}" in block and f.sequence.get_absolute_url() in block
    assert f.hero.get_absolute_url() in block and "data-atouts" in block
    assert f.npcs[0].character.name not in block  # the NPC's draw is the narrator's business
    # The note form is folded under the feed's heading.
    assert '<details class="fold note-fold"><summary>Write a note in the log</summary>' in html


def test_a_new_player_is_offered_to_create_a_character_first() -> None:
    campaign = campaign_with(players=1)
    player = campaign.memberships.filter(role="player").get().user
    html = login(player).get(reverse("campaigns:home", args=[campaign.pk])).content.decode()
    assert html.index(reverse("characters:create", args=[campaign.pk])) < html.index('id="live-feed"')


def test_the_narrators_dashboard_opens_on_who_must_draw_and_who_is_shaken() -> None:
    f = fight(npcs=1)
    savage_shaken_set(character=f.hero, actor=f.narrator, shaken=True, expected_version=None)
    html = login(f.narrator).get(reverse("campaigns:dashboard", args=[f.campaign.pk])).content.decode()
    block = html[html.index('id="now"') : html.index('id="character-panels"')]
    assert "Still to draw" in block and f.hero.name in block and f.npcs[0].character.name in block
    assert "Shaken" in block[block.index('id="now-states"') :]
    assert "Your turn to draw" not in block


def test_the_now_block_follows_the_table_live() -> None:
    f = fight(npcs=1)
    home = frozenset({home_subject(f.campaign.pk), feed_subject(f.campaign.pk)})
    player, narrator = membership(f.campaign, f.player), membership(f.campaign, f.narrator)
    draw(f.pc, f.player, Split(attack={f.npcs[0].key: 5}), seed=3)
    drew = Event.objects.filter(kind="sequence.drew").latest("pk")
    seen = "".join(extra_fragments(drew, Viewer(player, watching=home)))
    assert '<div id="now-draw" class="now-part" hx-swap-oob="true"></div>' in seen  # nothing left to draw
    narrator_sees = "".join(extra_fragments(drew, Viewer(narrator, watching=home)))
    assert 'id="now-draw"' in narrator_sees and f.npcs[0].character.name in narrator_sees
    # A page that does not show the campaign's home gets no "now" part.
    assert "now-draw" not in "".join(extra_fragments(drew, Viewer(player, watching=frozenset({"sequence:1"}))))

    savage_shaken_set(character=f.hero, actor=f.narrator, shaken=True, expected_version=None)
    shaken = Event.objects.filter(kind="savage.shaken_set").latest("pk")
    # Members as the live layer loads them for each event (with the stream's head: campaigns.live_render).
    player, narrator = membership(f.campaign, f.player), membership(f.campaign, f.narrator)
    narrator_sees = "".join(extra_fragments(shaken, Viewer(narrator, watching=home)))
    assert "Shaken" in narrator_sees[narrator_sees.index('id="now-states"') :]
    player_sees = "".join(extra_fragments(shaken, Viewer(player, watching=home)))
    assert 'id="now-mine"' in player_sees and 'data-state="shaken"' in player_sees


def test_another_player_does_not_see_my_character_in_their_block() -> None:
    f = fight(npcs=1)
    other = UserFactory()
    f.campaign.memberships.create(user=other, role="player")
    html = login(other).get(reverse("campaigns:home", args=[f.campaign.pk])).content.decode()
    start = html.index('id="now"')
    block = html[start : html.index("</section>", start)]
    assert f.hero.name not in block and "Your turn to draw" not in block


def test_the_now_block_is_rendered_once_for_those_who_read_it_alike() -> None:
    """A draw that leaves others to draw: the narrators' list of who still has to draw changes, and they read it
    alike; the players waiting on nothing, and the player whose character still waits in it, read nothing new: the
    draw named neither their characters nor a change of the Sequences under way (``draws_subjects``), so no "now"
    part is rendered or sent to them at all."""
    from campaigns.live import NOT_SHOWN
    from campaigns.now import _matching, now_audience

    f = fight(npcs=1)
    waiting_on_nothing = [UserFactory(), UserFactory()]
    for user in waiting_on_nothing:
        f.campaign.memberships.create(user=user, role="player")
    draw(f.npcs[0], f.narrator, Split(defence={f.npcs[0].key: 3}), seed=3)
    drew = Event.objects.filter(kind="sequence.drew").latest("pk")
    assert "outcome" not in drew.payload  # the hero has still to draw
    home = frozenset({home_subject(f.campaign.pk)})

    def key(user):  # type: ignore[no-untyped-def]
        return now_audience(drew, Viewer(membership(f.campaign, user), watching=home))

    narrator = membership(f.campaign, f.narrator)
    assert "draw" in [section.key for section in _matching(drew, narrator)]
    assert dict(key(f.narrator))["draw"] == ("narrator",)
    second_narrator = UserFactory()
    f.campaign.memberships.create(user=second_narrator, role="narrator")
    assert dict(key(second_narrator))["draw"] == ("narrator",)  # one copy for the narrators
    for user in [*waiting_on_nothing, f.player]:
        assert key(user) == NOT_SHOWN
        assert "now-" not in "".join(extra_fragments(drew, Viewer(membership(f.campaign, user), watching=home)))


def test_a_state_change_is_read_alike_by_the_narrators_and_apart_by_each_player() -> None:
    """Shaken: the narrators' list of who is Shaken is one copy; each player reads their own character's part; an
    event no section follows, or a page without the campaign's home, costs no "now" part at all."""
    from campaigns.live import NOT_SHOWN
    from campaigns.now import _matching, now_audience
    from states.now import states_now

    f = fight(npcs=1)
    other = UserFactory()
    f.campaign.memberships.create(user=other, role="player")
    narrator, player = membership(f.campaign, f.narrator), membership(f.campaign, f.player)
    assert states_now(narrator) == ""  # nobody Shaken nor in État critique: no list
    savage_shaken_set(character=f.hero, actor=f.narrator, shaken=True, expected_version=None)
    shaken = Event.objects.filter(kind="savage.shaken_set").latest("pk")
    home = frozenset({home_subject(f.campaign.pk)})

    def key(user):  # type: ignore[no-untyped-def]
        return now_audience(shaken, Viewer(membership(f.campaign, user), watching=home))

    # The narrators' list of who is Shaken; the hero's player's own character (its badges) and what the hero must
    # draw (who cannot act is not waited for); the other player reads nothing new.
    assert [section.key for section in _matching(shaken, narrator)] == ["draw", "states"]
    assert [section.key for section in _matching(shaken, player)] == ["mine", "draw"]
    assert key(f.narrator) == (("draw", ("narrator",)), ("states", ("narrator",)))
    assert key(f.player)[0] == ("mine", ("member", player.pk))
    assert key(other) == NOT_SHOWN
    assert states_now(player) == "" and f.hero.name in states_now(narrator)
    feed_only = Viewer(narrator, watching=frozenset({feed_subject(f.campaign.pk)}))
    assert now_audience(shaken, feed_only) == NOT_SHOWN
    note = Event(campaign=f.campaign, kind="note")  # no section follows the notes
    assert now_audience(note, Viewer(narrator, watching=home)) == NOT_SHOWN
