"""Issue 28's acceptance: a whole evening at the table, two players on 390 px phones and the narrator at 1280 px, in
French. The narrator starts a Sequence from the scene; each player's first screen shows their pending draw above the
fold, they draw from the Sequence page, the narrator draws for the NPC and records the Revers; Jim rolls a Test far
down his sheet and its result is in view, with the focus; Janey helps it with her Atouts; Jim writes a note in the log.

On every state visited: no console error, no sideways scroll on a phone, and axe-core finds no critical or serious
violation (with every fold opened where the page is left).
"""

from __future__ import annotations

import json
import uuid

import pytest
from playwright.sync_api import expect

from tests.e2e.conftest import E2E_PASSWORD, add_to_sequence, login
from tests.e2e.test_accessibility import _serious
from tests.e2e.test_axe_states import _unfolded
from tests.e2e.test_now_phone import _on_first_screen, _watch, roll_far_down_the_sheet

pytestmark = [pytest.mark.e2e, pytest.mark.slow]

PHONE = {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True}
WIDE = {"viewport": {"width": 1280, "height": 900}}

SETUP = """
import json
from django.contrib.auth.models import User
from campaigns import services as campaigns
from campaigns.models import Membership
from characters.models import CharacterTrait
from characters.services.atouts import atout_gain
from characters.services.creation import character_create, npc_create
from conflicts.services.sequences import scene_create
narrator = User.objects.create_user({narrator!r}, password={password!r})
campaign = campaigns.campaign_create(owner=narrator, data={{"name": "La soirée {suffix}", "creation_mode": "free"}})
people = {{}}
for username, name, concept in (({jim!r}, "Jim", "Médecin"), ({janey!r}, "Janey", "Punkette")):
    user = User.objects.create_user(username, password={password!r})
    Membership.objects.create(campaign=campaign, user=user, role="player")
    people[name] = character_create(campaign=campaign, actor=user, name=name, concept=concept, goal="Survivre",
        ranks={{"combat": 4}})
    atout_gain(character=people[name], actor=narrator, amount=3)
jim = people["Jim"]
for i in range(14):  # a long sheet: Médecine is far below the first screen
    CharacterTrait.objects.create(character=jim, code=f"savoir{{i}}", kind="field", name_fr=f"Savoir {{i}}",
        name_en=f"Lore {{i}}", rank=2)
CharacterTrait.objects.create(character=jim, code="medecine", kind="field", name_fr="Médecine", name_en="Medicine",
    rank=5)
npc_create(campaign=campaign, actor=narrator, name="Gros Louis", concept="Truand", ranks={{"combat": 2}})
scene = scene_create(campaign=campaign, actor=narrator, title="Les docks")
print(json.dumps({{"campaign": campaign.pk, "scene": scene.pk, "jim": jim.pk, "janey": people["Janey"].pk}}))
"""

PARTICIPANTS = """
import json
from conflicts.models import Participant
print(json.dumps({{p.character.name: p.pk for p in Participant.objects.filter(sequence__campaign_id={campaign})}}))
"""


