"""A Sequence's story (conflicts/story.py): each line kept by its event, so the board rendered anew after a draw
tells only the new line; what a line says is what the log says."""

from __future__ import annotations

from unittest import mock

import pytest
from django.core.cache import caches
from django.test import Client

from campaigns import chronicle
from campaigns.models import Event
from conflicts import story
from conflicts.rules.budget import Split
from tests.campaigns.factories import membership
from tests.conflicts.factories import draw, fight

pytestmark = pytest.mark.django_db


def test_after_a_draw_only_the_new_line_is_told() -> None:
    caches["fragments"].clear()
    f = fight(npcs=2)
    client = Client()
    client.force_login(f.narrator)
    page = f.sequence.get_absolute_url()
    assert client.get(page).status_code == 200
    told_before = list(story.sequence_story(f.sequence, membership(f.campaign, f.narrator)))
    assert len(told_before) >= 4  # the Sequence begins, three join
    draw(f.pc, f.player, Split(defence={f.pc.key: 5}))
    with mock.patch.object(story, "describe", wraps=chronicle.describe) as describe:
        answer = client.get(page)
    assert describe.call_count == 1  # the draw's line; the others are kept
    (drew,) = Event.objects.filter(kind="sequence.drew")
    line = chronicle.describe(drew)
    assert f"<li>{line}</li>" in answer.content.decode()
    told = list(story.sequence_story(f.sequence, membership(f.campaign, f.player)))
    assert told == [*told_before, line]  # the lines as the log tells them, in order
