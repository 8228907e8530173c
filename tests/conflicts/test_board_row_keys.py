"""A board row is a region of its own (conflicts.regions), fast: no whole-Sequence walk.

A row with a modifiers form open (the no-JavaScript path) is rendered afresh and never kept, so the next page shows
the fold closed; the narrators' row of an NPC and a player's are two keys, so a secret never crosses.
"""

from __future__ import annotations

import pytest
from django.core.cache import caches
from django.test import Client
from django.urls import reverse

from campaigns.models import Membership
from conflicts.regions import CONSOLE_ROW_REGION, PLAYER_ROW_REGION, RowOf, row_depends
from conflicts.selectors import sequence_board
from core.kept_regions import inner_key
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
    narrators = inner_key(CONSOLE_ROW_REGION, row_depends(RowOf(console, as_narrator)))
    # The same region and participant, read by a player: another viewer, another key.
    assert narrators != inner_key(CONSOLE_ROW_REGION, row_depends(RowOf(players, as_player)))
    again = sequence_board(f.sequence, narrator)
    assert narrators == inner_key(CONSOLE_ROW_REGION, row_depends(RowOf(again, as_narrator)))
    # A player who runs the character and one who does not read its row apart.
    jim = next(v for v in players.views if v.participant.pk == f.pc.pk)
    assert jim.controlled and not as_player.controlled
    assert row_depends(RowOf(players, jim)).viewer != row_depends(RowOf(players, as_player)).viewer


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
    assert not [key for key in stored if key.startswith("region:sequence-")]
    settings.FRAGMENT_CACHE = True
    client.get(f.sequence.get_absolute_url())
    rows = [key for key in stored if key.startswith(f"region:{CONSOLE_ROW_REGION.name}:")]
    assert len(rows) == 2  # the thug's row and Jim's
    assert not [key for key in stored if key.startswith(f"region:{PLAYER_ROW_REGION.name}:")]
