"""The split-odds endpoint (fired on every change of a split) costs a fixed number of queries: a split not seen
yet is computed from the inputs kept under the stream head, with no query beyond the membership lookup."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from conflicts.decks import table_settings
from conflicts.rules.budget import Split
from conflicts.services.drawing import participant_declare_split
from tests.conflicts.factories import fight

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize("npcs", [1, 4])
def test_the_odds_endpoint_query_count_does_not_grow(npcs: int, django_assert_max_num_queries) -> None:  # type: ignore[no-untyped-def]
    f = fight(npcs=npcs)
    client = Client()
    client.force_login(f.player)
    url = reverse("conflicts:odds", args=[f.campaign.pk, f.pc.pk])
    data = {f"attack_{f.npcs[0].pk}": "2", f"defence_{f.pc.pk}": "1"}
    table_settings(f.campaign)  # the table's settings row, created on first use (3 more queries, once)
    with django_assert_max_num_queries(11):  # the first answer after a change: the table read once
        response = client.get(url, data, HTTP_HX_REQUEST="true")
    assert response.status_code == 200 and "%" in response.content.decode()
    for n in (0, 1, 3):  # the player types on: splits not seen yet, the table unchanged
        with django_assert_max_num_queries(3):  # session, user, membership (with the stream head)
            typed = client.get(url, {**data, f"attack_{f.npcs[0].pk}": str(n)}, HTTP_HX_REQUEST="true")
        assert typed.status_code == 200 and typed.content != response.content


def test_a_split_not_seen_yet_reads_the_same_as_computed_afresh(settings) -> None:  # type: ignore[no-untyped-def]
    """The odds of a new split from the kept inputs are the bytes the endpoint gives with nothing kept, in both
    languages, and answering changes nothing in the kept inputs (they are shared by the member's keystrokes)."""
    import pickle

    from conflicts.kept_odds import _inputs_kept

    f = fight(npcs=3)
    client = Client()
    client.force_login(f.player)
    url = reverse("conflicts:odds", args=[f.campaign.pk, f.pc.pk])
    splits = [{f"attack_{f.npcs[i % 3].pk}": str(i % 4), f"defence_{f.pc.pk}": str(i % 2)} for i in range(6)]
    for language in ("fr", "en"):
        client.cookies["django_language"] = language
        settings.FRAGMENT_CACHE = False
        plain = [client.get(url, data).content for data in splits]
        settings.FRAGMENT_CACHE = True
        assert [client.get(url, data).content for data in splits] == plain
        assert len(set(plain)) > 1
    assert len(_inputs_kept) == 2  # one per language
    before = pickle.dumps(list(_inputs_kept.values()))
    for language in ("fr", "en"):
        client.cookies["django_language"] = language
        assert client.get(url, {f"attack_{f.npcs[1].pk}": "3", "upper_hand": "1"}).status_code == 200
    assert pickle.dumps(list(_inputs_kept.values())) == before


def test_the_odds_are_kept_until_the_table_changes_with_an_etag(django_assert_max_num_queries, settings) -> None:  # type: ignore[no-untyped-def]
    """A split already seen costs the membership lookup only (« compute from the participants and the deck
    state alone, cached by the Sequence's version »); the same bytes as computing afresh; a GET answered
    304 to its ETag; a draw (an Event: the stream head moves) gives a new answer."""
    f = fight(npcs=2)
    client = Client()
    client.force_login(f.player)
    url = reverse("conflicts:odds", args=[f.campaign.pk, f.pc.pk])
    data = {f"attack_{f.npcs[0].pk}": "2", f"defence_{f.pc.pk}": "1"}
    settings.FRAGMENT_CACHE = False
    plain = client.post(url, data, HTTP_HX_REQUEST="true").content
    settings.FRAGMENT_CACHE = True
    assert client.post(url, data, HTTP_HX_REQUEST="true").content == plain
    with django_assert_max_num_queries(3):  # session, user, membership (with the stream head)
        kept = client.post(url, data, HTTP_HX_REQUEST="true")
    assert kept.content == plain
    first = client.get(url, data, HTTP_HX_REQUEST="true")
    assert first.status_code == 200 and first.content == plain and first["ETag"]
    assert "no-cache" in first["Cache-Control"] and "private" in first["Cache-Control"]
    again = client.get(url, data, HTTP_HX_REQUEST="true", HTTP_IF_NONE_MATCH=first["ETag"])
    assert again.status_code == 304 and again.content == b""
    other_split = client.get(url, {**data, f"attack_{f.npcs[0].pk}": "3"}, HTTP_IF_NONE_MATCH=first["ETag"])
    assert other_split.status_code == 200 and other_split["ETag"] != first["ETag"]
    # The thug declares his defence (one Event, which the player's odds may not show): a new answer.
    participant_declare_split(participant=f.npcs[0], actor=f.narrator, split=Split(defence={f.npcs[0].key: 2}))
    after = client.get(url, data, HTTP_HX_REQUEST="true", HTTP_IF_NONE_MATCH=first["ETag"])
    assert after.status_code == 200 and after["ETag"] != first["ETag"]


def test_kept_odds_never_reach_a_member_who_does_not_control_the_participant() -> None:
    from campaigns.models import Membership, Role
    from tests.campaigns.factories import UserFactory

    f = fight(npcs=1)
    owner, other = Client(), Client()
    owner.force_login(f.player)
    stranger = UserFactory()
    Membership.objects.create(campaign=f.campaign, user=stranger, role=Role.PLAYER)
    other.force_login(stranger)
    url = reverse("conflicts:odds", args=[f.campaign.pk, f.pc.pk])
    data = {f"attack_{f.npcs[0].pk}": "2", f"defence_{f.pc.pk}": "1"}
    assert owner.post(url, data, HTTP_HX_REQUEST="true").status_code == 200  # kept for the owner
    assert other.post(url, data, HTTP_HX_REQUEST="true").status_code == 404
    assert other.get(url, data, HTTP_HX_REQUEST="true").status_code == 404
    npc_url = reverse("conflicts:odds", args=[f.campaign.pk, f.npcs[0].pk])
    assert owner.get(npc_url, {f"attack_{f.pc.pk}": "1"}).status_code == 404
