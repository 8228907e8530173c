"""Issue 12's acceptance at the table, on 390 px phones in French: Janey taps « Punkette endurcie » (one tap, at
the last difficulty), re-rolls with an Atout, Jim helps with two Atouts and her card shows +1; the narrator's
dashboard shows each result live; the narrator plans a session in French."""

from __future__ import annotations

import json
import uuid

import pytest
from playwright.sync_api import expect

from tests.e2e.conftest import E2E_PASSWORD, login
from tests.e2e.test_accessibility import _serious

pytestmark = pytest.mark.e2e

SETUP = """
import json
from django.contrib.auth.models import User
from campaigns import services as campaigns
from campaigns.models import Membership
from characters.services import creation as characters
from characters.services.atouts import atout_gain
narrator = User.objects.create_user({narrator!r}, password={password!r})
player = User.objects.create_user({player!r}, password={password!r})
teammate = User.objects.create_user({teammate!r}, password={password!r})
campaign = campaigns.campaign_create(owner=narrator, data={{"name": "Punk {suffix}", "creation_mode": "free"}})
Membership.objects.create(campaign=campaign, user=player, role="player")
Membership.objects.create(campaign=campaign, user=teammate, role="player")
janey = characters.character_create(campaign=campaign, actor=player, name="Janey", concept="Punkette",
    goal="Survivre", ranks={{"punkette_endurcie": 6}}, custom_traits=[{{"name": "Punkette endurcie"}}])
jim = characters.character_create(campaign=campaign, actor=teammate, name="Jim", concept="Médecin",
    goal="Soigner", ranks={{"medecine": 4}}, custom_traits=[])
atout_gain(character=jim, actor=narrator, amount=3)
print(json.dumps({{"janey": janey.pk, "jim": jim.pk, "campaign": campaign.pk}}))
"""


def test_janey_rolls_in_one_tap_re_rolls_jim_helps_and_the_narrator_sees_it_live(new_context, run_in_server_db) -> None:  # type: ignore[no-untyped-def]
    suffix = uuid.uuid4().hex[:6]
    player, teammate, narrator_name = f"janey{suffix}", f"jim{suffix}", f"mj{suffix}"
    ids = json.loads(run_in_server_db(SETUP.format(narrator=narrator_name, player=player, teammate=teammate,
                                                   password=E2E_PASSWORD, suffix=suffix)))  # fmt: skip
    narrator = new_context(viewport={"width": 1280, "height": 900}).new_page()
    login(narrator, narrator_name)
    narrator.goto(f"/campaigns/{ids['campaign']}/dashboard/")
    expect(narrator.locator("#live-status")).to_have_attribute("data-state", "open")
    feed = narrator.locator("#live-feed")

    phone = new_context(viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True).new_page()
    login(phone, player)
    phone.goto(f"/characters/{ids['janey']}/")  # tap 0: the sheet is open
    expect(phone.locator("#live-status")).to_have_attribute("data-state", "open")
    quick = phone.locator("button[data-roll=punkette_endurcie]")
    assert "Moyenne" in (quick.text_content() or "")  # the remembered difficulty: Average for a first roll
    quick.click()  # tap 1: the Test is rolled at the last difficulty
    card = phone.locator("#roll-result .roll-card")
    card.wait_for()
    assert card.locator("[data-verdict]").count() == 1
    first_dice = card.locator(".dice").get_attribute("data-dice")
    expect(feed.locator("li[data-kind='test.rolled']")).to_have_count(1)  # live on the narrator's dashboard
    card.locator("button[data-followup=reroll]").click()  # an Atout re-rolls
    phone.locator("#roll-result .roll-card s").wait_for()  # the old dice struck through beside the new ones
    assert phone.locator("#roll-result .roll-card .dice").get_attribute("data-dice") is not None
    assert first_dice
    expect(feed.locator("li[data-kind='test.atout']")).to_have_count(1)
    phone.screenshot(path="/tmp/ux/sheet_roll_phone.png", full_page=True)
    wide = phone.evaluate(
        "[...document.querySelectorAll('body *')].filter(e => e.getBoundingClientRect().right > 392).slice(0, 5).map(e => e.tagName + '.' + e.className + ' ' + Math.round(e.getBoundingClientRect().right))"
    )
    assert phone.evaluate("document.documentElement.scrollWidth") <= 390, wide

    # Jim, on his own phone, helps Janey's Test with two Atouts: her card shows the +1 without a reload.
    helper = new_context(viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True).new_page()
    login(helper, teammate)
    helper.goto(f"/characters/{ids['jim']}/")
    helper.locator(".other-tests-box summary").click()
    form = helper.locator(".other-tests form")
    expect(form.locator("select[name=roll] option")).to_have_count(1)  # Janey's Test, named, nothing to type
    assert "Janey" in (form.locator("select[name=roll] option").text_content() or "")
    form.get_by_label("Comment aidez-vous ?").fill("Jim tient la lampe")
    form.locator("button[data-other-test]").click()
    expect(helper.locator(".other-tests [role=status]")).to_contain_text("+1")
    expect(phone.locator("#roll-result .roll-card [data-modifier=help]")).to_contain_text("+1")
    expect(phone.locator("#roll-result .roll-card [data-modifier=help]")).to_contain_text("Jim")
    expect(feed.locator("li[data-kind='test.atout']")).to_have_count(2)
    expect(feed.locator("li[data-kind='test.atout']").first).to_contain_text("aider Janey")

    # The narrator plans the next session in French: the date input takes the browser's ISO value.
    narrator.goto(f"/campaigns/{ids['campaign']}/sessions/")
    narrator.get_by_label("Date").fill("2026-11-27")
    narrator.get_by_label("Titre").fill("La casse")
    narrator.get_by_role("button", name="Prévoir", exact=True).click()
    expect(narrator.locator("table")).to_contain_text("La casse")
    expect(narrator.locator("table")).to_contain_text("27/11/2026")


