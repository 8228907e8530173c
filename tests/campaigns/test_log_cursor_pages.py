"""Log pages by cursor: newest, newer, older and oldest links that keep the filters, every entry once,
old ?page= links still served, a broken address answered with the newest page, and a constant cost."""

from __future__ import annotations

import datetime as dt
import html
import re

import pytest
from django.test import Client
from django.urls import reverse

from campaigns import services
from campaigns.log_pages import cursor_of, parse_cursor
from campaigns.models import Campaign
from tests.campaigns.factories import campaign_with, membership, narrator_of, players_of

pytestmark = pytest.mark.django_db


def _client(user, language: str = "fr") -> Client:  # type: ignore[no-untyped-def]
    client = Client()
    client.force_login(user)
    client.cookies["django_language"] = language
    return client


def _fill(campaign: Campaign, count: int, word: str = "note") -> None:
    n = membership(campaign, narrator_of(campaign))
    for i in range(count):
        services.note_write(membership=n, text=f"{word} {i}", private=i % 4 == 0)


def _ids(page: str) -> list[int]:
    return [int(pk) for pk in re.findall(r'id="event-(\d+)"', page)]


def _link(page: str, label: str) -> str | None:
    found = re.search(r'<a class="button small" href="([^"]*)">[^<]*' + re.escape(label), page)
    return html.unescape(found.group(1)) if found else None


def test_a_cursor_names_an_entry_and_a_broken_one_is_refused() -> None:
    when = dt.datetime(2026, 11, 26, 9, 30, 1, 123456, tzinfo=dt.UTC)
    text = cursor_of(when, 42)
    assert parse_cursor(text) is not None and parse_cursor(text).created_at == when and parse_cursor(text).pk == 42  # type: ignore[union-attr]
    for bad in ("", "42", "abc_1", "1_", "_1", "1_2_3", "9" * 18 + "_1", "-5_3"):
        assert parse_cursor(bad) is None, bad


@pytest.mark.parametrize("search", [False, True])
def test_older_links_walk_the_whole_log_once_and_newer_links_walk_back(search: bool) -> None:
    campaign = campaign_with(players=1)
    _fill(campaign, 160)
    player = players_of(campaign)[0]
    client = _client(player)
    url = reverse("campaigns:log", args=[campaign.pk]) + ("?q=note" if search else "")
    pages, page = [], client.get(url).content.decode()
    while True:
        pages.append(_ids(page))
        older = _link(page, "Plus ancien")
        if older is None:
            break
        assert not search or "q=note" in older  # the filter stays in the links
        page = client.get(older).content.decode()
    seen = [pk for ids in pages for pk in ids]
    expected = 120 + (0 if search else 1)  # the player's notes (3 in 4), and the campaign's creation
    assert len(seen) == len(set(seen)) == expected
    assert seen == sorted(seen, reverse=True)
    assert all(len(ids) == 50 for ids in pages[:-1])
    # Back up from the last page: the pages above it, then the newest, which has no newer link.
    newer = _link(page, "Plus récent")
    assert newer is not None
    above = client.get(newer).content.decode()
    assert _ids(above) == pages[-2]
    newest = _link(above, "Les plus récents")
    assert newest is not None and "before=" not in newest and "after=" not in newest
    assert _ids(client.get(newest).content.decode()) == pages[0]


def test_the_oldest_link_shows_the_first_fifty_entries_and_links_newer() -> None:
    campaign = campaign_with()
    _fill(campaign, 120)
    client = _client(narrator_of(campaign), "en")
    first = client.get(reverse("campaigns:log", args=[campaign.pk])).content.decode()
    assert _link(first, "Newer") is None and _link(first, "Newest") is None
    oldest_url = _link(first, "Oldest")
    assert oldest_url is not None and oldest_url.endswith("?oldest=1")
    oldest = client.get(oldest_url).content.decode()
    ids = _ids(oldest)
    assert len(ids) == 50 and ids == sorted(ids, reverse=True)
    assert "created the campaign" in oldest  # the very first entry closes the oldest page
    assert _link(oldest, "Older") is None and _link(oldest, "Oldest") is None
    newer = client.get(_link(oldest, "Newer")).content.decode()  # type: ignore[arg-type]
    assert min(_ids(newer)) > max(ids)


