"""Every event the TRAGIC, Frag and Sequence services write, read as each member may (issue 14, item 2).

A JSON export hands the payloads themselves to the reader, so the HTML's discretion is not enough: each
payload goes through ``campaigns.redaction``. The walk plays every kind of event those services write in
one campaign, then reads every payload as each reader — the narrator, each player, the public — and looks
for a seed, a library's order, another seat's hand and a narrator-only field. It also fails when one of
those apps gains an event kind the walk does not play, so a new kind cannot slip past it.
"""

from __future__ import annotations

import datetime as dt
import json
import random
from collections.abc import Iterator
from typing import Any

import pytest
from django.urls import reverse

from campaigns import chronicle
from campaigns.models import Event, Membership
from campaigns.redaction import SERVER_ONLY_KEYS, readable_payload
from conflicts.models import Era, Sequence, TableSettings
from conflicts.rules.budget import Split
from conflicts.services.asked_tests import asked_test_create, asked_test_roll, asked_test_withdraw
from conflicts.services.atouts import participant_atout
from conflicts.services.drawing import participant_declare_split, participant_draw
from conflicts.services.fudge_tests import fudge_test_roll, simple_conflict_roll
from conflicts.services.leaving import participant_take_out, sequence_end
from conflicts.services.npc_draws import sequence_draw_npcs
from conflicts.services.roll_follow_ups import fudge_test_reroll
from conflicts.services.sequences import participant_add, participant_update, scene_create, sequence_create
from conflicts.services.settling import sequence_cut_short, sequence_settle
from conflicts.services.table import deck_reshuffle, table_settings_update
from frag import services as frag_services
from frag.engine.state import State as FragState
from states.services.wounds import savage_wounds_set
from tests.campaigns.factories import PASSWORD, membership
from tests.conflicts.factories import draw, npc
from tests.security.conftest import GANG, SKILLS, STEEL, World
from tragic import services as tragic_services
from tragic.services import load_state

pytestmark = pytest.mark.django_db
NPC_COVER_REASON = "Narrator-cover-reason-5521"
PC_COVER_REASON = "Alice-cover-reason-3307"
WALKED_APPS = ("conflicts.", "tragic.", "frag.")


