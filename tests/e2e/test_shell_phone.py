"""The phone shell at 390 px: language always in the bar, the menu one tap away, nothing scrolls sideways."""

from __future__ import annotations

import uuid

import pytest

from tests.e2e.conftest import login

pytestmark = pytest.mark.e2e

PHONE = {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True}


def _inside_screen(locator) -> bool:  # type: ignore[no-untyped-def]
    box = locator.bounding_box()
    return box is not None and box["x"] >= 0 and box["x"] + box["width"] <= 390


def test_a_visitor_on_a_phone_sees_the_language_switch(new_context) -> None:  # type: ignore[no-untyped-def]
    page = new_context(**PHONE).new_page()
    page.goto("/accounts/login/")
    english = page.locator(".lang-switch button[value=en]")
    assert english.is_visible() and _inside_screen(english)
    english.click()
    assert page.locator("html").get_attribute("lang") == "en"
    assert page.evaluate("document.documentElement.scrollWidth") <= 390


def test_a_player_on_a_phone_reaches_the_menu_and_logs_out(new_context, make_user) -> None:  # type: ignore[no-untyped-def]
    name = f"p{uuid.uuid4().hex[:6]}"
    make_user(name)
    page = new_context(**PHONE).new_page()
    login(page, name)
    assert page.locator(".lang-switch button[value=fr]").is_visible()
    logout = page.locator("#topnav button[type=submit]")
    assert not logout.is_visible()  # folded away until asked for
    page.locator(".menu-toggle").click()
    assert logout.is_visible() and _inside_screen(logout)
    assert page.locator("#topnav a[href='/campaigns/']").is_visible()
    logout.click()
    page.wait_for_url("**/")
    assert page.evaluate("document.documentElement.scrollWidth") <= 390


def test_on_a_wide_screen_the_menu_is_simply_there(new_context, make_user) -> None:  # type: ignore[no-untyped-def]
    name = f"w{uuid.uuid4().hex[:6]}"
    make_user(name)
    page = new_context(viewport={"width": 1280, "height": 800}).new_page()
    login(page, name)
    assert not page.locator(".menu-toggle").is_visible()
    assert page.locator("#topnav button[type=submit]").is_visible()
