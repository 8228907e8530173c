"""axe-core on every state a page can be in, not only as it loads (issue 28: « Popovers and dialogs were not swept
in their open state »): every fold of a page opened (and what it loads when opened), the roll dialog, a roll's
result with its Atout folds, the phone menu, the Sequence page in each phase (before any draw, mid-draw, resolved,
settled, ended) for the narrator and the player, a refused form with its errors, Savage states (a Shaken character,
the round tracker), a TRAGIC board with engaged cards and a Frag board; in French and English, at
390 and 1280 px: no critical and no serious violation (nor the rules test_accessibility also fails on).
"""

from __future__ import annotations

import json
import uuid

import pytest

from tests.e2e.conftest import E2E_PASSWORD, login
from tests.e2e.test_accessibility import _serious

pytestmark = pytest.mark.e2e

# The Sequence in each of its phases, each in its own scene; a second character with a Revers (Jim may take it in
# its place: the sheet's « Take a Revers » fold); a TRAGIC game played until a card of the board is engaged.
SETUP = """
import json, random
from django.contrib.auth.models import User
from campaigns import services as campaigns
from campaigns.models import Membership, Role
from characters.services import creation as characters
from characters.services.atouts import atout_gain
from characters.services.revers import revers_inflict
from conflicts.rules.budget import Split
from conflicts.services import sequences as conflicts
from conflicts.services.drawing import participant_draw
from conflicts.services.leaving import sequence_end
from conflicts.services.npc_draws import sequence_draw_npcs
from conflicts.services.settling import sequence_settle
from core.errors import ServiceError
from frag import services as frag
from states.services.shaken import savage_shaken_set
from tragic import services as tragic
from tragic.engine.observation import observe
from tragic.engine.roster import make_bot
narrator = User.objects.create_user({narrator!r}, password={password!r})
player = User.objects.create_user({player!r}, password={password!r})
campaign = campaigns.campaign_create(owner=narrator, data={{"name": "États {suffix}", "creation_mode": "free",
    "savage_states": True}})
Membership.objects.create(campaign=campaign, user=player, role=Role.PLAYER)
jim = characters.character_create(campaign=campaign, actor=player, name="Jim Bones", concept="Docker",
    goal="Passer", ranks={{"combat": 5, "esprit": 3}})
atout_gain(character=jim, actor=narrator, amount=3)
ann = characters.character_create(campaign=campaign, actor=narrator, name="Ann", concept="Alliée", goal="Aider",
    ranks={{"combat": 3}})
revers_inflict(character=ann, actor=narrator, domain="physical", severity=1, source="test")
savage_shaken_set(character=ann, actor=narrator, shaken=True, expected_version=None)  # the dashboard's « now »
sequences = {{}}
for phase in ("before", "mid", "resolved", "settled", "ended"):
    louis = characters.npc_create(campaign=campaign, actor=narrator, name=f"Louis {{phase}}", concept="Truand",
        ranks={{"combat": 4}})
    scene = conflicts.scene_create(campaign=campaign, actor=narrator, title=f"Scène {{phase}}")
    sequence = conflicts.sequence_create(scene=scene, actor=narrator, data={{"title": f"Bagarre {{phase}}"}})
    me = conflicts.participant_add(sequence=sequence, actor=narrator, character=jim, side="PJ", trait_code="combat")
    npc = conflicts.participant_add(sequence=sequence, actor=narrator, character=louis, side="Truands",
        trait_code="combat")
    if phase != "before":
        sequence.refresh_from_db()
        sequence_draw_npcs(sequence=sequence, actor=narrator, expected_version=sequence.version, rng=random.Random(3))
    if phase in ("resolved", "settled"):
        for cards in range(5, 0, -1):  # all Jim holds: a Revers of an earlier draw may have taken some
            sequence.refresh_from_db()
            try:
                participant_draw(participant=me, actor=player, expected_version=sequence.version,
                    rng=random.Random(4), split=Split(attack={{str(npc.pk): 1}}, defence={{str(me.pk): cards - 1}}))
                break
            except ServiceError:
                continue
    sequence.refresh_from_db()
    if phase == "settled":
        sequence_settle(sequence=sequence, actor=narrator, expected_version=sequence.version)
    if phase == "ended":
        sequence_end(sequence=sequence, actor=narrator, reason="La police arrive", expected_version=sequence.version)
    sequences[phase] = sequence.get_absolute_url()
game = tragic.game_create(user=narrator, deck_ref="ready:la-bande-des-terres-desolees", opponent="heuristic", seed=7)
bot = make_bot("heuristic", 11)
for _step in range(60):
    game.refresh_from_db()
    state = tragic.load_state(game)
    seen = observe(state, 0)
    if _step and any(c["engaged"] for p in seen["players"] for z in ("play", "combat", "equipment") for c in p[z]):
        break
    game = tragic.game_act(game=game, user=narrator, action=bot.choose(state, 0), expected_version=game.version)
else:
    raise AssertionError("no card engaged")
seats = [frag.SeatSpec(name="Ana", health=2, speed=3, accuracy=2, user=narrator),
         frag.SeatSpec(name="Bot", health=2, speed=3, accuracy=2, bot="heuristic")]
board = frag.game_create(creator=narrator, map_name="entrepot", seats=seats, seed=5)
print(json.dumps({{"campaign": campaign.pk, "jim": jim.pk, "ann": ann.pk, "sequences": sequences, "tragic": game.pk,
                  "frag": board.pk}}))
"""

