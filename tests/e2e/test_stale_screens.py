"""Issue 26, in the browser: an open sheet follows what it shows without a reload. After a live wound its one-tap
chips show the new chances; the « take a Revers in another's place » list offers a Revers inflicted a moment ago.
(tests/characters/test_stale_screens.py checks the same cases region by region, without a browser.)"""

from __future__ import annotations

import json
import uuid

import pytest
from playwright.sync_api import expect

from tests.e2e.conftest import login

pytestmark = pytest.mark.e2e

SETUP = """
import json
from django.contrib.auth.models import User
from campaigns import services
from campaigns.models import Membership, Role
from characters.services import creation as characters
narrator = User.objects.get(username={narrator!r})
jim_player, lisa_player = User.objects.get(username={jim!r}), User.objects.get(username={lisa!r})
campaign = services.campaign_create(owner=narrator, data={{"name": "Écrans à jour {suffix}", "savage_states": True}})
for player in (jim_player, lisa_player):
    Membership.objects.create(campaign=campaign, user=player, role=Role.PLAYER)
jim = characters.character_create(campaign=campaign, actor=jim_player, name="Jim Bones", concept="Médecin",
    goal="Survivre", ranks={{"medecine": 4, "esprit": 5}}, custom_traits=[])
lisa = characters.character_create(campaign=campaign, actor=lisa_player, name="Lisa Vega", concept="Pilote",
    goal="Fuir", ranks={{"pilotage": 5}}, custom_traits=[])
print(json.dumps({{"jim": jim.pk, "lisa": lisa.pk}}))
"""


def test_an_open_sheet_shows_new_chances_after_a_wound_and_offers_a_revers_inflicted_a_moment_ago(  # type: ignore[no-untyped-def]
    new_context, make_user, run_in_server_db
) -> None:
    suffix = uuid.uuid4().hex[:6]
    narrator, jim_player, lisa_player = (make_user(f"{who}{suffix}") for who in ("mj", "jim", "lisa"))
    ids = json.loads(run_in_server_db(SETUP.format(narrator=narrator, jim=jim_player, lisa=lisa_player, suffix=suffix)))
    phone = new_context(viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True).new_page()
    login(phone, jim_player)
    phone.goto(f"/characters/{ids['jim']}/")
    expect(phone.locator("#live-status")).to_have_attribute("data-state", "open")
    phone.evaluate("window.sameLoad = true")  # gone if the page reloads
    chip = phone.locator("button.roll-quick[data-roll=medecine] .roll-chance")
    before = chip.inner_text()

    narrator_page = new_context().new_page()
    login(narrator_page, narrator)

    # The narrator sets two wounds: each weighs on every Trait roll (−1 a wound), so the chip's chance falls, as the
    # roll will carry it.
    narrator_page.goto(f"/characters/{ids['jim']}/states/")
    narrator_page.get_by_role("button", name="Mettre les Blessures à 2").click()
    expect(chip).not_to_have_text(before)
    after = chip.inner_text()
    fresh = new_context(viewport={"width": 390, "height": 844}).new_page()
    login(fresh, jim_player)
    fresh.goto(f"/characters/{ids['jim']}/")
    assert fresh.locator("button.roll-quick[data-roll=medecine] .roll-chance").inner_text() == after

    # Lisa is bitten: Jim's open sheet offers to take her Revers, without a reload.
    take = phone.locator("#form-take_revers")
    expect(take).to_have_count(0)  # nobody else has a Revers yet: the fold is not shown
    narrator_page.goto(f"/characters/{ids['lisa']}/")
    narrator_page.locator("summary", has_text="Infliger un Revers").click()
    form = narrator_page.locator("#form-revers")
    form.locator("[name=source]").fill("Morsure")
    form.locator("button[type=submit]").click()
    expect(take).to_have_count(1)
    expect(take.locator("option", has_text="Lisa Vega")).to_have_count(1)
    assert phone.evaluate("window.sameLoad === true")
