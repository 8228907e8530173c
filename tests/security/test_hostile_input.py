"""The causes of the 500s the audit found, one test each (issue 14, item 3); the fuzz suite covers the rest."""

from __future__ import annotations

import json

import pytest
from django.urls import reverse

from campaigns.models import Event
from core.jsonlimits import JsonRefused, loads_limited
from tests.security.conftest import World, fingerprint
from tragic.models import Deck as TragicDeck
from tragic.models import Game as TragicGame

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize("target", ["abc", "campaigns:list", "javascript:alert(1)", "//evil.example/x", "\\\\evil"])
def test_a_next_that_is_no_path_falls_back_instead_of_raising_after_the_write(client, world: World, target) -> None:
    """``next=abc`` made ``redirect()`` look for a view named abc (NoReverseMatch) after the note was saved."""
    world.login(client, world.bob)
    url = reverse("campaigns:note_create", args=[world.campaign.pk])
    response = client.post(url, {"text": "Une note", "next": target})
    assert response.status_code == 302
    assert response["Location"] == reverse("campaigns:log", args=[world.campaign.pk])
    assert Event.objects.filter(kind="note", payload__text="Une note").count() == 1


def test_a_local_path_is_still_followed(client, world: World) -> None:
    world.login(client, world.narrator)
    target = reverse("campaigns:home", args=[world.campaign.pk])
    url = reverse("campaigns:session_transition", args=[world.campaign.pk, world.game_session.pk, "close"])
    assert client.post(url, {"next": target})["Location"] == target


@pytest.mark.parametrize("name", ["conflicts:reshuffle", "conflicts:atout"])
def test_conflict_forms_with_a_bad_next_do_not_fail(client, world: World, name: str) -> None:
    world.login(client, world.narrator)
    kwargs = (
        {"campaign_id": world.campaign.pk, "deck_id": world.deck.pk}
        if name == "conflicts:reshuffle"
        else {"campaign_id": world.campaign.pk, "participant_id": world.npc_participant.pk}
    )
    response = client.post(reverse(name, kwargs=kwargs), {"next": "abc", "use": "card", "version": "1"})
    assert response.status_code < 500


@pytest.mark.parametrize(
    ("url_name", "data"),
    [
        ("tragic:deck_create", {"name": "Deck\x00", "copy_mode": "quad"}),
        ("campaigns:note_create", {"text": "a\x00b"}),
    ],
)
def test_a_nul_byte_is_refused_before_any_view(client, world: World, url_name: str, data: dict[str, str]) -> None:
    """PostgreSQL cannot store ``\\x00`` (DataError, a 500); refused with 400 and a message, nothing written."""
    world.login(client, world.alice)
    kwargs = {"campaign_id": world.campaign.pk} if url_name.startswith("campaigns") else {}
    before = fingerprint()
    client.cookies["django_language"] = "en"
    response = client.post(reverse(url_name, kwargs=kwargs), data)
    assert response.status_code == 400
    assert "NUL character" in response.content.decode()
    assert fingerprint() == before


@pytest.mark.parametrize(
    "url",
    ["/tragic/join/tok%00en/", "/campaigns/invitation/tok%00en/", "/campaigns/public/tok%00en/", "/?q=%00"],
)
def test_a_nul_byte_in_a_token_or_query_is_refused(client, world: World, url: str) -> None:
    world.login(client, world.alice)
    assert client.get(url).status_code == 400


def test_the_nul_message_reads_in_french(client, world: World) -> None:
    world.login(client, world.alice)
    client.cookies["django_language"] = "fr"
    body = client.get("/?q=%00").content.decode()
    assert "caractère NUL" in body


@pytest.mark.parametrize("name", ["tragic:game_act", "frag:act"])
@pytest.mark.parametrize("nested", ["[" * 5000 + "]" * 5000, '{"a":' * 3000 + "1" + "}" * 3000])
def test_an_action_nested_thousands_deep_is_refused_without_parsing(client, world: World, name, nested) -> None:
    """``json.loads`` recursed into a RecursionError (a 500) at 3,000–5,000 levels."""
    world.login(client, world.alice)
    game = world.tragic if name.startswith("tragic") else world.frag
    kwargs = {"pk": game.pk} if name.startswith("tragic") else {"game_id": game.pk}
    before = fingerprint()
    response = client.post(
        reverse(name, kwargs=kwargs), {"action": nested, "version": str(game.version)}, HTTP_HX_REQUEST="true"
    )
    assert response.status_code == 400
    assert fingerprint() == before


@pytest.mark.parametrize("name", ["tragic:game_act", "frag:act"])
@pytest.mark.parametrize("kind", [[], {"a": 1}, ["pass"], 3, None, True])
def test_an_action_whose_kind_is_not_a_word_is_refused(client, world: World, name, kind) -> None:
    """``{"kind": []}`` met a set lookup (``TypeError: unhashable type``, a 500) before the engine's checks."""
    world.login(client, world.alice)
    game = world.tragic if name.startswith("tragic") else world.frag
    kwargs = {"pk": game.pk} if name.startswith("tragic") else {"game_id": game.pk}
    before = fingerprint()
    action = json.dumps({"kind": kind, "card": 1})
    response = client.post(
        reverse(name, kwargs=kwargs), {"action": action, "version": str(game.version)}, HTTP_HX_REQUEST="true"
    )
    assert 400 <= response.status_code < 500  # refused: unreadable (400) or not this seat's to play (403)
    assert fingerprint() == before


