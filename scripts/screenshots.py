"""`make screenshots`: the sheet, the roll dialog, a Sequence and its board, the narrator's Sequence console in
the middle of a draw, at 390 and 1280 px, in French and English, into docs/screenshots/ (so a reader sees the
product without running it).

It serves the demo campaign from a throwaway SQLite database with uvicorn on SCREENSHOT_PORT (default 8500)
and drives Debian's Chromium through Playwright. Nothing leaves loopback.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path
from typing import Any

from playwright.sync_api import sync_playwright

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "docs" / "screenshots"
PORT = int(os.environ.get("SCREENSHOT_PORT", "8500"))
PASSWORD = "screenshots-123"
CHROMIUM = os.environ.get("CHROMIUM", "/usr/bin/chromium")
FIND = """
import json
from campaigns.models import Campaign
from characters.models import Character
from conflicts.models import Sequence
import random
from campaigns.models import Membership
from characters.services.creation import npc_create
from conflicts.decks import table_settings
from conflicts.selectors import participants_of
from conflicts.setup import budget_of, default_split, penalty_of
from conflicts.services.drawing import participant_draw
from conflicts.services.sequences import participant_add, sequence_create
c = Campaign.objects.get()
jim = Character.objects.get(campaign=c, name="Jim Bones")
seq = Sequence.objects.filter(scene__campaign=c).first()
# The narrator's console in the middle of a draw: Jim has drawn, three NPCs wait for the one tap.
narrator = Membership.objects.filter(campaign=c, role="narrator").first().user
console = sequence_create(scene=seq.scene, actor=narrator, data={"title": "Les hommes du chauffeur"})
jim_in = participant_add(sequence=console, actor=narrator, character=jim, side="Jim et Lisa", goal="passer",
                         trait_code="combat")
thugs = []
for name in ("Gros Louis", "Le Borgne", "La Fouine"):
    npc = npc_create(campaign=c, actor=narrator, name=name, concept="Homme de main", ranks={"combat": 3})
    thugs.append(participant_add(sequence=console, actor=narrator, character=npc, side="Les hommes de main",
                                 goal="les arrêter", trait_code="combat"))
console.refresh_from_db()
everyone = participants_of(console)
me = next(p for p in everyone if p.pk == jim_in.pk)
budget = budget_of(me, console, table_settings(c), penalty=penalty_of(me, console), everyone=everyone)
participant_draw(participant=me, actor=jim.owner, expected_version=console.version,
                 split=default_split(me, everyone, budget), rng=random.Random(4))
print(json.dumps({"campaign": c.pk, "jim": jim.pk, "sequence": seq.get_absolute_url() if seq else None,
                  "console": console.get_absolute_url()}))
"""


def main() -> int:
    OUT.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as tmp:
        env = {**os.environ, "DATABASE_URL": f"sqlite:///{tmp}/shots.sqlite3", "DEBUG": "false",
               "STATIC_MANIFEST": "false", "ALLOWED_HOSTS": "127.0.0.1,localhost", "PYTHONPATH": str(ROOT),
               "DJANGO_SETTINGS_MODULE": "config.settings"}  # fmt: skip
        env.pop("REDIS_URL", None)
        py = sys.executable
        subprocess.run([py, "manage.py", "migrate", "--noinput", "-v", "0"], cwd=ROOT, env=env, check=True)
        subprocess.run([py, "manage.py", "load_demo", "--password", PASSWORD], cwd=ROOT, env=env, check=True,
                       stdout=subprocess.DEVNULL)  # fmt: skip
        ids = json.loads(subprocess.run([py, "manage.py", "shell", "-c", FIND], cwd=ROOT, env=env, check=True,
                                        capture_output=True, text=True).stdout.strip().splitlines()[-1])  # fmt: skip
        server = subprocess.Popen([py, "-m", "uvicorn", "config.asgi:application", "--host", "127.0.0.1",
                                   "--port", str(PORT), "--no-access-log"], cwd=ROOT, env=env)  # fmt: skip
        try:
            base = f"http://127.0.0.1:{PORT}"
            for _ in range(150):
                try:
                    urllib.request.urlopen(base + "/healthz", timeout=1)
                    break
                except OSError:
                    time.sleep(0.2)
            shoot(base, ids)
        finally:
            server.terminate()
            server.wait(timeout=10)
    print(f"screenshots in {OUT.relative_to(ROOT)}/")
    return 0


def _signed_in(browser: Any, base: str, username: str, language: str, width: int, height: int) -> tuple[Any, Any]:
    """A new browser context at that size, signed in as ``username`` and reading ``language``."""
    context = browser.new_context(base_url=base, viewport={"width": width, "height": height},
                                  locale=language, is_mobile=width < 500, has_touch=width < 500)  # fmt: skip
    context.add_cookies([{"name": "django_language", "value": language, "url": base}])
    page = context.new_page()
    page.goto("/accounts/login/")
    page.fill("input[name=username]", username)
    page.fill("input[name=password]", PASSWORD)
    page.locator("form button[type=submit]").last.click()
    page.wait_for_load_state()
    # The demo accounts' profiles say French: switch as a reader would, with the bar's FR/EN.
    page.locator(f".lang-switch button[value={language}]").click()
    page.wait_for_load_state()
    return context, page


def shoot(base: str, ids: dict) -> None:  # type: ignore[type-arg]
    pages = {"sheet": f"/characters/{ids['jim']}/", "dashboard": f"/campaigns/{ids['campaign']}/dashboard/"}
    if ids.get("sequence"):
        pages["sequence"] = ids["sequence"]
    pages["console"] = ids["console"]
    with sync_playwright() as p:
        browser = p.chromium.launch(
            executable_path=CHROMIUM, args=["--no-sandbox", "--disable-gpu", "--disable-background-networking"]
        )
        for language in ("fr", "en"):
            for width, height in ((390, 844), (1280, 900)):
                context, page = _signed_in(browser, base, "narratrice", language, width, height)
                for name, url in pages.items():
                    page.goto(url)
                    page.screenshot(path=str(OUT / f"{name}-{language}-{width}.png"), full_page=width > 500)
                # The campaign's one settings page, a trait of the list unfolded (its form, its ↑ ↓).
                page.goto(f"/campaigns/{ids['campaign']}/settings/#settings-traits")
                page.locator(".trait-line details summary").first.click()
                page.screenshot(path=str(OUT / f"settings-{language}-{width}.png"), full_page=width > 500)
                page.goto(pages["sheet"])
                page.locator("button.roll-more").first.click()
                page.locator(".roll-dialog:popover-open [data-applies]").wait_for()
                page.screenshot(path=str(OUT / f"roll-dialog-{language}-{width}.png"))
                page.locator(".roll-dialog:popover-open button[data-roll-test]").click()
                page.locator("#roll-result .roll-card").wait_for()
                page.locator("#roll-result").scroll_into_view_if_needed()
                page.screenshot(path=str(OUT / f"roll-result-{language}-{width}.png"))
                context.close()
                # A player's phone opens on "now": their character and what the table expects of them, on the
                # first screen (the viewport only, as the phone shows it).
                context, page = _signed_in(browser, base, "joueur1", language, width, height)
                page.goto(f"/campaigns/{ids['campaign']}/")
                page.screenshot(path=str(OUT / f"home-player-{language}-{width}.png"))
                context.close()
        browser.close()


if __name__ == "__main__":
    sys.exit(main())
