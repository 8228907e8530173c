"""A Sequence in which nobody is stuck (issue 27, items 1 and 2), in the browser.

Jim is Shaken, with a weapon the narrator set to attack only: his phone offers the defence split, he draws it, and
later spends a Jeton from the draw panel to attack again (« il est possible d'utiliser un jeton à tout moment pour
éliminer un état Secoué »). Lisa falls into État critique in the middle of a draw (« Il ne peut plus agir »): the
draw resolves without her, the Sequence goes on, and the narrator ends it with a reason written in the log.
"""

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
from conflicts.services.sequences import participant_add, participant_update, scene_create, sequence_create
from states.services.shaken import savage_shaken_set, savage_token_award
narrator = User.objects.create_user({narrator!r}, password={password!r})
jims = User.objects.create_user({jims!r}, password={password!r})
lisas = User.objects.create_user({lisas!r}, password={password!r})
campaign = campaigns.campaign_create(owner=narrator, data={{"name": "Quai {suffix}"}})
for user in (jims, lisas):
    Membership.objects.create(campaign=campaign, user=user, role="player")
jim = character_create(campaign=campaign, actor=jims, name="Jim", concept="Docker", goal="Passer",
                       ranks={{"combat": 5}})
lisa = character_create(campaign=campaign, actor=lisas, name="Lisa", concept="Tireuse", goal="Couvrir",
                        ranks={{"combat": 5}})
thug = npc_create(campaign=campaign, actor=narrator, name="Le Borgne", concept="Truand", ranks={{"combat": 3}},
                  out_after=None)
scene = scene_create(campaign=campaign, actor=narrator, title="Les docks")
seq = sequence_create(scene=scene, actor=narrator, data={{"title": "Bagarre"}})
pj = participant_add(sequence=seq, actor=narrator, character=jim, side="PJ", goal="passer", trait_code="combat")
pl = participant_add(sequence=seq, actor=narrator, character=lisa, side="PJ", goal="couvrir", trait_code="combat")
pt = participant_add(sequence=seq, actor=narrator, character=thug, side="Truands", goal="arrêter",
                     trait_code="combat", out_after=None)
seq.refresh_from_db()
participant_update(participant=pj, actor=narrator, data={{"weapon": 2, "weapon_use": "attack"}},
                   expected_version=seq.version)
savage_token_award(character=jim, actor=narrator, count=1, expected_version=None)
savage_shaken_set(character=jim, actor=narrator, shaken=True, expected_version=None)
print(json.dumps({{"campaign": campaign.pk, "sequence": seq.pk, "jim": pj.pk, "lisa": pl.pk, "thug": pt.pk,
                  "lisa_character": lisa.pk}}))
"""


def test_a_shaken_player_and_one_in_etat_critique_never_stop_the_sequence(new_context, run_in_server_db) -> None:  # type: ignore[no-untyped-def]
    suffix = uuid.uuid4().hex[:6]
    mj, jims, lisas = f"mj{suffix}", f"jim{suffix}", f"lisa{suffix}"
    out = run_in_server_db(SETUP.format(narrator=mj, jims=jims, lisas=lisas, password=E2E_PASSWORD, suffix=suffix))
    ids = json.loads(out.strip().splitlines()[-1])
    campaign, jim, lisa, thug = ids["campaign"], ids["jim"], ids["lisa"], ids["thug"]
    sequence_url = f"/conflicts/{campaign}/sequences/{ids['sequence']}/"

    # Jim's phone: Shaken, the form says so and starts from the defence split; his weapon's 2 cards stay out.
    phone = new_context(viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True).new_page()
    login(phone, jims)
    phone.goto(f"/conflicts/{campaign}/participants/{jim}/")
    panel = phone.locator(f"#panel-{jim}")
    expect(panel.locator(".states-shaken")).to_contain_text("Secoué")
    expect(panel.locator(".states-shaken")).to_contain_text("2 cartes réservées à l'attaque")
    expect(panel.locator(f"input[name=attack_{thug}]")).to_be_disabled()
    expect(panel.locator(f"input[name=defence_{jim}]")).to_have_value("5")
    expect(panel).to_contain_text("cartes à placer : 5")
    panel.get_by_role("button", name="Tirer", exact=True).click()
    expect(phone.locator(f"#panel-{jim}")).to_contain_text("Vos cartes sont sur la table")

    # The narrator draws for the NPC; Lisa has not drawn when she takes her fourth wound.
    narrator = new_context().new_page()
    login(narrator, mj)
    narrator.goto(sequence_url)
    narrator.locator(f"#bulk-attack-{thug}").fill("0")  # the thug only defends: Jim keeps his 7 cards for later
    narrator.locator(f"#bulk-defence-{thug}").fill("3")
    narrator.get_by_role("button", name="Tirer pour le PNJ").click()
    expect(narrator.locator(f"#participant-{thug} [data-drawn]")).to_be_visible()
    narrator.goto(f"/characters/{ids['lisa_character']}/states/")
    narrator.locator("form[action$='/wounds_set/']:has(input[name=count][value='4']) button").click()
    expect(narrator.locator("[data-state=incapacitated]").first).to_be_visible()

    # The draw did not wait for her: its Revers are written, and the next draw opens.
    narrator.goto(sequence_url)
    narrator.locator("form[action$='/settle/'] button").click()
    expect(narrator.locator(".board")).to_contain_text("Dernier tirage")

    # Lisa's own page says why she cannot draw; Jim spends his Jeton on the panel and attacks again.
    lisa_phone = new_context(viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True).new_page()
    login(lisa_phone, lisas)
    lisa_phone.goto(f"/conflicts/{campaign}/participants/{lisa}/")
    expect(lisa_phone.locator(f"#panel-{lisa} .states-blocked")).to_contain_text("Il ne peut plus agir")
    phone.goto(f"/conflicts/{campaign}/participants/{jim}/")
    phone.locator(f"#panel-{jim} [data-jeton=unshake]").click()
    expect(phone.locator(f"#panel-{jim} .states-shaken")).to_have_count(0)
    attack = phone.locator(f"#panel-{jim} input[name=attack_{thug}]")
    expect(attack).to_be_enabled()
    expect(attack).to_have_value("7")
    phone.locator(f"#panel-{jim}").get_by_role("button", name="Tirer", exact=True).click()
    expect(phone.locator(f"#panel-{jim}")).to_contain_text("Vos cartes sont sur la table")

    # The second draw resolves without Lisa too; the narrator ends the sequence there, the reason in the log.
    narrator.goto(sequence_url)
    narrator.get_by_role("button", name="Tirer pour le PNJ").click()
    expect(narrator.locator("form[action$='/settle/'] button")).to_be_visible()
    narrator.locator(".narrator-leave summary").click()
    narrator.locator(".end-sequence input[name=reason]").fill("La police arrive sur le quai")
    narrator.locator(".end-sequence button").click()
    expect(narrator.locator(".board .outcome")).to_be_visible()  # over: both sides stand, so no winner is named
    expect(narrator.locator(".narrator-leave")).to_have_count(0)
    narrator.goto(f"/campaigns/{campaign}/log/")
    expect(narrator.locator("main")).to_contain_text("La police arrive sur le quai")
