"""One truth on every screen (issue 26): random sequences of real use cases with pages open for the narrator, two
players and a reader who runs no character there, in French and English: sheets, the narrator's dashboard (its
character panels, the "now" block's sections, its feed's entries), the log page (its entries) and a Sequence's page
for the narrator (its console) and a player who runs a character in it (its board and each participant's row). After each step
every open page, with its live messages applied as htmx applies them, equals a fresh GET region by region, and each
region equals its render with the caches off. Dropping one dependency from a region's declaration makes the check
fail.

Each page's regions are found by their element ids (``core.regions``: ``sheet``, ``character-panels`` and the
``character-panel-<id>`` it holds, ``now-<key>``, ``event-<id>`` for each log entry, ``sequence-board-<id>`` and
``participant-<id>``). The public log (no member, a
token) shows no region yet.

A rename is the one change an open page's log entries do not follow live (an entry shows the names as they are
when it is rendered; nothing pushes the entries already on a page): after a rename step the open entries are
compared with a fresh GET's only for the entries whose text the rename did not change, and every entry of the fresh
GET still with its render with the caches off."""

from __future__ import annotations

import contextlib
import dataclasses
import os
import random
from collections.abc import Callable
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.test import Client, override_settings
from django.urls import reverse
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from campaigns import services as campaign_services
from campaigns.live import console_subject, feed_subject, home_subject, sequence_subject
from campaigns.live_render import forget_renderings, rendering_of
from campaigns.models import Campaign, Event, Membership
from characters.models import Character, Revers
from characters.services.atouts import atout_gain, atout_spend, trait_raise
from characters.services.revers import revers_inflict, revers_take
from characters.services.sheet import character_update
from characters.subjects import sheet_subject
from conflicts.models import Participant, Sequence
from conflicts.selectors import sequence_board
from conflicts.services.drawing import participant_draw
from conflicts.services.fudge_tests import fudge_test_roll
from conflicts.services.npc_draws import sequence_draw_npcs
from conflicts.services.sequences import participant_add, scene_create, sequence_create
from conflicts.services.settling import sequence_settle
from conflicts.setup import default_split
from core import regions
from core.errors import ServiceError
from states.models import SavageSettings
from states.services.fatigue import savage_fatigue_gain
from states.services.rounds import savage_round_set_participants
from states.services.shaken import savage_shaken_set
from states.services.sheet import savage_settings_update
from states.services.wounds import savage_wounds_set
from states.subjects import round_subject, states_subject
from tests.campaigns.regions_dom import apply_fragments, element, ids
from tests.characters.factories import open_session, pc, table
from tests.conflicts.factories import npc

pytestmark = pytest.mark.django_db


@dataclasses.dataclass
class Page:
    user: User
    url: str
    watching: frozenset[str]
    region_ids: tuple[str, ...]  # the regions compared by id (besides the log entries, ``event-<id>``)
    language: str
    client: Client
    html: str = ""
    sequence: Sequence | None = None  # a Sequence's page: its participants' rows are compared too
    # Kept regions not pushed live (the console's « take someone out » card): a fresh GET equals its render with the
    # caches off.
    unpushed_ids: tuple[str, ...] = ()

    def get(self) -> str:
        return self.client.get(self.url).text

    def ids(self) -> tuple[str, ...]:
        if self.sequence is None:
            return self.region_ids
        rows = Participant.objects.filter(sequence=self.sequence).values_list("pk", flat=True)
        return (*self.region_ids, *(f"participant-{pk}" for pk in rows))


@dataclasses.dataclass
class Table:
    campaign: Campaign
    narrator: User
    players: list[User]
    jim: Character
    lisa: Character
    pages: list[Page]
    seen: int  # the last event applied to the pages
    rng: random.Random
    sequence: Sequence


def _client(user: User, language: str) -> Client:
    client = Client()
    client.force_login(user)
    client.cookies["django_language"] = language
    return client


def _sheet(user: User, character: Character, language: str) -> Page:
    return Page(user, character.get_absolute_url(), frozenset({sheet_subject(character.pk)}), ("sheet",), language,
                _client(user, language))  # fmt: skip


