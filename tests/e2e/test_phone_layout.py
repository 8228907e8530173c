"""Phone layout (390 px wide): tap targets of at least 44 px, checkboxes beside their labels."""

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
from campaigns.models import Campaign
from characters.services import creation as characters
narrator = User.objects.create_user({narrator!r}, password={password!r})
campaign = campaigns.campaign_create(owner=narrator, data={{"name": "Téléphone {suffix}"}})
Campaign.objects.filter(pk=campaign.pk).update(savage_states=True)
characters.npc_create(campaign=campaign, actor=narrator, name="Gros Louis", concept="Truand", ranks={{"combat": 2}})
print(json.dumps({{"campaign": campaign.pk}}))
"""


def test_phone_tap_targets_and_checkboxes_beside_their_labels(new_context, run_in_server_db) -> None:  # type: ignore[no-untyped-def]
    suffix = uuid.uuid4().hex[:6]
    mj = f"mj{suffix}"
    campaign = json.loads(run_in_server_db(SETUP.format(narrator=mj, password=E2E_PASSWORD, suffix=suffix)))["campaign"]
    phone = new_context(viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True).new_page()
    login(phone, mj)

    phone.goto(f"/campaigns/{campaign}/dashboard/")
    link = phone.locator(".savage-link").first
    link.scroll_into_view_if_needed()
    assert link.bounding_box()["height"] >= 44

    phone.goto(f"/conflicts/{campaign}/")
    form = phone.locator(f"form[action='/conflicts/{campaign}/test/']")
    boxes = form.locator("input[type=checkbox]")
    assert boxes.count() >= 3
    for i in range(boxes.count()):
        box = boxes.nth(i)
        label = form.locator(f"label[for='{box.get_attribute('id')}']")
        b, lab = box.bounding_box(), label.bounding_box()
        assert lab["x"] >= b["x"] + b["width"], "the label sits beside its checkbox"
        assert lab["y"] <= b["y"] + b["height"] / 2 <= lab["y"] + lab["height"], "on the same line"
        assert lab["x"] + lab["width"] <= 390, "and wraps inside the screen"
        assert max(lab["height"], b["height"]) >= 34


SHEET = """
import json
from django.contrib.auth.models import User
from campaigns import services as campaigns
from campaigns.models import Membership
from characters.models import CharacterTrait
from characters.services import creation as characters
narrator = User.objects.create_user({narrator!r}, password={password!r})
player = User.objects.create_user({player!r}, password={password!r})
campaign = campaigns.campaign_create(owner=narrator, data={{"name": "Fiche {suffix}", "creation_mode": "free"}})
Membership.objects.create(campaign=campaign, user=player, role="player")
jim = characters.character_create(campaign=campaign, actor=player, name="Jim", concept="Médecin", goal="Soigner",
    ranks={{"psychologie_des_foules": 3}}, custom_traits=[{{"name": "Psychologie des foules"}}])
for code, name, rank in (("connaissances", "Connaissances", 1), ("sciences", "Sciences", 1), ("medecine", "Médecine", 5)):
    CharacterTrait.objects.create(character=jim, code=code, kind="field", name_fr=name, name_en=name, rank=rank)
for name in ("Inspecteur Garnier", "Gros Louis"):
    characters.npc_create(campaign=campaign, actor=narrator, name=name, concept="Truand", ranks={{"combat": 2}})
print(json.dumps({{"jim": jim.pk}}))
"""


def test_the_narrators_view_of_a_sheet_and_its_roll_dialog_fit_a_phone(new_context, run_in_server_db) -> None:  # type: ignore[no-untyped-def]
    """The narrator's sheet has a Veto beside each trait the player named and a roll button on every row: at 390 px
    the traits table grew past the screen (the name held at 55 %, the Veto a column of its own), the page slid
    sideways and the roll dialog, centred on the wider page, was cut on the right with its opponents' chips."""
    suffix = uuid.uuid4().hex[:6]
    mj, player = f"mjfiche{suffix}", f"fiche{suffix}"
    ids = json.loads(run_in_server_db(SHEET.format(narrator=mj, player=player, password=E2E_PASSWORD, suffix=suffix)))
    phone = new_context(viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True).new_page()
    login(phone, mj)
    phone.goto(f"/characters/{ids['jim']}/")
    assert phone.get_by_role("button", name="Veto").count() >= 1
    assert phone.evaluate("document.documentElement.scrollWidth") <= 390
    phone.locator("button.roll-more").first.click()
    dialog = phone.locator(".roll-dialog:popover-open")
    dialog.locator("[data-applies]").wait_for()
    box = dialog.bounding_box()
    assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= 390
    assert dialog.evaluate("d => d.scrollWidth <= d.clientWidth"), "nothing in the dialog is wider than the dialog"
    assert phone.evaluate("document.documentElement.scrollWidth") <= 390
