"""The narrator's modifiers forms load when their fold is opened, not with the sequence page."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from tests.conflicts.factories import fight

pytestmark = pytest.mark.django_db


def _client(user) -> Client:  # type: ignore[no-untyped-def]
    client = Client()
    client.force_login(user)
    return client


def test_the_sequence_page_holds_closed_folds_that_fetch_their_form_on_opening() -> None:
    f = fight(npcs=2)
    html = _client(f.narrator).get(f.sequence.get_absolute_url()).content.decode()
    url = reverse("conflicts:modifiers_form", args=[f.campaign.pk, f.pc.pk])
    assert f'hx-get="{url}" hx-trigger="toggle once"' in html
    assert f'id="id_p{f.pc.pk}_other"' not in html  # the form itself is not on the page
    fragment = _client(f.narrator).get(url, HTTP_HX_REQUEST="true").content.decode()
    assert f'id="id_p{f.pc.pk}_other"' in fragment and f'name="version" value="{f.sequence.version}"' in fragment
    assert "<html" not in fragment


def test_without_javascript_the_link_opens_the_page_with_that_form() -> None:
    f = fight(npcs=1)
    url = reverse("conflicts:modifiers_form", args=[f.campaign.pk, f.pc.pk])
    html = _client(f.narrator).get(url).content.decode()
    assert "<html" in html and f'id="id_p{f.pc.pk}_other"' in html and '<details class="card" open>' in html
    assert f'id="id_p{f.npcs[0].pk}_other"' not in html


def test_players_cannot_fetch_a_modifiers_form() -> None:
    f = fight(npcs=1)
    url = reverse("conflicts:modifiers_form", args=[f.campaign.pk, f.npcs[0].pk])
    assert _client(f.player).get(url, HTTP_HX_REQUEST="true").status_code == 403
