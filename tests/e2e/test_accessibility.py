"""axe-core (pinned: tests/e2e/vendor/axe-core-4.10.2.min.js, from the npm package, never a CDN) on main pages,
both languages, 390 and 1280 px: no critical and no serious violation.

The pages: login, campaign list, members (with invitation links), a sheet with its roll controls and the roll
dialog; the campaign home, the narrator's dashboard, the log, the campaign settings, the States page, a
Sequence as the narrator's console and as a player's page (with cards drawn), the player's sheet, a TRAGIC
board and a Frag board.
"""

from __future__ import annotations

import json
import uuid
from pathlib import Path

import pytest

from tests.e2e.conftest import E2E_PASSWORD, login

pytestmark = pytest.mark.e2e

AXE = Path(__file__).parent / "vendor" / "axe-core-4.10.2.min.js"
SETUP = """
import json
from django.contrib.auth.models import User
from campaigns import services as campaigns
from characters.services import creation as characters
narrator = User.objects.create_user({narrator!r}, password={password!r})
campaign = campaigns.campaign_create(owner=narrator, data={{"name": "Axe {suffix}"}})
campaigns.invitation_create(campaign=campaign, actor=narrator, role="player")
npc = characters.npc_create(campaign=campaign, actor=narrator, name="Gros Louis", concept="Truand", ranks={{"combat": 2}})
print(json.dumps({{"campaign": campaign.pk, "npc": npc.pk}}))
"""

TABLE = """
import json, random
from django.contrib.auth.models import User
from campaigns.models import Membership, Role
from characters.models import Character
from characters.services import creation as characters
from conflicts.rules.budget import Split
from conflicts.services import sequences as conflicts
from conflicts.services.drawing import participant_draw
from frag import services as frag
from tragic import services as tragic
narrator = User.objects.get(username={narrator!r})
campaign = Membership.objects.get(user=narrator).campaign
player = User.objects.create_user({player!r}, password={password!r})
Membership.objects.create(campaign=campaign, user=player, role=Role.PLAYER)
jim = characters.character_create(campaign=campaign, actor=player, name="Jim Bones", concept="Docker",
    goal="Passer", ranks={{"combat": 5, "esprit": 3}})
npc = Character.objects.get(campaign=campaign, name="Gros Louis")
scene = conflicts.scene_create(campaign=campaign, actor=narrator, title="Les docks")
sequence = conflicts.sequence_create(scene=scene, actor=narrator, data={{"title": "Bagarre"}})
conflicts.participant_add(sequence=sequence, actor=narrator, character=jim, side="PJ", trait_code="combat")
louis = conflicts.participant_add(sequence=sequence, actor=narrator, character=npc, side="Truands", trait_code="combat")
# A third participant out of the sequence: its row is set apart without fading its text.
out = conflicts.participant_add(sequence=sequence, actor=narrator, character=characters.npc_create(campaign=campaign,
    actor=narrator, name="Petit Louis", concept="Truand", ranks={{"combat": 2}}), side="Truands", trait_code="combat")
type(out).objects.filter(pk=out.pk).update(active=False)
sequence.refresh_from_db()
participant_draw(participant=louis, actor=narrator, expected_version=sequence.version,
    split=Split(attack={{str(louis.pk - 1): 1}}, defence={{str(louis.pk): 1}}), rng=random.Random(3))
game = tragic.game_create(user=narrator, deck_ref="ready:la-bande-des-terres-desolees", opponent="heuristic", seed=7)
seats = [frag.SeatSpec(name="Ana", health=2, speed=3, accuracy=2, user=narrator),
         frag.SeatSpec(name="Bot", health=2, speed=3, accuracy=2, bot="heuristic")]
board = frag.game_create(creator=narrator, map_name="entrepot", seats=seats, seed=5)
jim_p = sequence.participants.get(character=jim)
print(json.dumps({{"jim": jim.pk, "sequence": sequence.get_absolute_url(), "tragic": game.pk, "frag": board.pk,
                  "panel": f"/conflicts/{{campaign.pk}}/participants/{{jim_p.pk}}/"}}))
"""


# Below "serious" in axe's scale, and still found on a played evening (issue 28): failed too.
ALSO = ("heading-order", "empty-table-header", "scrollable-region-focusable", "duplicate-id", "duplicate-id-aria")


def _serious(page) -> list[str]:  # type: ignore[no-untyped-def]
    page.add_script_tag(path=str(AXE))
    result = page.evaluate("async () => await axe.run(document, {resultTypes: ['violations']})")
    return [
        f"{v['id']} ({v['impact']}): {[n['target'] for n in v['nodes']][:3]}"
        for v in result["violations"]
        if v["impact"] in ("critical", "serious") or v["id"] in ALSO
    ]


