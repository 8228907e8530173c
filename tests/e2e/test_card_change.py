"""« Changer le résultat … de l'une des cartes » on a phone (issue 27, item 7): the player's cards are on the table;
the form lists each card with the way it would turn and the Revers that would follow, none chosen; the player
picks a failure to turn into a success, pays one Atout, and the draw reads one success more.

Appendix 4: « un Atout peut être utilisé pour changer le résultat de l'un des dés ou de l'une des cartes (ce qui
permet, selon les besoins, d'obtenir un succès ou un échec supplémentaire […]) »."""

from __future__ import annotations

import json
import uuid

import pytest
from playwright.sync_api import expect

from tests.e2e.conftest import E2E_PASSWORD, login

pytestmark = pytest.mark.e2e

SETUP = """
import json, random
from django.contrib.auth.models import User
from campaigns.models import Membership, Role
from campaigns import services as campaigns
from characters.services import creation as characters
from conflicts.rules.budget import Split
from conflicts.services.drawing import participant_draw
from conflicts.services.sequences import participant_add, scene_create, sequence_create
from tests.characters.factories import open_session
narrator = User.objects.create_user({narrator!r}, password={password!r})
player = User.objects.create_user({player!r}, password={password!r})
campaign = campaigns.campaign_create(owner=narrator, data={{"name": "Les docks {suffix}"}})
Membership.objects.create(campaign=campaign, user=player, role=Role.PLAYER)
jim = characters.character_create(campaign=campaign, actor=player, name="Jim Bones", concept="Docker",
    goal="Passer", ranks={{"combat": 5, "esprit": 3}})
thug = characters.npc_create(campaign=campaign, actor=narrator, name="Le Borgne", concept="Truand", ranks={{"combat": 3}})
open_session(campaign, narrator)
scene = scene_create(campaign=campaign, actor=narrator, title="Les docks")
seq = sequence_create(scene=scene, actor=narrator, data={{"title": "Bagarre sur le quai"}})
me = participant_add(sequence=seq, actor=narrator, character=jim, side="PJ", trait_code="combat")
them = participant_add(sequence=seq, actor=narrator, character=thug, side="Truands", trait_code="combat")
seq.refresh_from_db()
participant_draw(participant=me, actor=player, expected_version=seq.version, split=Split(attack={{them.key: 5}}),
                 rng=random.Random(3))
seq.refresh_from_db()
participant_draw(participant=them, actor=narrator, expected_version=seq.version, split=Split(defence={{them.key: 3}}),
                 rng=random.Random(4))
print(json.dumps({{"campaign": campaign.pk, "sequence": seq.pk, "jim": me.pk, "thug": them.pk}}))
"""

STATE = """
import json
from conflicts.models import Participant, Sequence
me = Participant.objects.get(pk={jim})
seq = Sequence.objects.get(pk={sequence})
print(json.dumps({{"flipped": me.hand.get("flipped", []), "attacks": seq.outcome["targets"][str({thug})]["attacks"]}}))
"""


def test_the_player_chooses_the_card_and_its_direction_after_seeing_each_outcome(new_context, run_in_server_db) -> None:  # type: ignore[no-untyped-def]
    suffix = uuid.uuid4().hex[:6]
    mj, pj = f"mj{suffix}", f"pj{suffix}"
    ids = json.loads(run_in_server_db(SETUP.format(narrator=mj, player=pj, password=E2E_PASSWORD, suffix=suffix)))
    before = json.loads(run_in_server_db(STATE.format(**ids)))["attacks"][str(ids["jim"])]

    phone = new_context(viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True).new_page()
    login(phone, pj)
    phone.goto(f"/conflicts/{ids['campaign']}/sequences/{ids['sequence']}/")
    form = phone.locator("form.card-change")
    expect(form).to_contain_text("Changer le résultat d'une carte")
    choices = form.locator("input[type=radio][name=card]")
    expect(choices).to_have_count(5)
    for i in range(5):
        expect(choices.nth(i)).not_to_be_checked()  # no default that could turn against the player
    # Sending without a choice is stopped by the browser: nothing is paid.
    form.get_by_role("button", name="La changer").click()
    assert json.loads(run_in_server_db(STATE.format(**ids)))["flipped"] == []

    to_success = form.locator("label.change-choice", has_text="échec → succès").first
    expect(to_success).to_contain_text("Revers")  # the outcome of this choice, before paying
    value = to_success.locator("input").get_attribute("value")
    to_success.locator("input").check()
    form.get_by_role("button", name="La changer").click()
    expect(phone.locator("body")).to_contain_text("Atout dépensé")

    after = json.loads(run_in_server_db(STATE.format(**ids)))
    assert after["flipped"] == [value.split("|")[0]]
    assert after["attacks"][str(ids["jim"])] == before + 1
