"""The log's full-text search: whole words or their beginnings, case and accents aside, on both databases,
through their indexes, and never past what the reader may read."""

from __future__ import annotations

import re

import pytest
from django.db import connection
from django.test import Client
from django.urls import reverse

from campaigns import selectors, services
from campaigns.models import Campaign, Event
from campaigns.search_text import event_search_text, fold, name_matches, query_words
from characters.models import Character
from tests.campaigns.factories import campaign_with, membership, narrator_of, players_of

pytestmark = pytest.mark.django_db

NOTHING_YET = "Rien pour l’instant."


def _client(user, language: str = "fr") -> Client:  # type: ignore[no-untyped-def]
    client = Client()
    client.force_login(user)
    client.cookies["django_language"] = language
    return client


def _found(user, campaign: Campaign, q: str) -> list[int]:  # type: ignore[no-untyped-def]
    """The ids of the entries the log page shows ``user`` for the search ``q`` (its htmx partial)."""
    html = _client(user).get(reverse("campaigns:log", args=[campaign.pk]), {"q": q}, HTTP_HX_REQUEST="true")
    assert html.status_code == 200
    return [int(pk) for pk in re.findall(r'id="event-(\d+)"', html.content.decode())]


def test_words_are_folded_case_accents_and_ligatures_aside() -> None:
    assert fold("Œuvre RÉVÈLE l'Âme, Ça") == "oeuvre revele l'ame, ca"
    assert event_search_text({"text": "Le Révers-profond!", "title": "Quai n°3", "other": "caché", "name": 4}) == (
        "le revers profond quai n 3"
    )
    assert query_words("  revers REVERS, révers  profond ") == ["revers", "profond"]
    assert query_words("!!! ---") == []
    assert name_matches("Hélène de Saint-Just", ["hel", "just"]) and not name_matches("Hélène", ["lene"])


def test_a_search_finds_whole_words_and_their_beginnings_case_and_accents_aside() -> None:
    campaign = campaign_with()
    n = membership(campaign, narrator_of(campaign))
    deep = services.note_write(membership=n, text="Un Révers profond au flanc.")
    light = services.note_write(membership=n, text="Un revers léger, rien de grave.")
    other = services.note_write(membership=n, text="Il traverse le quai.")
    narrator = narrator_of(campaign)
    for q in ("revers", "REVERS", "Révers", "rév", "rEvErS"):
        assert set(_found(narrator, campaign, q)) == {deep.pk, light.pk}, q
    assert _found(narrator, campaign, "revers profond") == [deep.pk]  # every word, in any order
    assert _found(narrator, campaign, "profond revers") == [deep.pk]
    assert _found(narrator, campaign, "leger") == [light.pk]
    # Whole words or their beginnings: « vers » is inside « revers » and « traverse », not at their start.
    assert _found(narrator, campaign, "vers") == []
    assert _found(narrator, campaign, "traverse") == [other.pk]


def test_a_search_of_signs_only_finds_nothing_and_says_so() -> None:
    campaign = campaign_with()
    services.note_write(membership=membership(campaign, narrator_of(campaign)), text="!!! ---")
    response = _client(narrator_of(campaign)).get(reverse("campaigns:log", args=[campaign.pk]), {"q": "!!!"})
    assert response.status_code == 200
    assert _found(narrator_of(campaign), campaign, "!!!") == []
    assert NOTHING_YET in response.content.decode()


def test_a_search_finds_the_titles_names_goals_and_reasons_an_event_carries() -> None:
    campaign = campaign_with()
    narrator = narrator_of(campaign)
    n = membership(campaign, narrator)
    note = services.note_write(membership=n, text="Le coffre est vide.")
    fix = services.event_correct(membership=n, event=note, reason="Le coffre était plein d'écus.")
    assert _found(narrator, campaign, "ecus") == [fix.pk]  # a correction is found by its reason, as it is written
    session = services.game_session_create(campaign=campaign, actor=narrator, date=campaign.created_at.date(),
                                           title="Nuit à l'Opéra")  # fmt: skip
    created = Event.objects.get(kind="session.created", game_session=session)
    assert _found(narrator, campaign, "opera") == [created.pk]


def test_a_search_finds_the_entries_of_a_character_by_its_name_as_it_is_now() -> None:
    campaign = campaign_with()
    narrator = narrator_of(campaign)
    helene = Character.objects.create(campaign=campaign, name="Hélène Vautrin")
    tagged = services.note_write(membership=membership(campaign, narrator), text="Elle passe.", characters=[helene])
    assert _found(narrator, campaign, "helene") == [tagged.pk]
    assert _found(narrator, campaign, "vautrin hel") == [tagged.pk]
    Character.objects.filter(pk=helene.pk).update(name="Mireille")
    assert _found(narrator, campaign, "mireille") == [tagged.pk]
    assert _found(narrator, campaign, "helene") == []


