"""Moving a campaign (issue 30, item 9): export → import → export gives the same archive, up to ids.

« manage.py export_campaign / import_campaign … one versioned archive (JSON plus its schema version) holding
everything of a campaign … an import that validates the archive and refuses a bad one with the reason, creating
nothing; a round trip export → import → export that gives the same archive, up to ids. »
"""

from __future__ import annotations

import pytest

from campaigns.archive.registry import Renumber, tables
from campaigns.archive.restoring import campaign_import
from campaigns.archive.sections import key_renumbered
from campaigns.archive.writing import FORMAT, SCHEMA_VERSION
from campaigns.models import Campaign, Event, Invitation, LoggedKind, Membership, Role
from characters.models import Character
from conflicts.models import Participant, Sequence
from frag import services as frag_services
from frag.models import Game as FragGame
from states.models import SavageRound
from tests.campaigns.archive_factories import archive_of, played_campaign, text_of, up_to_ids
from tragic import services as tragic_services
from tragic.models import Game as TragicGame

pytestmark = pytest.mark.django_db


@pytest.fixture
def moved():  # type: ignore[no-untyped-def]
    """The played campaign, its archive, and the campaign imported from it by the same narrator."""
    campaign, narrator = played_campaign()
    first = archive_of(campaign, narrator)
    imported = campaign_import(data=text_of(first), importer=narrator)
    return campaign, narrator, first, imported


def test_export_import_export_gives_the_same_archive(moved) -> None:  # type: ignore[no-untyped-def]
    campaign, narrator, first, imported = moved
    assert imported.pk != campaign.pk
    assert first["format"] == FORMAT and first["schema_version"] == SCHEMA_VERSION
    sections = first["sections"]
    # Everything of the campaign is there: a played Sequence, the round, both games and their replays.
    assert len(sections["conflicts"]["participant"]) == 3 and sections["conflicts"]["sequence"][0]["phase"]
    assert sections["states"]["savageround"][0]["order"]
    assert sections["frag"]["step"] and sections["tragic"]["game"][0]["actions"]
    assert len(sections["campaigns"]["event"]) == Event.objects.filter(campaign=campaign).count()
    assert up_to_ids(archive_of(imported, narrator)) == up_to_ids(first)


def test_each_table_finds_its_campaigns_rows_and_no_other_campaigns(moved) -> None:  # type: ignore[no-untyped-def]
    """Each app's section finds a table's rows by the path from a row to its campaign (``Section.table``): the
    played table beside the demo (a Sequence, a Frag and a TRAGIC game) shares no row with it."""
    campaign, narrator, first, imported = moved
    others = Campaign.objects.exclude(pk__in=[campaign.pk, imported.pk])
    assert others.exists()
    for table in tables():
        if table.label == "campaigns.Campaign":
            continue
        mine = {row.pk for row in table.rows(campaign)}
        theirs = {row.pk for other in others for row in table.rows(other)}
        assert mine.isdisjoint(theirs), table.label
        assert len(first["sections"][table.section][table.key]) == len(mine), table.label
    found = {table.label for table in tables() if any(True for _ in table.rows(campaign))}
    assert {"conflicts.Participant", "states.SavageState", "frag.Step", "tragic.Seat"} <= found


def test_a_game_events_payload_is_renumbered_by_its_key() -> None:
    """``key_renumbered``: the row a kind's payload names under one key (a game's events name ``"game"``)."""
    rewrite = key_renumbered("game", "frag.Game")
    renumber = Renumber({"frag.Game": {41: 1}})
    assert rewrite({"game": 41, "turn": 3}, renumber, None) == {"game": 1, "turn": 3}
    assert rewrite({"turn": 3}, renumber, None) == {"turn": 3} and rewrite([41], renumber, None) == [41]


def test_the_archive_names_no_database_id_and_no_password(moved) -> None:  # type: ignore[no-untyped-def]
    campaign, narrator, first, imported = moved
    text = text_of(first)
    assert "password" not in text and "pbkdf2" not in text and "md5$" not in text
    # Every table is numbered from 1 in the archive, whatever the database's ids.
    for section in first["sections"].values():
        for records in section.values():
            assert [r["id"] for r in records] == list(range(1, len(records) + 1))
    sections = first["sections"]
    characters = {r["id"] for r in sections["characters"]["character"]}
    participants = {str(r["id"]) for r in sections["conflicts"]["participant"]}
    tracker = sections["states"]["savageround"][0]
    assert set(tracker["order"]) <= characters and {int(k) for k in tracker["cards"]} <= characters
    for p in sections["conflicts"]["participant"]:
        assert set(p["split"]["attack"]) | set(p["split"]["defence"]) <= participants
    assert set(sections["conflicts"]["sequence"][0]["outcome"]["targets"]) == participants
    for event in sections["campaigns"]["event"]:
        assert event["payload"].get("character_id", 1) in characters
        assert event["payload"].get("game", 1) == 1
    assert first["members"] == [
        {"username": "narratrice", "role": "narrator"},
        {"username": "joueur1", "role": "player"},
        {"username": "joueuse2", "role": "player"},
    ]