def test_the_filters_stay_in_every_link() -> None:
    campaign = campaign_with()
    _fill(campaign, 120)
    client = _client(narrator_of(campaign))
    url = reverse("campaigns:log", args=[campaign.pk])
    page = client.get(url, {"kind": "note", "q": "note"}).content.decode()
    older = _link(page, "Plus ancien")
    assert older is not None and "kind=note" in older and "q=note" in older
    deeper = client.get(older).content.decode()
    for label in ("Les plus récents", "Plus récent", "Plus ancien", "Les plus anciens"):
        link = _link(deeper, label)
        assert link is not None and "kind=note" in link and "q=note" in link, label


def test_old_page_numbers_are_still_served() -> None:
    campaign = campaign_with()
    _fill(campaign, 120)
    client = _client(narrator_of(campaign))
    url = reverse("campaigns:log", args=[campaign.pk])
    first = _ids(client.get(url).content.decode())
    second = client.get(url + "?page=2").content.decode()
    third = _ids(client.get(url + "?page=3").content.decode())
    assert len(_ids(second)) == 50 and min(first) > max(_ids(second)) > max(third)
    assert "page=" not in (_link(second, "Plus ancien") or "")  # it links on by cursor
    assert _ids(client.get(_link(second, "Plus ancien")).content.decode()) == third  # type: ignore[arg-type]
    past_the_end = client.get(url + "?page=999999")
    assert past_the_end.status_code == 200
    assert _ids(past_the_end.content.decode()) == _ids(client.get(url + "?oldest=1").content.decode())
    assert _ids(client.get(url + "?page=abc").content.decode()) == first
    below_everything = client.get(url + "?before=1_1").content.decode()  # a cursor older than the log
    assert _ids(below_everything) == _ids(client.get(url + "?oldest=1").content.decode())
    assert _link(below_everything, "Plus récent") is not None


@pytest.mark.parametrize(("language", "words"), [("fr", "n'est pas valide"), ("en", "is not valid")])
def test_a_broken_cursor_shows_the_newest_entries_and_says_so(language: str, words: str) -> None:
    campaign = campaign_with()
    _fill(campaign, 60)
    client = _client(narrator_of(campaign), language)
    url = reverse("campaigns:log", args=[campaign.pk])
    newest = _ids(client.get(url).content.decode())
    for bad in ("?before=abc", "?after=1_", "?before=" + "9" * 17 + "_1x"):
        response = client.get(url + bad)
        assert response.status_code == 200
        assert words in html.unescape(response.content.decode())
        assert _ids(response.content.decode()) == newest


def test_the_public_log_pages_by_cursor_and_shows_only_public_entries() -> None:
    campaign = campaign_with()
    narrator = narrator_of(campaign)
    services.public_log_publish(campaign=campaign, actor=narrator)
    _fill(campaign, 150, word="secret")
    campaign.refresh_from_db()
    client = Client()
    url = reverse("campaigns:public_log", args=[campaign.public_log_token])
    page, seen = client.get(url).content.decode(), []
    while True:
        seen += _ids(page)
        older = _link(page, "Plus ancien")
        if older is None:
            break
        page = client.get(older).content.decode()
    public = campaign.events.filter(visibility="everyone").values_list("pk", flat=True)
    assert sorted(seen) == sorted(public)


@pytest.mark.parametrize("events", [5, 130])
@pytest.mark.parametrize("where", ["older", "oldest", "newer"])
def test_a_deep_page_query_count_does_not_grow_with_events(
    events: int, where: str, django_assert_max_num_queries
) -> None:  # type: ignore[no-untyped-def]
    campaign = campaign_with(players=1)
    _fill(campaign, events)
    client = _client(narrator_of(campaign))
    log = reverse("campaigns:log", args=[campaign.pk])
    first = client.get(log).content.decode()
    url = {"older": _link(first, "Plus ancien"), "oldest": log + "?oldest=1"}.get(where)
    if where == "newer":
        url = _link(client.get(log + "?oldest=1").content.decode(), "Plus récent") or log
    with django_assert_max_num_queries(14):
        response = client.get(url or log)
    assert response.status_code == 200


def test_a_newer_link_with_less_than_a_page_above_shows_the_newest_page() -> None:
    """A page "after" an entry that has fewer than 50 newer ones is the newest page itself (no "newer" link)."""
    campaign = campaign_with(players=1)
    _fill(campaign, 60)
    client = _client(narrator_of(campaign))
    url = reverse("campaigns:log", args=[campaign.pk])
    newest = client.get(url).content.decode()
    entry = campaign.events.order_by("-created_at", "-pk")[10]
    page = client.get(url, {"after": cursor_of(entry.created_at, entry.pk)}).content.decode()
    assert _ids(page) == _ids(newest) and len(_ids(page)) == 50
    assert _link(page, "Plus récent") is None and _link(page, "Plus ancien") is not None
