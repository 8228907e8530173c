"""Frag on a phone (390 × 844): the board zooms so that squares reach 44 px, the page never scrolls sideways, the
player's fighter stays in view and the zoom survives reloads and live table swaps; a hot-seat game passes the
device before a hand is shown."""

from __future__ import annotations

import json
import uuid
from collections.abc import Callable

import pytest
from playwright.sync_api import Page, expect

from tests.e2e.conftest import box_of, login

pytestmark = pytest.mark.e2e

PHONE = {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True, "locale": "en-GB"}

GAME = """
import json
from django.contrib.auth.models import User
from frag import services
from frag.engine import State
u = User.objects.get(username={username!r})
seats = [services.SeatSpec(name=n, health=2, speed=3, accuracy=2, user=u) for n in {people!r}]
seats += [services.SeatSpec(name="Bot", health=2, speed=3, accuracy=2, bot="heuristic")]
game = services.game_create(creator=u, map_name="entrepot", seats=seats, seed=5)
state = State.from_json(game.snapshot)
hands = [[c.name["en"] for c in map(state.card, f.hand)] for f in state.fighters]
print(json.dumps({{"game": game.pk, "hands": hands}}))
"""


def new_game(run_in_server_db: Callable[[str], str], username: str, people: list[str]) -> dict:  # type: ignore[type-arg]
    return json.loads(run_in_server_db(GAME.format(username=username, people=people)))


def square_width(page: Page) -> float:
    return box_of(page.locator(".frag-board rect.cell").first)["width"]


def page_width(page: Page) -> int:
    return int(page.evaluate("document.documentElement.scrollWidth"))


def test_zooming_the_board_on_a_phone(new_context, make_user, run_in_server_db) -> None:  # type: ignore[no-untyped-def]
    username = make_user(f"zoom{uuid.uuid4().hex[:6]}")
    game = new_game(run_in_server_db, username, ["Ana"])
    page = new_context(**PHONE).new_page()
    login(page, username)
    page.goto(f"/frag/games/{game['game']}/")
    expect(page.locator("#live-status")).to_have_attribute("data-state", "open")
    assert square_width(page) < 44
    assert page_width(page) <= 390
    expect(page.locator("#frag-zoom-out")).to_be_disabled()

    page.locator("#frag-zoom-in").click()
    expect(page.locator("#frag-zoom-host")).to_have_attribute("data-frag-zoom", "2")
    assert square_width(page) >= 44
    assert page_width(page) <= 390, "the board scrolls inside its box, never the page"

    # A tap replaces the table (and the bot's turn arrives over the socket): the zoom stays.
    table = page.locator("#frag-table")
    version = table.get_attribute("data-version")
    page.locator("polygon.target").first.click()
    expect(table).not_to_have_attribute("data-version", version or "")
    expect(page.locator(".frag-board .fighter.me")).to_have_count(1)
    assert square_width(page) >= 44 and page_width(page) <= 390
    # The buttons of the player's move come above the board: reachable without scrolling past it.
    if page.locator("#frag-actions").count():
        assert box_of(page.locator("#frag-actions"))["y"] < box_of(page.locator(".frag-board-scroll"))["y"]

    # Zooming further keeps the player's fighter in view, inside the board's box and on the screen.
    page.locator("#frag-zoom-in").click()
    expect(page.locator("#frag-zoom-in")).to_be_disabled()
    assert square_width(page) >= 60
    me = box_of(page.locator(".frag-board .fighter.me circle"))
    box = box_of(page.locator(".frag-board-scroll"))
    assert box["x"] <= me["x"] and me["x"] + me["width"] <= box["x"] + box["width"]
    assert me["y"] >= 0 and me["y"] + me["height"] <= 844
    assert page_width(page) <= 390

    # Remembered on this device.
    page.reload()
    expect(page.locator("#frag-zoom-host")).to_have_attribute("data-frag-zoom", "3")
    assert square_width(page) >= 60 and page_width(page) <= 390
    # The replay shows the board at the same size, and keeps it from step to step.
    page.goto(f"/frag/games/{game['game']}/replay/")
    expect(page.locator("#frag-zoom-host")).to_have_attribute("data-frag-zoom", "3")
    page.get_by_role("link", name="Previous").click()
    expect(page.locator("#frag-replay-step")).to_contain_text("Step 1 of")
    assert square_width(page) >= 60 and page_width(page) <= 390
    page.goto(f"/frag/games/{game['game']}/")
    page.locator("#frag-zoom-out").click()
    page.locator("#frag-zoom-out").click()
    expect(page.locator("#frag-zoom-host")).to_have_attribute("data-frag-zoom", "1")
    assert square_width(page) < 44


def test_a_hot_seat_game_passes_the_device_before_showing_a_hand(new_context, make_user, run_in_server_db) -> None:  # type: ignore[no-untyped-def]
    username = make_user(f"hot{uuid.uuid4().hex[:6]}")
    game = new_game(run_in_server_db, username, ["Ana", "Bea"])
    ana, bea = set(game["hands"][0]), set(game["hands"][1])
    page = new_context(**PHONE).new_page()
    login(page, username)
    page.goto(f"/frag/games/{game['game']}/")
    expect(page.locator("#frag-pass")).to_contain_text("Pass the device to Ana")
    html = page.content()
    assert not any(name in html for name in ana | bea)

    page.get_by_role("button", name="I am Ana: show my hand").click()
    expect(page.locator("#frag-pass")).to_have_count(0)
    for name in ana:
        expect(page.locator("#frag-hand")).to_contain_text(name)
    html = page.content()
    assert not any(name in html for name in bea - ana)

    # Ana places her fighter: the turn passes to Bea and the hand folds again.
    page.locator("polygon.target").first.click()
    expect(page.locator("#frag-pass")).to_contain_text("Pass the device to Bea")
    html = page.content()
    assert not any(name in html for name in ana | bea)
