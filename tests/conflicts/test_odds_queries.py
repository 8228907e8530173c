"""The split-odds endpoint (fired on every change of a split) is computed afresh each time, from one read of the
table: a fixed number of queries whatever the number of opponents, nothing kept, so never a stale answer."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from conflicts.decks import table_settings
from conflicts.rules.budget import Split
from tests.conflicts.factories import draw, fight

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize("npcs", [1, 4])
def test_the_odds_endpoint_query_count_does_not_grow(npcs: int, django_assert_max_num_queries) -> None:  # type: ignore[no-untyped-def]
    f = fight(npcs=npcs)
    client = Client()
    client.force_login(f.player)
    url = reverse("conflicts:odds", args=[f.campaign.pk, f.pc.pk])
    data = {f"attack_{f.npcs[0].pk}": "2", f"defence_{f.pc.pk}": "1"}
    table_settings(f.campaign)  # the table's settings row, created on first use (3 more queries, once)
    with django_assert_max_num_queries(11):  # the table read once
        response = client.get(url, data, HTTP_HX_REQUEST="true")
    assert response.status_code == 200 and "%" in response.content.decode()
    for n in (0, 1, 3):  # the player types on: the same reads, whatever the split
        with django_assert_max_num_queries(11):
            typed = client.get(url, {**data, f"attack_{f.npcs[0].pk}": str(n)}, HTTP_HX_REQUEST="true")
        assert typed.status_code == 200 and typed.content != response.content


def test_the_odds_are_the_same_bytes_with_the_caches_on_or_off(settings) -> None:  # type: ignore[no-untyped-def]
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


def test_the_odds_follow_every_change_of_the_table_and_no_copy_is_reused_unasked() -> None:
    """The thug draws his defence (an Event): the very next answer counts his cards. The browser is told to ask
    again each time (``private, no-cache``)."""
    f = fight(npcs=2)
    client = Client()
    client.force_login(f.player)
    url = reverse("conflicts:odds", args=[f.campaign.pk, f.pc.pk])
    data = {f"attack_{f.npcs[0].pk}": "2", f"defence_{f.pc.pk}": "1"}
    first = client.get(url, data, HTTP_HX_REQUEST="true")
    assert first.status_code == 200
    assert "no-cache" in first["Cache-Control"] and "private" in first["Cache-Control"]
    draw(f.npcs[0], f.narrator, Split(attack={f.pc.key: 1}, defence={f.npcs[0].key: 2}))
    after = client.get(url, data, HTTP_HX_REQUEST="true")
    assert after.status_code == 200 and after.content != first.content


def test_the_odds_never_reach_a_member_who_does_not_control_the_participant() -> None:
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
    assert owner.post(url, data, HTTP_HX_REQUEST="true").status_code == 200
    assert other.post(url, data, HTTP_HX_REQUEST="true").status_code == 404
    assert other.get(url, data, HTTP_HX_REQUEST="true").status_code == 404
    npc_url = reverse("conflicts:odds", args=[f.campaign.pk, f.npcs[0].pk])
    assert owner.get(npc_url, {f"attack_{f.pc.pk}": "1"}).status_code == 404