def test_search_never_finds_an_entry_the_reader_may_not_read_nor_links_past_them() -> None:
    """The index holds every event of every campaign; what it finds is still filtered by who reads."""
    campaign = campaign_with(players=2)
    narrator, (lisa, jim) = narrator_of(campaign), players_of(campaign)
    n, lisa_m = membership(campaign, narrator), membership(campaign, lisa)
    public = services.note_write(membership=n, text="Le grimoire est sur l'autel.")
    secret = services.note_write(membership=n, text="Le grimoire est maudit (secret du MJ).", private=True)
    own = services.note_write(membership=lisa_m, text="Je garde le grimoire pour moi.", private=True)
    for _ in range(60):  # more hidden matches than a page: no "older" link may hint at them
        services.note_write(membership=n, text="Grimoire, chapitre caché.", private=True)
    elsewhere = campaign_with(narrator=narrator)
    services.note_write(membership=membership(elsewhere, narrator), text="Un autre grimoire.")

    assert set(_found(lisa, campaign, "grimoire")) == {public.pk, own.pk}
    assert _found(jim, campaign, "grimoire") == [public.pk]
    assert _found(jim, campaign, "maudit") == [] and _found(jim, campaign, "moi") == []
    assert len(_found(narrator, campaign, "grimoire")) == 50  # the narrator's first page of 63 matches
    assert secret.pk in _found(narrator, campaign, "maudit")

    page = _client(jim).get(reverse("campaigns:log", args=[campaign.pk]), {"q": "grimoire"}).content.decode()
    assert "maudit" not in page and "chapitre" not in page and "pour moi" not in page
    assert "before=" not in page and "oldest=1" not in page  # one page: nothing hidden below it
    for q in ("grimoire", "maudit", "chapitre"):  # the selector itself, as the exports read it
        for reader, hidden in ((jim, {secret.pk, own.pk}), (lisa, {secret.pk})):
            found = selectors.log_events(membership(campaign, reader), selectors.LogFilter(text=q))
            assert not hidden & set(found.values_list("pk", flat=True))
    export = _client(jim).get(reverse("campaigns:log_export", args=[campaign.pk, "md"]), {"q": "grimoire"})
    assert "maudit" not in export.content.decode() and "pour moi" not in export.content.decode()
    assert "autre grimoire" not in export.content.decode()


def test_the_index_is_kept_by_the_database_for_whatever_writes_an_event(on_postgres: bool) -> None:
    """SQLite: triggers keep the FTS5 table in step (a later migration that rebuilds campaigns_event drops
    them: it must create them again, see migration 0005); PostgreSQL: the GIN index the search uses."""
    with connection.cursor() as cursor:
        if on_postgres:
            cursor.execute("SELECT indexdef FROM pg_indexes WHERE indexname = 'event_search_words'")
            assert "to_tsvector('simple'::regconfig, search_text)" in cursor.fetchone()[0]
        else:
            cursor.execute("SELECT name FROM sqlite_master WHERE type = 'trigger' AND tbl_name = 'campaigns_event'")
            triggers = {row[0] for row in cursor.fetchall()}
            assert {"campaigns_event_search_insert", "campaigns_event_search_delete"} <= triggers
    campaign = campaign_with()
    # Written without the service (as a bulk load would): save() folds the words, the index follows.
    event = Event.objects.create(
        campaign=campaign, kind="note", payload={"text": "Écluse"}, game_time=campaign.game_clock
    )
    assert _found(narrator_of(campaign), campaign, "ecluse") == [event.pk]


@pytest.mark.parametrize("events", [5, 120])
@pytest.mark.parametrize("q", ["note", "rare"])
def test_a_search_page_query_count_does_not_grow_with_events(
    events: int, q: str, django_assert_max_num_queries
) -> None:  # type: ignore[no-untyped-def]
    campaign = campaign_with(players=1)
    n = membership(campaign, narrator_of(campaign))
    services.note_write(membership=n, text="Un mot rare.")
    for i in range(events):
        services.note_write(membership=n, text=f"note {i}", private=i % 3 == 0)
    client = _client(players_of(campaign)[0])
    with django_assert_max_num_queries(14):
        response = client.get(reverse("campaigns:log", args=[campaign.pk]), {"q": q})
    assert response.status_code == 200


def test_on_postgres_a_word_of_few_entries_is_read_through_the_index_alone(on_postgres: bool) -> None:
    """PostgreSQL cannot estimate a prefix query, and testing every row of the log newest first cost 0.7 s for
    a word only old entries hold at 50,000 events: up to FEW_MATCHES ids are taken from the GIN index first,
    and the page reads just those events (docs/benchmarks.md)."""
    if not on_postgres:
        pytest.skip("SQLite's search is driven by its FTS5 index in every case")
    from django.test.utils import CaptureQueriesContext

    campaign = campaign_with()
    n = membership(campaign, narrator_of(campaign))
    rare = services.note_write(membership=n, text="La lanterne s'éteint.")
    for i in range(5):
        services.note_write(membership=n, text=f"Chronique {i}")
    with CaptureQueriesContext(connection) as ctx:
        assert _found(narrator_of(campaign), campaign, "lanterne") == [rare.pk]
    page = [
        q["sql"]
        for q in ctx.captured_queries
        if '"campaigns_event"."created_at"' in q["sql"] and "ORDER BY" in q["sql"]
    ]
    assert page and all("to_tsvector" not in sql for sql in page)
    assert any("to_tsvector" in q["sql"] and "LIMIT 201" in q["sql"] for q in ctx.captured_queries)
