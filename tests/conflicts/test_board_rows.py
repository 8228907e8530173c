"""Board rows, regions of their own (conflicts.regions): the Sequence pages and their live pushes are the same bytes
as rendered afresh through every change a row shows, a wound renders one row again, and a kept row never reaches a
viewer who may not see it."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from django.core.cache import caches
from django.test import Client

from campaigns.live import Viewer, console_subject, extra_fragments, sequence_subject
from campaigns.models import Campaign, Event, Membership, Role
from characters.services.revers import revers_inflict
from characters.services.sheet import character_update
from conflicts.models import Participant, Phase
from conflicts.rules.budget import Split
from conflicts.services.drawing import participant_declare_split
from conflicts.services.sequences import participant_update
from conflicts.services.settling import sequence_cut_short, sequence_settle
from states.services.shaken import savage_shaken_set
from tests.campaigns.factories import UserFactory
from tests.conflicts.factories import Fight, draw, fight
from tests.page_marks import without_page_marks

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _empty_cache() -> None:
    caches["fragments"].clear()


def _cache(settings, on: bool) -> None:  # type: ignore[no-untyped-def]
    settings.FRAGMENT_CACHE = on


def _table() -> tuple[Fight, dict[str, object]]:
    """Jim (the player's PC) against two thugs, with the narrator, Jim's player and a player who runs nobody."""
    f = fight(npcs=2)
    Campaign.objects.filter(pk=f.campaign.pk).update(savage_states=True)  # Shaken weighs on the draw
    f.campaign.refresh_from_db()
    other = UserFactory()
    Membership.objects.create(campaign=f.campaign, user=other, role=Role.PLAYER)
    return f, {"narrator": f.narrator, "runner": f.player, "other": other}


def _pages(f: Fight, people: dict[str, object]) -> dict[tuple[str, str], str]:
    out = {}
    for who, user in people.items():
        for language in ("fr", "en"):
            client = Client()
            client.force_login(user)  # type: ignore[arg-type]
            client.cookies["django_language"] = language
            response = client.get(f.sequence.get_absolute_url())
            assert response.status_code == 200
            out[(who, language)] = without_page_marks(response.content.decode())
    return out


def _pushes(f: Fight, people: dict[str, object]) -> dict[tuple[str, str], str]:
    """What the sockets of each viewer's Sequence page receive for the last event (its board and panels)."""
    from django.utils import translation

    event = Event.objects.filter(campaign=f.campaign).order_by("-pk").first()
    assert event is not None
    out = {}
    for who, user in people.items():
        member = Membership.objects.select_related("campaign", "user").get(campaign=f.campaign, user=user)
        watching = [sequence_subject(f.sequence.pk)] + ([console_subject(f.sequence.pk)] if who == "narrator" else [])
        for language in ("fr", "en"):
            with translation.override(language):
                fresh = Event.objects.get(pk=event.pk)  # the per-event facts are loaded afresh
                out[(who, language)] = "".join(extra_fragments(fresh, Viewer(member, frozenset(watching))))
    return out


def _same_kept_and_fresh(settings, f: Fight, people: dict[str, object]) -> dict[tuple[str, str], str]:  # type: ignore[no-untyped-def]
    """The pages and pushes with nothing kept, then with what earlier states kept (cold for this state), then warm:
    all the same bytes."""
    _cache(settings, False)
    pages, pushes = _pages(f, people), _pushes(f, people)
    _cache(settings, True)
    for attempt in ("cold", "warm"):
        assert _pages(f, people) == pages, attempt
        assert _pushes(f, people) == pushes, attempt
    return pages


@pytest.mark.slow  # every step × every role × both languages × four renders; the fast suite has the test below
def test_every_change_a_row_shows_reaches_the_kept_pages_and_pushes(settings) -> None:  # type: ignore[no-untyped-def]
    """Through a whole Sequence (splits, a rename, a Revers, Shaken, a draw, the resolution, the upper hand, the
    end), every role in both languages: kept rows give the bytes of a fresh render at each step."""
    f, people = _table()
    t, u = f.npcs
    steps: list[tuple[str, Callable[[], object]]] = [
        ("declared (narrators only)", lambda: participant_declare_split(
            participant=t, actor=f.narrator, split=Split(attack={f.pc.key: 2}, defence={t.key: 1}))),
        ("modifier", lambda: participant_update(
            participant=u, actor=f.narrator, data={"trait_value": 6}, expected_version=f.reload().sequence.version)),
        ("PC declared", lambda: participant_declare_split(
            participant=f.pc, actor=f.player, split=Split(attack={t.key: 3}, defence={f.pc.key: 2}))),
        ("rename", lambda: character_update(
            character=f.thugs[1], actor=f.narrator, data={"name": "Le Balafré"},
            expected_version=f.thugs[1].__class__.objects.get(pk=f.thugs[1].pk).version)),
        ("Revers", lambda: revers_inflict(
            character=f.thugs[0], actor=f.narrator, domain="physical", severity=1, source="un coup")),
        # Shaken weighs on the draw panel only (the runner's page and phone panel say so), not on the board's rows.
        ("Shaken", lambda: savage_shaken_set(character=f.hero, actor=f.narrator, shaken=True, expected_version=None)),
        ("PC drew", lambda: draw(f.pc, f.player, Split(defence={f.pc.key: 5}))),
        ("thug drew", lambda: draw(Participant.objects.get(pk=t.pk), f.narrator,
                                   Split(attack={f.pc.key: 1}, defence={t.key: 1}), seed=3)),
        ("resolved", lambda: draw(Participant.objects.get(pk=u.pk), f.narrator,
                                  Split(attack={f.pc.key: 3}, defence={u.key: 3}), seed=5)),
        ("settled", lambda: sequence_settle(
            sequence=f.reload().sequence, actor=f.narrator, expected_version=f.sequence.version)),
    ]  # fmt: skip
    before = _same_kept_and_fresh(settings, f, people)
    for name, change in steps:
        change()
        f.reload()
        pages = _same_kept_and_fresh(settings, f, people)
        if name == "Shaken":  # only the runner's draw panel says so; the board's rows do not change
            assert {key for key in pages if pages[key] != before[key]} == {("runner", "fr"), ("runner", "en")}
        else:
            assert pages != before, name  # the step shows
        before = pages
    assert f.sequence.phase in (Phase.DRAWING, Phase.ENDED) and f.sequence.draw_number >= 1
    if f.sequence.phase == Phase.DRAWING and f.sequence.last_verdict not in ("", "tie"):
        side = f.sequence.last_winner or "PJ"
        sequence_cut_short(sequence=f.sequence, actor=f.narrator, side=side, choice="cut",
                           expected_version=f.sequence.version)  # fmt: skip
        f.reload()
        assert f.sequence.phase == Phase.ENDED
        assert _same_kept_and_fresh(settings, f, people) != before


def test_upper_hand_and_cut_short_show_on_kept_rows(settings) -> None:  # type: ignore[no-untyped-def]
    """The upper hand a row shows (« upper hand: +N cards ») and the end of the Sequence cut short."""
    from conflicts.models import Sequence

    f, people = _table()
    _same_kept_and_fresh(settings, f, people)
    # As settling writes it, on a thug whose row shows nothing else new to a player (no budget, no split), with an
    # Event of the whole draw (``draw:<sequence>``) as settling's is: here the player declaring Jim's goal.
    Participant.objects.filter(pk=f.npcs[1].pk).update(upper_hand_cards=2)
    Sequence.objects.filter(pk=f.sequence.pk).update(draw_number=2, last_verdict="winner", last_winner="PJ")
    f.reload()
    participant_update(participant=f.pc, actor=f.player, data={"goal": "fuir"}, expected_version=f.sequence.version)
    f.reload()
    pages = _same_kept_and_fresh(settings, f, people)
    thugs_row = pages[("other", "fr")].split(f'id="participant-{f.npcs[1].pk}"')[1]
    assert "upper hand: +2 cards" in pages[("narrator", "en")] and "ascendant : +2 cartes" in thugs_row
    sequence_cut_short(sequence=f.sequence, actor=f.player, side="PJ", choice="cut",
                       expected_version=f.sequence.version)  # fmt: skip
    f.reload()
    ended = _same_kept_and_fresh(settings, f, people)
    assert "PJ wins the sequence" in ended[("runner", "en")] and "to draw" not in ended[("narrator", "en")]


def _row_misses(f: Fight) -> list[str]:
    """The console rows the narrator's Sequence page renders afresh (in French and English)."""
    misses: list[str] = []
    cache = caches["fragments"]
    real_get = cache.get

    def get(key, *args, **kwargs):  # type: ignore[no-untyped-def]
        value = real_get(key, *args, **kwargs)
        if key.startswith("region:sequence-console-row:") and value is None:
            misses.append(key)
        return value

    cache.get = get  # type: ignore[method-assign]
    try:
        _pages(f, {"narrator": f.narrator})
    finally:
        del cache.get
    return misses


def _all_in_defence(f: Fight, p: Participant) -> Split:
    from conflicts.selectors import sequence_board

    narrator = Membership.objects.select_related("campaign").get(campaign=f.campaign, user=f.narrator)
    board = sequence_board(f.reload().sequence, narrator, story=False)
    (view,) = (v for v in board.views if v.participant.pk == p.pk)
    assert view.budget is not None
    return Split(defence={p.key: view.budget.total})


def test_a_wound_renders_one_row_again(settings) -> None:  # type: ignore[no-untyped-def]
    """After a Revers on one thug, the other rows of the board are kept: only the one that changed is rendered
    (its declaration names its character's subjects, not the others')."""
    f, _people = _table()
    _cache(settings, True)
    _pages(f, {"narrator": f.narrator})
    revers_inflict(character=f.thugs[0], actor=f.narrator, domain="physical", severity=1, source="un coup")
    assert len(_row_misses(f)) == 2  # the thug who was hurt, in French and in English


def test_a_draw_renders_its_drawers_row_again_and_the_last_one_every_row(settings) -> None:  # type: ignore[no-untyped-def]
    """A draw that leaves others to draw changes its drawer's row (« drew », its cards) and nobody else's: the other
    rows are kept (a row follows ``drew:<participant>`` and ``draw:<sequence>``, not the Sequence's every Event).
    The last draw puts the result on the table, which every row shows (what each takes, no one left « to draw »)."""
    f, _people = _table()
    _cache(settings, True)
    _pages(f, {"narrator": f.narrator})
    draw(f.pc, f.player, _all_in_defence(f, f.pc))
    assert len(_row_misses(f)) == 2  # Jim's row, in French and in English
    first, last = f.reload().npcs
    draw(first, f.narrator, _all_in_defence(f, first), seed=2)
    assert len(_row_misses(f)) == 2  # the first thug's
    draw(last, f.narrator, _all_in_defence(f, last), seed=3)
    assert f.reload().sequence.phase == Phase.RESOLVED
    assert len(_row_misses(f)) == 2 * 3  # every row, in both languages


def test_a_kept_row_never_reaches_a_viewer_who_may_not_see_it(settings) -> None:  # type: ignore[no-untyped-def]
    """The narrators-only row (an NPC's declared split and trait value) is rendered first and kept: the players'
    boards never show it. A player's own row (their card budget, private to whoever runs the character) kept for
    them never reaches the player who runs nobody."""
    _cache(settings, True)
    f, people = _table()
    t = f.npcs[0]
    participant_update(participant=t, actor=f.narrator, data={"trait_value": 7},
                       expected_version=f.reload().sequence.version)  # fmt: skip
    participant_declare_split(participant=t, actor=f.narrator, split=Split(attack={f.pc.key: 2}, defence={t.key: 1}))
    f.reload()
    first = _pages(f, {"narrator": f.narrator})
    assert f'name="attack_{t.pk}" value="2"' in first[("narrator", "en")] and "(Superb, 7)" in first[("narrator", "en")]
    runner = _pages(f, {"runner": f.player})
    other = _pages(f, {"other": people["other"]})
    pushes = _pushes(f, people)
    for html in [*runner.values(), *other.values(), pushes[("runner", "en")], pushes[("other", "fr")]]:
        assert f"bulk-attack-{t.pk}" not in html and "Superb" not in html and "Exceptionnel" not in html
        assert "⚔ 2 →" not in html

    # Jim's budget is his player's (and the narrators'): the other player's board never shows it.
    def jims_row(html: str) -> str:
        return html.split(f'id="participant-{f.pc.pk}"')[1].split('id="participant-')[0]

    assert "cards: " in jims_row(runner[("runner", "en")]) and "cartes : " in jims_row(runner[("runner", "fr")])
    assert "cards: " not in jims_row(other[("other", "en")]) and "cartes : " not in jims_row(other[("other", "fr")])
