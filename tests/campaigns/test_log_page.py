"""The log page: chronicle, filters, pagination, htmx partial, exports and constant query count."""

from __future__ import annotations

import json

import pytest
from django.test import Client
from django.urls import reverse

from campaigns import services
from campaigns.models import Event
from characters.models import Character
from tests.campaigns.factories import campaign_with, membership, narrator_of, players_of

pytestmark = pytest.mark.django_db


def logged_in(user) -> Client:  # type: ignore[no-untyped-def]
    client = Client()
    client.force_login(user)
    return client


def fill(campaign, count: int) -> None:  # type: ignore[no-untyped-def]
    narrator_membership = membership(campaign, narrator_of(campaign))
    jim = Character.objects.create(campaign=campaign, name="Jim")
    for i in range(count):
        services.note_write(membership=narrator_membership, text=f"note {i}", characters=[jim], private=i % 3 == 0)


@pytest.mark.parametrize("events", [5, 120])
def test_log_page_query_count_does_not_grow_with_events(events: int, django_assert_max_num_queries) -> None:  # type: ignore[no-untyped-def]
    campaign = campaign_with(players=1)
    fill(campaign, events)
    client = logged_in(players_of(campaign)[0])
    with django_assert_max_num_queries(14):
        response = client.get(reverse("campaigns:log", args=[campaign.pk]))
    assert response.status_code == 200


@pytest.mark.parametrize("events", [5, 60])
def test_dashboard_query_count_does_not_grow_with_events(events: int, django_assert_max_num_queries) -> None:  # type: ignore[no-untyped-def]
    campaign = campaign_with(players=1)
    fill(campaign, events)
    client = logged_in(narrator_of(campaign))
    # 14, 2 for the "now" block at the top (the Sequences with draws waiting, who is Shaken or in État critique) and
    # 1 for the Tests the narrator asked and still waits for.
    with django_assert_max_num_queries(17):
        response = client.get(reverse("campaigns:dashboard", args=[campaign.pk]))
    assert response.status_code == 200


def test_the_log_reads_in_french_and_in_english() -> None:
    campaign = campaign_with()
    client = logged_in(narrator_of(campaign))
    french = client.get(reverse("campaigns:log", args=[campaign.pk])).content.decode()
    assert "a créé la campagne" in french
    client.cookies["django_language"] = "en"
    english = client.get(reverse("campaigns:log", args=[campaign.pk])).content.decode()
    assert "created the campaign" in english


def test_log_paginates_fifty_at_a_time() -> None:
    campaign = campaign_with()
    fill(campaign, 60)
    client = logged_in(narrator_of(campaign))
    first = client.get(reverse("campaigns:log", args=[campaign.pk])).content.decode()
    assert first.count('class="log-entry') == 50
    second = client.get(reverse("campaigns:log", args=[campaign.pk]) + "?page=2").content.decode()
    assert second.count('class="log-entry') == 61 - 50


def test_log_filters_by_kind_character_and_session() -> None:
    campaign = campaign_with()
    narrator = narrator_of(campaign)
    game_session = services.game_session_create(campaign=campaign, actor=narrator, date=campaign.created_at.date())
    services.game_session_open(game_session=game_session, actor=narrator)
    fill(campaign, 3)
    lisa = Character.objects.create(campaign=campaign, name="Lisa")
    services.note_write(membership=membership(campaign, narrator), text="only-lisa", characters=[lisa])
    client = logged_in(narrator)
    url = reverse("campaigns:log", args=[campaign.pk])
    by_character = client.get(url, {"character": lisa.pk}).content.decode()
    assert "only-lisa" in by_character and "note 1" not in by_character
    by_kind = client.get(url, {"kind": "session.opened"}).content.decode()
    assert "note 1" not in by_kind and 'data-kind="session.opened"' in by_kind
    by_session = client.get(url, {"game_session": game_session.pk}).content.decode()
    assert "a créé la campagne" not in by_session and "only-lisa" in by_session


def test_htmx_filter_request_renders_only_the_entries_partial() -> None:
    campaign = campaign_with()
    client = logged_in(narrator_of(campaign))
    response = client.get(reverse("campaigns:log", args=[campaign.pk]), HTTP_HX_REQUEST="true")
    html = response.content.decode()
    assert 'id="log-entries"' in html
    assert "<html" not in html
    assert "HX-Request" in response["Vary"]