def test_json_limits() -> None:
    assert loads_limited('{"kind": "pass", "cards": [1, 2]}') == {"kind": "pass", "cards": [1, 2]}
    for text in ("[" * 17 + "]" * 17, '"' + "x" * 20_000 + '"', '{"a": NaN}', json.dumps({"a": "\x00"})):
        with pytest.raises(JsonRefused):
            loads_limited(text)
    assert loads_limited('"[[[[[[[[[[[[[[[[[[[["') == "[" * 20  # brackets inside a string are not nesting


@pytest.mark.parametrize(
    "data",
    [{"timer_minutes": "-1"}, {"timer_minutes": "2147483648"}, {"players": "99"}, {"players": "abc"}],
)
def test_out_of_range_numbers_are_refused_by_the_form_not_the_database(client, world: World, data) -> None:
    world.login(client, world.alice)
    before = TragicGame.objects.count()
    client.cookies["django_language"] = "en"
    response = client.post(
        reverse("tragic:game_create"),
        {"deck": "ready:acier-et-plomb", "opponent": "heuristic", **data},
        follow=True,
    )
    assert response.status_code == 200
    assert "could not be read" in response.content.decode()
    assert TragicGame.objects.count() == before
    assert TragicDeck.objects.count() >= 0


@pytest.mark.parametrize("digits", ["9223372036854775808", "9" * 30])
def test_an_id_past_every_column_in_the_path_is_a_404(client, world: World, digits: str) -> None:
    """``<int:…>`` let any run of digits reach the lookup, which SQLite cannot bind (OverflowError, a 500)."""
    world.login(client, world.alice)
    assert client.get(f"/characters/{digits}/").status_code == 404
    assert client.post(f"/campaigns/{digits}/log/notes/", {"text": "x"}).status_code == 404


@pytest.mark.parametrize("value", ["abc", " ", "9" * 30, "-1"])
def test_a_typed_deck_id_on_the_old_table_page_changes_nothing(client, world: World, value: str) -> None:
    """The table page took a typed deck id to reshuffle; it is now the settings page's section (issue 12), whose
    buttons post to ``conflicts:reshuffle`` with the deck's id in the path: the old address only redirects."""
    world.login(client, world.narrator)
    before = fingerprint()
    response = client.post(reverse("conflicts:table", args=[world.campaign.pk]), {"reshuffle": value})
    assert response.status_code == 405
    assert fingerprint() == before


def test_a_choice_of_rows_takes_ids_that_fit_a_column() -> None:
    from core.forms import PickForm

    queryset = TragicDeck.objects.all()
    for raw in ("abc", "1.5", "-1", "9" * 19, "9223372036854775808"):
        assert not PickForm({"deck": raw}, field="deck", queryset=queryset).is_valid()


@pytest.fixture
def without_the_nul_middleware(settings):  # type: ignore[no-untyped-def]
    settings.MIDDLEWARE = [m for m in settings.MIDDLEWARE if not m.endswith("RefuseNulMiddleware")]


@pytest.mark.usefixtures("without_the_nul_middleware")
def test_a_nul_byte_in_a_deck_name_is_refused_by_the_form(client, world: World) -> None:
    """Not only the middleware: the form itself refuses it, with Django's translated message."""
    world.login(client, world.alice)
    client.cookies["django_language"] = "fr"
    before = fingerprint()
    response = client.post(reverse("tragic:deck_create"), {"name": "Deck\x00", "copy_mode": "quad"}, follow=True)
    assert response.status_code == 200
    assert "caractère nul" in response.content.decode().lower()
    assert fingerprint() == before


@pytest.mark.usefixtures("without_the_nul_middleware")
def test_a_nul_byte_in_a_vetoed_code_is_refused_by_the_form(client, world: World) -> None:
    world.login(client, world.narrator)
    before = fingerprint()
    url = reverse("characters:act", args=[world.alice_pc.pk, "veto"])
    response = client.post(url, {"code": "crochetage\x00"}, HTTP_HX_REQUEST="true")
    assert response.status_code == 400
    assert "Only a player-named trait can be vetoed." in response.content.decode()
    assert fingerprint() == before


@pytest.mark.usefixtures("without_the_nul_middleware")
@pytest.mark.parametrize("url", ["/tragic/join/tok%00en/", "/campaigns/invitation/tok%00en/",
                                 "/campaigns/public/tok%00en/", "/campaigns/public/" + "a" * 65 + "/"])  # fmt: skip
def test_a_token_that_no_token_could_be_is_a_404_before_any_lookup(client, world: World, url: str) -> None:
    world.login(client, world.alice)
    assert client.get(url).status_code == 404
