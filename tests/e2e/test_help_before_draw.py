"""A player helps a teammate before the draw, on a phone, while the table draws around them: what they typed stays
through the live refreshes of their Atouts, and the help is spent (app. 4, « le mieux est de décrire comment ils
aident leur camarade »)."""

from __future__ import annotations

import json
import uuid

import pytest
from playwright.sync_api import expect

from tests.e2e.conftest import E2E_PASSWORD, login

pytestmark = pytest.mark.e2e

SETUP = """
import datetime as dt, json
from django.contrib.auth.models import User
from campaigns import services as campaigns
from campaigns.models import Membership, Role
from characters.services import creation as characters
from conflicts.services.sequences import participant_add, scene_create, sequence_create
narrator = User.objects.create_user({narrator!r}, password={password!r})
player = User.objects.create_user({player!r}, password={password!r})
mate = User.objects.create_user({player!r} + "b", password={password!r})
campaign = campaigns.campaign_create(owner=narrator, data={{"name": "Le quai {suffix}"}})
Membership.objects.create(campaign=campaign, user=player, role=Role.PLAYER)
Membership.objects.create(campaign=campaign, user=mate, role=Role.PLAYER)
session = campaigns.game_session_create(campaign=campaign, actor=narrator, date=dt.date(2026, 11, 29))
campaigns.game_session_open(game_session=session, actor=narrator)
jim = characters.character_create(campaign=campaign, actor=player, name="Jim Bones", concept="Docker",
    goal="Passer", ranks={{"combat": 5, "esprit": 3}})
ally = characters.character_create(campaign=campaign, actor=mate, name="Mona", concept="Docker", goal="Passer",
    ranks={{"combat": 3, "esprit": 3}})
thug = characters.npc_create(campaign=campaign, actor=narrator, name="Gros Louis", concept="Truand", ranks={{"combat": 2}})
scene = scene_create(campaign=campaign, actor=narrator, title="Les docks")
seq = sequence_create(scene=scene, actor=narrator, data={{"title": "Bagarre sur le quai"}})
me = participant_add(sequence=seq, actor=narrator, character=jim, side="PJ", trait_code="combat")
mona = participant_add(sequence=seq, actor=narrator, character=ally, side="PJ", trait_code="combat")
louis = participant_add(sequence=seq, actor=narrator, character=thug, side="Truands", trait_code="combat")
print(json.dumps({{"sequence": seq.get_absolute_url(), "jim": me.pk, "mona": mona.pk, "louis": louis.pk}}))
"""


def test_a_player_helps_a_teammate_while_the_table_draws(new_context, run_in_server_db) -> None:  # type: ignore[no-untyped-def]
    suffix = uuid.uuid4().hex[:6]
    mj, pj = f"mj{suffix}", f"pj{suffix}"
    ids = json.loads(run_in_server_db(SETUP.format(narrator=mj, player=pj, password=E2E_PASSWORD, suffix=suffix)))
    jim, mona, louis = ids["jim"], ids["mona"], ids["louis"]

    phone = new_context(viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True).new_page()
    login(phone, pj)
    phone.goto(ids["sequence"])
    expect(phone.locator("#live-status")).to_have_attribute("data-state", "open")
    phone.get_by_text("Atouts avant de tirer").click()
    help_form = phone.locator(f"#atouts-{jim} form.help-teammate")
    help_form.get_by_label("Coéquipier").select_option(label="Mona")
    help_form.get_by_label("Comment aidez-vous ?").fill("Je lui lance une gaffe")
    version = help_form.locator("input[name=version]").input_value()

    # The narrator's thug draws meanwhile, from the console: the player's Atouts are refreshed live (the Sequence's new
    # version), the form they are filling in with them.
    narrator = new_context().new_page()
    login(narrator, mj)
    narrator.goto(ids["sequence"])
    narrator.locator(f"#bulk-attack-{louis}").fill("2")
    narrator.locator(f"#bulk-defence-{louis}").fill("0")
    narrator.get_by_role("button", name="Tirer pour le PNJ").click()
    expect(phone.locator(f"#participant-{louis} [data-drawn]")).to_be_visible()
    help_form = phone.locator(f"#atouts-{jim} form.help-teammate")
    expect(help_form.locator("input[name=version]")).not_to_have_value(version)  # the form came anew
    expect(help_form.get_by_label("Comment aidez-vous ?")).to_have_value("Je lui lance une gaffe")
    expect(help_form.get_by_label("Coéquipier")).to_have_value(str(mona))

    help_form.get_by_role("button", name="Aider : +1 carte (2 Atouts)").click()
    expect(phone.locator(".messages")).to_contain_text("Atout dépensé.")
