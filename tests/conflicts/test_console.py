"""The narrator's Sequence console: one row per participant, and « draw for all NPCs » in one tap.

« Cela est d'autant plus vrai pour le Narrateur qui doit faire la différence entre des cartes d'attaque et de
défense pour chaque PNJ dont il a la charge. Dans le feu de l'action, tout ceci peut rapidement devenir
ingérable. » (appendix 5)
"""

from __future__ import annotations

import random

import pytest
from django.test import Client
from django.urls import reverse

from campaigns.models import Event
from conflicts.models import Deck, Participant, Phase
from conflicts.rules.budget import Split
from conflicts.services.drawing import participant_declare_split
from conflicts.services.npc_draws import sequence_draw_npcs
from core.errors import PermissionRefused, ServiceError, StaleState
from tests.conflicts.factories import draw, fight
from tests.page_marks import without_page_marks

pytestmark = pytest.mark.django_db


def decks(campaign) -> list[tuple[list[str], list[str], list[str]]]:  # type: ignore[no-untyped-def]
    return [(d.pile, d.in_play, d.discard) for d in Deck.objects.filter(campaign=campaign).order_by("pk")]


def draw_npcs(f, splits=None, version=None, seed=7):  # type: ignore[no-untyped-def]
    f.sequence.refresh_from_db()
    return sequence_draw_npcs(
        sequence=f.sequence, actor=f.narrator, expected_version=f.sequence.version if version is None else version,
        splits=splits, rng=random.Random(seed),
    )  # fmt: skip


def login(user) -> Client:  # type: ignore[no-untyped-def]
    client = Client()
    client.force_login(user)
    client.cookies["django_language"] = "en"
    return client


def test_one_tap_draws_every_npc_as_single_draws_would_and_resolves_the_draw() -> None:
    f = fight(npcs=3)
    draw(f.pc, f.player, Split(attack={f.npcs[0].key: 3}, defence={f.pc.key: 2}), seed=1)
    before = f.reload().sequence.version
    drawn = draw_npcs(f)
    f.reload()
    assert [p.pk for p in drawn] == [p.pk for p in f.npcs]
    assert all(p.drawn for p in f.npcs) and f.sequence.phase == Phase.RESOLVED
    # One tap, one Event: every NPC's hand in it, and the result, since it put the last cards down.
    added = list(Event.objects.filter(pk__gt=Event.objects.get(kind="sequence.drew").pk).order_by("pk"))
    assert [e.kind for e in added] == ["sequence.npcs_drew"]
    tap = added[0]
    assert [hand["participant"] for hand in tap.payload["hands"]] == [p.pk for p in f.npcs]
    assert [hand["cards"] for hand in tap.payload["hands"]] == [p.hand for p in f.npcs]
    assert tap.payload["outcome"] == f.sequence.outcome
    assert {c.pk for c in tap.characters.all()} == {f.hero.pk, *(p.character_id for p in f.npcs)}
    assert f.sequence.version == before + 1  # one step: a form of before the tap is stale, not half-right
    # Each NPC drew the split its form starts from: its 3 Combat cards (Médiocre) on Jim.
    assert all(sum(map(len, p.hand["attack"].values())) == 3 for p in f.npcs)
    assert all(set(p.hand["attack"]) == {f.pc.key} for p in f.npcs)
    deck = Deck.objects.get(campaign=f.campaign)
    assert len(deck.in_play) == 5 + 9 and len(set(deck.pile + deck.in_play + deck.discard)) == 40


