"""The split-odds endpoint (fired on every change of a split) costs a fixed number of queries."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from tests.conflicts.factories import fight

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize("npcs", [1, 4])
def test_the_odds_endpoint_query_count_does_not_grow(npcs: int, django_assert_max_num_queries) -> None:  # type: ignore[no-untyped-def]
    f = fight(npcs=npcs)
    client = Client()
    client.force_login(f.player)
    url = reverse("conflicts:odds", args=[f.campaign.pk, f.pc.pk])
    data = {f"attack_{f.npcs[0].pk}": "2", f"defence_{f.pc.pk}": "1"}
    with django_assert_max_num_queries(15):
        response = client.post(url, data, HTTP_HX_REQUEST="true")
    assert response.status_code == 200 and "%" in response.content.decode()