def _sequence_kinds(world: World) -> None:
    """Every kind the Sequence services write: settings, reshuffle, scene, sequence, joins, declarations,
    a split declared in advance, draws (an NPC covering its teammate with a private reason), Atouts,
    resolution, settlement, a cut short, an outdistancing chase, a Test and a simple conflict."""
    campaign, narrator, alice = world.campaign, world.narrator, world.alice
    settings = TableSettings.objects.get_or_create(campaign=campaign)[0]
    table_settings_update(
        campaign=campaign, actor=narrator, expected_version=settings.version, data={"layout": "pairs_per_player"}
    )
    deck_reshuffle(campaign=campaign, actor=narrator, kind="table", holder="table")
    scene = scene_create(campaign=campaign, actor=narrator, title="La ruelle")
    seq = sequence_create(scene=scene, actor=narrator, data={"title": "Embuscade", "collective": True})
    hero = participant_add(
        sequence=seq, actor=narrator, character=world.alice_pc, side="PJ", goal="fuir", trait_code="combat"
    )
    buddy = participant_add(
        sequence=seq, actor=narrator, character=world.bob_pc, side="PJ", goal="fuir", trait_code="combat"
    )
    thugs = [
        participant_add(
            sequence=seq, actor=narrator, character=npc(campaign, narrator, f"Sbire {i}"), side="Sbires",
            goal="coincer", trait_code="combat",
        )
        for i in (1, 2)
    ]  # fmt: skip
    seq.refresh_from_db()
    participant_update(participant=hero, actor=narrator, data={"goal": "s'enfuir"}, expected_version=seq.version)
    first, second = thugs
    participant_declare_split(
        participant=first, actor=narrator, split=Split(attack={hero.key: 2}, defence={second.key: 1}),
        reasons={second.key: NPC_COVER_REASON},
    )  # fmt: skip
    participant_atout(participant=hero, actor=alice, use="card", expected_version=None)
    seq.refresh_from_db()
    participant_draw(
        participant=first, actor=narrator, expected_version=seq.version,
        split=Split(attack={hero.key: 2}, defence={second.key: 1}), reasons={second.key: NPC_COVER_REASON},
        rng=random.Random(3),
    )  # fmt: skip
    seq.refresh_from_db()
    participant_draw(
        participant=hero, actor=alice, expected_version=seq.version,
        split=Split(attack={second.key: 2}, defence={buddy.key: 1}), reasons={buddy.key: PC_COVER_REASON},
        rng=random.Random(4),
    )  # fmt: skip
    # The narrator's tap for the NPC left (one ``sequence.npcs_drew``), its saved split covering its teammate.
    participant_declare_split(
        participant=second, actor=narrator, split=Split(attack={buddy.key: 2}, defence={first.key: 1}),
        reasons={first.key: NPC_COVER_REASON},
    )  # fmt: skip
    seq.refresh_from_db()
    sequence_draw_npcs(sequence=seq, actor=narrator, expected_version=seq.version, rng=random.Random(5))
    draw(buddy, world.bob, Split(attack={first.key: 2}), seed=6)
    sequence_settle(sequence=seq, actor=narrator, expected_version=None)
    Sequence.objects.filter(pk=seq.pk).update(last_verdict="winner", last_winner="PJ")
    seq.refresh_from_db()
    if seq.phase != "ended":
        sequence_cut_short(sequence=seq, actor=alice, side="PJ", choice="cut", expected_version=seq.version)
    chase = sequence_create(scene=scene, actor=narrator, data={"title": "Poursuite", "kind": "chase"})
    runner = participant_add(
        sequence=chase, actor=narrator, character=world.alice_pc, side="PJ", goal="fuir", trait_code="combat"
    )
    car = participant_add(
        sequence=chase, actor=narrator, character=npc(campaign, narrator, "Chauffeur"), side="Sbires",
        goal="rattraper", trait_code="combat",
    )  # fmt: skip
    for participant, era in ((car, Era.STEAM), (runner, Era.MODERN)):
        chase.refresh_from_db()
        participant_update(
            participant=participant, actor=narrator, data={"vehicle_era": era}, expected_version=chase.version
        )
    draw(runner, alice, Split(attack={car.key: 5}), seed=1)
    # The narrator takes a participant out, then ends the Sequence, each with a reason for the log.
    watch = sequence_create(scene=scene, actor=narrator, data={"title": "Le guet"})
    watchers = [
        participant_add(
            sequence=watch, actor=narrator, character=character, side=side, goal="guetter", trait_code="combat"
        )
        for character, side in ((world.alice_pc, "PJ"), (world.bob_pc, "PJ"), (world.npc, "Sbires"))
    ]
    participant_take_out(participant=watchers[1], actor=narrator, reason="Bob rentre", expected_version=None)
    watch.refresh_from_db()
    sequence_end(sequence=watch, actor=narrator, reason="Le guet s'arrête là", expected_version=None)
    # A draw left waiting for nobody by a change on a sheet (the fourth wound) resolves in an Event of its own.
    alley = sequence_create(scene=scene, actor=narrator, data={"title": "La ruelle"})
    rivals = [npc(campaign, narrator, name) for name in ("Sbire 3", "Rival")]
    lurker, rival = (
        participant_add(sequence=alley, actor=narrator, character=character, side=side, goal="tenir",
                        trait_code="combat")
        for character, side in zip(rivals, ("Sbires", "Rivaux"), strict=True)
    )  # fmt: skip
    draw(lurker, narrator, Split(attack={rival.key: 3}), seed=7)
    savage_wounds_set(character=rivals[1], actor=narrator, count=4, expected_version=None)
    fudge_test_roll(
        character=world.alice_pc, actor=alice, data={"trait_code": "combat", "difficulty": 4}, rng=random.Random(1)
    )
    rolled = Event.objects.filter(campaign=campaign, kind="test.rolled").latest("pk")
    fudge_test_reroll(character=world.alice_pc, actor=alice, roll=rolled.payload["roll"], rng=random.Random(3))
    simple_conflict_roll(
        first=world.alice_pc, second=world.npc, actor=narrator, rng=random.Random(2),
        first_data={"trait_code": "combat"}, second_data={"trait_code": "combat"},
    )  # fmt: skip
    # A Test the narrator asks, one withdrawn and one answered by its roll.
    for asked in asked_test_create(
        campaign=campaign, actor=narrator, character_ids=[world.alice_pc.pk], trait_code="combat", note="sans bruit"
    ):
        asked_test_withdraw(campaign_id=campaign.pk, actor=narrator, asked_id=asked.pk)
    (asked,) = asked_test_create(
        campaign=campaign, actor=narrator, character_ids=[world.alice_pc.pk], trait_code="combat"
    )
    asked_test_roll(campaign_id=campaign.pk, actor=alice, asked_id=asked.pk, rng=random.Random(4))


