"""The narrator gives an NPC its fourth wound; the État critique roll is prompted, rolled and logged,
and a player's open round tracker shows the new state without reload."""

from __future__ import annotations

import json
import re
import uuid

import pytest
from playwright.sync_api import expect

from tests.e2e.conftest import login

pytestmark = pytest.mark.e2e

SETUP = """
import json
from django.contrib.auth.models import User
from campaigns.models import Membership, Role
from campaigns.services import campaign_create
from characters.models import Character, CharacterKind
from states.services.rounds import savage_round_set_participants
from states.services.sheet import savage_sheet_update
from states.services.wounds import savage_wounds_set

narrator = User.objects.get(username={narrator!r})
player = User.objects.get(username={player!r})
campaign = campaign_create(owner=narrator, data={{"name": "Les Ombres de Lutèce"}})
Membership.objects.create(campaign=campaign, user=player, role=Role.PLAYER)
pc = Character.objects.create(campaign=campaign, owner=player, kind=CharacterKind.PC, name="Jim")
npc = Character.objects.create(campaign=campaign, kind=CharacterKind.NPC, name="Le Borgne")
savage_sheet_update(character=npc, actor=narrator, data={{"vigor_die": "d8", "base_pace": 6, "base_parry": 5}}, expected_version=None)
savage_wounds_set(character=npc, actor=narrator, count=3, expected_version=None)
savage_round_set_participants(campaign=campaign, actor=narrator, characters=[pc, npc], expected_version=None)
print(json.dumps({{"campaign": campaign.pk, "npc": npc.pk}}))
"""


def test_fourth_wound_on_an_npc_prompts_the_etat_critique_roll_and_players_see_it_live(
    new_context, make_user, run_in_server_db
) -> None:  # type: ignore[no-untyped-def]
    suffix = uuid.uuid4().hex[:6]
    narrator_name, player_name = make_user(f"mj{suffix}"), make_user(f"pj{suffix}")
    ids = json.loads(
        run_in_server_db(SETUP.format(narrator=narrator_name, player=player_name)).strip().splitlines()[-1]
    )

    player = new_context().new_page()
    login(player, player_name)
    player.goto(f"/characters/campaign/{ids['campaign']}/round/")
    expect(player.locator("#live-status")).to_have_attribute("data-state", "open")
    npc_row = player.locator(f"li[data-character='{ids['npc']}']")
    expect(npc_row.locator("[data-state=wounds]")).to_have_text(re.compile("3"))
    expect(npc_row.locator("[data-state=incapacitated]")).to_have_count(0)

    narrator = new_context().new_page()
    login(narrator, narrator_name)
    narrator.goto(f"/characters/{ids['npc']}/states/")
    narrator.get_by_role("button", name="Mettre les Blessures à 4").click()

    roll = narrator.get_by_role("button", name="Jet de Vigueur (État critique)")
    expect(roll).to_be_visible()
    expect(npc_row.locator("[data-state=incapacitated]")).to_contain_text("État critique")
    roll.click()
    expect(narrator.get_by_role("button", name="Jet de Vigueur (État critique)")).to_have_count(0)

    expect(player.locator("#live-feed")).to_contain_text("Le Borgne, en État critique, fait un jet de Vigueur")
    expect(narrator.locator("#live-feed")).to_contain_text("Le Borgne, en État critique, fait un jet de Vigueur")
    expect(npc_row.locator("[data-state=incapacitated]")).not_to_contain_text("jet attendu")