def _dashboard(user: User, campaign: Campaign, language: str) -> Page:
    url = reverse("campaigns:dashboard", args=[campaign.pk])
    shown = ("character-panels", "now-mine", "now-draw", "now-states")
    return Page(user, url, frozenset({home_subject(campaign.pk), feed_subject(campaign.pk)}), shown, language,
                _client(user, language))  # fmt: skip


def _log(user: User, campaign: Campaign, language: str) -> Page:
    url = reverse("campaigns:log", args=[campaign.pk])
    return Page(user, url, frozenset({feed_subject(campaign.pk)}), (), language, _client(user, language),
                unpushed_ids=("log-filters", "log-entries"))  # fmt: skip


def _sequence_page(user: User, sequence: Sequence, language: str, *, narrator: bool) -> Page:
    watching = {sequence_subject(sequence.pk), *([console_subject(sequence.pk)] if narrator else [])}
    return Page(user, sequence.get_absolute_url(), frozenset(watching), (f"sequence-board-{sequence.pk}",), language,
                _client(user, language), sequence=sequence,
                unpushed_ids=(f"narrator-leave-{sequence.pk}",) if narrator else ())  # fmt: skip


def _states_page(user: User, character: Character, language: str) -> Page:
    url = reverse("states:savage_state", args=[character.pk])
    watching = frozenset({states_subject(character.pk), feed_subject(character.campaign_id)})
    return Page(user, url, watching, (f"savage-panel-{character.pk}",), language, _client(user, language))


def _round_page(user: User, campaign: Campaign, language: str) -> Page:
    url = reverse("states:savage_round", args=[campaign.pk])
    watching = frozenset({round_subject(campaign.pk), feed_subject(campaign.pk)})
    return Page(user, url, watching, (f"savage-round-{campaign.pk}",), language, _client(user, language))


def _table(*, every_page: bool = False) -> Table:
    """The table and its open pages. The fast tests open one page of each kind for each role, in a language each;
    ``every_page`` (the long hunt under ``slow``) opens more, in both languages."""
    campaign, narrator, (p1, p2, reader) = table(players=3, savage_states=True)
    jim, lisa = pc(campaign, p1, name="Jim"), pc(campaign, p2, name="Lisa")
    open_session(campaign, narrator)
    for character in (jim, lisa):
        atout_gain(character=character, actor=narrator, amount=4)
    # Jim runs « Endurance accrue » for one more draw (characters.boosts): his next draw spends it, which changes his
    # sheet's chances and his budget on both boards although a draw otherwise leaves the character alone.
    Character.objects.filter(pk=jim.pk).update(
        power_boost={"power": "enhanced_endurance", "target": "armour", "amount": 3, "left": 1}
    )
    # Jim and Lisa against a thug the narrator runs: its trait value and split are the narrator's secrets.
    thug = npc(campaign, narrator, "Le Truand")
    scene = scene_create(campaign=campaign, actor=narrator, title="Les docks")
    sequence = sequence_create(scene=scene, actor=narrator, data={"title": "Bagarre sur le quai"})
    for character, side in ((jim, "PJ"), (lisa, "PJ"), (thug, "Truands")):
        participant_add(sequence=sequence, actor=narrator, character=character, side=side, trait_code="combat")
    # A second Sequence, nobody drawing in it: Jim's wounds and renames still change its board, and its page, opened by
    # the narrator at the same stream head as the first one's, shows its own board (two Sequences' boards once shared a
    # key: the second page got the first board).
    chase = sequence_create(scene=scene, actor=narrator, data={"title": "La poursuite"})
    for character, side in ((jim, "PJ"), (thug, "Truands")):
        participant_add(sequence=chase, actor=narrator, character=character, side=side, trait_code="combat")
    # Jim and Lisa are in the round tracker's fight (their states are the table's anyway); the thug is not.
    savage_round_set_participants(campaign=campaign, actor=narrator, characters=[jim, lisa], expected_version=None)
    people = [(narrator, jim, "fr"), (p1, jim, "en"), (p2, lisa, "fr"), (p2, jim, "en"), (reader, lisa, "en")]
    logs = [(narrator, "en"), (p1, "fr"), (p2, "en"), (reader, "fr")]
    states = [(narrator, thug, "en"), (p1, jim, "fr"), (narrator, jim, "en"), (p2, lisa, "en")]
    rounds = [(p2, "en"), (narrator, "fr"), (reader, "en")]
    if not every_page:
        people, logs, states, rounds = [people[0], people[1], people[4]], [logs[1], logs[3]], states[:2], rounds[:1]
    pages = [_sheet(user, character, language) for user, character, language in people]
    pages += [_states_page(user, character, language) for user, character, language in states]
    pages += [_round_page(user, campaign, language) for user, language in rounds]
    pages += [_dashboard(narrator, campaign, language) for language in (("fr", "en") if every_page else ("en",))]
    pages += [_log(user, campaign, language) for user, language in logs]
    pages += [
        _sequence_page(narrator, sequence, "fr", narrator=True),
        _sequence_page(p1, sequence, "en", narrator=False),
        _sequence_page(narrator, chase, "fr", narrator=True),  # the language of the first: one key but for the id
    ]
    for page in pages:
        page.html = page.get()
    seen = Event.objects.filter(campaign=campaign).order_by("-pk").values_list("pk", flat=True).first() or 0
    return Table(campaign, narrator, [p1, p2], jim, lisa, pages, seen, random.Random(26), sequence)