def _tragic_kinds(world: World) -> list[Any]:
    """A duel between the two players recorded in the campaign (started, then conceded: finished) and one
    cancelled during setup. Returns the states whose libraries and hands must not leak."""
    c = world.campaign.pk
    game = tragic_services.game_create(user=world.alice, deck_ref=STEEL, opponent="invite", seed=77, campaign_id=c)
    game = tragic_services.game_join(token=game.invite_token, user=world.bob, deck_ref=GANG)
    for kind, field, value in (("choose_traits", "traits", []), ("choose_skills", "skills", SKILLS)):
        for user in (world.alice, world.bob):
            game = tragic_services.game_act(
                game=game, user=user, action={"kind": kind, field: value}, expected_version=game.version
            )
    played = load_state(game)
    game = tragic_services.game_act(
        game=game, user=world.alice, action={"kind": "concede"}, expected_version=game.version
    )
    waiting = tragic_services.game_create(user=world.alice, deck_ref=STEEL, opponent="invite", seed=78, campaign_id=c)
    waiting = tragic_services.game_join(token=waiting.invite_token, user=world.bob, deck_ref=GANG)
    for user in (world.alice, world.bob):
        waiting = tragic_services.game_act(
            game=waiting, user=user, action={"kind": "choose_traits", "traits": []}, expected_version=waiting.version
        )
    waiting = tragic_services.game_act(
        game=waiting, user=world.alice, action={"kind": "choose_skills", "skills": SKILLS},
        expected_version=waiting.version,
    )  # fmt: skip
    later = waiting.last_action_at + dt.timedelta(seconds=waiting.reaction_seconds + 1)
    tragic_services.game_cancel(game=waiting, user=world.alice, expected_version=waiting.version, now=later)
    return [played, load_state(game)]


def _frag_kinds(world: World) -> list[FragState]:
    """A Frag game recorded in the campaign, played by its bots to its one-turn limit."""
    seats = [
        frag_services.SeatSpec(name=world.alice.username, user=world.alice, health=2, speed=3, accuracy=2),
        frag_services.SeatSpec(name="Bot 1", bot="heuristic", health=2, speed=3, accuracy=2),
    ]
    game = frag_services.game_create(
        creator=world.alice, map_name="entrepot", seats=seats, seed=5, turn_limit=1, campaign_id=world.campaign.pk
    )
    states = [FragState.from_json(game.snapshot)]
    for _ in range(20):
        game.refresh_from_db()
        state = FragState.from_json(game.snapshot)
        if state.is_over():
            break
        actions = state.legal_actions(0)
        if not actions:
            break
        frag_services.game_act(game=game, user=world.alice, action=actions[0], expected_version=game.version)
        states.append(state)
    game.refresh_from_db()
    return [*states, FragState.from_json(game.snapshot)]


def _secret_sequences(tragic_states: list[Any], frag_states: list[FragState]) -> list[list[Any]]:
    """Every library order and every hand, by card id and by instance number."""
    found: list[list[Any]] = []
    for state in tragic_states:
        for seat in range(len(state.players)):
            for zone in ("library", "hand"):
                uids = list(state.zone(seat, zone))
                found += [uids, [state.cards[uid].cid for uid in uids]]
    for state in frag_states:
        for fighter in state.fighters:
            found += [list(fighter.hand), [state.card(uid).id for uid in fighter.hand]]
    return [seq for seq in found if len(seq) >= 3]


