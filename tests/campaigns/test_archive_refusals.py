"""A bad archive is refused with its reason and creates nothing; only narrators download one (issue 30, item 9)."""

from __future__ import annotations

import copy
import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.core.management import CommandError, call_command

from campaigns.archive.restoring import campaign_import
from campaigns.archive.writing import campaign_archive
from campaigns.models import Campaign, Event, Invitation, Membership
from characters.models import Character
from core.errors import ServiceError
from tests.campaigns.archive_factories import archive_of, text_of
from tests.campaigns.factories import UserFactory
from tests.characters.factories import pc, table

pytestmark = pytest.mark.django_db


@pytest.fixture
def small():  # type: ignore[no-untyped-def]
    """A small campaign: a narrator, two players, one PC each, a log."""
    campaign, narrator, players = table(players=2)
    pc(campaign, players[0], name="Jim Bones")
    pc(campaign, players[1], name="Lisa Benny")
    return campaign, narrator, players, archive_of(campaign, narrator)


def _set(path: str, value: Any) -> Callable[[dict[str, Any]], None]:
    def change(archive: dict[str, Any]) -> None:
        *parents, last = path.split("/")
        node: Any = archive
        for part in parents:
            node = node[int(part)] if part.isdigit() else node[part]
        node[int(last) if last.isdigit() else last] = value

    return change


def _drop(path: str) -> Callable[[dict[str, Any]], None]:
    def change(archive: dict[str, Any]) -> None:
        *parents, last = path.split("/")
        node: Any = archive
        for part in parents:
            node = node[int(part)] if part.isdigit() else node[part]
        del node[last]

    return change


BAD = {
    "another format": (_set("format", "something-else"), "not a Tablée campaign archive"),
    "a newer schema": (_set("schema_version", 2), "schema version 2"),
    "a missing field": (_drop("sections/characters/character/0/name"), "missing fields: name"),
    "an unknown field": (_set("sections/characters/character/0/hair", "red"), "unknown fields: hair"),
    "a wrong type": (_set("campaign/starting_atouts", "many"), "starting_atouts"),
    "a value out of range": (_set("campaign/starting_atouts", 10**20), "starting_atouts"),
    "a choice not offered": (_set("sections/characters/character/0/kind", "god"), "kind"),
    "a row naming no row": (
        _set("sections/characters/charactertrait/0/character", 99),
        "character names no earlier row",
    ),
    "a missing table": (_drop("sections/conflicts"), "missing table"),
    "an unknown table": (_set("sections/characters/spells", []), "unknown table"),
    "twice the same number": (_set("sections/characters/character/1/id", 1), "its own number"),
    "a member without a role": (_set("members/0/role", "king"), "a member is a username and a role"),
    "a position taken twice": (_set("sections/campaigns/event/1/position", 1), "position 1 is taken"),
    "a link to no row": (_set("sections/campaigns/event/0/characters", [42]), "characters must list rows"),
}


@pytest.mark.parametrize("name", list(BAD))
def test_a_bad_archive_is_refused_with_its_reason_and_creates_nothing(small, name: str) -> None:  # type: ignore[no-untyped-def]
    campaign, narrator, players, archive = small
    change, reason = BAD[name]
    bad = copy.deepcopy(archive)
    change(bad)
    counts = (Campaign.objects.count(), Character.objects.count(), Event.objects.count(), Invitation.objects.count())
    with pytest.raises(ServiceError, match=reason):
        campaign_import(data=text_of(bad), importer=narrator)
    assert (
        Campaign.objects.count(),
        Character.objects.count(),
        Event.objects.count(),
        Invitation.objects.count(),
    ) == counts


@pytest.mark.parametrize(
    ("data", "reason"),
    [
        (b"\xff\xfe not text", "not valid JSON"),
        ("[" * 100_000, "not valid JSON"),
        ('{"format": "tablee-campaign", "schema_version": NaN}', "not valid JSON"),
        ('{"format": "tablee-campaign", "schema_version": 1, "x": 1e400}', "not valid JSON"),
        ("[]", "not a Tablée campaign archive"),
    ],
)
def test_what_is_not_an_archive_is_refused(small, data: Any, reason: str) -> None:  # type: ignore[no-untyped-def]
    campaign, narrator, players, archive = small
    with pytest.raises(ServiceError, match=reason):
        campaign_import(data=data, importer=narrator)
    assert Campaign.objects.count() == 1


def test_an_archive_over_the_size_limit_is_refused(small, settings) -> None:  # type: ignore[no-untyped-def]
    campaign, narrator, players, archive = small
    settings.ARCHIVE_MAX_BYTES = 1000
    with pytest.raises(ServiceError, match="too big"):
        campaign_import(data=text_of(archive), importer=narrator)


