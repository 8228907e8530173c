"""One's own actions, measured in the browser: from the POST leaving the page to its answer swapped in (issue 28).

A player's phone (Debian's Chromium, 390 px, Playwright) on a throw-away server: a roll from the sheet, its
re-roll, a draw in a Sequence, changing a card once the cards are down, helping another player's Test (« Atouts on
another's Test », the Test rolled by the other player just before) and taking a Revers in another's place (a
Revers written on the other player's character just before). The page notes ``performance.now()`` at htmx's
``beforeRequest`` of a POST and at the ``afterSwap`` of its answer; p50 and p95 over ``BENCH_OWN_ROUNDS`` rounds
(default 12), with the load average before and after. Skipped (no figure) when Chromium or Playwright is missing.
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
mate = User.objects.create_user("joueur2bench", password={password!r})
campaign = campaigns.campaign_create(owner=narrator, data={{"name": "Mesures", "creation_mode": "free"}})
Membership.objects.create(campaign=campaign, user=player, role="player")
Membership.objects.create(campaign=campaign, user=mate, role="player")
session = campaigns.game_session_create(campaign=campaign, actor=narrator, date=dt.date(2026, 11, 28))
campaigns.game_session_open(game_session=session, actor=narrator)
jim = character_create(campaign=campaign, actor=player, name="Jim", concept="Médecin", goal="Soigner",
    ranks={{"combat": 4}})
CharacterTrait.objects.create(character=jim, code="medecine", kind="field", name_fr="Médecine", name_en="Medicine",
    rank=4)
atout_gain(character=jim, actor=narrator, amount=200)
lisa = character_create(campaign=campaign, actor=mate, name="Lisa", concept="Ingénieure", goal="Réparer",
    ranks={{"combat": 3, "esprit": 4}})
scene = scene_create(campaign=campaign, actor=narrator, title="Les docks")
fights = []
for i in range({rounds}):
    thug = npc_create(campaign=campaign, actor=narrator, name=f"Truand {{i}}", concept="Truand", ranks={{"combat": 2}})
    seq = sequence_create(scene=scene, actor=narrator, data={{"title": f"Bagarre {{i}}"}})
    participant_add(sequence=seq, actor=narrator, character=jim, side="PJ", goal="passer", trait_code="combat")
    other = participant_add(sequence=seq, actor=narrator, character=thug, side="Truands", goal="barrer",
        trait_code="combat")
    fights.append({{"sequence": seq.pk, "npc": other.pk}})
print(json.dumps({{"campaign": campaign.pk, "jim": jim.pk, "lisa": lisa.pk, "fights": fights}}))
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

# The other player's Test, just before Jim's player helps it (it is listed when the « Atouts on another's Test »
# box opens).
MATE_ROLLS = """
from django.contrib.auth.models import User
from characters.models import Character
from conflicts.services.fudge_tests import fudge_test_roll
lisa = Character.objects.select_related("campaign", "owner").get(pk={lisa})
fudge_test_roll(character=lisa, actor=User.objects.get(username="joueur2bench"),
    data={{"trait_code": "esprit", "difficulty": 4}})
"""

# A Revers on the other player's character, just before Jim's player takes it in her place (social: Jim's rolls above
# are not changed by it; one step, one Atout).
MATE_HURT = """
from django.contrib.auth.models import User
from characters.models import Character
from characters.services.revers import revers_inflict
lisa = Character.objects.select_related("campaign", "owner").get(pk={lisa})
revers_inflict(character=lisa, actor=User.objects.get(username="mjbench"), domain="social", severity=1,
    source="Une dispute")
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


MATE_MOVES = {"rolls": MATE_ROLLS, "hurt": MATE_HURT}


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
            before = os.getloadavg()[0]
            figures = _measure(server, ids, sync_playwright)
            return [Figure("own actions: load average (1 min) before", before, "load"), *figures,
                    Figure("own actions: load average (1 min) after", os.getloadavg()[0], "load")]  # fmt: skip
        finally:
            server.stop()


def _measure(server: BenchServer, ids: dict[str, Any], sync_playwright: Any) -> list[Figure]:
    base = f"http://127.0.0.1:{server.port}"
    times: dict[str, list[float]] = {
        "roll": [], "re-roll": [], "draw": [], "change a card": [], "help": [], "take a Revers": [],
    }  # fmt: skip
    rounds = int(os.environ.get("BENCH_OWN_ROUNDS", "12"))
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path=CHROMIUM,
            headless=True,
            args=["--no-sandbox", "--disable-gpu", "--disable-background-networking"],
        )
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
        for _ in range(rounds):
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
            # The form lists every card with the way it turns, none chosen: the first one is picked.
            changing = page.locator("form.card-change")
            changing.wait_for(timeout=30_000)
            changing.locator("input[name=card]").first.check()
            times["change a card"].append(_timed(page, changing.locator("button[value=change]").tap))

        jim = ids["jim"]
        for _ in range(rounds):
            # Help: the other player has just rolled; the box lists her Test when it opens (an htmx GET, not timed).
            server.python(MATE_MOVES["rolls"].format(lisa=ids["lisa"]))
            page.goto(f"/characters/{jim}/")
            page.locator(f"#other-tests-box-{jim} > summary").tap()
            form = page.locator(f"#other-tests-{jim} form")
            form.wait_for(timeout=30_000)
            form.locator("input[name=use][value=help]").check()
            form.locator("input[name=justification]").fill("Je tiens la lampe")
            times["help"].append(_timed(page, form.locator("button[data-other-test]").tap))
            page.locator(f"#other-tests-{jim} .message.success").wait_for(timeout=30_000)

        for _ in range(rounds):
            # Take a Revers: one was just written on the other player's character; the sheet offers it.
            server.python(MATE_MOVES["hurt"].format(lisa=ids["lisa"]))
            page.goto(f"/characters/{jim}/")
            form = page.locator("#form-take_revers")
            page.locator("details:has(#form-take_revers) > summary").tap()
            form.locator("select[name=revers]").select_option(index=0)
            times["take a Revers"].append(_timed(page, form.locator("button[type=submit]").tap))
            page.locator("#sheet .message.success").wait_for(timeout=30_000)
        browser.close()
    figures: list[Figure] = []
    for name, found in times.items():
        figures += _figures(name, found)
    return figures
