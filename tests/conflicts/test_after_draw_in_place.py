"""Issue 28: changing a card (an Atout once the cards are down) answers the card and the board in place, not the
whole page again; a refusal says why in the same place."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from conflicts.rules.budget import Split
from tests.campaigns.factories import PASSWORD
from tests.characters.factories import open_session
from tests.conflicts.factories import draw, fight

pytestmark = pytest.mark.django_db


def _cards_down():  # type: ignore[no-untyped-def]
    f = fight(npcs=1)
    open_session(f.campaign, f.narrator)
    t = f.npcs[0]
    draw(f.pc, f.player, Split(attack={t.key: 5}), seed=3)
    draw(t, f.narrator, Split(defence={t.key: 3}), seed=4)
    client = Client()
    client.login(username=f.player.username, password=PASSWORD)
    client.cookies["django_language"] = "en"
    return f.reload(), t, client


def test_the_after_draw_forms_post_in_place() -> None:
    f, _t, client = _cards_down()
    html = client.get(f.sequence.get_absolute_url()).content.decode()
    start = html.index(f'id="after-draw-{f.pc.pk}"')
    card = html[start : html.index("</fieldset>", start)]
    assert f'hx-target="#after-draw-{f.pc.pk}"' in card and 'name="card"' in card


def test_changing_a_card_answers_the_card_and_the_board() -> None:
    f, t, client = _cards_down()
    url = reverse("conflicts:atout", args=[f.campaign.pk, f.pc.pk])
    page = client.get(f.sequence.get_absolute_url()).content.decode()
    # The first choice the form offers: « ref|direction » (the card and what it becomes, conflicts.card_changes).
    start = page.index('name="card" value="', page.index(f'id="after-draw-{f.pc.pk}"')) + len('name="card" value="')
    choice = page[start : page.index('"', start)]
    data = {"use": "change", "card": choice, "version": f.sequence.version}
    response = client.post(url, data, HTTP_HX_REQUEST="true")
    html = response.content.decode()
    assert response.status_code == 200 and "<html" not in html
    assert f'<div class="card" id="after-draw-{f.pc.pk}"' in html[:300]
    assert "Atout spent." in html
    assert f'id="sequence-board-{f.sequence.pk}"' in html and 'hx-swap-oob="outerHTML"' in html
    # The same card again, at the old version: refused, the reason in place.
    again = client.post(url, data, HTTP_HX_REQUEST="true")
    assert again.status_code in (400, 409) and 'role="alert"' in again.content.decode()