def test_a_private_event_of_someone_without_an_account_here_refuses_the_import(small) -> None:  # type: ignore[no-untyped-def]
    campaign, narrator, players, archive = small
    moved = copy.deepcopy(archive)
    event = moved["sections"]["campaigns"]["event"][-1]
    event.update(visibility="player", recipient="somebody-elsewhere")
    with pytest.raises(ServiceError, match="accounts this server does not have: somebody-elsewhere"):
        campaign_import(data=text_of(moved), importer=narrator)
    assert Campaign.objects.count() == 1


def test_only_narrators_export(small) -> None:  # type: ignore[no-untyped-def]
    campaign, narrator, players, archive = small
    with pytest.raises(ServiceError, match="Only the campaign's narrators"):
        campaign_archive(campaign=campaign, membership=Membership.objects.get(campaign=campaign, user=players[0]))


def test_the_narrator_downloads_the_archive_and_no_one_else(client, small) -> None:  # type: ignore[no-untyped-def]
    campaign, narrator, players, archive = small
    url = f"/campaigns/{campaign.pk}/archive.json"
    client.force_login(players[0])
    assert client.get(url).status_code == 403
    client.force_login(UserFactory())
    assert client.get(url).status_code == 404
    client.force_login(narrator)
    answer = client.get(url)
    assert answer.status_code == 200 and answer["Cache-Control"] == "no-store"
    assert "attachment;" in answer["Content-Disposition"]
    assert json.loads(answer.content)["sections"]["characters"]["character"][0]["name"] == "Jim Bones"
    # The settings page offers the download and the upload.
    page = client.get(f"/campaigns/{campaign.pk}/settings/").content.decode()
    assert url in page and 'action="/campaigns/import/"' in page


def test_an_upload_creates_a_new_campaign_narrated_by_the_uploader(client, small) -> None:  # type: ignore[no-untyped-def]
    campaign, narrator, players, archive = small
    newcomer = UserFactory()
    client.force_login(newcomer)
    upload = SimpleUploadedFile("c.tablee.json", text_of(archive).encode(), content_type="application/json")
    answer = client.post("/campaigns/import/", {"archive": upload})
    new = Campaign.objects.exclude(pk=campaign.pk).get()
    assert answer.status_code == 302 and answer["Location"] == f"/campaigns/{new.pk}/members/"
    assert Membership.objects.get(campaign=new).user == newcomer
    assert Character.objects.filter(campaign=new).count() == 2
    page = client.get(answer["Location"]).content.decode()
    assert f"For {players[0].username}" in page or f"Pour {players[0].username}" in page


def test_a_refused_upload_says_why_and_creates_nothing(client, small) -> None:  # type: ignore[no-untyped-def]
    campaign, narrator, players, archive = small
    client.force_login(narrator)
    client.cookies["django_language"] = "en"
    upload = SimpleUploadedFile("c.json", b'{"format": "tablee-campaign", "schema_version": 9}')
    answer = client.post("/campaigns/import/", {"archive": upload}, follow=True)
    assert answer.status_code == 200 and "schema version 9" in answer.content.decode()
    assert Campaign.objects.count() == 1
    assert client.post("/campaigns/import/", {}).status_code == 302
    assert Campaign.objects.count() == 1


def test_the_commands_export_and_import(small, tmp_path: Path, capsys) -> None:  # type: ignore[no-untyped-def]
    campaign, narrator, players, archive = small
    path = tmp_path / "campaign.json"
    call_command("export_campaign", str(campaign.pk), "-o", str(path))
    call_command("import_campaign", str(path))
    out = capsys.readouterr().out
    new = Campaign.objects.exclude(pk=campaign.pk).get()
    assert f"Campaign {new.pk}" in out and f"{players[0].username} (player): /campaigns/invitation/" in out
    assert Membership.objects.get(campaign=new).user == narrator
    path.write_text("{}")
    with pytest.raises(CommandError, match="not a Tablée campaign archive"):
        call_command("import_campaign", str(path))
    with pytest.raises(CommandError, match="No campaign"):
        call_command("export_campaign", "999999")


def test_the_servers_tokens_are_not_in_the_archive_and_are_made_anew(small) -> None:  # type: ignore[no-untyped-def]
    from campaigns import services
    from tragic import services as tragic_services
    from tragic.models import Game

    campaign, narrator, players, archive = small
    campaign = services.public_log_publish(campaign=campaign, actor=narrator)
    waiting = tragic_services.game_create(
        user=narrator, deck_ref="ready:acier-et-plomb", opponent="invite", seed=5, campaign_id=campaign.pk
    )
    link = services.invitation_create(campaign=campaign, actor=narrator, role="player")
    text = text_of(archive_of(campaign, narrator))
    for token in (campaign.public_log_token, waiting.invite_token, link.token):
        assert token and token not in text
    new = campaign_import(data=text, importer=narrator)
    assert new.public_log_token and new.public_log_token != campaign.public_log_token
    restored = Game.objects.get(campaign=new)
    assert restored.invite_token and restored.invite_token != waiting.invite_token
    # An invitation link not addressed to anyone is not a member: it is not carried over.
    assert sorted(Invitation.objects.filter(campaign=new).values_list("addressed_to", flat=True)) == sorted(
        p.username for p in players
    )
