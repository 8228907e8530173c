"""A Test from the sheet on a 390 px phone, in French: tap the trait, read the dice, re-roll with an Atout."""

from __future__ import annotations

import json
import uuid

import pytest

from tests.e2e.conftest import E2E_PASSWORD, login

pytestmark = pytest.mark.e2e

SETUP = """
import json
from django.contrib.auth.models import User
from campaigns import services as campaigns
from campaigns.models import Membership
from characters.services import creation as characters
narrator = User.objects.create_user({narrator!r}, password={password!r})
player = User.objects.create_user({player!r}, password={password!r})
campaign = campaigns.campaign_create(owner=narrator, data={{"name": "Punk {suffix}", "creation_mode": "free"}})
Membership.objects.create(campaign=campaign, user=player, role="player")
janey = characters.character_create(campaign=campaign, actor=player, name="Janey", concept="Punkette",
    goal="Survivre", ranks={{"punkette_endurcie": 6}}, custom_traits=[{{"name": "Punkette endurcie"}}])
print(json.dumps({{"janey": janey.pk}}))
"""


def test_janey_rolls_her_only_trait_in_one_tap_and_re_rolls_with_an_atout(new_context, run_in_server_db) -> None:  # type: ignore[no-untyped-def]
    suffix = uuid.uuid4().hex[:6]
    player = f"janey{suffix}"
    ids = json.loads(
        run_in_server_db(SETUP.format(narrator=f"mj{suffix}", player=player, password=E2E_PASSWORD, suffix=suffix))
    )
    phone = new_context(viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True).new_page()
    login(phone, player)
    phone.goto(f"/characters/{ids['janey']}/")  # tap 0: the sheet is open
    quick = phone.locator("button[data-roll=punkette_endurcie]")
    assert "Moyenne" in (quick.text_content() or "")  # the remembered difficulty: Average for a first roll
    quick.click()  # tap 1: the Test is rolled at the last difficulty
    card = phone.locator("#roll-result .roll-card")
    card.wait_for()
    assert card.locator("[data-verdict]").count() == 1
    first_dice = card.locator(".dice").get_attribute("data-dice")
    card.locator("button[data-followup=reroll]").click()  # an Atout re-rolls
    phone.locator("#roll-result .roll-card s").wait_for()  # the old dice struck through beside the new ones
    assert phone.locator("#roll-result .roll-card .dice").get_attribute("data-dice") is not None
    assert first_dice
    phone.screenshot(path="/tmp/ux/sheet_roll_phone.png", full_page=True)
    wide = phone.evaluate(
        "[...document.querySelectorAll('body *')].filter(e => e.getBoundingClientRect().right > 392).slice(0, 5).map(e => e.tagName + '.' + e.className + ' ' + Math.round(e.getBoundingClientRect().right))"
    )
    assert phone.evaluate("document.documentElement.scrollWidth") <= 390, wide
