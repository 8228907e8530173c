"""A live push rendered before a player's own draw never puts the old panel back over the draw's answer.

The page's socket is routed through the test (Playwright's WebSocket routing), so the push can be made to
cross the answer as it does on a slow Wi-Fi: the server's own messages are held back once the page is live,
and a push carrying the panel as it stood before the draw (at the first position after the page's, which the
draw's answer covers) reaches the page while the draw's POST is in flight (or just after its answer). The
answer names its position in the campaign's stream (X-Live-Position) and tablee.js drops the stale fragment; a fragment of the same
push for a region the answer did not replace still applies.
"""

from __future__ import annotations

import json
import re
import uuid
from typing import Any

import pytest
from playwright.sync_api import expect

from tests.e2e.conftest import E2E_PASSWORD, login
from tests.e2e.test_console import SETUP

pytestmark = pytest.mark.e2e


def _held_page(new_context, run_in_server_db, *, npcs_drawn: bool = False):  # type: ignore[no-untyped-def]
    """The player's phone panel of the console's Sequence, its socket routed through the test: ``routed["hold"]`` set,
    the server's messages stop reaching the page, which then hears only what the test sends (``routed["page"]``).
    ``npcs_drawn``: the three NPCs have drawn, so Jim's draw is the last one and puts the result on the table."""
    suffix = uuid.uuid4().hex[:6]
    ids = json.loads(
        run_in_server_db(
            SETUP.format(narrator=f"mj{suffix}", player=f"pj{suffix}", password=E2E_PASSWORD, suffix=suffix)
        )
    )
    if npcs_drawn:
        run_in_server_db(DRAW_NPCS.format(campaign=ids["campaign"], narrator=f"mj{suffix}"))
    player = new_context().new_page()
    routed: dict[str, Any] = {"hold": False, "last": None, "page": None}

    def route(ws):  # type: ignore[no-untyped-def]
        server = ws.connect_to_server()
        routed["page"] = ws

        def from_server(message: str | bytes) -> None:
            if routed["hold"]:
                return  # held back: the page hears only what the test sends it from now on
            routed["last"] = json.loads(message)["p"]
            ws.send(message)

        server.on_message(from_server)

    player.route_web_socket(re.compile(r"/ws/campaigns/"), route)
    login(player, f"pj{suffix}")
    player.goto(f"/conflicts/{ids['campaign']}/participants/{ids['jim']}/")
    expect(player.locator("#live-status")).to_have_attribute("data-state", "open")
    return ids, player, routed


def _marked_copy(player, element_id: str, mark: str) -> str:  # type: ignore[no-untyped-def]
    """The element as the page shows it now, as an out-of-band fragment, with ``mark`` put first inside it."""
    html: str = player.evaluate(
        f"""() => {{
            const el = document.getElementById('{element_id}').cloneNode(true);
            el.setAttribute('hx-swap-oob', 'outerHTML');
            el.insertAdjacentHTML('afterbegin', '{mark}');
            return el.outerHTML;
        }}"""
    )
    return html


def _crossing(player, routed: dict[str, Any], jim: int, message: dict[str, Any]) -> list[Any]:  # type: ignore[no-untyped-def]
    """``message`` reaches the page while Jim's draw is in flight, as a push crossing its answer on a slow Wi-Fi; the
    draw's answers are gathered in the list returned."""
    push = json.dumps(message)

    def cross(request) -> None:  # type: ignore[no-untyped-def]
        if request.method == "POST" and f"/participants/{jim}/split/" in request.url:
            routed["page"].send(push)

    player.on("request", cross)
    answers: list[Any] = []
    player.on("response", lambda r: answers.append(r) if "/split/" in r.url else None)
    return answers


DRAW_NPCS = """
from django.contrib.auth.models import User
from conflicts.models import Sequence
from conflicts.services.npc_draws import sequence_draw_npcs
sequence = Sequence.objects.select_related("campaign").get(campaign_id={campaign})
sequence_draw_npcs(sequence=sequence, actor=User.objects.get(username={narrator!r}), expected_version=sequence.version)
print("{{}}")
"""


def test_a_push_rendered_before_the_draw_does_not_undo_the_draws_answer(new_context, run_in_server_db) -> None:  # type: ignore[no-untyped-def]
    ids, player, routed = _held_page(new_context, run_in_server_db)
    jim = ids["jim"]
    panel = player.locator(f"#panel-{jim}")
    expect(panel).to_contain_text("Répartissez vos cartes")
    routed["hold"] = True
    last = routed["last"]
    assert isinstance(last, int)
    # The push as it would have been rendered before the draw: the panel's form, as the page shows it now.
    stale_panel = _marked_copy(player, f"panel-{jim}", '<p class="stale-push">STALE</p>')
    player.evaluate("""() => document.body.insertAdjacentHTML('beforeend', '<span id="e2e-probe">before</span>')""")
    probe = '<span id="e2e-probe" hx-swap-oob="true">applied</span>'
    answers = _crossing(player, routed, jim, {"t": "ev", "p": last + 1, "q": last, "html": stale_panel + probe})
    panel.get_by_role("button", name="Tirer", exact=True).click()
    expect(panel).to_contain_text("Vos cartes sont sur la table")
    expect(player.locator("#e2e-probe")).to_have_text("applied")  # the push was dealt with
    streams = dict(part.strip().split("=") for part in answers[-1].headers["x-live-position"].split(","))
    assert int(streams[f"campaign:{ids['campaign']}"]) >= last + 1  # the answer names the page's own stream
    player.wait_for_timeout(300)  # a held fragment is released right after the answer: give it the time
    expect(player.locator(".stale-push")).to_have_count(0)
    expect(panel).to_contain_text("Vos cartes sont sur la table")


def test_an_answer_does_not_put_back_a_part_a_newer_push_sent_alone(new_context, run_in_server_db) -> None:  # type: ignore[no-untyped-def]
    """A push sends the parts of a board an event changed, each by its id (a row, the head, the foot), not the whole
    board. An answer older than such a part, carrying the whole board (here the last draw's, which puts the result on
    the table), must not put the part back as it was: the answer's board is dropped, the newer row stays (the pushes,
    in order, bring the rest)."""
    ids, player, routed = _held_page(new_context, run_in_server_db, npcs_drawn=True)
    jim, thug = ids["jim"], ids["npcs"][0]
    expect(player.locator(f"#participant-{thug}")).to_have_count(1)
    routed["hold"] = True
    last = routed["last"]
    assert isinstance(last, int)
    # The thug's row alone, as a push after the draw would send it (one position past the draw's answer).
    newer_row = _marked_copy(player, f"participant-{thug}", '<p class="newer-push">NEWER</p>')
    answers = _crossing(player, routed, jim, {"t": "ev", "p": last + 2, "q": last, "html": newer_row})
    panel = player.locator(f"#panel-{jim}")
    expect(player.locator(".newer-push")).to_have_count(0)
    panel.get_by_role("button", name="Tirer", exact=True).click()
    expect(panel).to_contain_text("Vos cartes sont sur la table")
    streams = dict(part.strip().split("=") for part in answers[-1].headers["x-live-position"].split(","))
    assert int(streams[f"campaign:{ids['campaign']}"]) == last + 1  # the draw's answer: older than the row pushed
    assert 'id="sequence-board-' in answers[-1].text()  # the last draw's answer carries the whole board
    player.wait_for_timeout(300)
    expect(player.locator(".newer-push")).to_have_count(1)  # the answer's older board did not replace it
