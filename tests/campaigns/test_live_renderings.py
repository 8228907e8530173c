"""The renderings a process keeps of its live events (``campaigns.live_render``): what the newest hold for their sockets,
and what the older let go."""

from __future__ import annotations

import pytest

from campaigns import services
from campaigns.live import feed_subject, sequence_subject
from campaigns.live_render import rendering_of
from campaigns.models import Event
from conflicts.rules.budget import Split
from tests.campaigns.factories import membership
from tests.conflicts.factories import draw, fight

pytestmark = pytest.mark.django_db


def test_renderings_past_the_newest_let_their_readers_go_and_still_render() -> None:
    """A process keeps its renderings for catch-ups, but only the newest keep what their sockets took copies with (the
    members, the audiences' facts, the assembled copies): thousands of model rows held otherwise were walked by every
    full garbage collection while a live draw waited. An older one asked again renders the same copy."""
    from campaigns import live_render

    f = fight(npcs=1)
    as_narrator = membership(f.campaign, f.narrator)
    subject = frozenset({sequence_subject(f.sequence.pk), feed_subject(f.campaign.pk)})
    draw(f.pc, f.player, Split(attack={f.npcs[0].key: 3}, defence={f.pc.key: 2}))
    first = Event.objects.filter(campaign=f.campaign).latest("pk")
    rendering = rendering_of(first.pk)
    assert rendering is not None
    rendering.render_for([live_render.OpenPage(as_narrator.pk, subject, "fr")])
    before = rendering.ready_html_for(as_narrator.pk, watching=subject, language="fr", csrf_token="t")
    assert before and rendering.holds_readers()
    for index in range(live_render.KEPT_READERS):
        services.note_write(membership=as_narrator, text=f"Note {index}")
        newer = rendering_of(Event.objects.filter(campaign=f.campaign).latest("pk").pk)
        assert newer is not None
        newer.membership(as_narrator.pk)  # its members read, as a socket's copy reads them
    assert not rendering.holds_readers() and rendering._members is None and "_live_facts" not in first.__dict__
    assert rendering.ready_html_for(as_narrator.pk, watching=subject, language="fr", csrf_token="t") is None
    assert rendering.html_for(as_narrator, watching=subject, language="fr", csrf_token="t") == before
