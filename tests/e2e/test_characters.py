"""A player creates a character through the wizard in French, on a phone; the narrator's dashboard
shows the new sheet without a reload, and a quick edit there reaches the player's open sheet; the sheet
prints on one page."""

from __future__ import annotations

import re
import uuid

import pytest
from playwright.sync_api import expect

from tests.e2e.conftest import login

pytestmark = pytest.mark.e2e


@pytest.fixture
def campaign_id(make_user, run_in_server_db) -> tuple[int, str, str]:  # type: ignore[no-untyped-def]
    suffix = uuid.uuid4().hex[:6]
    narrator, player = make_user(f"mj{suffix}"), make_user(f"pj{suffix}")
    out = run_in_server_db(
        "from django.contrib.auth.models import User\n"
        "from campaigns import services\n"
        "from campaigns.models import Membership, Role\n"
        f"narrator = User.objects.get(username={narrator!r})\n"
        f"campaign = services.campaign_create(owner=narrator, data={{'name': 'Les Ombres {suffix}'}})\n"
        f"Membership.objects.create(campaign=campaign, user=User.objects.get(username={player!r}), role=Role.PLAYER)\n"
        "print(campaign.pk)\n"
    )
    return int(out.strip()), narrator, player


def test_a_player_creates_a_character_and_the_narrator_sees_it_live(new_context, campaign_id) -> None:  # type: ignore[no-untyped-def]
    pk, narrator_name, player_name = campaign_id
    narrator = new_context().new_page()
    login(narrator, narrator_name)
    narrator.goto(f"/campaigns/{pk}/dashboard/")
    expect(narrator.locator("#live-status")).to_have_attribute("data-state", "open")
    expect(narrator.locator("#character-panels")).not_to_contain_text("Jim Bones")

    player = new_context(viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True).new_page()
    login(player, player_name)
    player.goto(f"/characters/campaign/{pk}/new/")
    expect(player.get_by_role("heading", name="Nouveau personnage")).to_be_visible()
    left = player.locator("[data-left]")
    expect(left).to_have_text("11")

    player.get_by_role("button", name="Augmenter Esprit").click()
    expect(left).to_have_text("10")
    expect(player.locator("tr[data-trait=esprit] [data-rank]")).to_have_text("Médiocre")
    player.get_by_role("button", name="Augmenter Esprit").click()
    expect(left).to_have_text("9")
    for expected in ("8", "7", "6"):  # Médecine starts Lamentable in the example list: three clicks to Moyen
        player.get_by_role("button", name="Augmenter Médecine").click()
        expect(left).to_have_text(expected)
    expect(player.locator("tr[data-trait=medecine] [data-rank]")).to_have_text("Moyen")
    player.get_by_role("button", name="Baisser Esprit").click()
    expect(left).to_have_text("7")

    player.get_by_label("Concept").fill("Médecin de campagne abrupt")
    player.get_by_label("But").fill("Retrouver son frère disparu")
    player.get_by_label("Nom", exact=True).fill("Jim Bones")
    player.get_by_role("button", name="Créer le personnage").click()
    expect(player.get_by_role("heading", name=re.compile("Jim Bones"))).to_be_visible()
    expect(player.locator("#atouts [data-atouts]")).to_have_text("7")

    # The narrator's dashboard got the new panel through the WebSocket, without a reload.
    panel = narrator.locator("#character-panels").get_by_role("link", name="Jim Bones")
    expect(panel).to_be_visible()

    # A quick edit on the panel: the narrator gives an Atout; the player's open sheet follows.
    expect(player.locator("#live-status")).to_have_attribute("data-state", "open")
    narrator.locator(".character-panel", has_text="Jim Bones").get_by_role("button", name="+1 Atout").click()
    expect(narrator.locator(".character-panel", has_text="Jim Bones").locator("[data-atouts]")).to_have_text("8")
    expect(player.locator(".sheet-summary")).to_contain_text("Atouts 8")

    player.get_by_role("link", name="Fiche imprimable").click()
    expect(player.get_by_role("heading", name="Jim Bones")).to_be_visible()
    pdf = player.pdf(format="A4", print_background=True)
    pages = len(re.findall(rb"/Type\s*/Page(?!s)", pdf))
    assert pages == 1


def test_an_illegal_allocation_is_refused_in_french(new_context, campaign_id) -> None:  # type: ignore[no-untyped-def]
    pk, _narrator, player_name = campaign_id
    player = new_context().new_page()
    login(player, player_name)
    player.goto(f"/characters/campaign/{pk}/new/")
    player.get_by_role("button", name="Créer le personnage").click()
    expect(player.locator("[data-violations]")).to_contain_text("Vous devez dépenser au moins un Atout à la création.")
    expect(player.get_by_role("alert")).to_be_visible()
