"""Issue 28 at 390 px: the player's first screen shows their pending draw, the Sequence page puts their Draw button
near the top, a roll tapped far down the sheet brings its result into view with the focus, and nothing scrolls
sideways or logs an error on the way."""

from __future__ import annotations

import json
import uuid

import pytest
from playwright.sync_api import expect

from tests.e2e.conftest import E2E_PASSWORD, login

pytestmark = pytest.mark.e2e

PHONE = {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True}

SETUP = """
import json
from django.contrib.auth.models import User
from campaigns import services as campaigns
from campaigns.models import Membership
from characters.models import CharacterTrait
from characters.services.creation import character_create, npc_create
from conflicts.services.sequences import participant_add, scene_create, sequence_create
narrator = User.objects.create_user({narrator!r}, password={password!r})
player = User.objects.create_user({player!r}, password={password!r})
newcomer = User.objects.create_user({newcomer!r}, password={password!r})
campaign = campaigns.campaign_create(owner=narrator, data={{"name": "Maintenant {suffix}", "creation_mode": "free"}})
Membership.objects.create(campaign=campaign, user=player, role="player")
Membership.objects.create(campaign=campaign, user=newcomer, role="player")
jim = character_create(campaign=campaign, actor=player, name="Jim", concept="Médecin", goal="Soigner",
    ranks={{"combat": 4}})
for i in range(14):
    CharacterTrait.objects.create(character=jim, code=f"savoir{{i}}", kind="field", name_fr=f"Savoir {{i}}",
        name_en=f"Lore {{i}}", rank=2)
CharacterTrait.objects.create(character=jim, code="medecine", kind="field", name_fr="Médecine", name_en="Medicine",
    rank=5)
thug = npc_create(campaign=campaign, actor=narrator, name="Gros Louis", concept="Truand", ranks={{"combat": 2}})
scene = scene_create(campaign=campaign, actor=narrator, title="Les docks")
sequence = sequence_create(scene=scene, actor=narrator, data={{"title": "Bagarre"}})
participant_add(sequence=sequence, actor=narrator, character=jim, side="PJ", goal="passer", trait_code="combat")
participant_add(sequence=sequence, actor=narrator, character=thug, side="Truands", goal="barrer", trait_code="combat")
print(json.dumps({{"campaign": campaign.pk, "jim": jim.pk, "sequence": sequence.pk}}))
"""


def _watch(page) -> list[str]:  # type: ignore[no-untyped-def]
    errors: list[str] = []

    def console(message) -> None:  # type: ignore[no-untyped-def]
        # The favicon's 404 is the browser's own request, not the page's (a favicon is another change of issue 28).
        if message.type == "error" and not message.location.get("url", "").endswith("/favicon.ico"):
            errors.append(f"{page.url}: {message.text}")

    page.on("console", console)
    page.on("pageerror", lambda e: errors.append(f"{page.url}: {e}"))
    return errors


def _no_sideways_scroll(page) -> None:  # type: ignore[no-untyped-def]
    assert page.evaluate("document.documentElement.scrollWidth") <= 390, page.url


def _on_first_screen(locator) -> None:  # type: ignore[no-untyped-def]
    box = locator.bounding_box()
    assert box is not None and box["y"] >= 0 and box["y"] + box["height"] <= 844, box


def roll_far_down_the_sheet(page, character_id: int):  # type: ignore[no-untyped-def]
    """Taps Médecine's one-tap chip, far down the sheet: the result card is on the first screen and has the focus."""
    page.goto(f"/characters/{character_id}/")
    chip = page.locator("button.roll-quick[data-roll=medecine]")
    chip.scroll_into_view_if_needed()
    assert page.evaluate("window.scrollY") > 400, "the row is far down the sheet"
    chip.tap()
    card = page.locator("#roll-result .roll-card")
    card.wait_for()
    page.wait_for_function("document.activeElement && document.activeElement.classList.contains('roll-card')")
    _on_first_screen(card)
    return card


