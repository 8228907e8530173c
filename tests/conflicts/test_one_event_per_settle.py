"""One change, one Event (issue 26 item 4): a settle and the narrator's NPC tap each append exactly one Event.

A settle writes the draw's Revers on the sheets: a PC's are the table's, an NPC's the narrators' (and its runner's).
The one ``sequence.settled`` carries each as a part with that visibility (``campaigns.redaction``): the narrator
reads the NPC's wounds in it, a player never gets them, in any form: the log page, the live entry, the catch-up,
the exports, the Sequence's story. The tap's one ``sequence.npcs_drew`` holds every NPC's hand. Logs from before
(one Event per Revers, one ``sequence.drew`` per NPC) read as they always did."""

from __future__ import annotations

import copy
import json
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse
from django.utils.html import escape

from campaigns.chronicle import describe, illustrate
from campaigns.live import feed_subject, sequence_subject
from campaigns.live_catch_up import regions_now
from campaigns.live_render import forget_renderings, rendering_of
from campaigns.models import Event, Membership, Visibility
from campaigns.redaction import readable_event, readable_payload
from campaigns.services import event_append
from conflicts.models import Participant, Phase, Sequence
from conflicts.rules.budget import Split
from conflicts.services.npc_draws import sequence_draw_npcs
from conflicts.services.settling import sequence_settle
from states.models import SavageState
from states.selectors import settings_for
from tests.conflicts.factories import Fight, draw, fight

pytestmark = pytest.mark.django_db

SOURCE = "Les docks · Bagarre sur le quai"


def _member(f: Fight, user: Any) -> Membership:
    return Membership.objects.select_related("campaign", "campaign__stream").get(campaign=f.campaign, user=user)


def _resolved(f: Fight, severities: dict[Participant, int]) -> Sequence:
    """Every participant drew; the draw's result is set to the Revers given (the rules' own result is tested
    elsewhere: here what matters is what a settle writes and tells)."""
    targets = {p.key: p for p in (f.pc, *f.npcs)}
    draw(f.pc, f.player, Split(attack={f.npcs[0].key: 2}, defence={f.pc.key: 3}), seed=1)
    for p in f.npcs:
        draw(p, f.narrator, Split(defence={p.key: 3}), seed=2)
    outcome = {
        "verdict": "tie", "winner": None, "by_side": {}, "range_closed": {}, "upper_hand_cards": {}, "interpose": {},
        "names": {key: p.character.name for key, p in targets.items()},
        "targets": {p.key: {"name": p.character.name, "severity": n, "credited": {}, "attacks": {}, "defence": 0,
                            "weight": 1, "cost": 1, "upper": {}} for p, n in severities.items()},
    }  # fmt: skip
    Sequence.objects.filter(pk=f.sequence.pk).update(outcome=outcome)
    f.reload()
    assert f.sequence.phase == Phase.RESOLVED
    return f.sequence


def _settle(f: Fight, severities: dict[Participant, int], *, wounds: bool) -> Event:
    if wounds:
        options = settings_for(f.campaign)
        options.revers_to_wounds = True
        options.save()
    sequence = _resolved(f, severities)
    before = Event.objects.count()
    sequence_settle(sequence=sequence, actor=f.narrator, expected_version=sequence.version)
    added = list(Event.objects.filter(campaign=f.campaign).order_by("pk")[before:])
    assert [e.kind for e in added] == ["sequence.settled"]  # exactly one Event
    return added[0]


def _part_text(event: Event, character_id: int) -> str:
    """What the part about ``character_id`` says, as an Event of its own would have said it."""
    part = next(p for p in event.payload["parts"] if p["payload"]["character_id"] == character_id)
    told = copy.copy(event)
    told.kind, told.payload = part["kind"], part["payload"]
    return describe(told)


@pytest.mark.parametrize("wounds", [False, True], ids=["revers", "wounds"])
def test_a_settle_appends_one_event_with_each_sheets_part_and_its_visibility(wounds: bool) -> None:
    f = fight(npcs=1)
    thug = f.npcs[0]
    event = _settle(f, {f.pc: 1, thug: 2}, wounds=wounds)
    kind = "savage.revers_wounds" if wounds else "character.revers_inflicted"
    parts = {p["payload"]["character_id"]: p for p in event.payload["parts"]}
    assert {pk: (p["kind"], p["visibility"]) for pk, p in parts.items()} == {
        f.hero.pk: (kind, Visibility.EVERYONE), thug.character_id: (kind, Visibility.NARRATORS),
    }  # fmt: skip
    assert event.visibility == Visibility.EVERYONE
    if wounds:
        assert SavageState.objects.get(character_id=thug.character_id).wounds == 2
    narrator, player = _member(f, f.narrator), _member(f, f.player)
    secret, public = _part_text(event, thug.character_id), _part_text(event, f.hero.pk)
    assert secret and secret in describe(readable_event(event, narrator))
    told_to_player = describe(readable_event(event, player))
    assert public in told_to_player and secret not in told_to_player
    assert "Truand 1: " in told_to_player  # the settle's own sentence names the Revers, as it always did
    assert secret not in describe(event)  # an Event not filtered for a reader tells only everyone's parts
    assert [p["visibility"] for p in readable_payload(event, player)["parts"]] == [Visibility.EVERYONE]