def test_exports_give_markdown_and_json_with_full_payloads() -> None:
    campaign = campaign_with()
    fill(campaign, 2)
    client = logged_in(narrator_of(campaign))
    markdown = client.get(reverse("campaigns:log_export", args=[campaign.pk, "md"]))
    assert markdown["Content-Type"].startswith("text/markdown")
    assert markdown.content.decode().startswith("# Les Ombres")
    assert "> note 1" in markdown.content.decode()
    document = json.loads(client.get(reverse("campaigns:log_export", args=[campaign.pk, "json"])).content)
    kinds = [e["kind"] for e in document["events"]]
    assert kinds[0] == "campaign.created"
    assert document["events"][-1]["payload"] == {"text": "note 1"}
    assert document["events"][-1]["characters"] == ["Jim"]


def test_notes_are_markdown_with_scripts_removed() -> None:
    campaign = campaign_with()
    narrator = narrator_of(campaign)
    services.note_write(membership=membership(campaign, narrator), text="**gras** <script>alert(1)</script>")
    html = logged_in(narrator).get(reverse("campaigns:log", args=[campaign.pk])).content.decode()
    assert "<strong>gras</strong>" in html
    assert "<script>alert(1)" not in html


def test_an_empty_note_is_refused_in_the_users_language_and_nothing_is_saved() -> None:
    campaign = campaign_with()
    client = logged_in(narrator_of(campaign))
    before = Event.objects.count()
    response = client.post(
        reverse("campaigns:note_create", args=[campaign.pk]), {"text": "   "}, HTTP_HX_REQUEST="true"
    )
    assert response.status_code == 400
    assert "Ce champ est obligatoire" in response.content.decode()
    assert Event.objects.count() == before


@pytest.mark.parametrize("text, status", [("Je fouille", 200), ("   ", 400)])
def test_the_note_forms_answer_still_leads_back_to_the_page_it_was_posted_from(text: str, status: int) -> None:
    """The answer's form used to name the POST's own URL as ``next`` (the request it was rendered for): posted
    again without scripts, it led to the log instead of the dashboard, and the page's script took it for
    another form and put nothing typed meanwhile back into it (static/js/tablee.js)."""
    campaign = campaign_with()
    dashboard = reverse("campaigns:dashboard", args=[campaign.pk])
    response = logged_in(narrator_of(campaign)).post(
        reverse("campaigns:note_create", args=[campaign.pk]), {"text": text, "next": dashboard}, HTTP_HX_REQUEST="true"
    )
    assert response.status_code == status
    assert f'name="next" value="{dashboard}"' in response.content.decode()


def test_corrections_show_beside_the_original() -> None:
    campaign = campaign_with()
    narrator = narrator_of(campaign)
    note = services.note_write(membership=membership(campaign, narrator), text="Jim perd 3 Atouts.")
    client = logged_in(narrator)
    client.post(reverse("campaigns:event_correct", args=[campaign.pk, note.pk]), {"reason": "C'était 2."})
    html = client.get(reverse("campaigns:log", args=[campaign.pk])).content.decode()
    assert "Corrigé par" in html and "C&#x27;était 2." in html
    assert f"Corrige l’entrée n° {note.pk}" in html or f"#{note.pk}" in html


def test_the_public_log_shows_only_public_events_without_login() -> None:
    campaign = campaign_with(players=1)
    narrator = narrator_of(campaign)
    services.note_write(membership=membership(campaign, narrator), text="PUBLIC-NOTE")
    services.note_write(membership=membership(campaign, narrator), text="SECRET-NOTE", private=True)
    services.note_write(membership=membership(campaign, players_of(campaign)[0]), text="PRIVATE-P", private=True)
    campaign = services.public_log_publish(campaign=campaign, actor=narrator)
    html = Client().get(reverse("campaigns:public_log", args=[campaign.public_log_token])).content.decode()
    assert "PUBLIC-NOTE" in html
    assert "SECRET-NOTE" not in html and "PRIVATE-P" not in html
    assert "Correct this entry" not in html and "Corriger" not in html


