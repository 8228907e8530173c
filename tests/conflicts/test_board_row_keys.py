"""A board row's key and its open form (conflicts/board_rows.py), fast: no whole-Sequence walk.

A row with a modifiers form open (the no-JavaScript path) is rendered afresh and never kept, so the next page shows
the fold closed; the narrators' row of an NPC and a player's are two keys, so a secret never crosses.
"""

from __future__ import annotations

import pytest
from django.core.cache import caches
from django.test import Client
from django.urls import reverse

from campaigns.models import Membership
from conflicts import board_rows
from conflicts.selectors import sequence_board
from tests.conflicts.factories import fight

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _kept(settings) -> None:  # type: ignore[no-untyped-def]
    settings.FRAGMENT_CACHE = True
    caches["fragments"].clear()


def _narrator(f) -> Client:  # type: ignore[no-untyped-def]
    client = Client()
    client.force_login(f.narrator)
    client.cookies["django_language"] = "en"
    return client


def test_a_row_with_its_modifiers_form_open_is_not_kept(settings) -> None:  # type: ignore[no-untyped-def]
    f = fight(npcs=1)
    thug = f.npcs[0]
    client = _narrator(f)
    url = reverse("conflicts:modifiers_form", args=[f.campaign.pk, thug.pk])
    opened = client.get(url).text  # without htmx: the page with that fold open
    assert '<details class="card" open>' in opened and f'id="modifiers-{thug.pk}"' in opened
    page = client.get(f.sequence.get_absolute_url()).text
    assert '<details class="card" open>' not in page  # the open row was not kept for the plain page
    assert f"{url}#modifiers-{thug.pk}" in page


def test_the_narrators_row_and_a_players_row_of_one_npc_are_two_keys() -> None:
    f = fight(npcs=1)
    narrator = Membership.objects.get(campaign=f.campaign, user=f.narrator)
    player = Membership.objects.get(campaign=f.campaign, user=f.player)
    console, players = sequence_board(f.sequence, narrator), sequence_board(f.sequence, player)
    thug = f.npcs[0].pk
    as_narrator = next(v for v in console.views if v.participant.pk == thug)
    as_player = next(v for v in players.views if v.participant.pk == thug)
    assert as_player.secret and not as_narrator.secret
    narrators = board_rows.row_facts(console, as_narrator, board_rows.CONSOLE_ROW)
    assert narrators != board_rows.row_facts(players, as_player, board_rows.CONSOLE_ROW)
    assert narrators == board_rows.row_facts(sequence_board(f.sequence, narrator), as_narrator, board_rows.CONSOLE_ROW)


def test_with_the_cache_turned_off_no_row_is_kept(settings, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    f = fight(npcs=1)
    cache = caches["fragments"]
    stored: list[str] = []
    real_set = cache.set

    def recording_set(key, *args, **kwargs):  # type: ignore[no-untyped-def]
        stored.append(key)
        return real_set(key, *args, **kwargs)

    monkeypatch.setattr(cache, "set", recording_set)
    client = _narrator(f)
    settings.FRAGMENT_CACHE = False
    assert f'id="participant-{f.npcs[0].pk}"' in client.get(f.sequence.get_absolute_url()).text
    assert not [key for key in stored if key.startswith("board-row:")]
    settings.FRAGMENT_CACHE = True
    client.get(f.sequence.get_absolute_url())
    assert len([key for key in stored if key.startswith("board-row:")]) == 2  # the thug's row and Jim's