def _fresh(character: Character) -> Character:
    return Character.objects.select_related("campaign", "owner").get(pk=character.pk)


def _note(t: Table, who: int) -> None:
    membership = Membership.objects.get(campaign=t.campaign, user=t.players[who % 2])
    campaign_services.note_write(membership=membership, text=f"Note {t.rng.random()}")


def _test(t: Table, who: int) -> None:
    character = _fresh([t.jim, t.lisa][who % 2])
    fudge_test_roll(character=character, actor=character.owner, data={"trait_code": "medecine", "difficulty": 4},
                    rng=t.rng)  # fmt: skip


def _wound(t: Table, who: int) -> None:
    savage_wounds_set(character=_fresh([t.jim, t.lisa][who % 2]), actor=t.narrator, count=1 + who % 3,
                      expected_version=None)  # fmt: skip


def _shaken(t: Table, who: int) -> None:
    savage_shaken_set(character=_fresh([t.jim, t.lisa][who % 2]), actor=t.narrator, shaken=who % 3 != 0,
                      expected_version=None)  # fmt: skip


def _fatigue(t: Table, who: int) -> None:
    savage_fatigue_gain(character=_fresh([t.jim, t.lisa][who % 2]), actor=t.narrator, source="cold",
                        expected_version=None)  # fmt: skip


def _dice(t: Table, who: int) -> None:
    settings_row, _created = SavageSettings.objects.get_or_create(campaign=t.campaign)
    die = ["d4", "d6", "d8", "d10", "d12"][who % 5]
    savage_settings_update(campaign=t.campaign, actor=t.narrator, revers_to_wounds=settings_row.revers_to_wounds,
                           rank_dice={**settings_row.rank_dice, "2": die, "3": die},
                           expected_version=settings_row.version)  # fmt: skip


def _atout(t: Table, who: int) -> None:
    atout_gain(character=_fresh([t.jim, t.lisa][who % 2]), actor=t.narrator, amount=1)


def _spend(t: Table, who: int) -> None:
    """An Atout spent on narrative control: the sheet's counters and ledger change, its trait rows do not."""
    character = _fresh([t.jim, t.lisa][who % 2])
    atout_spend(character=character, actor=character.owner, use="narrative_control", justification="Une corde")


def _raise(t: Table, who: int) -> None:
    """A trait raised with Atouts: a ``character.atout_spent`` whose trait rows change (its payload names the
    trait)."""
    character = _fresh([t.jim, t.lisa][who % 2])
    trait_raise(character=character, actor=character.owner, trait_code="medecine", justification="Des nuits d'étude")


def _revers(t: Table, who: int) -> None:
    revers_inflict(character=_fresh([t.jim, t.lisa][who % 2]), actor=t.narrator, domain="physical",
                   severity=1, source=f"Coup {who}")  # fmt: skip


def _take(t: Table, who: int) -> None:
    taker, other = (t.jim, t.lisa) if who % 2 else (t.lisa, t.jim)
    revers = Revers.objects.filter(character=other, severity__gt=0).order_by("pk").first()
    if revers is not None:
        taker = _fresh(taker)
        revers_take(taker=taker, revers=revers, actor=taker.owner, expected_version=_fresh(other).version)


