"""The narrator's Sequence console on a 390 px phone: three NPCs drawn in one tap; the participant rows and an
opened draw panel follow the player's draw live (two browser contexts), with no out-of-band fragment sent
to a region the page does not show."""

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
from campaigns.models import Membership, Role
from characters.services import creation as characters
from conflicts.services import sequences as conflicts
narrator = User.objects.create_user({narrator!r}, password={password!r})
player = User.objects.create_user({player!r}, password={password!r})
campaign = campaigns.campaign_create(owner=narrator, data={{"name": "Console {suffix}"}})
Membership.objects.create(campaign=campaign, user=player, role=Role.PLAYER)
jim = characters.character_create(campaign=campaign, actor=player, name="Jim Bones", concept="Docker",
    goal="Passer", ranks={{"combat": 5, "esprit": 3}})
scene = conflicts.scene_create(campaign=campaign, actor=narrator, title="Les docks")
sequence = conflicts.sequence_create(scene=scene, actor=narrator, data={{"title": "Bagarre sur le quai"}})
ids = {{"campaign": campaign.pk, "sequence": sequence.get_absolute_url()}}
ids["jim"] = conflicts.participant_add(sequence=sequence, actor=narrator, character=jim, side="PJ",
    goal="passer", trait_code="combat").pk
ids["npcs"] = []
for name in ("Gros Louis", "Le Borgne", "La Fouine"):
    npc = characters.npc_create(campaign=campaign, actor=narrator, name=name, concept="Truand", ranks={{"combat": 2}})
    ids["npcs"].append(conflicts.participant_add(sequence=sequence, actor=narrator, character=npc, side="Truands",
        goal="l'arrêter", trait_code="combat").pk)
print(json.dumps(ids))
"""


def test_the_narrator_draws_three_npcs_in_one_tap_and_the_rows_follow_the_players_draw(  # type: ignore[no-untyped-def]
    new_context, run_in_server_db
) -> None:
    suffix = uuid.uuid4().hex[:6]
    mj, pj = f"mj{suffix}", f"pj{suffix}"
    ids = json.loads(run_in_server_db(SETUP.format(narrator=mj, player=pj, password=E2E_PASSWORD, suffix=suffix)))
    jim, npcs = ids["jim"], ids["npcs"]
    phone = {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True}

    narrator = new_context(**phone).new_page()
    no_target: list[str] = []
    narrator.on("console", lambda m: no_target.append(m.text) if "oob" in m.text.lower() else None)
    login(narrator, mj)
    narrator.goto(ids["sequence"])
    expect(narrator.locator("#live-status")).to_have_attribute("data-state", "open")
    # One NPC per row, its split in three fields; the page does not scroll sideways.
    for npc in npcs:
        expect(narrator.locator(f"#bulk-attack-{npc}")).to_be_visible()
    assert narrator.evaluate("document.documentElement.scrollWidth - document.documentElement.clientWidth") <= 0
    # Jim's row opened on demand: his draw panel loads, and stays open through the live refreshes below.
    narrator.locator(f"#more-{jim} > summary").click()
    expect(narrator.locator(f"#panel-{jim}")).to_contain_text("Répartissez vos cartes")

    player = new_context(**phone).new_page()
    login(player, pj)
    player.goto(f"/conflicts/{ids['campaign']}/participants/{jim}/")
    player.locator(f"#panel-{jim}").get_by_role("button", name="Tirer", exact=True).click()
    expect(player.locator(f"#panel-{jim}")).to_contain_text("Vos cartes sont sur la table")

    # Live, without a reload: Jim's row says he drew and shows his cards; his opened panel follows.
    expect(narrator.locator(f"#participant-{jim} [data-drawn]")).to_be_visible()
    expect(narrator.locator(f"#participant-{jim} svg.playing-card")).to_have_count(5)
    expect(narrator.locator(f"#more-{jim}")).to_have_attribute("open", "")
    expect(narrator.locator(f"#panel-{jim}")).to_contain_text("Vos cartes sont sur la table")
    expect(narrator.locator(".console-head")).to_contain_text("3 sur 4 doivent encore tirer")

    narrator.get_by_role("button", name="Tirer pour les 3 PNJ").click()
    expect(narrator.locator(".messages")).to_contain_text("3 PNJ ont tiré.")
    for npc in npcs:
        expect(narrator.locator(f"#participant-{npc} [data-drawn]")).to_be_visible()
    expect(narrator.get_by_role("button", name="Inscrire les Revers sur les feuilles")).to_be_visible()
    # The player's board shows the NPCs' cards as they fell, live.
    for npc in npcs:
        expect(player.locator(f"#participant-{npc} svg.playing-card").first).to_be_attached()
    assert not no_target, no_target
