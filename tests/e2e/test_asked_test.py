"""Issue 28: a Test the narrator asks for, first on the player's phone. The narrator asks from the dashboard (1280
px); the player's phone (390 px), open on the campaign's page, shows it without a reload, above the fold, with its
chance; one tap rolls it, the result card lands in view with the focus, and the ask is gone from both screens."""

from __future__ import annotations

import json
import uuid

import pytest
from playwright.sync_api import expect

from tests.e2e.conftest import E2E_PASSWORD, login
from tests.e2e.test_accessibility import _serious
from tests.e2e.test_now_phone import PHONE, _no_sideways_scroll, _on_first_screen, _watch

pytestmark = pytest.mark.e2e

SETUP = """
import json
from django.contrib.auth.models import User
from campaigns import services as campaigns
from campaigns.models import Membership
from characters.services.creation import character_create
narrator = User.objects.create_user({narrator!r}, password={password!r})
player = User.objects.create_user({player!r}, password={password!r})
campaign = campaigns.campaign_create(owner=narrator, data={{"name": "Demande {suffix}", "creation_mode": "free"}})
Membership.objects.create(campaign=campaign, user=player, role="player")
jim = character_create(campaign=campaign, actor=player, name="Jim", concept="Médecin", goal="Soigner",
    ranks={{"medecine": 4}})
print(json.dumps({{"campaign": campaign.pk, "jim": jim.pk}}))
"""


def test_the_narrator_asks_the_player_rolls_in_one_tap_and_it_is_gone_on_both_screens(
    new_context, run_in_server_db
) -> None:  # type: ignore[no-untyped-def]
    suffix = uuid.uuid4().hex[:6]
    mj, player = f"mjask{suffix}", f"ask{suffix}"
    ids = json.loads(run_in_server_db(SETUP.format(narrator=mj, player=player, password=E2E_PASSWORD, suffix=suffix)))

    phone = new_context(**PHONE).new_page()
    errors = _watch(phone)
    login(phone, player)
    phone.goto(f"/campaigns/{ids['campaign']}/")
    expect(phone.locator("#live-status")).to_have_attribute("data-state", "open")
    expect(phone.locator("#now-ask")).to_be_empty()

    desk = new_context(viewport={"width": 1280, "height": 900}).new_page()
    errors += _watch(desk)
    login(desk, mj)
    desk.goto(f"/campaigns/{ids['campaign']}/dashboard/")
    expect(desk.locator("#live-status")).to_have_attribute("data-state", "open")
    desk.locator("#ask-test summary").click()
    ask = desk.locator("#ask-test")
    ask.get_by_label("Jim").check()
    ask.get_by_label("Caractéristique").select_option("medecine")
    ask.get_by_label("Difficulté").select_option("5")
    ask.get_by_label("Note pour les joueurs").fill("Le blessé saigne")
    assert _serious(desk) == []  # the fold open, its form and the "now" block
    ask.get_by_role("button", name="Demander", exact=True).click()
    expect(desk.locator("#ask-test [role=status]")).to_have_text("Test demandé à Jim.")
    expect(desk.locator("#now-ask")).to_contain_text("Jim : Médecine, Difficile")

    # Live on the phone, no reload: first in the block, above the fold, with the exact chance (Moyen against
    # Difficile: 4dF ≥ +1, 31 outcomes of 81).
    roll = phone.locator("#now-ask button[data-asked-roll]")
    expect(roll).to_contain_text("Lancer Médecine")
    expect(roll).to_contain_text("38")
    expect(phone.locator("#now-ask")).to_contain_text("Le blessé saigne")
    _on_first_screen(roll)
    assert roll.bounding_box()["height"] >= 44
    _no_sideways_scroll(phone)
    assert _serious(phone) == []

    roll.tap()
    card = phone.locator("#roll-result .roll-card")
    card.wait_for()
    phone.wait_for_function("document.activeElement && document.activeElement.classList.contains('roll-card')")
    _on_first_screen(card)
    expect(card).to_contain_text("Jim")
    expect(phone.locator("#now-ask")).to_be_empty()
    expect(desk.locator("#now-ask")).to_be_empty()  # gone from the narrator's "who still has to roll" too
    expect(desk.locator("#live-feed")).to_contain_text("à la demande du Narrateur")
    _no_sideways_scroll(phone)
    # The narrator's form, open, on a phone too.
    desk.set_viewport_size({"width": 390, "height": 844})
    expect(desk.locator("#ask-test form")).to_be_visible()
    _no_sideways_scroll(desk)
    assert not errors, errors