def _rename(t: Table, who: int) -> None:
    character = _fresh([t.jim, t.lisa][who % 2])
    character_update(character=character, actor=character.owner, data={"name": f"{character.name[:3]}{who}"},
                     expected_version=character.version)  # fmt: skip


def _draw(t: Table, who: int) -> None:
    """The ``who``-th participant still to draw draws, with the split its panel starts from; its runner acts."""
    narrator = Membership.objects.select_related("campaign").get(campaign=t.campaign, user=t.narrator)
    sequence = Sequence.objects.select_related("campaign").get(pk=t.sequence.pk)
    board = sequence_board(sequence, narrator)
    waiting = [v for v in board.views if v.participant.active and not v.participant.drawn]
    if sequence.phase != "drawing" or not waiting:
        return
    view = waiting[who % len(waiting)]
    me = view.participant
    everyone = [v.participant for v in board.views]
    budget = view.budget
    assert budget is not None  # a narrator sees every budget
    split = default_split(me, everyone, budget, shaken=view.shaken, collective=sequence.collective)
    actor = me.character.owner or t.narrator
    participant_draw(participant=me, actor=actor, expected_version=sequence.version, split=split, rng=t.rng)


def _tap(t: Table, _who: int) -> None:
    """The narrator's tap for every NPC still to draw (the thug): one ``sequence.npcs_drew``."""
    sequence = Sequence.objects.select_related("campaign").get(pk=t.sequence.pk)
    sequence_draw_npcs(sequence=sequence, actor=t.narrator, expected_version=sequence.version, rng=t.rng)


def _settle(t: Table, _who: int) -> None:
    sequence = Sequence.objects.select_related("campaign").get(pk=t.sequence.pk)
    if sequence.phase == "resolved":
        sequence_settle(sequence=sequence, actor=t.narrator, expected_version=sequence.version)


STEPS: dict[str, Callable[[Table, int], None]] = {
    "note": _note, "test": _test, "wound": _wound, "shaken": _shaken, "fatigue": _fatigue, "dice": _dice,
    "atout": _atout, "spend": _spend, "raise": _raise, "revers": _revers, "take": _take, "rename": _rename,
    "draw": _draw, "tap": _tap, "settle": _settle,
}  # fmt: skip


def _apply_live(t: Table) -> None:
    """Every page gets the live messages of the events appended since the last step, as its socket would."""
    forget_renderings()
    events = list(Event.objects.filter(campaign=t.campaign, pk__gt=t.seen).order_by("position"))
    for event in events:
        rendering = rendering_of(event.pk)
        assert rendering is not None
        for page in t.pages:
            membership = Membership.objects.get(campaign=t.campaign, user=page.user)
            message = rendering.html_for(membership, watching=page.watching, language=page.language,
                                         csrf_token="x" * 32)  # fmt: skip
            page.html = apply_fragments(page.html, message)
        t.seen = event.pk


def _check(t: Table, step: str, *, uncached: bool = True) -> None:
    """Each open page's regions equal a fresh GET's, and each equals its render with the caches off (``uncached``)."""
    for page in t.pages:
        fresh = page.get()
        with override_settings(FRAGMENT_CACHE=False):
            plain = page.get() if uncached else fresh
        entries = ids(fresh, "event-")
        # The feed lists the same entries, newest first (an open page may hold older ones below).
        assert ids(page.html, "event-")[: len(entries)] == entries, (step, page.user.username, page.url)
        for region_id in (*page.ids(), *entries):
            where = (step, page.user.username, page.url, page.language, region_id)
            assert element(fresh, region_id) is not None or not region_id.startswith("character-"), where
            assert element(fresh, region_id) == element(plain, region_id), where
            if step == "rename" and region_id in entries:
                continue  # open entries keep the names they were rendered with (see the module's docstring)
            assert element(page.html, region_id) == element(fresh, region_id), where
        for region_id in page.unpushed_ids:
            assert element(fresh, region_id) == element(plain, region_id), (step, page.url, region_id)
        if step == "rename":
            page.html = fresh  # the reader reloads to see the new name in the entries


