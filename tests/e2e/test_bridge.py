"""The bridge in the browser: a player whose character is in État critique reads why it cannot draw; the narrator
turns Revers into wounds, a Revers sérieux lands, and the player's next Test shows the single −2 (issue 13)."""

from __future__ import annotations

import json
import uuid

import pytest
from playwright.sync_api import expect

from tests.e2e.conftest import E2E_PASSWORD, login

pytestmark = pytest.mark.e2e

SETUP = """
import json
from django.contrib.auth.models import User
from campaigns import services as campaigns
from campaigns.models import Membership
from characters.services.creation import character_create, npc_create
from conflicts.services.sequences import participant_add, scene_create, sequence_create
from states.services.wounds import savage_wounds_set
narrator = User.objects.create_user({narrator!r}, password={password!r})
player = User.objects.create_user({player!r}, password={password!r})
campaign = campaigns.campaign_create(owner=narrator, data={{"name": "Lutèce {suffix}"}})
Membership.objects.create(campaign=campaign, user=player, role="player")
jim = character_create(campaign=campaign, actor=player, name="Jim", concept="Médecin", goal="Survivre",
                       ranks={{"combat": 5}})
lisa = character_create(campaign=campaign, actor=player, name="Lisa", concept="Tireuse", goal="Gagner",
                        ranks={{"combat": 5}})
thug = npc_create(campaign=campaign, actor=narrator, name="Le Borgne", concept="Truand", ranks={{"combat": 3}})
scene = scene_create(campaign=campaign, actor=narrator, title="Les docks")
seq = sequence_create(scene=scene, actor=narrator, data={{"title": "Bagarre"}})
me = participant_add(sequence=seq, actor=narrator, character=jim, side="PJ", goal="passer", trait_code="combat")
participant_add(sequence=seq, actor=narrator, character=thug, side="Truands", goal="arrêter", trait_code="combat")
savage_wounds_set(character=jim, actor=narrator, count=4, expected_version=None)
print(json.dumps({{"campaign": campaign.pk, "jim_participant": me.pk, "lisa": lisa.pk}}))
"""

REVERS = """
from characters.models import Character
from conflicts import sheets
from django.contrib.auth.models import User
lisa = Character.objects.get(pk={lisa})
sheets.revers_inflict(character=lisa, actor=User.objects.get(username={narrator!r}), domain="physical", severity=2,
                      source="Bagarre", payload={{}}, nature="deep")
print("ok")
"""


def test_etat_critique_says_why_and_a_revers_turned_into_wounds_keeps_one_penalty(
    new_context, run_in_server_db
) -> None:  # type: ignore[no-untyped-def]
    suffix = uuid.uuid4().hex[:6]
    narrator_name, player_name = f"mj{suffix}", f"pj{suffix}"
    out = run_in_server_db(
        SETUP.format(narrator=narrator_name, player=player_name, password=E2E_PASSWORD, suffix=suffix)
    )
    ids = json.loads(out.strip().splitlines()[-1])

    phone = new_context(viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True).new_page()
    login(phone, player_name)
    phone.goto(f"/conflicts/{ids['campaign']}/participants/{ids['jim_participant']}/")
    blocked = phone.locator(f"#panel-{ids['jim_participant']} .states-blocked")
    expect(blocked).to_contain_text("État critique")
    expect(blocked).to_contain_text("Il ne peut plus agir")
    expect(phone.get_by_role("button", name="Tirer", exact=True)).to_have_count(0)

    narrator = new_context().new_page()
    login(narrator, narrator_name)
    # The old address of the states' options leads to their section of the campaign's one settings page.
    narrator.goto(f"/characters/campaign/{ids['campaign']}/savage-settings/")
    states = narrator.locator("#settings-states")
    states.get_by_label("Les Revers physiques deviennent des Blessures").check()
    states.get_by_role("button", name="Enregistrer").click()
    expect(narrator.locator("body")).to_contain_text("enregistr")
    assert run_in_server_db(REVERS.format(lisa=ids["lisa"], narrator=narrator_name)).strip().endswith("ok")

    phone.goto(f"/characters/{ids['lisa']}/")
    phone.locator("button[data-roll=combat]").click()
    card = phone.locator("#roll-result .roll-card")
    card.wait_for()
    lines = card.locator("ul.budget li")
    expect(lines.filter(has_text="blessures")).to_have_count(1)
    expect(lines.filter(has_text="blessures")).to_contain_text("−2")
    expect(lines.filter(has_text="Revers")).to_have_count(0)