def _lists(value: Any) -> Iterator[list[Any]]:
    if isinstance(value, dict):
        for item in value.values():
            yield from _lists(item)
    elif isinstance(value, list):
        yield value
        for item in value:
            yield from _lists(item)


def _keys(value: Any) -> Iterator[str]:
    if isinstance(value, dict):
        for key, item in value.items():
            yield key
            yield from _keys(item)
    elif isinstance(value, list):
        for item in value:
            yield from _keys(item)


def _holds_a_run_of(candidate: list[Any], secret: list[Any]) -> bool:
    """``candidate`` holds consecutive cards of ``secret`` in its order, or the whole of it in any order.

    Card ids are names (three in a row is no accident); instance numbers are small integers that row ids
    in a payload may equal, so those need five in a row and are not compared as a set.
    """
    numbers = all(isinstance(x, int) for x in secret)
    run = 5 if numbers else 3
    kind = int if numbers else str
    scalars = [x for x in candidate if isinstance(x, kind) and not isinstance(x, bool)]
    if len(scalars) < run:
        return False
    if not numbers and sorted(scalars) == sorted(secret):
        return True
    windows = {tuple(secret[i : i + run]) for i in range(len(secret) - run + 1)}
    return any(tuple(scalars[i : i + run]) in windows for i in range(len(scalars) - run + 1))


def test_no_payload_a_member_can_read_holds_a_seed_a_library_a_hand_or_a_narrators_field(client, world: World):
    before = set(Event.objects.filter(campaign=world.campaign).values_list("pk", flat=True))
    _sequence_kinds(world)
    tragic_states = _tragic_kinds(world)
    frag_states = _frag_kinds(world)
    walked = list(Event.objects.filter(campaign=world.campaign).exclude(pk__in=before).for_display())

    # Every kind these apps describe in the log was played above.
    described = {kind for kind, func in chronicle._describers.items() if func.__module__.startswith(WALKED_APPS)}
    assert described <= {event.kind for event in walked}, described - {event.kind for event in walked}

    secrets = _secret_sequences(tragic_states, frag_states)
    assert secrets, "the walk must have libraries and hands to look for"
    players = [membership(world.campaign, world.alice), membership(world.campaign, world.bob)]
    readers: list[Membership | None] = [*players, None]
    for event in walked:
        for reader in readers:
            if reader is None and event.visibility != "everyone":
                continue
            if reader is not None and not Event.objects.visible_to(reader).filter(pk=event.pk).exists():
                continue
            payload = readable_payload(event, reader)
            text = json.dumps(payload, ensure_ascii=False)
            assert not SERVER_ONLY_KEYS & set(_keys(payload)), (event.kind, payload)
            assert NPC_COVER_REASON not in text, (event.kind, reader)
            assert PC_COVER_REASON not in text, (event.kind, reader)
            assert not any(k == "narrator_only" or k.startswith("narrator_") for k in _keys(payload)), event.kind
            for found in _lists(payload):
                assert not any(_holds_a_run_of(found, secret) for secret in secrets), (event.kind, found)

    # The narrator reads the reasons: the search above looked where they would have been.
    narrator = membership(world.campaign, world.narrator)
    for kind in ("sequence.drew", "sequence.npcs_drew"):
        drew = [e for e in walked if e.kind == kind]
        assert any(NPC_COVER_REASON in json.dumps(readable_payload(e, narrator)) for e in drew), kind

    # And the players' downloads say the same as the filter.
    for user in (world.alice, world.bob):
        client.logout()
        assert client.login(username=user.username, password=PASSWORD)
        for fmt in ("json", "md"):
            body = client.get(reverse("campaigns:log_export", args=[world.campaign.pk, fmt])).content.decode()
            assert NPC_COVER_REASON not in body and PC_COVER_REASON not in body and '"seed"' not in body