def _play(
    steps: list[tuple[str, int]], *, refusals: bool = True, every_page: bool = False, uncached_at_end: bool = False
) -> None:
    """Plays ``steps``, checking every open page after each; ``uncached_at_end``: the renders with the caches off
    are compared after the last step only (the other tests compare them after every step)."""
    t = _table(every_page=every_page)
    for index, (name, who) in enumerate(steps):
        # A refusal changes nothing, and the pages must still agree; ``refusals=False`` says each step acts.
        with contextlib.suppress(*([ServiceError] if refusals else [])):
            STEPS[name](t, who)
        _apply_live(t)
        _check(t, name, uncached=not uncached_at_end or index == len(steps) - 1)


STEP = st.tuples(st.sampled_from(sorted(STEPS)), st.integers(min_value=0, max_value=5))


# Every kind of step once, in an order where each finds something to do (a Revers to take, a wound to weigh), in two
# halves that two workers play at once. Each step is compared with a fresh GET; the caches-off renders at the end of
# each half (the random tests below compare them after every step).
EVENING = [
    [("revers", 0), ("wound", 1), ("take", 0), ("dice", 3), ("test", 0), ("shaken", 1), ("fatigue", 0), ("atout", 1)],
    [("spend", 0), ("raise", 1), ("note", 0), ("rename", 1), ("draw", 0), ("draw", 0), ("tap", 0), ("settle", 0)],
]
EVENING_KINDS = [
    {"character.revers_taken", "savage.settings_changed", "test.rolled", "savage.shaken_set", "savage.fatigue_gained"},
    {"character.atout_spent", "character.updated", "note", "sequence.drew", "sequence.npcs_drew", "sequence.settled"},
]


@pytest.mark.parametrize("half", [0, 1])
def test_one_evening_with_every_kind_of_step(half: int) -> None:
    before = Event.objects.count()
    _play(EVENING[half], refusals=False, uncached_at_end=True)
    kinds = set(Event.objects.order_by("pk")[before:].values_list("kind", flat=True))
    assert EVENING_KINDS[half] <= kinds, kinds
    assert {name for steps in EVENING for name, _who in steps} == set(STEPS)  # every kind of step is played


@settings(max_examples=6, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(STEP, min_size=1, max_size=2))
def test_every_open_sheet_with_its_live_messages_equals_a_fresh_one(steps: list[tuple[str, int]]) -> None:
    _play(steps)


# CI's run: 16 sequences of up to 10 steps with every page open, in four parts that two workers hunt (each part its
# own search: Hypothesis keys its examples by the test's id). In two halves, one took 100-160 s and the other 60 s
# less (sequences of random length), and the slow tests waited for the longer: four parts even the workers out. A
# longer hunt: ONE_TRUTH_EXAMPLES=200 make test-slow.
LONG_PARTS = 4


