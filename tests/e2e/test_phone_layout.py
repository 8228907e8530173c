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