def test_a_player_never_gets_the_npcs_part_on_the_page_live_in_a_catch_up_or_an_export() -> None:
    f = fight(npcs=1)
    thug = f.npcs[0]
    event = _settle(f, {f.pc: 1, thug: 3}, wounds=True)
    secret, public = escape(_part_text(event, thug.character_id)), escape(_part_text(event, f.hero.pk))
    narrator, player = _member(f, f.narrator), _member(f, f.player)
    seen: dict[str, dict[str, str]] = {"narrator": {}, "player": {}}
    for name, member, user in (("narrator", narrator, f.narrator), ("player", player, f.player)):
        client = Client()
        client.force_login(user)
        client.cookies["django_language"] = "en"
        seen[name]["log page"] = client.get(reverse("campaigns:log", args=[f.campaign.pk])).text
        seen[name]["sequence page"] = client.get(f.sequence.get_absolute_url()).text
        for fmt in ("json", "md"):
            body = client.get(reverse("campaigns:log_export", args=[f.campaign.pk, fmt])).content.decode()
            seen[name][f"export {fmt}"] = escape(json.loads(body)) if fmt == "json" else escape(body)
        forget_renderings()
        rendering = rendering_of(event.pk)
        assert rendering is not None
        watching = frozenset({feed_subject(f.campaign.pk), sequence_subject(f.sequence.pk)})
        seen[name]["live"] = rendering.html_for(member, watching=watching, language="en", csrf_token="x" * 32)
        caught = regions_now(member, watching=watching, csrf_token="x" * 32, language="en",
                             after=event.position - 1, head=event.position)  # fmt: skip
        assert caught is not None
        seen[name]["catch-up"] = caught
    for where, html in seen["player"].items():
        assert secret not in html, where
        assert public in html or where == "sequence page", where
    for where, html in seen["narrator"].items():
        assert secret in html, where


def test_an_allys_part_is_read_by_its_runner_alone() -> None:
    """An NPC handed to a player as an ally: its Revers were its runner's (a private Event); in the settle's one
    Event, its part is theirs and the narrators', and the other players' live entry is rendered apart."""
    from campaigns.models import Role
    from characters.services.allies import ally_hand
    from tests.campaigns.factories import UserFactory

    f = fight(npcs=1)
    thug = f.npcs[0]
    other = UserFactory()
    Membership.objects.create(campaign=f.campaign, user=other, role=Role.PLAYER)
    ally_hand(character=thug.character, actor=f.narrator, player=f.player)
    event = _settle(f, {f.pc: 1, thug: 2}, wounds=False)
    secret = _part_text(event, thug.character_id)
    part = next(p for p in event.payload["parts"] if p["payload"]["character_id"] == thug.character_id)
    assert (part["visibility"], part["recipient"]) == (Visibility.PLAYER, f.player.pk)
    assert secret in describe(readable_event(event, _member(f, f.player)))
    assert secret not in describe(readable_event(event, _member(f, other)))
    forget_renderings()
    rendering = rendering_of(event.pk)
    assert rendering is not None
    feed = frozenset({feed_subject(f.campaign.pk)})
    runner = rendering.html_for(_member(f, f.player), watching=feed, language="en", csrf_token="x" * 32)
    stranger = rendering.html_for(_member(f, other), watching=feed, language="en", csrf_token="x" * 32)
    assert escape(secret) in runner and escape(secret) not in stranger
    # The log page's entries are kept: the runner's copy (read first) is never served to the other player.
    pages = []
    for user in (f.player, other):
        client = Client()
        client.force_login(user)
        client.cookies["django_language"] = "en"
        pages.append(client.get(reverse("campaigns:log", args=[f.campaign.pk])).text)
    assert escape(secret) in pages[0] and escape(secret) not in pages[1]


def test_a_private_parts_recipient_moves_with_the_campaign_by_name() -> None:
    """An archive names people by username, never by id: a private part's recipient too. The imported campaign's
    part is read by the account of that name (the member its invitation is addressed to)."""
    from campaigns.archive.restoring import campaign_import
    from characters.services.allies import ally_hand
    from tests.campaigns.archive_factories import archive_of, text_of

    f = fight(npcs=1)
    thug = f.npcs[0]
    ally_hand(character=thug.character, actor=f.narrator, player=f.player)
    _settle(f, {f.pc: 1, thug: 2}, wounds=False)
    archive = archive_of(f.campaign, f.narrator)
    settled = next(e for e in archive["sections"]["campaigns"]["event"] if e["kind"] == "sequence.settled")
    private = [p for p in settled["payload"]["parts"] if p["visibility"] == Visibility.PLAYER]
    assert [(p["recipient"], p["recipient_name"]) for p in private] == [(None, f.player.username)]
    imported = campaign_import(data=text_of(archive), importer=f.narrator)
    moved = Event.objects.get(campaign=imported, kind="sequence.settled")
    assert [p["recipient"] for p in moved.payload["parts"] if p["visibility"] == Visibility.PLAYER] == [f.player.pk]
    assert "recipient_name" not in json.dumps(moved.payload)