@pytest.mark.slow
@pytest.mark.timeout(2400)  # 50 s on a quiet machine, 235 s at a load of 7; a failure's shrinking takes longer
@pytest.mark.parametrize("part", range(LONG_PARTS))
@settings(
    max_examples=int(os.environ.get("ONE_TRUTH_EXAMPLES", "16")) // LONG_PARTS,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)
@given(steps=st.lists(STEP, min_size=1, max_size=10))
def test_every_open_sheet_with_its_live_messages_equals_a_fresh_one_long(
    part: int, steps: list[tuple[str, int]]
) -> None:
    _play(steps, every_page=True)


# The character's and its states' subjects are touched together (and its row's version is in the key): dropping
# one of them alone changes nothing a page shows.
@pytest.mark.parametrize(("dropped", "steps"), [("settings", [("dice", 1)]), ("characters", [("revers", 1)])])
def test_the_check_fails_when_a_declaration_drops_a_dependency(
    monkeypatch: pytest.MonkeyPatch, dropped: str, steps: list[tuple[str, int]]
) -> None:
    """The consistency check is not vacuous: the sheet without one of its subjects shows a stale screen."""
    from characters.views import sheet as sheet_views

    def depends(*args: Any) -> regions.Depends:
        declared = sheet_views.sheet_depends(*args)
        kept = frozenset(s for s in declared.all_subjects() if not s.startswith((f"{dropped}:", "table:")))
        return dataclasses.replace(declared, subjects=kept, campaign_id=0)  # no catch-all either

    lacking = dataclasses.replace(sheet_views.SHEET, depends=depends)
    monkeypatch.setattr(sheet_views, "SHEET", lacking)
    monkeypatch.setitem(regions._registry, "sheet", lacking)
    with pytest.raises(AssertionError):
        _play(steps)


def test_the_check_fails_when_the_dashboards_panels_drop_a_dependency(monkeypatch: pytest.MonkeyPatch) -> None:
    """The dashboard's grid of panels without ``characters:<campaign>``: an Atout leaves a stale panel."""
    from characters import panels

    def depends(*args: Any) -> regions.Depends:
        declared = panels.panels_depends(*args)
        kept = frozenset(s for s in declared.all_subjects() if not s.startswith(("characters:", "table:")))
        return dataclasses.replace(declared, subjects=kept, campaign_id=0)

    lacking = dataclasses.replace(panels.PANELS, depends=depends)
    monkeypatch.setattr(panels, "PANELS", lacking)
    monkeypatch.setitem(regions._registry, "panels", lacking)
    with pytest.raises(AssertionError):
        _play([("atout", 1)])


# A wound weighs on the budget a board shows its narrator (Savage wound penalties): without its participants'
# characters and states among the board's subjects, the board kept before the wound is served after it. (Dropping
# ``sequence:<id>`` alone changes nothing today: every Event of a Sequence also names its participants' characters.)
@pytest.mark.parametrize(("dropped", "steps"), [(("character", "states"), [("wound", 0)])])
def test_the_check_fails_when_the_boards_declaration_drops_a_dependency(
    monkeypatch: pytest.MonkeyPatch, dropped: tuple[str, ...], steps: list[tuple[str, int]]
) -> None:
    """The Sequence pages are checked too: the board without some of its subjects shows a stale screen."""
    from conflicts import regions as conflicts_regions

    def depends(*args: Any) -> regions.Depends:
        declared = conflicts_regions.board_depends(*args)
        prefixes = (*(f"{kind}:" for kind in dropped), "table:")
        kept = frozenset(s for s in declared.all_subjects() if not s.startswith(prefixes))
        return dataclasses.replace(declared, subjects=kept, campaign_id=0)  # no catch-all either

    lacking = dataclasses.replace(conflicts_regions.BOARD, depends=depends)
    monkeypatch.setattr(conflicts_regions, "BOARD", lacking)
    monkeypatch.setitem(regions._registry, conflicts_regions.BOARD.name, lacking)
    with pytest.raises(AssertionError) as failed:
        _play(steps)
    assert "sequence-board-" in str(failed.value)  # the board is what went stale


def test_the_check_fails_when_the_boards_foot_drops_its_sequence(monkeypatch: pytest.MonkeyPatch) -> None:
    """A draw that leaves others to draw sends the board's parts it changed (``conflicts.regions``: its head, the rows,
    its foot). The foot without its Sequence and its participants' characters and states (every Event of a Sequence
    names both, so dropping one alone changes nothing): the second draw's push serves the foot kept at the first, and
    the story on an open page misses the second draw's line."""
    from conflicts import regions as conflicts_regions

    def depends(*args: Any) -> regions.Depends:
        declared = conflicts_regions.board_depends(*args)
        dropped = ("sequence:", "character:", "states:", "table:")
        kept = frozenset(s for s in declared.all_subjects() if not s.startswith(dropped))
        return dataclasses.replace(declared, subjects=kept, campaign_id=0)

    lacking = dataclasses.replace(conflicts_regions.FOOT, depends=depends)
    monkeypatch.setattr(conflicts_regions, "FOOT", lacking)
    monkeypatch.setitem(regions._registry, conflicts_regions.FOOT.name, lacking)
    with pytest.raises(AssertionError) as failed:
        _play([("draw", 0), ("draw", 0)])
    assert "sequence-board-" in str(failed.value)


def test_the_check_fails_when_the_trait_rows_drop_a_dependency(monkeypatch: pytest.MonkeyPatch) -> None:
    """The sheet's trait lists, nested regions (``characters.trait_rows``), without ``traits:<id>``: after a wound
    the sheet is rendered anew around trait rows kept with the chances from before it."""
    from characters import trait_rows

    def depends(*args: Any) -> regions.Depends:
        declared = trait_rows.trait_rows_depends(*args)
        return dataclasses.replace(declared, subjects=frozenset(s for s in declared.all_subjects()
                                                                 if not s.startswith("traits:")))  # fmt: skip

    lacking = dataclasses.replace(trait_rows.TRAIT_LIST, depends=depends)
    monkeypatch.setitem(regions._registry, "sheet-traits", lacking)
    with pytest.raises(AssertionError):
        _play([("wound", 0)])  # Jim: his player's sheet, with its chips, is among the pages the fast tests open


# The states' regions (states.regions) are checked too: a wound on Jim, whose states page his player has open and who
# is in the round tracker's fight, leaves a stale panel or tracker when their declaration forgets it.
@pytest.mark.parametrize(
    ("region", "dropped", "stale"),
    [("states-panel", ("character:", "states:"), "savage-panel-"), ("round", ("characters:",), "savage-round-")],
)
def test_the_check_fails_when_a_states_region_drops_a_dependency(
    monkeypatch: pytest.MonkeyPatch, region: str, dropped: tuple[str, ...], stale: str
) -> None:
    declared_region = regions.get(region)

    def depends(*args: Any) -> regions.Depends:
        declared = declared_region.depends(*args)
        kept = frozenset(s for s in declared.all_subjects() if not s.startswith((*dropped, "table:")))
        return dataclasses.replace(declared, subjects=kept, campaign_id=0)  # no catch-all either

    monkeypatch.setitem(regions._registry, region, dataclasses.replace(declared_region, depends=depends))
    with pytest.raises(AssertionError) as failed:
        _play([("wound", 0)])
    assert stale in str(failed.value)


def test_the_check_fails_when_the_storys_lines_drop_their_event(monkeypatch: pytest.MonkeyPatch) -> None:
    """A Sequence's story lines, nested in its board (``conflicts.story``), each keyed by its event: without the
    event in the declaration, a draw's board is rendered anew around lines kept for other events."""
    from conflicts import story

    def depends(*args: Any) -> regions.Depends:
        declared = story.line_depends(*args)
        return dataclasses.replace(declared, rows=declared.rows[2:])  # the log_epoch alone

    lacking = dataclasses.replace(story.STORY_LINE, depends=depends)
    monkeypatch.setitem(regions._registry, story.STORY_LINE.name, lacking)
    with pytest.raises(AssertionError) as failed:
        _play([("draw", 0)])
    assert "sequence-board-" in str(failed.value)


def test_the_check_fails_when_the_log_filter_drops_the_kinds(monkeypatch: pytest.MonkeyPatch) -> None:
    """The plain log page's filter (``campaigns.page_regions.LOG_FILTER``) without the kinds among its rows: a kind the
    log had not held yet leaves a kept filter that does not offer it. (A change of the Savage dice names no
    character, no session and no member: only the kinds tell the filter it has something new to offer.)"""
    from campaigns import page_regions

    def depends(*args: Any) -> regions.Depends:
        declared = page_regions._log_filter_depends(*args)
        return dataclasses.replace(declared, rows=declared.rows[:1])

    lacking = dataclasses.replace(page_regions.LOG_FILTER, depends=depends)
    monkeypatch.setattr(page_regions, "LOG_FILTER", lacking)
    with pytest.raises(AssertionError) as failed:
        _play([("dice", 1)])
    assert "log-filters" in str(failed.value)


def test_the_check_fails_when_the_log_pages_list_drops_the_log(monkeypatch: pytest.MonkeyPatch) -> None:
    """The plain log page's list (``campaigns.page_regions.LOG_ENTRIES``) without ``log:<campaign>``: after a note,
    a fresh page serves the list kept before it, which the open page (with the note pushed) no longer equals."""
    from campaigns import page_regions

    declared_by = page_regions.LOG_ENTRIES.depends

    def depends(*args: Any) -> regions.Depends:
        declared = declared_by(*args)
        kept = frozenset(s for s in declared.all_subjects() if not s.startswith(("log:", "table:")))
        return dataclasses.replace(declared, subjects=kept, campaign_id=0)

    lacking = dataclasses.replace(page_regions.LOG_ENTRIES, depends=depends)
    monkeypatch.setattr(page_regions, "LOG_ENTRIES", lacking)
    with pytest.raises(AssertionError) as failed:
        _play([("note", 0)])
    assert "/log/" in str(failed.value)
