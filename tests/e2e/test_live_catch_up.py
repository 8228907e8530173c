"""A player's phone drops off the network while the narrator writes; it comes back current, without a reload."""

from __future__ import annotations

import uuid

import pytest
from playwright.sync_api import expect

from tests.e2e.conftest import login

pytestmark = pytest.mark.e2e


def _campaign_with_player(run_in_server_db, narrator_name: str, player_name: str, name: str) -> int:  # type: ignore[no-untyped-def]
    """A campaign named ``name`` led by ``narrator_name``, with ``player_name`` as its player."""
    return int(
        run_in_server_db(
            "from django.contrib.auth.models import User\n"
            "from campaigns import services\n"
            "from campaigns.models import Membership, Role\n"
            f"narrator = User.objects.get(username={narrator_name!r})\n"
            f"campaign = services.campaign_create(owner=narrator, data={{'name': {name!r}}})\n"
            f"Membership.objects.create(campaign=campaign, user=User.objects.get(username={player_name!r}), role=Role.PLAYER)\n"
            "print(campaign.pk)\n"
        ).strip()
    )


def test_a_page_that_was_offline_shows_what_it_missed_within_two_seconds(
    new_context, make_user, run_in_server_db
) -> None:  # type: ignore[no-untyped-def]
    suffix = uuid.uuid4().hex[:6]
    narrator_name, player_name = make_user(f"mj{suffix}"), make_user(f"pj{suffix}")
    campaign_id = _campaign_with_player(run_in_server_db, narrator_name, player_name, "Coupure")
    player_context = new_context()
    player = player_context.new_page()
    login(player, player_name)
    player.goto(f"/campaigns/{campaign_id}/log/")
    status = player.locator("#live-status")
    expect(status).to_have_attribute("data-state", "open")
    expect(status).to_have_text("En direct")

    narrator = new_context().new_page()
    login(narrator, narrator_name)
    narrator.goto(f"/campaigns/{campaign_id}/dashboard/")
    # The narrator's dashboard keeps its note form open (a player's campaign page folds it).

    player_context.set_offline(True)
    expect(status).to_have_attribute("data-state", "offline")
    expect(status).to_contain_text("Hors ligne depuis")
    for text in ("Première note pendant la coupure", "Seconde note pendant la coupure"):
        narrator.get_by_label("Note").fill(text)
        narrator.get_by_role("button", name="Ajouter au journal").click()
        expect(narrator.locator("#live-feed")).to_contain_text(text)
    expect(player.locator("#live-feed")).not_to_contain_text("pendant la coupure")

    player.evaluate("window.__stillTheSamePage = true")
    player_context.set_offline(False)
    feed = player.locator("#live-feed")
    expect(feed).to_contain_text("Première note pendant la coupure", timeout=2000)
    expect(feed).to_contain_text("Seconde note pendant la coupure", timeout=2000)
    expect(status).to_have_attribute("data-state", "open", timeout=2000)
    assert player.locator("#live-feed li", has_text="pendant la coupure").count() == 2, "each note shown once"
    assert player.evaluate("window.__stillTheSamePage === true"), "caught up without a reload"


def test_a_page_that_missed_many_events_gets_its_regions_as_they_stand_in_one_message(
    new_context, make_user, run_in_server_db
) -> None:  # type: ignore[no-untyped-def]
    """Past LIVE_CATCH_UP_REPLAY_MAX missed events the page is sent its regions as they stand
    (campaigns/live_catch_up.py): its feed then equals a fresh page's, with no reload and no secret."""
    suffix = uuid.uuid4().hex[:6]
    narrator_name, player_name = make_user(f"mj{suffix}"), make_user(f"pj{suffix}")
    campaign_id = _campaign_with_player(run_in_server_db, narrator_name, player_name, "Longue coupure")
    player_context = new_context()
    player = player_context.new_page()
    login(player, player_name)
    player.goto(f"/campaigns/{campaign_id}/")
    status = player.locator("#live-status")
    expect(status).to_have_attribute("data-state", "open")
    player_context.set_offline(True)
    expect(status).to_have_attribute("data-state", "offline")
    run_in_server_db(
        "from campaigns import services\n"
        "from campaigns.models import Membership\n"
        f"narrator = Membership.objects.select_related('campaign').get(campaign_id={campaign_id}, role='narrator')\n"
        "for n in range(40):\n"
        "    services.note_write(membership=narrator, text=f'Note {n} pendant la longue coupure')\n"
        "    services.note_write(membership=narrator, text=f'SECRET DU MJ {n}', private=True)\n"
    )
    player.evaluate("window.__stillTheSamePage = true")
    player_context.set_offline(False)
    feed = player.locator("#live-feed")
    expect(feed).to_contain_text("Note 39 pendant la longue coupure", timeout=5000)
    expect(status).to_have_attribute("data-state", "open", timeout=5000)
    assert player.evaluate("window.__stillTheSamePage === true"), "caught up without a reload"
    shown = player.locator("#live-feed li").all_inner_texts()
    fresh = new_context().new_page()
    login(fresh, player_name)
    fresh.goto(f"/campaigns/{campaign_id}/")
    assert shown == fresh.locator("#live-feed li").all_inner_texts()
    assert "SECRET DU MJ" not in player.content()


def test_a_note_typed_while_the_previous_one_is_on_its_way_is_kept(new_context, make_user, run_in_server_db) -> None:  # type: ignore[no-untyped-def]
    """The socket often shows a note before its POST's answer brings the empty form back. A narrator who had begun the
    next note meanwhile lost it: the answer replaced the form they were typing into (a CI run caught it, the second
    note of the test above posted empty). Here the answer is held while the next note is typed."""
    suffix = uuid.uuid4().hex[:6]
    narrator_name = make_user(f"mjtyped{suffix}")
    campaign_id = _campaign_with_player(run_in_server_db, narrator_name, make_user(f"pjtyped{suffix}"), "Frappe")
    narrator = new_context().new_page()
    login(narrator, narrator_name)
    narrator.goto(f"/campaigns/{campaign_id}/dashboard/")
    held = []
    narrator.route(
        "**/notes/**", lambda route: held.append(route) if route.request.method == "POST" else route.continue_()
    )
    note = narrator.get_by_label("Note")
    note.fill("La porte grince")
    narrator.get_by_role("button", name="Ajouter au journal").click()
    while not held:
        narrator.wait_for_timeout(50)
    note.fill("Un chien aboie")
    narrator.evaluate("document.getElementById('note-form').dataset.sent = 'yes'")
    held[0].continue_()
    expect(narrator.locator("#live-feed")).to_contain_text("La porte grince")
    expect(narrator.locator("#note-form[data-sent]")).to_have_count(0)  # the answer's form is on the page
    expect(note).to_have_value("Un chien aboie")
    narrator.unroute("**/notes/**")
    narrator.get_by_role("button", name="Ajouter au journal").click()
    expect(narrator.locator("#live-feed")).to_contain_text("Un chien aboie")
    expect(note).to_have_value("")