def test_an_unpublished_log_link_is_gone() -> None:
    campaign = campaign_with()
    narrator = narrator_of(campaign)
    token = services.public_log_publish(campaign=campaign, actor=narrator).public_log_token
    services.public_log_unpublish(campaign=campaign, actor=narrator)
    assert Client().get(reverse("campaigns:public_log", args=[token])).status_code == 404


def test_each_entry_keeps_its_anchor_kind_and_correction_form_for_those_who_may_correct() -> None:
    """The entry markup that links, live updates and corrections rely on: event-<pk>, data-kind, reason-<pk>."""
    campaign = campaign_with(players=2)
    narrator = narrator_of(campaign)
    first, second = players_of(campaign)
    mine = services.note_write(membership=membership(campaign, first), text="Ma note")
    theirs = services.note_write(membership=membership(campaign, second), text="Sa note")
    fix = services.event_correct(membership=membership(campaign, narrator), event=theirs, reason="Pas tout à fait")
    correct_mine = reverse("campaigns:event_correct", args=[campaign.pk, mine.pk])
    correct_theirs = reverse("campaigns:event_correct", args=[campaign.pk, theirs.pk])

    html = logged_in(first).get(reverse("campaigns:log", args=[campaign.pk])).content.decode()
    assert f'id="event-{mine.pk}" data-kind="note"' in html
    assert f'class="log-entry corrected" id="event-{theirs.pk}"' in html
    assert f'href="#event-{theirs.pk}"' in html  # the correction points back at the original
    assert f'action="{correct_mine}"' in html and f'id="reason-{mine.pk}"' in html
    assert f'action="{correct_theirs}"' not in html and f'id="reason-{theirs.pk}"' not in html
    assert f'id="reason-{fix.pk}"' not in html  # a correction is never corrected

    html = logged_in(narrator).get(reverse("campaigns:dashboard", args=[campaign.pk])).content.decode()
    assert f'action="{correct_mine}"' in html and f'action="{correct_theirs}"' in html
    assert html.count('name="csrfmiddlewaretoken"') >= 3


def test_a_correction_strikes_out_the_entry_live_and_live_entries_can_be_corrected() -> None:
    """The corrected entry is re-rendered for every reader; an entry that came live (no CSRF token in it)
    posts its correction through htmx, which sends the page's token."""
    from django.template.loader import render_to_string

    from campaigns.live import Viewer, extra_fragments
    from campaigns.selectors import log_entries

    campaign = campaign_with(players=1)
    narrator, player = narrator_of(campaign), players_of(campaign)[0]
    note = services.note_write(membership=membership(campaign, player), text="Une clé sous l'autel.")
    live = render_to_string(
        "campaigns/partials/live_event.html",
        {"entries": log_entries([note], membership(campaign, narrator)), "campaign": campaign},
    )
    assert 'hx-boost="true"' in live and "csrfmiddlewaretoken" not in live
    fix = services.event_correct(membership=membership(campaign, narrator), event=note, reason="Sous la dalle.")
    seen = "".join(extra_fragments(fix, Viewer(membership(campaign, player))))
    assert f'<li hx-swap-oob="true" class="log-entry corrected" id="event-{note.pk}"' in seen
    assert "Sous la dalle." in seen


def test_in_game_times_read_as_the_readers_dates() -> None:
    """« en jeu 01/01/2000 16:00 » on a French page (not the ISO « 2000-01-01 16:00 »), in the clock's entry too."""
    import datetime as dt
    import re

    campaign = campaign_with(players=1)
    narrator = narrator_of(campaign)
    services.clock_advance(campaign=campaign, actor=narrator, delta=dt.timedelta(hours=2), reason="")
    client = Client()
    client.force_login(narrator)
    html = client.get(reverse("campaigns:log", args=[campaign.pk])).content.decode()
    assert re.search(r"en jeu \d\d/\d\d/\d{4} \d\d:\d\d", html)
    assert re.search(r"il est maintenant \d\d/\d\d/\d{4} \d\d:\d\d", html)
    assert not re.search(r"en jeu \d{4}-\d\d-\d\d", html)