def test_the_restored_campaign_points_at_its_own_rows(moved) -> None:  # type: ignore[no-untyped-def]
    campaign, narrator, first, imported = moved
    own = set(Character.objects.filter(campaign=imported).values_list("pk", flat=True))
    assert own and own.isdisjoint(Character.objects.filter(campaign=campaign).values_list("pk", flat=True))
    tracker = SavageRound.objects.get(campaign=imported)
    assert set(tracker.order) <= own and {int(k) for k in tracker.cards} <= own
    assert set(tracker.participants.values_list("pk", flat=True)) <= own
    sequence = Sequence.objects.get(campaign=imported)
    participants = {str(pk) for pk in Participant.objects.filter(sequence=sequence).values_list("pk", flat=True)}
    assert set(sequence.outcome["targets"]) == participants
    for p in Participant.objects.filter(sequence=sequence):
        assert set(p.split["attack"]) | set(p.split["defence"]) <= participants
    for event in Event.objects.filter(campaign=imported):
        if "character_id" in event.payload:
            assert event.payload["character_id"] in own
        if event.kind.startswith("sequence."):
            assert event.payload["sequence"] == sequence.pk
        assert set(event.characters.values_list("pk", flat=True)) <= own
    frag = FragGame.objects.get(campaign=imported)
    assert Event.objects.get(campaign=imported, kind="frag.game_started").payload["game"] == frag.pk
    # A game is its config, seed and actions: the restored one replays to the state it was saved in.
    state, steps = frag_services.game_replay(frag)
    assert state.to_json() == frag.snapshot and len(steps) == frag.steps.filter(number__gte=1).count() > 0
    tragic = TragicGame.objects.get(campaign=imported)
    assert tragic_services.replay(tragic, len(tragic.actions)).to_json() == tragic_services.load_state(tragic).to_json()


def test_the_importer_narrates_and_the_others_are_invited_by_name(moved) -> None:  # type: ignore[no-untyped-def]
    campaign, narrator, first, imported = moved
    assert list(Membership.objects.filter(campaign=imported).values_list("user__username", "role")) == [
        ("narratrice", Role.NARRATOR)
    ]
    invited = Invitation.objects.filter(campaign=imported, used_at__isnull=True)
    assert sorted(invited.values_list("addressed_to", "role")) == [("joueur1", "player"), ("joueuse2", "player")]
    # The log is restored as it was, positions in order, and the stream goes on from its head.
    positions = list(Event.objects.filter(campaign=imported).order_by("pk").values_list("position", flat=True))
    assert positions == sorted(positions) and imported.stream.position == first["stream_position"]
    # Each event's words for the log's search are computed again (the rows are inserted in batches).
    words = sorted(Event.objects.filter(campaign=campaign).values_list("search_text", flat=True))
    assert words == sorted(Event.objects.filter(campaign=imported).values_list("search_text", flat=True))
    assert any(words)
    # The log's kind list is kept by the database's triggers, for batch inserts too.
    kinds = LoggedKind.objects.filter(campaign=campaign).values_list("kind", "visibility")
    assert sorted(kinds) == sorted(LoggedKind.objects.filter(campaign=imported).values_list("kind", "visibility"))


def test_someone_else_can_import_it_and_takes_the_exporters_place(moved) -> None:  # type: ignore[no-untyped-def]
    from tests.campaigns.factories import UserFactory

    campaign, narrator, first, imported = moved
    other = UserFactory(username="nouvelle")
    again = campaign_import(data=text_of(first), importer=other)
    assert Membership.objects.get(campaign=again).user == other
    # The narrator's own rows (the events she wrote) are now the importer's.
    assert Event.objects.filter(campaign=again, actor=other).exists()
    assert not Event.objects.filter(campaign=again, actor=narrator).exists()
    assert Campaign.objects.filter(name=campaign.name).count() == 3
