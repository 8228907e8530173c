"""An open character sheet follows the narrator's changes without a reload, and what the player was
typing on it stays where it was."""

from __future__ import annotations

import uuid

import pytest
from playwright.sync_api import expect

from tests.e2e.conftest import login

pytestmark = pytest.mark.e2e


@pytest.fixture
def sheet(make_user, run_in_server_db) -> tuple[int, str, str]:  # type: ignore[no-untyped-def]
    suffix = uuid.uuid4().hex[:6]
    narrator, player = make_user(f"mj{suffix}"), make_user(f"pj{suffix}")
    out = run_in_server_db(
        "from django.contrib.auth.models import User\n"
        "from campaigns import services\n"
        "from campaigns.models import Membership, Role\n"
        "from characters.services import creation as characters\n"
        f"narrator = User.objects.get(username={narrator!r})\n"
        f"player = User.objects.get(username={player!r})\n"
        f"campaign = services.campaign_create(owner=narrator, data={{'name': 'Fiche vivante {suffix}'}})\n"
        "Membership.objects.create(campaign=campaign, user=player, role=Role.PLAYER)\n"
        "jim = characters.character_create(campaign=campaign, actor=player, name='Jim Bones', concept='Médecin',\n"
        "    goal='Survivre', ranks={'medecine': 4, 'esprit': 5}, custom_traits=[])\n"
        "print(jim.pk)\n"
    )
    return int(out.strip()), narrator, player


def test_a_narrators_trait_change_appears_on_the_players_open_sheet(new_context, sheet) -> None:  # type: ignore[no-untyped-def]
    pk, narrator_name, player_name = sheet
    player = new_context(viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True).new_page()
    login(player, player_name)
    player.goto(f"/characters/{pk}/")
    expect(player.locator("#live-status")).to_have_attribute("data-state", "open")
    rank = player.locator("tr[data-trait=medecine] td.rank strong")
    expect(rank).to_have_text("Moyen")
    # The player starts adding equipment: the live push must not close the form nor wipe the name.
    player.locator("#equipment summary").click()
    player.locator("#form-equipment [name=name]").fill("Trousse de secours")
    player.evaluate("window.sameLoad = true")  # gone if the page reloads

    narrator = new_context().new_page()
    login(narrator, narrator_name)
    narrator.goto(f"/characters/{pk}/")
    narrator.locator("#narrator-tools details", has=narrator.locator("#form-trait_set")).locator("summary").click()
    form = narrator.locator("#form-trait_set")
    form.locator("[name=code]").select_option("medecine")
    form.locator("[name=rank]").select_option("6")
    form.locator("button[type=submit]").click()
    expect(narrator.locator("tr[data-trait=medecine] td.rank strong")).to_have_text("Excellent")

    expect(rank).to_have_text("Excellent")
    expect(player.locator("#form-equipment")).to_be_visible()
    expect(player.locator("#form-equipment [name=name]")).to_have_value("Trousse de secours")
    expect(player.locator("#narrator-tools")).to_have_count(0)
    assert player.evaluate("window.sameLoad === true")