# Opens every fold on screen, then those the opened ones showed or loaded, until none is left closed.
UNFOLD = """() => {
  const closed = [...document.querySelectorAll('details:not([open])')].filter(d => d.getClientRects().length);
  closed.forEach(d => { d.open = true; });
  return closed.length;
}"""


def _unfolded(page) -> list[str]:  # type: ignore[no-untyped-def]
    """axe on the page with every fold open (a fold loads its form when opened: the loads are waited for)."""
    for _ in range(5):
        if not page.evaluate(UNFOLD):
            break
        page.wait_for_timeout(150)
        page.wait_for_function("!document.querySelector('.htmx-request')")
    return _serious(page)


@pytest.mark.parametrize("language", ["fr", "en"])
@pytest.mark.parametrize("width", [390, 1280])
def test_every_open_state_has_no_critical_or_serious_violation(new_context, run_in_server_db, language, width) -> None:  # type: ignore[no-untyped-def]
    suffix = uuid.uuid4().hex[:6]
    narrator_name, player_name = f"st{suffix}", f"sp{suffix}"
    ids = json.loads(run_in_server_db(SETUP.format(narrator=narrator_name, player=player_name, password=E2E_PASSWORD,
                                                   suffix=suffix)))  # fmt: skip
    c = ids["campaign"]
    size = {"viewport": {"width": width, "height": 844}, "is_mobile": width < 500, "has_touch": width < 500}
    problems: dict[str, list[str]] = {}

    narrator = new_context(**size).new_page()
    login(narrator, narrator_name)
    narrator.locator(f".lang-switch button[value={language}]").click()
    if width < 500:
        narrator.locator(".menu-toggle").click()
        narrator.locator("#topnav:popover-open").wait_for()
        problems["menu (open)"] = _serious(narrator)
    for name, url in {
        "home (note form)": f"/campaigns/{c}/",
        "dashboard (folds)": f"/campaigns/{c}/dashboard/",
        "log (corrections)": f"/campaigns/{c}/log/",
        "settings (folds)": f"/campaigns/{c}/settings/",
        "sheet of another's character (folds)": f"/characters/{ids['ann']}/",
        "states of a Shaken character (folds)": f"/characters/{ids['ann']}/states/",
        "Savage round (folds)": f"/characters/campaign/{c}/round/",
        "frag home (seats)": "/frag/",
        "tragic board (engaged cards)": f"/tragic/games/{ids['tragic']}/",
        "frag board (folds)": f"/frag/games/{ids['frag']}/",
        **{f"sequence {phase} (narrator)": url for phase, url in ids["sequences"].items()},
    }.items():
        narrator.goto(url)
        problems[name] = _unfolded(narrator)
    narrator.goto(f"/tragic/games/{ids['tragic']}/")
    assert narrator.locator(".tragic-card.engaged").count() > 0

    player = new_context(**size).new_page()
    login(player, player_name)
    player.locator(f".lang-switch button[value={language}]").click()
    for name, url in {
        "home (player, note form)": f"/campaigns/{c}/",
        **{f"sequence {phase} (player)": url for phase, url in ids["sequences"].items()},
        "sheet (player, folds)": f"/characters/{ids['jim']}/",
    }.items():
        player.goto(url)
        problems[name] = _unfolded(player)
    took = player.locator("details", has_text="Revers").count()  # Jim may take Ann's Revers
    player.goto(f"/campaigns/{c}/")  # a refused note: the form and its errors
    player.locator(".note-fold > summary").click()
    player.locator("#note-form textarea[name=text]").fill("   ")  # past the browser's check, refused by the server
    player.locator("#note-form button[type=submit]").click()
    player.locator("#note-form .errorlist").wait_for()
    problems["note refused (errors)"] = _serious(player)
    player.goto(f"/characters/{ids['jim']}/")
    player.locator("button.roll-more").first.click()
    player.locator(".roll-dialog:popover-open [data-applies]").wait_for()
    problems["roll dialog (open)"] = _serious(player)
    player.keyboard.press("Escape")
    player.locator("button.roll-quick").first.click()
    player.locator("#roll-result .roll-card").wait_for()
    problems["roll result (Atout folds)"] = _unfolded(player)
    print("AXE", json.dumps({k: v for k, v in problems.items() if v}, indent=1))
    assert not {k: v for k, v in problems.items() if v}
    assert took > 0