def test_a_players_phone_opens_on_now_and_shows_results_where_the_eye_is(new_context, run_in_server_db) -> None:  # type: ignore[no-untyped-def]
    suffix = uuid.uuid4().hex[:6]
    mj, player, newcomer = f"mjnow{suffix}", f"now{suffix}", f"new{suffix}"
    setup = SETUP.format(narrator=mj, player=player, newcomer=newcomer, password=E2E_PASSWORD, suffix=suffix)
    ids = json.loads(run_in_server_db(setup))
    context = new_context(**PHONE)
    # Whether the tapped button shows its action under way (disabled, busy) when the request leaves.
    context.add_init_script(
        "window.busyAtSend = []; document.addEventListener('htmx:beforeSend', function () {"
        " window.busyAtSend.push(!!document.querySelector('button.is-busy[aria-busy=true]:disabled')); });"
    )
    phone = context.new_page()
    errors = _watch(phone)
    login(phone, player)

    # The first screen: Jim, and the draw waiting for him, above the fold.
    phone.goto(f"/campaigns/{ids['campaign']}/")
    draw_link = phone.locator("#now .now-draw")
    expect(draw_link).to_contain_text("À vous de tirer : Jim")
    _on_first_screen(draw_link)
    _on_first_screen(phone.locator("#now-mine h3 a", has_text="Jim"))
    expect(phone.locator("#note-form")).not_to_be_visible()  # folded under the feed's heading
    _no_sideways_scroll(phone)

    # The Sequence page: the Draw button near the top.
    draw_link.click()
    phone.wait_for_url(f"**/{ids['sequence']}/")
    _on_first_screen(phone.locator("button[value=draw]"))
    _no_sideways_scroll(phone)

    # A roll tapped far down the sheet: the result card is in view and has the focus.
    roll_far_down_the_sheet(phone, ids["jim"])
    _no_sideways_scroll(phone)
    assert phone.evaluate("window.busyAtSend") == [True], "the chip showed the roll under way"
    expect(phone.locator("button.roll-quick[data-roll=medecine]")).to_be_enabled()  # given back once answered

    # A newcomer is first offered to create a character.
    other = new_context(**PHONE).new_page()
    errors += _watch(other)
    login(other, newcomer)
    other.goto(f"/campaigns/{ids['campaign']}/")
    _on_first_screen(other.locator("#now-mine a", has_text="Créer un personnage"))
    _no_sideways_scroll(other)

    # The narrator's dashboard opens on who still has to draw.
    narrator = new_context(**PHONE).new_page()
    errors += _watch(narrator)
    login(narrator, mj)
    narrator.goto(f"/campaigns/{ids['campaign']}/dashboard/")
    expect(narrator.locator("#now-draw")).to_contain_text("Gros Louis")
    expect(narrator.locator("#now-draw")).to_contain_text("Jim")
    _no_sideways_scroll(narrator)

    assert not errors, errors


def test_an_answer_lands_in_its_region_even_if_the_region_was_replaced_meanwhile(new_context, run_in_server_db) -> None:  # type: ignore[no-untyped-def]
    """After « Terminer le tour » the old TRAGIC board stayed with the same button: the region the answer was aimed
    at had been replaced while the request was under way (another answer, a poll), and htmx swapped the answer into
    the element that had left the page. Here the roll's answer is held while its region is replaced."""
    suffix = uuid.uuid4().hex[:6]
    mj, player, newcomer = f"mjheld{suffix}", f"held{suffix}", f"newheld{suffix}"
    setup = SETUP.format(narrator=mj, player=player, newcomer=newcomer, password=E2E_PASSWORD, suffix=suffix)
    ids = json.loads(run_in_server_db(setup))
    phone = new_context(**PHONE).new_page()
    errors = _watch(phone)
    login(phone, player)
    phone.goto(f"/characters/{ids['jim']}/")
    held = []
    phone.route("**/roll/", lambda route: held.append(route) if route.request.method == "POST" else route.continue_())
    phone.locator("button.roll-quick[data-roll=medecine]").tap()
    phone.wait_for_function("document.querySelector('button.roll-quick.is-busy') !== null")
    while not held:
        phone.wait_for_timeout(50)
    phone.evaluate("var r = document.getElementById('roll-result'); r.replaceWith(r.cloneNode(true));")
    held[0].continue_()
    expect(phone.locator("#roll-result .roll-card")).to_be_visible()
    assert not errors, errors