def test_the_splits_the_rows_set_are_the_ones_drawn_and_a_saved_split_is_kept() -> None:
    f = fight(npcs=2)
    t1, t2 = f.npcs
    participant_declare_split(participant=t2, actor=f.narrator, split=Split(defence={t2.key: 3}))
    draw_npcs(f, splits={t1.pk: Split(attack={f.pc.key: 1}, defence={t1.key: 2})})
    f.reload()
    assert {k: len(v) for k, v in t1.hand["attack"].items()} == {f.pc.key: 1} and len(t1.hand["defence"][t1.key]) == 2
    assert t2.hand["attack"] == {} and len(t2.hand["defence"][t2.key]) == 3
    assert not f.pc.drawn and f.sequence.phase == Phase.DRAWING  # Jim has still to draw


def test_a_refused_npc_is_named_and_nothing_is_drawn() -> None:
    f = fight(npcs=3)
    before, version = decks(f.campaign), f.sequence.version
    with pytest.raises(ServiceError, match="Truand 3: .*uses 9 cards but you only have 3"):
        draw_npcs(f, splits={f.npcs[2].pk: Split(attack={f.pc.key: 9})})
    f.reload()
    assert not any(p.drawn for p in f.npcs) and decks(f.campaign) == before and f.sequence.version == version
    assert not Event.objects.filter(kind__in=("sequence.drew", "sequence.npcs_drew", "sequence.resolved")).exists()


def test_a_stale_tap_and_a_second_tap_change_nothing() -> None:
    f = fight(npcs=2)
    seen = f.sequence.version
    draw(f.npcs[0], f.narrator, Split(attack={f.pc.key: 3}))
    before = decks(f.campaign)
    with pytest.raises(StaleState):
        draw_npcs(f, version=seen)
    draw_npcs(f)
    after = decks(f.campaign)
    with pytest.raises(ServiceError, match="No NPC is left to draw"):
        draw_npcs(f)
    assert before != after and decks(f.campaign) == after
    assert Event.objects.filter(kind="sequence.drew").count() == 1  # the first NPC's own draw
    assert Event.objects.filter(kind="sequence.npcs_drew").count() == 1  # the tap for the other


def test_only_a_narrator_draws_for_the_npcs() -> None:
    f = fight(npcs=1)
    f.sequence.refresh_from_db()
    with pytest.raises(PermissionRefused):
        sequence_draw_npcs(sequence=f.sequence, actor=f.player, expected_version=f.sequence.version)
    assert not Participant.objects.get(pk=f.npcs[0].pk).drawn


def test_the_console_lists_every_participant_with_its_split_fields_and_one_button() -> None:
    f = fight(npcs=3)
    html = login(f.narrator).get(f.sequence.get_absolute_url()).content.decode()
    assert "Draw for all 3 NPCs" in html and "3 of 4 still to draw" not in html and "4 of 4 still to draw" in html
    for p in f.npcs:
        assert f'name="attack_{p.pk}"' in html and f'name="defence_{p.pk}"' in html
        assert f'id="more-{p.pk}" hx-preserve="true"' in html  # details on demand, kept through live refreshes
    assert f'name="attack_{f.pc.pk}" value' not in html  # Jim is his player's to draw
    assert 'id="panel-' not in html  # draw panels load when a row is opened


def test_the_console_tap_draws_and_a_refusal_names_the_npc() -> None:
    f = fight(npcs=3)
    client = login(f.narrator)
    url = reverse("conflicts:draw_npcs", args=[f.campaign.pk, f.sequence.pk])
    t3 = f.npcs[2]
    data = {"version": f.sequence.version, f"attack_{t3.pk}": "abc", f"defence_{t3.pk}": "0"}
    page = client.post(url, data, follow=True).content.decode()
    assert "Truand 3: write each number of cards as a whole number" in page
    data = {"version": f.sequence.version, f"attack_{t3.pk}": "2", f"target_{t3.pk}": str(t3.pk)}
    page = client.post(url, data, follow=True).content.decode()
    assert "Truand 3: choose an opponent" in page
    assert (
        not Event.objects.filter(kind__startswith="sequence.")
        .exclude(kind__in=("sequence.created", "sequence.joined"))
        .exists()
    )
    data = {"version": f.sequence.version, f"attack_{t3.pk}": "2", f"target_{t3.pk}": f.pc.key,
            f"defence_{t3.pk}": "1"}  # fmt: skip
    page = client.post(url, data, follow=True).content.decode()
    assert "3 NPCs drew." in page
    assert not Event.objects.filter(kind="sequence.drew").exists()
    assert Event.objects.filter(kind="sequence.npcs_drew").count() == 1
    assert sum(map(len, Participant.objects.get(pk=t3.pk).hand["attack"].values())) == 2
    assert login(f.player).post(url, {"version": f.sequence.version}).status_code == 403