def test_old_logs_with_one_event_per_revers_read_as_before() -> None:
    """A settle written before its Revers went into its one Event: three Events, each read as it always was, the
    NPC's the narrators'."""
    f = fight(npcs=1)
    base = {"sequence": f.sequence.pk, "scene": f.scene.pk, "title": f.sequence.title, "draw": 1}
    thug = f.npcs[0].character
    event_append(campaign=f.campaign, kind="character.revers_inflicted", actor=f.narrator, characters=[thug],
                 visibility=Visibility.NARRATORS,
                 payload={"character": thug.name, "character_id": thug.pk, "revers_id": 1, "domain": "physical",
                          "domain_name": "", "severity": 2, "nature": "blunt", "source": SOURCE,
                          "out_of_action": True})  # fmt: skip
    event_append(campaign=f.campaign, kind="sequence.settled", actor=f.narrator, characters=[f.hero, thug],
                 payload={**base, "revers": [{"participant": 1, "name": thug.name, "severity": 2, "instead_of": "",
                                              "out": True, "nature": "blunt"}], "verdict": "tie", "winner": "",
                          "kind": "standard", "written": True})  # fmt: skip
    narrator, player = _member(f, f.narrator), _member(f, f.player)
    revers, settled = Event.objects.order_by("-pk")[1], Event.objects.order_by("-pk")[0]
    assert describe(readable_event(revers, narrator)) == describe(revers)
    assert "Out of action!" in describe(revers)
    assert not Event.objects.visible_to(player).filter(pk=revers.pk).exists()
    assert describe(readable_event(settled, player)) == describe(readable_event(settled, narrator))
    assert "Revers recorded" in describe(settled) and "out of the sequence" in describe(settled)


def test_the_npc_tap_appends_one_event_and_a_player_reads_the_cards_not_the_splits() -> None:
    f = fight(npcs=2)
    f.sequence.refresh_from_db()
    before = Event.objects.count()
    sequence_draw_npcs(sequence=f.sequence, actor=f.narrator, expected_version=f.sequence.version)
    added = list(Event.objects.order_by("pk")[before:])
    assert [e.kind for e in added] == ["sequence.npcs_drew"]
    tap = added[0]
    assert [hand["participant"] for hand in tap.payload["hands"]] == [p.pk for p in f.npcs]
    narrator, player = _member(f, f.narrator), _member(f, f.player)
    assert all("split" not in hand for hand in readable_payload(tap, player)["hands"])
    assert all("split" in hand for hand in readable_payload(tap, narrator)["hands"])
    text = describe(readable_event(tap, player))
    assert "the narrator draws for the NPCs" in text and "Truand 1: " in text and "Truand 2: " in text
    assert illustrate(tap).count("<svg") == sum(
        len(c) for p in f.reload().npcs for c in p.hand["attack"].values()
    ) + sum(len(c) for p in f.npcs for c in p.hand["defence"].values())
    f.reload()
    assert f.sequence.phase == Phase.DRAWING  # Jim has still to draw


def test_the_tap_that_puts_the_last_cards_down_carries_the_result() -> None:
    f = fight(npcs=2)
    draw(f.pc, f.player, Split(attack={f.npcs[0].key: 5}), seed=1)
    f.sequence.refresh_from_db()
    sequence_draw_npcs(sequence=f.sequence, actor=f.narrator, expected_version=f.sequence.version)
    tap = Event.objects.get(kind="sequence.npcs_drew")
    f.reload()
    assert f.sequence.phase == Phase.RESOLVED and tap.payload["outcome"] == f.sequence.outcome
    assert "The cards are down" in describe(tap)
    assert not Event.objects.filter(kind="sequence.resolved").exists()


# Queries of the use cases themselves, three NPCs and Jim: before the one Event, a settle writing four Revers made 84
# queries (108 as wounds), the tap of three NPCs 42.
@pytest.mark.parametrize(("wounds", "most"), [(False, 60), (True, 88)], ids=["revers", "wounds"])
def test_a_settle_of_four_revers_stays_within_its_queries(
    wounds: bool, most: int, django_assert_max_num_queries: Any
) -> None:
    f = fight(npcs=3)
    if wounds:
        options = settings_for(f.campaign)
        options.revers_to_wounds = True
        options.save()
    sequence = _resolved(f, dict.fromkeys((f.pc, *f.npcs), 1))
    with django_assert_max_num_queries(most):
        sequence_settle(sequence=sequence, actor=f.narrator, expected_version=sequence.version)
    assert len(Event.objects.get(kind="sequence.settled").payload["parts"]) == 4


def test_the_tap_of_three_npcs_stays_within_its_queries(django_assert_max_num_queries: Any) -> None:
    f = fight(npcs=3)
    f.sequence.refresh_from_db()
    with django_assert_max_num_queries(32):
        sequence_draw_npcs(sequence=f.sequence, actor=f.narrator, expected_version=f.sequence.version)