DIALOG_SETUP = """
import json
from django.contrib.auth.models import User
from campaigns import services as campaigns
from campaigns.models import Membership
from characters.services import creation as characters
from characters.services.sheet import trait_set
narrator = User.objects.create_user({narrator!r}, password={password!r})
player = User.objects.create_user({player!r}, password={password!r})
campaign = campaigns.campaign_create(owner=narrator, data={{"name": "Psy {suffix}", "savage_states": True}})
Membership.objects.create(campaign=campaign, user=player, role="player")
jim = characters.character_create(campaign=campaign, actor=player, name="Jim", concept="Psy",
    goal="Comprendre", ranks={{"esprit": 5, "vigueur": 4}}, custom_traits=[])
trait_set(character=jim, actor=narrator, code="telekinesie", rank=5)
ogre = characters.npc_create(campaign=campaign, actor=narrator, name="Ogre", concept="Ogre", ranks={{"vigueur": 5}})
print(json.dumps({{"jim": jim.pk, "ogre": ogre.pk, "campaign": campaign.pk}}))
"""


def _phone(new_context, name: str):  # type: ignore[no-untyped-def]
    page = new_context(viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True).new_page()
    login(page, name)
    return page


def test_a_power_use_a_simple_conflict_and_a_modifier_from_the_sheet_on_a_phone(new_context, run_in_server_db) -> None:  # type: ignore[no-untyped-def]
    """French, 390 px. Jim's player uses Télékinésie in two taps (the dialog, then the power's rank, its chance on
    the chip) and rolls Esprit with one situational modifier in three; the narrator, on a phone too, opposes Jim's
    Vigueur to the ogre's in two taps (the dialog, then the ogre, its chance on the chip)."""
    suffix = uuid.uuid4().hex[:6]
    player, narrator_name = f"psy{suffix}", f"mjpsy{suffix}"
    ids = json.loads(run_in_server_db(DIALOG_SETUP.format(narrator=narrator_name, player=player,
                                                          password=E2E_PASSWORD, suffix=suffix)))  # fmt: skip
    phone = _phone(new_context, player)
    phone.goto(f"/characters/{ids['jim']}/")
    expect(phone.locator("#live-status")).to_have_attribute("data-state", "open")
    card = phone.locator("#roll-result .roll-card")

    # A power use: tap 1 opens the dialog of the Télékinésie row, tap 2 uses the power at Bon (Difficile).
    phone.locator("tr[data-trait=telekinesie] button.roll-more").click()
    dialog = phone.locator(".roll-dialog:popover-open")
    chip = dialog.locator("button[data-power-rank='5']")
    expect(chip).to_contain_text("Difficile")
    expect(chip).to_contain_text("%")
    expect(dialog.locator("[data-power] legend")).to_contain_text("Potentiel 5")
    assert _serious(phone) == []  # axe-core: the power's part of the dialog too
    chip.click()
    expect(card.locator("[data-verdict]")).to_have_count(1)
    expect(card).to_contain_text("Difficile")
    expect(phone.locator(".roll-dialog:popover-open")).to_have_count(0)  # the dialog closed on the roll
    assert phone.evaluate("document.documentElement.scrollWidth") <= 390

    # Several objects: one degree harder, shown on the chips before the tap (the body follows each change).
    phone.locator("tr[data-trait=telekinesie] button.roll-more").click()
    dialog.get_by_label("Plusieurs objets (un degré plus difficile)").check()
    expect(dialog.locator("button[data-power-rank='5']")).to_contain_text("Très difficile")
    phone.keyboard.press("Escape")

    # One modifier in three taps: the dialog, the situation +1, Roll; the card lists the modifier.
    phone.locator("tr[data-trait=esprit] button.roll-more").click()
    # The sheet has one dialog for all its rows, loaded by the "…" that opened it: Esprit's, not Télékinésie's.
    expect(dialog.locator("h3")).to_contain_text("Esprit")
    expect(dialog.locator("[data-power]")).to_have_count(0)
    dialog.locator("label.chip", has_text="+1").first.click()
    expect(dialog.locator("[data-line=other]")).to_contain_text("+1")
    dialog.locator("button[data-roll-test]").click()
    expect(card.locator("[data-modifier=other]")).to_contain_text("+1")

    # The narrator opposes Jim's Vigueur to the ogre's: tap 1 the dialog, tap 2 the ogre (its chance shown).
    narrator = _phone(new_context, narrator_name)
    narrator.goto(f"/characters/{ids['jim']}/")
    expect(narrator.locator("#live-status")).to_have_attribute("data-state", "open")
    narrator.locator("tr[data-trait=vigueur] button.roll-more").click()
    ogre = narrator.locator(f".roll-dialog:popover-open button[data-opponent='{ids['ogre']}']")
    expect(ogre).to_contain_text("égalité")
    assert _serious(narrator) == []  # axe-core: the opponents' part of the dialog
    ogre.click()
    conflict = narrator.locator("#roll-result .conflict-card")
    expect(conflict.locator("[data-verdict]")).to_have_count(1)
    expect(conflict).to_contain_text("Ogre")
    expect(narrator.locator(".roll-dialog:popover-open")).to_have_count(0)
    assert narrator.evaluate("document.documentElement.scrollWidth") <= 390

    # A Savage attribute (states on) in one tap.
    narrator.locator("button[data-roll-attribute=vigor]").click()
    expect(narrator.locator("#roll-result .attribute-card [data-verdict]")).to_have_count(1)
    narrator.screenshot(path="/tmp/ux/sheet_dialog_phone.png", full_page=True)
