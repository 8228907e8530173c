"""One's own actions, measured in the browser: from the POST leaving the page to its answer swapped in (issue 28).

A player's phone (Debian's Chromium, 390 px, Playwright) on a throw-away server: a roll from the sheet, its
re-roll, a draw in a Sequence, and changing a card once the cards are down. The page notes ``performance.now()``
at htmx's ``beforeRequest`` of a POST and at the ``afterSwap`` of its answer; p50 and p95 over ``BENCH_OWN_ROUNDS``
rounds (default 12). Help and taking a Revers are not measured yet (they need a second player's open Test).
Skipped (no figure) when Chromium or Playwright is missing.
"""

from __future__ import annotations

import json
import os
import shutil
import statistics
import tempfile
from pathlib import Path
from typing import Any

from bench.figures import Figure
from bench.server import BenchServer

CHROMIUM = os.environ.get("CHROMIUM", "/usr/bin/chromium")
PASSWORD = "bench-password-123"

SETUP = """
import json
from django.contrib.auth.models import User
from campaigns import services as campaigns
from campaigns.models import Membership
from characters.models import CharacterTrait
from characters.services.atouts import atout_gain
from characters.services.creation import character_create, npc_create
from conflicts.services.sequences import participant_add, scene_create, sequence_create
import datetime as dt
narrator = User.objects.create_user("mjbench", password={password!r})
player = User.objects.create_user("joueurbench", password={password!r})
campaign = campaigns.campaign_create(owner=narrator, data={{"name": "Mesures", "creation_mode": "free"}})
Membership.objects.create(campaign=campaign, user=player, role="player")
session = campaigns.game_session_create(campaign=campaign, actor=narrator, date=dt.date(2026, 11, 28))
campaigns.game_session_open(game_session=session, actor=narrator)
jim = character_create(campaign=campaign, actor=player, name="Jim", concept="Médecin", goal="Soigner",
    ranks={{"combat": 4}})
CharacterTrait.objects.create(character=jim, code="medecine", kind="field", name_fr="Médecine", name_en="Medicine",
    rank=4)
atout_gain(character=jim, actor=narrator, amount=200)
scene = scene_create(campaign=campaign, actor=narrator, title="Les docks")
fights = []
for i in range({rounds}):
    thug = npc_create(campaign=campaign, actor=narrator, name=f"Truand {{i}}", concept="Truand", ranks={{"combat": 2}})
    seq = sequence_create(scene=scene, actor=narrator, data={{"title": f"Bagarre {{i}}"}})
    participant_add(sequence=seq, actor=narrator, character=jim, side="PJ", goal="passer", trait_code="combat")
    other = participant_add(sequence=seq, actor=narrator, character=thug, side="Truands", goal="barrer",
        trait_code="combat")
    fights.append({{"sequence": seq.pk, "npc": other.pk}})
print(json.dumps({{"campaign": campaign.pk, "jim": jim.pk, "fights": fights}}))
"""

NPC_DRAWS = """
from django.contrib.auth.models import User
from conflicts.models import Participant
from conflicts.rules.budget import Split
from conflicts.services.drawing import participant_draw
npc = Participant.objects.select_related("sequence").get(pk={npc})
participant_draw(participant=npc, actor=User.objects.get(username="mjbench"), expected_version=npc.sequence.version,
    split=Split(defence={{npc.key: 2}}))
"""

# Noted by the page: the time from a POST leaving (htmx:beforeRequest) to its answer swapped (htmx:afterSwap).
TIMER = """
window.ownTimes = [];
var leftAt = null;
document.addEventListener("htmx:beforeRequest", function (e) {
  if (e.detail.requestConfig && e.detail.requestConfig.verb === "post") { leftAt = performance.now(); }
});
document.addEventListener("htmx:afterSwap", function () {
  if (leftAt !== null) { window.ownTimes.push(performance.now() - leftAt); leftAt = null; }
});
"""


def _timed(page: Any, act: Any) -> float:
    """Run ``act`` (one tap) and return the POST-to-swapped time it produced, in ms."""
    count = page.evaluate("window.ownTimes.length")
    act()
    page.wait_for_function(f"window.ownTimes.length > {count}", timeout=30_000)
    return float(page.evaluate("window.ownTimes[window.ownTimes.length - 1]"))


def _figures(name: str, times: list[float]) -> list[Figure]:
    if not times:
        return []
    ordered = sorted(times)
    p95 = ordered[min(len(ordered) - 1, int(round(len(ordered) * 0.95)) - 1)]
    return [Figure(f"own action, {name}: p50", statistics.median(ordered), "ms"),
            Figure(f"own action, {name}: p95", p95, "ms")]  # fmt: skip


def run() -> list[Figure]:
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        return []
    if not Path(CHROMIUM).exists() or shutil.which(CHROMIUM) is None and not os.access(CHROMIUM, os.X_OK):
        return []
    rounds = int(os.environ.get("BENCH_OWN_ROUNDS", "12"))
    with tempfile.TemporaryDirectory(prefix="tablee-own-") as workdir:
        server = BenchServer(Path(workdir))
        server.start()
        try:
            ids = json.loads(server.python(SETUP.format(password=PASSWORD, rounds=rounds)))
            return _measure(server, ids, sync_playwright)
        finally:
            server.stop()


def _measure(server: BenchServer, ids: dict[str, Any], sync_playwright: Any) -> list[Figure]:
    base = f"http://127.0.0.1:{server.port}"
    times: dict[str, list[float]] = {"roll": [], "re-roll": [], "draw": [], "change a card": []}
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, headless=True, args=["--no-sandbox"])
        context = browser.new_context(base_url=base, viewport={"width": 390, "height": 844}, is_mobile=True,
                                      has_touch=True, locale="fr-FR")  # fmt: skip
        context.add_init_script(TIMER)
        page = context.new_page()
        page.goto("/accounts/login/")
        page.locator("input[name=username]").fill("joueurbench")
        page.locator("input[name=password]").fill(PASSWORD)
        page.locator("main form button[type=submit]").click()
        page.wait_for_url(lambda url: "/accounts/login/" not in url)

        page.goto(f"/characters/{ids['jim']}/")
        chip = page.locator("button.roll-quick[data-roll=medecine]")
        for _ in range(int(os.environ.get("BENCH_OWN_ROUNDS", "12"))):
            chip.scroll_into_view_if_needed()
            times["roll"].append(_timed(page, chip.tap))
            reroll = page.locator("#roll-result [data-followup=reroll]")
            if reroll.count():
                times["re-roll"].append(_timed(page, reroll.first.tap))

        for fight in ids["fights"]:
            page.goto(f"/conflicts/{ids['campaign']}/sequences/{fight['sequence']}/")
            page.locator("input[name^=attack_]").first.fill("4")  # Combat Moyen: every one of its 4 cards placed
            times["draw"].append(_timed(page, page.locator("button[value=draw]").first.tap))
            page.locator(".draw-panel").first.get_by_text("Vos cartes sont sur la table").wait_for()
            # Drawn from another process: its push does not cross the in-memory channel layer, so the page is read again.
            server.python(NPC_DRAWS.format(npc=fight["npc"]))
            page.reload()
            change = page.locator("form:has(select[name=card]) button[value=change]")
            change.wait_for(timeout=30_000)
            times["change a card"].append(_timed(page, change.tap))
        browser.close()
    figures: list[Figure] = []
    for name, found in times.items():
        figures += _figures(name, found)
    return figures
