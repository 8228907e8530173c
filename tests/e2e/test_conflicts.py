"""The narrator starts a sequence between one PC and two NPCs; the player, on a phone, splits, sees the
odds, draws; the narrator's dashboard shows the Revers without a reload."""

from __future__ import annotations

import json
import uuid

import pytest
from playwright.sync_api import expect

from tests.e2e.conftest import E2E_PASSWORD, add_to_sequence, login

pytestmark = pytest.mark.e2e

SETUP = """
import json
from django.contrib.auth.models import User
from campaigns import services as campaigns
from campaigns.models import Membership, Role
from characters.services import creation as characters
narrator = User.objects.create_user({narrator!r}, password={password!r})
player = User.objects.create_user({player!r}, password={password!r})
campaign = campaigns.campaign_create(owner=narrator, data={{"name": "Les docks {suffix}"}})
Membership.objects.create(campaign=campaign, user=player, role=Role.PLAYER)
jim = characters.character_create(campaign=campaign, actor=player, name="Jim Bones", concept="Docker",
    goal="Passer", ranks={{"combat": 5, "esprit": 3}})
for name in ("Gros Louis", "Le Borgne"):
    characters.npc_create(campaign=campaign, actor=narrator, name=name, concept="Truand", ranks={{"combat": 2}})
print(json.dumps({{"campaign": campaign.pk, "jim": jim.pk}}))
"""

IDS = """
import json
from conflicts.models import Participant
print(json.dumps({{p.character.name: p.pk for p in Participant.objects.filter(sequence__campaign_id={campaign})}}))
"""


def test_a_sequence_from_the_narrators_dashboard_to_the_players_phone(new_context, run_in_server_db) -> None:  # type: ignore[no-untyped-def]
    suffix = uuid.uuid4().hex[:6]
    mj, pj = f"mj{suffix}", f"pj{suffix}"
    ids = json.loads(run_in_server_db(SETUP.format(narrator=mj, player=pj, password=E2E_PASSWORD, suffix=suffix)))
    campaign = ids["campaign"]

    narrator = new_context().new_page()
    login(narrator, mj)
    narrator.goto(f"/campaigns/{campaign}/dashboard/")
    narrator.get_by_role("link", name="Scènes").click()
    narrator.get_by_label("Titre").fill("Les docks")
    narrator.get_by_role("button", name="Ouvrir la scène").click()
    narrator.get_by_label("Titre").fill("Bagarre sur le quai")
    narrator.get_by_role("button", name="Lancer la Séquence").click()

    for name, side, goal in (
        ("Jim Bones", "PJ", "passer"),
        ("Gros Louis", "Truands", "l'arrêter"),
        ("Le Borgne", "Truands", "l'arrêter"),
    ):
        add_to_sequence(narrator, name, side, goal)
    participants = json.loads(run_in_server_db(IDS.format(campaign=campaign)))
    jim, louis, borgne = participants["Jim Bones"], participants["Gros Louis"], participants["Le Borgne"]

    # The console: both NPCs' splits set in their rows, drawn in one tap.
    for npc in (louis, borgne):
        narrator.locator(f"#bulk-attack-{npc}").fill("2")
        narrator.locator(f"#bulk-defence-{npc}").fill("0")
    narrator.get_by_role("button", name="Tirer pour les 2 PNJ").click()
    for npc in (louis, borgne):
        expect(narrator.locator(f"#participant-{npc} [data-drawn]")).to_be_visible()

    narrator.goto(f"/campaigns/{campaign}/dashboard/")
    expect(narrator.locator("#live-status")).to_have_attribute("data-state", "open")

    phone = new_context(viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True).new_page()
    login(phone, pj)
    phone.goto(f"/conflicts/{campaign}/participants/{jim}/")
    panel = phone.locator(f"#panel-{jim}")
    expect(panel).to_contain_text("cartes à placer : 5")
    panel.locator(f"input[name=attack_{louis}]").fill("3")
    panel.locator(f"input[name=defence_{jim}]").fill("2")
    expect(phone.locator(f"#odds-{jim}")).to_contain_text("Cartes placées : 5 sur 5")
    careful = phone.locator(f"#odds-{jim} tr[data-opponent='{louis}']").inner_text()
    # All in: with no defence on either side a Revers lands somewhere in all but about 1 draw in 1,000.
    panel.locator(f"input[name=attack_{louis}]").fill("5")
    panel.locator(f"input[name=defence_{jim}]").fill("0")
    expect(phone.locator(f"#odds-{jim}")).to_contain_text("Cartes placées : 5 sur 5")
    expect(phone.locator(f"#odds-{jim} tr[data-opponent='{louis}']")).not_to_have_text(careful)
    panel.get_by_role("button", name="Tirer", exact=True).click()
    expect(phone.locator(f"#panel-{jim}")).to_contain_text("Vos cartes sont sur la table")
    expect(phone.locator(f"#participant-{jim} .playing-card")).to_have_count(5)

    expect(narrator.locator("#live-feed")).to_contain_text("Les cartes sont sur la table dans « Bagarre sur le quai »")
    expect(narrator.locator("#live-feed")).to_contain_text("subit un Revers")
