"""axe-core (pinned: tests/e2e/vendor/axe-core-4.10.2.min.js, from the npm package, never a CDN) on main pages,
both languages, 390 and 1280 px: no critical and no serious violation.

The pages covered so far: login, campaign list, a sheet with its roll controls, the roll dialog, the members
page with invitation links. More pages join as their known violations are fixed (see docs).
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


def _serious(page) -> list[str]:  # type: ignore[no-untyped-def]
    page.add_script_tag(path=str(AXE))
    result = page.evaluate("async () => await axe.run(document, {resultTypes: ['violations']})")
    return [
        f"{v['id']} ({v['impact']}): {[n['target'] for n in v['nodes']][:3]}"
        for v in result["violations"]
        if v["impact"] in ("critical", "serious")
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
    problems["roll dialog"] = _serious(page)
    page.keyboard.press("Escape")
    page.locator(".other-tests-box summary").click()  # Atouts on another's Test, loaded when opened
    page.locator(".other-tests").wait_for()
    problems["another's Test"] = _serious(page)
    assert not {k: v for k, v in problems.items() if v}
