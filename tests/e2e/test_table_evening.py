"""An evening at the table on phones: what another person just did shows up without a reload.

The player's campaign page says which sequence waits for their draw; once every card is on the table
their Atouts after the draw appear by themselves; a note that arrived live can be corrected."""

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
from conflicts.services import sequences as conflicts
narrator = User.objects.create_user({narrator!r}, password={password!r})
player = User.objects.create_user({player!r}, password={password!r})
campaign = campaigns.campaign_create(owner=narrator, data={{"name": "La crypte {suffix}"}})
Membership.objects.create(campaign=campaign, user=player, role=Role.PLAYER)
jim = characters.character_create(campaign=campaign, actor=player, name="Jim Bones", concept="Médecin",
    goal="Passer", ranks={{"combat": 5, "esprit": 3}})
ghoul = characters.npc_create(campaign=campaign, actor=narrator, name="La goule", concept="Goule", ranks={{"combat": 2}})
scene = conflicts.scene_create(campaign=campaign, actor=narrator, title="La crypte")
print(json.dumps({{"campaign": campaign.pk, "scene": scene.pk}}))
"""

IDS = """
import json
from conflicts.models import Participant
print(json.dumps({{p.character.name: p.pk for p in Participant.objects.filter(sequence__campaign_id={campaign})}}))
"""


def test_a_players_phone_follows_the_sequence_without_reloading(new_context, run_in_server_db) -> None:  # type: ignore[no-untyped-def]
    suffix = uuid.uuid4().hex[:6]
    mj, pj = f"mj{suffix}", f"pj{suffix}"
    ids = json.loads(run_in_server_db(SETUP.format(narrator=mj, player=pj, password=E2E_PASSWORD, suffix=suffix)))
    campaign = ids["campaign"]
    phone = {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True}

    player = new_context(**phone).new_page()
    login(player, pj)
    player.goto(f"/campaigns/{campaign}/")
    expect(player.locator("#live-status")).to_have_attribute("data-state", "open")

    narrator = new_context(**phone).new_page()
    login(narrator, mj)
    narrator.goto(f"/conflicts/{campaign}/scenes/{ids['scene']}/")
    narrator.get_by_label("Titre").fill("Le gardien")
    narrator.get_by_role("button", name="Lancer la Séquence").click()
    for name, side in (("Jim Bones", "Investigateurs"), ("La goule", "Goules")):
        add_to_sequence(narrator, name, side)
    participants = json.loads(run_in_server_db(IDS.format(campaign=campaign)))
    jim, ghoul = participants["Jim Bones"], participants["La goule"]

    # The player's campaign page now says where to go, without a reload.
    running = player.locator("#running-sequences")
    expect(running).to_contain_text("À vous de tirer : Jim Bones")
    running.get_by_role("link", name="Le gardien").click()
    player.locator(f"#panel-{jim}").get_by_role("button", name="Tirer", exact=True).click()
    expect(player.locator(f"#panel-{jim}")).to_contain_text("Vos cartes sont sur la table")
    expect(player.locator(f"#after-draw-{jim}")).to_be_empty()

    # The ghoul's row of the console opens on its draw panel.
    narrator.locator(f"#more-{ghoul} > summary").click()
    narrator.locator(f"#panel-{ghoul}").get_by_role("button", name="Tirer", exact=True).click()
    # Every card is on the table: the player's Atouts after the draw appear by themselves, and work.
    after = player.locator(f"#after-draw-{jim}")
    expect(after).to_contain_text("Jim Bones : Atouts, cartes sur la table")
    after.locator("input[name=card]").first.check()  # the player picks a card and its direction: none by default
    after.get_by_role("button", name="La changer").click()
    # Said where it was tapped: the card and the board are swapped in place, not the whole page (issue 28).
    expect(player.locator(f"#after-draw-{jim} [role=status]")).to_contain_text("Atout dépensé.")

    # The narrator records the Revers from the board as it came live, without reloading.
    expect(narrator.locator(".board")).to_contain_text("change le résultat d'une carte")
    narrator.get_by_role("button", name="Inscrire les Revers sur les feuilles").click()
    expect(narrator.locator(".messages")).to_contain_text("Les Revers sont inscrits sur les feuilles.")


SWEEP = """
import json
from django.contrib.auth.models import User
from campaigns import services as campaigns
from campaigns.models import Campaign
from characters.services import creation as characters
from conflicts.services import sequences as conflicts
narrator = User.objects.create_user({narrator!r}, password={password!r})
campaign = campaigns.campaign_create(owner=narrator, data={{"name": "Balayage {suffix}"}})
Campaign.objects.filter(pk=campaign.pk).update(savage_states=True)
louis = characters.npc_create(campaign=campaign, actor=narrator, name="Gros Louis", concept="Truand", ranks={{"combat": 2}})
scene = conflicts.scene_create(campaign=campaign, actor=narrator, title="Les docks")
sequence = conflicts.sequence_create(scene=scene, actor=narrator, data={{"title": "Bagarre"}})
conflicts.participant_add(sequence=sequence, actor=narrator, character=louis, side="Truands", trait_code="combat")
print(json.dumps({{"campaign": campaign.pk, "scene": scene.pk, "sequence": sequence.pk, "louis": louis.pk}}))
"""

NARROW = """() => {
  const small = [...document.querySelectorAll('main input:not([type=hidden]):not([type=checkbox]):not([type=radio]), main select')]
    .filter(e => { const r = e.getBoundingClientRect(); return r.width > 0 && r.height < 43.5; })
    .map(e => e.name + ' ' + Math.round(e.getBoundingClientRect().height));
  return {scroll: document.documentElement.scrollWidth - document.documentElement.clientWidth, small};
}"""


def test_the_narrators_pages_fit_a_phone(new_context, run_in_server_db) -> None:  # type: ignore[no-untyped-def]
    """No page scrolls sideways at 390 px, and every field is at least 44 px tall."""
    suffix = uuid.uuid4().hex[:6]
    mj = f"mj{suffix}"
    ids = json.loads(run_in_server_db(SWEEP.format(narrator=mj, password=E2E_PASSWORD, suffix=suffix)))
    campaign = ids["campaign"]
    phone = new_context(viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True).new_page()
    login(phone, mj)
    for path in (
        f"/campaigns/{campaign}/dashboard/", f"/campaigns/{campaign}/log/", f"/campaigns/{campaign}/sessions/",
        f"/campaigns/{campaign}/members/", f"/campaigns/{campaign}/settings/", f"/conflicts/{campaign}/",
        f"/conflicts/{campaign}/table/", f"/conflicts/{campaign}/scenes/{ids['scene']}/",
        f"/conflicts/{campaign}/sequences/{ids['sequence']}/", f"/characters/campaign/{campaign}/round/",
        f"/characters/{ids['louis']}/states/",
    ):  # fmt: skip
        phone.goto(path)
        found = phone.evaluate(NARROW)
        assert found["scroll"] == 0, f"{path} scrolls sideways by {found['scroll']} px"
        assert not found["small"], f"{path}: fields under 44 px: {found['small']}"