@pytest.mark.parametrize("language", ["fr", "en"])
@pytest.mark.parametrize("width", [390, 1280])
def test_main_pages_have_no_critical_or_serious_violation(new_context, run_in_server_db, language, width) -> None:  # type: ignore[no-untyped-def]
    suffix = uuid.uuid4().hex[:6]
    narrator = f"ax{suffix}"
    ids = json.loads(run_in_server_db(SETUP.format(narrator=narrator, password=E2E_PASSWORD, suffix=suffix)))
    page = new_context(viewport={"width": width, "height": 844}, is_mobile=width < 500).new_page()
    page.goto("/accounts/login/")
    page.locator(f".lang-switch button[value={language}]").click()
    problems = {"login": _serious(page)}
    login(page, narrator)
    page.locator(f".lang-switch button[value={language}]").click()
    for name, url in {
        "campaigns": "/campaigns/",
        "members": f"/campaigns/{ids['campaign']}/members/",
        "sheet": f"/characters/{ids['npc']}/",
    }.items():
        page.goto(url)
        problems[name] = _serious(page)
    page.goto(f"/characters/{ids['npc']}/")
    page.locator("button.roll-more").first.click()
    page.locator(".roll-dialog:popover-open [data-applies]").wait_for()  # its body, loaded when it opens
    problems["roll dialog"] = _serious(page)
    page.keyboard.press("Escape")
    page.locator(".other-tests-box summary").click()  # Atouts on another's Test, loaded when opened
    page.locator(".other-tests").wait_for()
    problems["another's Test"] = _serious(page)
    player = f"px{suffix}"
    table = json.loads(run_in_server_db(TABLE.format(narrator=narrator, player=player, password=E2E_PASSWORD)))
    c = ids["campaign"]
    for name, url in {
        "home (narrator)": f"/campaigns/{c}/",
        "dashboard": f"/campaigns/{c}/dashboard/",
        "log": f"/campaigns/{c}/log/",
        "settings": f"/campaigns/{c}/settings/",
        "states": f"/characters/{ids['npc']}/states/",
        "sequence (narrator)": table["sequence"],
        "sequence's story": f"{table['sequence']}story/",
        "tragic board": f"/tragic/games/{table['tragic']}/",
        "frag board": f"/frag/games/{table['frag']}/",
    }.items():
        page.goto(url)
        problems[name] = _serious(page)
    # The settings page's folds (a trait of the list, the new trait's form) are out of axe's sight until opened.
    page.goto(f"/campaigns/{c}/settings/")
    page.locator(".trait-line details summary").first.click()
    page.locator("#settings-traits details.fold summary").click()
    problems["settings (trait list unfolded)"] = _serious(page)
    phone = new_context(viewport={"width": width, "height": 844}, is_mobile=width < 500).new_page()
    login(phone, player)
    phone.locator(f".lang-switch button[value={language}]").click()
    for name, url in {
        "home (player)": f"/campaigns/{c}/",
        "sheet (player)": f"/characters/{table['jim']}/",
        "sequence (player)": table["sequence"],
        "draw panel (player)": table["panel"],
    }.items():
        phone.goto(url)
        problems[name] = _serious(phone)
    print("AXE", json.dumps({k: v for k, v in problems.items() if v}, indent=1))
    assert not {k: v for k, v in problems.items() if v}


TAP_TARGETS = """() => [...document.querySelectorAll(
    'button, a.button, label.chip, select, label:has(> input[type=checkbox]), label:has(> input[type=radio])')]
  .filter(e => e.offsetParent !== null && !e.closest('[popover]:not(:popover-open)'))
  .map(e => ({name: (e.getAttribute('aria-label') || e.textContent || e.name || '').trim().slice(0, 40),
              cls: e.className, height: e.getBoundingClientRect().height}))
  .filter(e => e.height < 43.5)"""


def test_every_button_of_a_phone_page_is_a_44px_tap_target(new_context, run_in_server_db) -> None:  # type: ignore[no-untyped-def]
    """Issue 28: « The quick-roll chips are 32.5 px tall »; buttons, chips and menus are 44px tall on a phone."""
    suffix = uuid.uuid4().hex[:6]
    narrator = f"tt{suffix}"
    ids = json.loads(run_in_server_db(SETUP.format(narrator=narrator, password=E2E_PASSWORD, suffix=suffix)))
    page = new_context(viewport={"width": 390, "height": 844}, is_mobile=True).new_page()
    login(page, narrator)
    small = {}
    for name, url in {
        "sheet": f"/characters/{ids['npc']}/",
        "members": f"/campaigns/{ids['campaign']}/members/",
    }.items():
        page.goto(url)
        small[name] = page.evaluate(TAP_TARGETS)
    page.goto(f"/characters/{ids['npc']}/")
    page.locator("button.roll-more").first.click()
    page.locator(".roll-dialog:popover-open [data-applies]").wait_for()
    small["roll dialog"] = page.evaluate(TAP_TARGETS)
    print("TAP", json.dumps({k: v for k, v in small.items() if v}, indent=1))
    assert not {k: v for k, v in small.items() if v}