def test_a_whole_evening_on_phones(new_context, run_in_server_db) -> None:  # type: ignore[no-untyped-def]
    suffix = uuid.uuid4().hex[:6]
    names = {"narrator": f"mjsoir{suffix}", "jim": f"jimsoir{suffix}", "janey": f"janeysoir{suffix}"}
    ids = json.loads(run_in_server_db(SETUP.format(**names, password=E2E_PASSWORD, suffix=suffix)))
    campaign = ids["campaign"]
    problems: dict[str, list[str]] = {}

    def check(page, state: str, *, unfold: bool = False) -> None:  # type: ignore[no-untyped-def]
        """One state visited: axe (every fold opened when the page is left), and no sideways scroll on a phone."""
        problems[state] = _unfolded(page) if unfold else _serious(page)
        width = page.viewport_size["width"]
        scroll = page.evaluate("document.documentElement.scrollWidth")
        if scroll > width:
            problems[state].append(f"scrolls sideways: {scroll} px wide at {width}")

    def open_page(name: str, size: dict):  # type: ignore[no-untyped-def,type-arg]
        page = new_context(**size).new_page()
        watched = _watch(page)  # console errors and page errors of every page of this context
        login(page, names[name])
        return page, watched

    narrator, narrator_errors = open_page("narrator", WIDE)
    jim, jim_errors = open_page("jim", PHONE)
    janey, janey_errors = open_page("janey", PHONE)

    # Before the Sequence: the player's home, the narrator's dashboard.
    jim.goto(f"/campaigns/{campaign}/")
    expect(jim.locator("#live-status")).to_have_attribute("data-state", "open")
    check(jim, "jim: home, nothing to draw")
    narrator.goto(f"/campaigns/{campaign}/dashboard/")
    check(narrator, "narrator: dashboard")

    # The narrator starts the Sequence from the scene and adds the three of them.
    narrator.goto(f"/conflicts/{campaign}/scenes/{ids['scene']}/")
    narrator.get_by_label("Titre").fill("Bagarre sur le quai")
    narrator.get_by_role("button", name="Lancer la Séquence").click()
    for name, side in (("Jim", "Dockers"), ("Janey", "Dockers"), ("Gros Louis", "Truands")):
        add_to_sequence(narrator, name, side)
    sequence_url = narrator.url
    participants = json.loads(run_in_server_db(PARTICIPANTS.format(campaign=campaign)))
    check(narrator, "narrator: console before any draw")

    # Jim's first screen, updated live: his pending draw, above the fold.
    draw_link = jim.locator("#now .now-draw")
    expect(draw_link).to_contain_text("À vous de tirer : Jim")
    _on_first_screen(draw_link)
    check(jim, "jim: home, his draw pending")
    draw_link.click()
    jim.wait_for_url(f"**{sequence_url}")
    draw = jim.locator(f"#panel-{participants['Jim']}").get_by_role("button", name="Tirer", exact=True)
    _on_first_screen(draw)
    check(jim, "jim: the Sequence before his draw")
    draw.tap()
    expect(jim.locator(f"#panel-{participants['Jim']}")).to_contain_text("Vos cartes sont sur la table")
    check(jim, "jim: the Sequence mid-draw")

    # Janey's turn, from her own first screen.
    janey.goto(f"/campaigns/{campaign}/")
    _on_first_screen(janey.locator("#now .now-draw"))
    janey.locator("#now .now-draw").click()
    janey.wait_for_url(f"**{sequence_url}")
    janey.locator(f"#panel-{participants['Janey']}").get_by_role("button", name="Tirer", exact=True).tap()
    expect(janey.locator(f"#panel-{participants['Janey']}")).to_contain_text("Vos cartes sont sur la table")
    check(janey, "janey: the Sequence mid-draw")

    # The narrator draws for the NPC: the draw resolves, on every screen.
    narrator.get_by_role("button", name="Tirer pour le PNJ").click()
    expect(narrator.get_by_role("button", name="Inscrire les Revers sur les feuilles")).to_be_visible()
    check(narrator, "narrator: console, draw resolved")
    expect(jim.locator(f"#after-draw-{participants['Jim']}")).to_contain_text("Atouts, cartes sur la table")
    check(jim, "jim: the Sequence resolved", unfold=True)

    # The Revers go on the sheets: the next draw opens.
    narrator.get_by_role("button", name="Inscrire les Revers sur les feuilles").click()
    expect(narrator.locator(".messages")).to_contain_text("Les Revers sont inscrits sur les feuilles.")
    check(narrator, "narrator: console, Revers recorded", unfold=True)
    jim.goto(sequence_url)
    check(jim, "jim: the Sequence, next draw", unfold=True)

    # Jim rolls Médecine, far down his sheet: the result is in view, and has the focus.
    card = roll_far_down_the_sheet(jim, ids["jim"])
    check(jim, "jim: his sheet, a Test rolled")

    # Janey helps it with two Atouts, from her sheet: Jim's card shows the +1 without a reload.
    janey.goto(f"/characters/{ids['janey']}/")
    janey.locator(".other-tests-box summary").click()
    form = janey.locator(".other-tests form")
    expect(form.locator("select[name=roll] option")).to_have_count(1)
    form.get_by_label("Comment aidez-vous ?").fill("Janey tient la lampe")
    form.locator("button[data-other-test]").tap()
    expect(janey.locator(".other-tests [role=status]")).to_contain_text("+1")
    check(janey, "janey: her sheet, after helping", unfold=True)
    expect(card.locator("[data-modifier=help]")).to_contain_text("+1")
    check(jim, "jim: his sheet, the Test helped", unfold=True)

    # Jim writes a note in the log from his home.
    jim.goto(f"/campaigns/{campaign}/")
    jim.locator(".note-fold > summary").tap()
    jim.get_by_label("Note").fill("Louis avait un complice sur le quai.")
    jim.get_by_role("button", name="Ajouter au journal").tap()
    expect(jim.locator("#live-feed")).to_contain_text("Louis avait un complice")
    check(jim, "jim: home, his note written", unfold=True)
    narrator.goto(f"/campaigns/{campaign}/log/")
    expect(narrator.locator("main")).to_contain_text("Louis avait un complice")
    check(narrator, "narrator: the log", unfold=True)

    found = {state: p for state, p in problems.items() if p}
    print("EVENING", json.dumps(found, indent=1, ensure_ascii=False))
    assert found == {}
    assert narrator_errors + jim_errors + janey_errors == []