def test_the_dashboard_reads_its_regions_versions_once(django_assert_max_num_queries) -> None:  # type: ignore[no-untyped-def]
    """Every panel is a region with its own declaration: a page of N regions reads their versions in one query
    (core.regions.version_pass), cold and after a change alike."""
    from characters.services.atouts import atout_gain

    campaign = campaign_with(players=1)
    narrator = narrator_of(campaign)
    cast = [Character.objects.create(campaign=campaign, name=name) for name in ("Jim", "Lisa", "Abel", "Zoé")]
    client = logged_in(narrator)
    url = reverse("campaigns:dashboard", args=[campaign.pk])
    for change in (None, cast[1]):
        if change is not None:
            atout_gain(character=change, actor=narrator, amount=1)
        with django_assert_max_num_queries(17) as captured:  # as above: 16, and the Tests asked
            page = client.get(url).text
        assert sum("campaigns_subjectversion" in q["sql"] for q in captured.captured_queries) == 1
        assert all(f'id="character-panel-{c.pk}"' in page for c in cast)


def test_the_dashboard_after_a_note_serves_its_now_sections_kept(django_assert_max_num_queries) -> None:  # type: ignore[no-untyped-def]
    """A note touches the log alone: the "now" block's sections (who has to draw, who is Shaken) are served as kept
    under their declarations (campaigns.now), without reading the Sequences or the states again."""
    from campaigns.services import note_write
    from states.services.shaken import savage_shaken_set

    campaign = campaign_with(players=1, savage_states=True)
    narrator = narrator_of(campaign)
    jim = Character.objects.create(campaign=campaign, name="Jim")
    savage_shaken_set(character=jim, actor=narrator, shaken=True, expected_version=None)
    client = logged_in(narrator)
    url = reverse("campaigns:dashboard", args=[campaign.pk])
    assert 'id="now-states"' in client.get(url).text
    note_write(membership=membership(campaign, narrator), text="Une note")
    with django_assert_max_num_queries(17) as captured:
        page = client.get(url).text
    sqls = [q["sql"] for q in captured.captured_queries]
    assert not [sql for sql in sqls if "conflicts_sequence" in sql or "savagestate" in sql], sqls
    assert "Une note" in page and "Jim" in page


@pytest.mark.parametrize("reader", ["narrator", "player"])
def test_the_plain_log_pages_filter_and_list_are_kept_until_they_have_something_new(
    reader: str, django_assert_max_num_queries
) -> None:  # type: ignore[no-untyped-def]
    """The plain page's filter and list are regions (campaigns.page_regions.LOG_FILTER, LOG_ENTRIES): found kept, the
    page reads no entry, session or character, and after a note (no new kind, no new session or character) it is still found kept; a new kind
    shows at once. A filtered page's filter is bound to what was asked and offers the same choices."""
    campaign = campaign_with(players=1)
    fill(campaign, 3)
    user = narrator_of(campaign) if reader == "narrator" else players_of(campaign)[0]
    client = logged_in(user)
    client.cookies["django_language"] = "en"
    url = reverse("campaigns:log", args=[campaign.pk])
    client.get(url)
    writer = membership(campaign, narrator_of(campaign))
    with django_assert_max_num_queries(4):  # session, user, member, kinds: the filter and the list found kept
        client.get(url)
    for _ in range(2):
        with django_assert_max_num_queries(9) as read:  # and after a note: the versions, the new entry's two reads
            page = client.get(url).content.decode()
        filter_reads = ('FROM "campaigns_gamesession"', 'FROM "characters_character"')
        assert not [q for q in read.captured_queries if any(part in q["sql"] for part in filter_reads)]
        services.note_write(membership=writer, text="Encore une note")
    assert '<option value="note">' in page and '<option value="session.created">' not in page
    session = services.game_session_create(
        campaign=campaign, actor=narrator_of(campaign), date=campaign.created_at.date()
    )
    page = client.get(url).content.decode()
    assert '<option value="session.created">' in page and f'<option value="{session.pk}">' in page
    filtered = client.get(url, {"kind": "note"}).content.decode()
    assert '<option value="session.created">' in filtered and '<option value="note" selected>' in filtered