def test_a_row_opened_loads_its_draw_panel() -> None:
    f = fight(npcs=1)
    t = f.npcs[0]
    client = login(f.narrator)
    html = client.get(reverse("conflicts:panel", args=[f.campaign.pk, t.pk]), HTTP_HX_REQUEST="true").content.decode()
    assert f'id="panel-{t.pk}"' in html and f'id="after-draw-{t.pk}"' in html and "<html" not in html
    # A boosted navigation there (the redirect after an Atout spent from a boosted panel) is the whole page.
    url = reverse("conflicts:panel", args=[f.campaign.pk, t.pk])
    assert "<html" in client.get(url, HTTP_HX_REQUEST="true", HTTP_HX_BOOSTED="true").content.decode()


def test_the_narrators_console_costs_the_same_queries_with_more_npcs(django_assert_max_num_queries) -> None:  # type: ignore[no-untyped-def]
    from conflicts.services.sequences import participant_add
    from tests.conflicts.factories import npc

    f = fight(npcs=1)
    client = login(f.narrator)
    url = f.sequence.get_absolute_url()
    client.get(url)
    with django_assert_max_num_queries(200) as small:
        client.get(url)
    count = len(small)
    for i in range(5):
        extra = npc(f.campaign, f.narrator, f"Renfort {i}")
        participant_add(sequence=f.sequence, actor=f.narrator, character=extra, side="Truands", trait_code="combat")
    client.get(url)
    with django_assert_max_num_queries(count):
        assert "Draw for all 6 NPCs" in client.get(url).content.decode()


@pytest.mark.parametrize("language", ["fr", "en"])
def test_a_kept_board_is_the_board_rendered_afresh_and_never_another_viewers(settings, language) -> None:  # type: ignore[no-untyped-def]
    """The board region (conflicts.regions.BOARD): the page is the same bytes with the cache off, cold and warm; the narrator's
    board (the NPC's split, its trait) never reaches the player; a split declared since shows at once."""

    from django.core.cache import caches

    f = fight(npcs=2)
    t = f.npcs[0]
    participant_declare_split(participant=t, actor=f.narrator, split=Split(attack={f.pc.key: 2}, defence={t.key: 1}))
    url = f.sequence.get_absolute_url()

    def page(user) -> str:  # type: ignore[no-untyped-def]
        client = login(user)
        client.cookies["django_language"] = language
        html = client.get(url).content.decode()
        return without_page_marks(html)

    caches["fragments"].clear()
    settings.FRAGMENT_CACHE = False
    fresh = {u.pk: page(u) for u in (f.narrator, f.player)}
    settings.FRAGMENT_CACHE = True
    assert {u.pk: page(u) for u in (f.narrator, f.player)} == fresh  # cold
    assert {u.pk: page(u) for u in (f.narrator, f.player)} == fresh  # warm
    assert f'name="attack_{t.pk}" value="2"' in fresh[f.narrator.pk]
    assert f'id="bulk-attack-{t.pk}"' not in fresh[f.player.pk] and "(Médiocre, 3)" not in fresh[f.player.pk]
    participant_declare_split(participant=t, actor=f.narrator, split=Split(attack={f.pc.key: 1}, defence={t.key: 2}))
    assert f'name="attack_{t.pk}" value="1"' in page(f.narrator)
