"""A narrator signs up, creates a campaign and invites a player, whose open log shows a new note live."""

from __future__ import annotations

import re
import uuid

import pytest
from playwright.sync_api import expect

pytestmark = pytest.mark.e2e


def test_narrator_invites_a_player_and_a_note_appears_live_on_the_players_log(new_context) -> None:  # type: ignore[no-untyped-def]
    suffix = uuid.uuid4().hex[:6]
    narrator = new_context().new_page()

    narrator.goto("/accounts/signup/")
    narrator.locator("input[name=username]").fill(f"mj{suffix}")
    narrator.locator("input[name=password1]").fill("un-mot-de-passe-solide")
    narrator.locator("input[name=password2]").fill("un-mot-de-passe-solide")
    narrator.get_by_role("button", name="Créer un compte").click()
    expect(narrator.get_by_role("heading", name="Vos campagnes")).to_be_visible()

    narrator.get_by_label("Nom").fill("Les Ombres de Lutèce")
    narrator.get_by_role("button", name="Créer la campagne").click()
    expect(narrator.get_by_role("heading", name=re.compile("Les Ombres de Lutèce"))).to_be_visible()

    narrator.get_by_role("link", name="Membres").click()
    narrator.get_by_role("button", name="Créer un lien d’invitation").click()
    invitation = narrator.locator("input.invitation-link[data-new]").input_value()
    assert "/campaigns/invitation/" in invitation

    player = new_context().new_page()
    player.goto(invitation)
    # The invitation names the campaign and its narrator before any login (issue 28), then sign-up comes back here.
    expect(player.get_by_role("heading", name=re.compile("Les Ombres de Lutèce"))).to_be_visible()
    expect(player.get_by_text(f"mj{suffix}")).to_be_visible()
    player.get_by_role("link", name="Créer un compte").last.click()
    player.locator("input[name=username]").fill(f"pj{suffix}")
    player.locator("input[name=password1]").fill("un-mot-de-passe-solide")
    player.locator("input[name=password2]").fill("un-mot-de-passe-solide")
    player.get_by_role("button", name="Créer un compte").click()
    player.get_by_role("button", name="Rejoindre la campagne").click()
    expect(player.get_by_text("Bienvenue dans Les Ombres de Lutèce")).to_be_visible()

    player.get_by_role("link", name="Journal", exact=True).click()
    expect(player.locator("#live-status")).to_have_attribute("data-state", "open")

    narrator.get_by_role("link", name="Tableau de bord").click()
    narrator.get_by_label("Note").fill("Les lumières du bal s’éteignent d’un coup.")
    narrator.get_by_role("button", name="Ajouter au journal").click()

    expect(player.locator("#live-feed")).to_contain_text("Les lumières du bal s’éteignent d’un coup.")
    expect(narrator.locator("#live-feed")).to_contain_text("Les lumières du bal s’éteignent d’un coup.")
