"""Drawn cards as small SVG playing cards: value, suit, success or failure, attack or defence, read aloud in
the reader's language, built once per card and language; in the board, the panels and the log."""

from __future__ import annotations

import re

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import translation

from campaigns.models import Event
from conflicts.card_svg import _card_svg, card_svg
from conflicts.rules.budget import Split
from tests.conflicts.factories import draw, fight


def test_a_card_shows_its_value_suit_outcome_and_part_with_a_text_alternative() -> None:
    with translation.override("fr"):
        attack = card_svg("10C", success=True, part="attack")
        defence = card_svg("7H", success=False, part="defence", changed=True)
    assert 'role="img"' in attack and 'aria-label="10 de trèfle, succès, carte d&#x27;attaque"' in attack
    assert ">10</text>" in attack and "♣" in attack and " black" in attack
    assert '<use href="#card-success-attack"/>' in attack
    assert "de cœur, échec, carte de défense, résultat changé par un Atout" in defence and " red" in defence
    assert '<use href="#card-failure-defence"/>' in defence and "flipped" in defence
    with translation.override("en"):
        assert 'aria-label="king of spades, success, attack card"' in card_svg("13S", success=True, part="attack")
        assert ">K</text>" in card_svg("13S", success=True, part="attack")


def test_what_every_card_draws_alike_is_drawn_once_per_page() -> None:
    """« les cartes rouges (cœurs et carreaux) comptent pour un succès … » : the outcome is the band and its mark, the
    same on every card of that outcome, so each page carries them once (``core.sprites``) and a card draws its value
    and suit over them: about a third of the bytes a whole drawing took, in pages, pushes and answers."""
    from conflicts.card_svg import SYMBOLS

    symbols = dict(re.findall(r'<symbol id="card-(\w+-\w+)"(.*?)</symbol>', SYMBOLS))
    assert sorted(symbols) == ["failure-attack", "failure-defence", "success-attack", "success-defence"]
    assert all(("✓" in body) == name.startswith("success") for name, body in symbols.items())
    assert all(("stroke-dasharray" in body) == name.endswith("defence") for name, body in symbols.items())
    with translation.override("fr"):
        assert len(card_svg("10C", success=True, part="attack")) < 280  # the whole drawing took 760


@pytest.mark.django_db
def test_every_page_carries_the_cards_symbols_once_and_hidden(client) -> None:  # type: ignore[no-untyped-def]
    f = fight(npcs=1)
    client.force_login(f.player)
    for url in (
        f.sequence.get_absolute_url(),
        reverse("campaigns:log", args=[f.campaign.pk]),
        reverse("campaigns:list"),
    ):
        page = client.get(url).content.decode()
        assert page.count('<symbol id="card-success-attack"') == 1, url
        assert '<svg class="sprites" aria-hidden="true" focusable="false"' in page


def test_a_cards_picture_is_built_once_per_card_and_language() -> None:
    _card_svg.cache_clear()
    with translation.override("en"):
        first = card_svg("4D", success=True, part="attack")
        assert card_svg("4D", success=True, part="attack") is first
    with translation.override("fr"):
        assert card_svg("4D", success=True, part="attack") != first
    assert _card_svg.cache_info().hits == 1 and _card_svg.cache_info().misses == 2


@pytest.mark.django_db
def test_drawn_cards_are_pictures_on_the_board_in_the_panel_and_in_the_log() -> None:
    f = fight(npcs=1)
    t = f.npcs[0]
    draw(f.pc, f.player, Split(attack={t.key: 3}, defence={f.pc.key: 2}), seed=1)
    draw(t, f.narrator, Split(attack={f.pc.key: 3}), seed=2)
    client = Client()
    client.force_login(f.player)
    client.cookies["django_language"] = "en"
    page = client.get(f.sequence.get_absolute_url()).content.decode()
    board = page.split(f'id="sequence-board-{f.sequence.pk}"')[1].split("</section>")[0]
    assert board.count('<svg class="playing-card') == 8 and board.count(', defence card"') == 2
    after = page.split(f'id="after-draw-{f.pc.pk}"')[1]
    assert after.count('<svg class="playing-card') >= 5  # Jim's own cards above his Atouts after the draw
    log = client.get(reverse("campaigns:log", args=[f.campaign.pk])).content.decode()
    drew = Event.objects.filter(kind="sequence.drew").order_by("pk").first()
    entry = log.split(f'id="event-{drew.pk}"')[1].split("</li>")[0]
    assert entry.count('<svg class="playing-card') == 5 and 'class="log-cards"' in entry


@pytest.mark.django_db
def test_a_draw_logged_before_the_rule_was_recorded_keeps_its_text() -> None:
    f = fight(npcs=1)
    from campaigns.services import event_append

    draw(f.pc, f.player, Split(attack={f.npcs[0].key: 5}), seed=1)
    drew = Event.objects.get(kind="sequence.drew")
    old = {k: v for k, v in drew.payload.items() if k != "rule"}  # as draws were logged before
    event = event_append(campaign=f.campaign, kind="sequence.drew", actor=f.player, payload=old)
    client = Client()
    client.force_login(f.player)
    log = client.get(reverse("campaigns:log", args=[f.campaign.pk])).content.decode()
    entry = log.split(f'id="event-{event.pk}"')[1].split("</li>")[0]
    assert "<svg" not in entry and any(suit in entry for suit in "♣♠♥♦")
