"""The board's rows written in Python (conflicts/row_html.py) are the bytes their templates (console_row.html,
board_row.html and their partials) print: for what the whole-Sequence walk of test_board_rows does not reach (a
participant out of range, out of the fight, names and goals that need escaping, a modifiers form open), every role,
French and English."""

from __future__ import annotations

import pytest
from django.core.cache import caches
from django.template.loader import render_to_string
from django.utils import translation

from characters.models import Character
from conflicts import board_rows
from conflicts.models import Participant
from conflicts.rules.budget import Split
from conflicts.selectors import sequence_board
from conflicts.services.drawing import participant_declare_split
from tests.conflicts.factories import fight

pytestmark = pytest.mark.django_db


def _boards(f, settings) -> list[str]:  # type: ignore[no-untyped-def]
    from campaigns.models import Membership

    settings.FRAGMENT_CACHE = False
    caches["fragments"].clear()
    out = []
    for member in Membership.objects.filter(campaign=f.campaign).select_related("campaign"):
        for language in ("fr", "en"):
            with translation.override(language):
                f.sequence.refresh_from_db()
                f.sequence.campaign = member.campaign
                board = sequence_board(f.sequence, member)
                out.append(render_to_string("conflicts/partials/board.html", {"board": board, "console_forms": {}}))
    return out


def _same(f, settings) -> list[str]:  # type: ignore[no-untyped-def]
    python = _boards(f, settings)
    board_rows.IN_PYTHON = False
    try:
        templates = _boards(f, settings)
    finally:
        board_rows.IN_PYTHON = True
    assert python == templates
    return python


def test_rows_out_of_range_out_of_the_fight_and_escaped(settings) -> None:  # type: ignore[no-untyped-def]
    f = fight(npcs=3)
    t, u, w = f.npcs
    Character.objects.filter(pk=f.thugs[0].pk).update(name='Le "Gros" <Bob> & Cie')
    Participant.objects.filter(pk=t.pk).update(out_of_range_bands=2, goal="<s>fuir</s> & vite", revers_taken=1)
    Participant.objects.filter(pk=u.pk).update(active=False, revers_taken=3)
    Participant.objects.filter(pk=f.pc.pk).update(goal='passer "vite"', upper_hand_cards=1)
    # A split the bulk form cannot show (two attacks, a teammate covered, the upper hand): shown as text.
    Participant.objects.filter(pk=w.pk).update(
        split={"attack": {f.pc.key: 1, "99": 1}, "defence": {t.key: 1, w.key: 2}, "upper_hand": True}
    )
    participant_declare_split(participant=f.pc, actor=f.player, split=Split(attack={t.key: 2}, defence={f.pc.key: 1}))
    boards = _same(f, settings)
    joined = "".join(boards)
    assert "&lt;Bob&gt; &amp; Cie" in joined and "<Bob>" not in joined
    assert "⚔ 1 → 99 " in joined and " · upper hand</div>" in joined and "bulk-attack-" in joined
    assert "out of range (2 bands)" in joined and 'class="badge bad"' in joined and "&lt;s&gt;fuir" in joined


def test_rows_keep_the_template_when_a_form_is_open(settings) -> None:  # type: ignore[no-untyped-def]
    """A console row with its modifiers form open is the template's, whatever IN_PYTHON says."""
    from campaigns.models import Membership
    from conflicts.forms import ModifiersForm

    f = fight(npcs=1)
    member = Membership.objects.select_related("campaign").get(campaign=f.campaign, user=f.narrator)
    f.sequence.campaign = member.campaign
    board = sequence_board(f.sequence, member)
    p = f.npcs[0]
    form = ModifiersForm(instance=p, initial={"version": f.sequence.version}, auto_id=f"id_p{p.pk}_%s")
    html = render_to_string("conflicts/partials/board.html", {"board": board, "console_forms": {str(p.pk): form}})
    assert f'id="more-{p.pk}" hx-preserve="true" open' in html
