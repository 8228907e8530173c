"""In-process page cost: CPU time per request of Tablée's everyday pages beside a bare Django page.

Run by ``bench/pages.py`` in a subprocess with its own database and ``DEBUG=false``; prints one JSON
document. Each round measures the bare page then each Tablée page, one batch each, so that a change
of the machine's load hits both sides of a ratio alike (the machine is shared).
"""

from __future__ import annotations

import datetime as dt
import json
import os
import statistics
import sys
import time
from collections.abc import Callable

import django

django.setup()

from django.contrib.auth.models import User  # noqa: E402
from django.core.cache import caches  # noqa: E402
from django.core.management import call_command  # noqa: E402
from django.db import connection  # noqa: E402
from django.db.models import F  # noqa: E402
from django.test import Client  # noqa: E402
from django.test.utils import CaptureQueriesContext  # noqa: E402
from django.utils import timezone  # noqa: E402

from campaigns import services as campaign_services  # noqa: E402
from campaigns.models import Campaign, Event, Membership, Role, Visibility  # noqa: E402
from characters.models import Character  # noqa: E402
from characters.services.creation import character_create, npc_create  # noqa: E402
from conflicts.models import Participant  # noqa: E402
from conflicts.services.sequences import participant_add, scene_create, sequence_create  # noqa: E402

PLAYERS = 3
NPCS = 5
RARE_NOTES = (2, 5, 8)  # public notes (neither i % 3 == 1, nor i % 7 == 0, nor i % 11 == 0)


def seed(events: int) -> dict[str, object]:
    """A campaign with ``events`` events, 3 PCs and 5 NPCs, and a Sequence with all 8 of them."""
    narrator = User.objects.create_user("bench-narrator", password="x")
    campaign = campaign_services.campaign_create(owner=narrator, data={"name": "Bench"})
    players = []
    for i in range(PLAYERS):
        user = User.objects.create_user(f"bench-player-{i}", password="x")
        Membership.objects.create(campaign=campaign, user=user, role=Role.PLAYER)
        players.append(user)
    pcs = [
        character_create(
            campaign=campaign, actor=user, name=f"PJ {i}", concept="Médecin de campagne abrupt",
            goal="Empêcher le méchant d'accomplir son plan", ranks={"combat": 4, "medecine": 4, "esprit": 5},
            custom_traits=[],
        )
        for i, user in enumerate(players)
    ]  # fmt: skip
    npcs = [
        npc_create(campaign=campaign, actor=narrator, name=f"Truand {i}", concept="Truand", ranks={"combat": 3})
        for i in range(NPCS)
    ]
    history = events - Event.objects.filter(campaign=campaign).count() - 1 - PLAYERS - NPCS - 2
    _history(campaign, narrator, players, pcs + npcs, max(history, 0))
    scene = scene_create(campaign=campaign, actor=narrator, title="Les docks")
    sequence = sequence_create(scene=scene, actor=narrator, data={"title": "Bagarre sur le quai"})
    for character in pcs:
        participant_add(
            sequence=sequence, actor=narrator, character=character, side="PJ", goal="passer", trait_code="combat"
        )
    for character in npcs:
        participant_add(
            sequence=sequence, actor=narrator, character=character, side="Truands", goal="arrêter", trait_code="combat"
        )
    participants = {p.character_id: p for p in Participant.objects.filter(sequence=sequence)}
    me = participants[pcs[0].pk]
    mate = participants[pcs[1].pk]
    target = participants[npcs[0].pk]
    return {
        "campaign": campaign.pk,
        "narrator": narrator.pk,
        "player": players[0].pk,
        "sheet": pcs[0].pk,
        "sequence": sequence.pk,
        "me": me.pk,
        "odds_data": {f"attack_{target.pk}": "2", f"defence_{me.pk}": "1"},
        "target": target.pk,
        "mate": mate.pk,
        "events": Event.objects.filter(campaign=campaign).count(),
    }


def _history(campaign: Campaign, narrator: User, players: list[User], characters: list[Character], n: int) -> None:
    """``n`` older events in bulk: notes (one in seven private to a player, one in eleven for narrators) and,
    one in three, the joining of a past sequence."""
    start = timezone.now() - dt.timedelta(days=400)
    batch: list[Event] = []
    for i in range(n):
        visibility, recipient = Visibility.EVERYONE, None
        if i % 7 == 0:
            visibility, recipient = Visibility.PLAYER, players[i % len(players)]
        elif i % 11 == 0:
            visibility = Visibility.NARRATORS
        kind, payload = "note", {"text": f"Événement **{i}** de la chronique."}
        if i in RARE_NOTES:
            # A word only the three oldest public notes hold, whatever the history's size: a search for it
            # must not read the whole log to find them.
            payload = {"text": f"Événement **{i}**: la lanterne s'éteint."}
        if i % 3 == 1:
            # Past sequences, 30 events each: what a Sequence's own story must not have to read.
            kind, visibility, recipient = "sequence.joined", Visibility.EVERYONE, None
            payload = {"sequence": 1_000_000 + i // 30, "scene": 0, "title": "Une vieille bagarre", "draw": 0,
                       "name": characters[i % len(characters)].name, "side": "PJ", "goal": "passer"}  # fmt: skip
        batch.append(
            Event(
                campaign=campaign, kind=kind, actor=narrator, visibility=visibility, recipient=recipient,
                payload=payload, game_time=campaign.game_clock, created_at=start + dt.timedelta(minutes=i),
            )
        )  # fmt: skip
    try:  # bulk_create skips Event.save(), which fills the searched words in (campaigns.search_text)
        from campaigns.search_text import event_search_text
    except ImportError:  # a tree from before the full-text search
        pass
    else:
        for event in batch:
            event.search_text = event_search_text(event.payload)
    created = Event.objects.bulk_create(batch, batch_size=1000)
    through = Event.characters.through
    links = [through(event_id=e.pk, character_id=characters[i % len(characters)].pk) for i, e in enumerate(created)]
    through.objects.bulk_create(links, batch_size=2000)


def deep_url(campaign: int, newer: int) -> str:
    """The log page that starts ``newer`` entries below the newest, as the tree links to it: by cursor
    (``campaigns.log_pages``) or, in a tree from before cursors, by page number (OFFSET)."""
    try:
        from campaigns.log_pages import cursor_of
    except ImportError:
        return f"/campaigns/{campaign}/log/?page={1 + newer // 50}"
    row = Event.objects.filter(campaign_id=campaign).order_by("-created_at", "-id").values_list("created_at", "id")
    created, pk = row[newer - 1]
    return f"/campaigns/{campaign}/log/?before={cursor_of(created, pk)}"


def last_url(campaign: int) -> str:
    """The oldest page, as the tree's "Oldest" link reads (page 999999 was clamped to the last one)."""
    try:
        from campaigns.log_pages import OLDEST
    except ImportError:
        return f"/campaigns/{campaign}/log/?page=999999"
    return f"/campaigns/{campaign}/log/?{OLDEST}"


def cpu_ms(func: Callable[[], object], batch: int) -> float:
    """CPU ms per call of ``func``; a page with a ``before`` (a change made just before each request, by a real
    use case) is timed without it: only the request that follows the change is counted."""
    before: Callable[[], object] | None = getattr(func, "before", None)
    if before is None:
        start = time.process_time()
        for _ in range(batch):
            func()
        return (time.process_time() - start) * 1000 / batch
    spent = 0.0
    for _ in range(batch):
        before()
        start = time.process_time()
        func()
        spent += time.process_time() - start
    return spent * 1000 / batch


class AfterChange:
    """A page requested right after a use case changed what it shows: ``before`` makes the change (not timed),
    calling the object makes the request (timed)."""

    def __init__(self, before: Callable[[], object], call: Callable[[], object]) -> None:
        self.before, self.call = before, call

    def __call__(self) -> object:
        return self.call()


def changes(s: dict[str, object]) -> dict[str, Callable[[], object]]:
    """The use cases that change each page just before its timed request (first view after a change): a note for
    the dashboard and the log, an Atout spent for the sheet, a draw for the narrator's Sequence page."""
    from campaigns.models import GameSession
    from characters.services.atouts import atout_gain, atout_spend
    from conflicts.models import Sequence
    from conflicts.rules.budget import Split
    from conflicts.services.drawing import _discard, participant_draw
    from core.errors import ServiceError

    narrator = User.objects.get(pk=s["narrator"])
    player = User.objects.get(pk=s["player"])
    campaign = Campaign.objects.get(pk=s["campaign"])
    if not GameSession.objects.filter(campaign=campaign, opened_at__isnull=False, closed_at__isnull=True).exists():
        game_session = campaign_services.game_session_create(campaign=campaign, actor=narrator, date=dt.date.today())
        campaign_services.game_session_open(game_session=game_session, actor=narrator)
    sheet = Character.objects.get(pk=s["sheet"])
    atout_gain(character=sheet, actor=narrator, amount=5000)
    membership = Membership.objects.get(campaign=campaign, user=narrator)
    notes = iter(range(10**9))
    placed: dict[int, int] = {}

    def note() -> object:
        return campaign_services.note_write(membership=membership, text=f"Note du banc {next(notes)}")

    def atout() -> object:
        character = Character.objects.get(pk=s["sheet"])
        return atout_spend(character=character, actor=player, use="narrative_control", justification="Une corde")

    def draw() -> object:
        # The narrator draws for the next participant who has not drawn; the last one is never drawn (that would
        # resolve the draw and wait for its Revers), so the draw is put back (hands discarded) once all others drew.
        sequence = Sequence.objects.get(pk=s["sequence"])
        everyone = list(Participant.objects.filter(sequence=sequence).select_related("character").order_by("pk"))
        waiting = [p for p in everyone if not p.drawn]
        if len(waiting) <= 1:
            for p in everyone:
                if p.drawn:
                    _discard(sequence, p)
                    p.hand, p.drawn = {}, False
                    p.version += 1
                    p.save(update_fields=["hand", "drawn", "version"])
            Sequence.objects.filter(pk=sequence.pk).update(version=F("version") + 1)
            waiting = everyone
        me = Participant.objects.select_related("sequence").get(pk=waiting[0].pk)
        # Every card must be placed: all in defence, as many as this participant has (found once, by trying).
        for cards in [placed.get(me.pk, 12), *range(12, 0, -1)]:  # its budget may move (upper hand)
            try:
                drawn = participant_draw(participant=me, actor=narrator, expected_version=me.sequence.version,
                                         split=Split(defence={me.key: cards}))  # fmt: skip
            except ServiceError:
                continue
            placed[me.pk] = cards
            return drawn
        raise RuntimeError(f"participant {me.pk} could not draw")

    return {"note": note, "atout": atout, "draw": draw}


def main() -> None:
    events = int(sys.argv[1]) if len(sys.argv) > 1 else 1000
    rounds = int(os.environ.get("BENCH_ROUNDS", "7"))
    batch = int(os.environ.get("BENCH_BATCH", "15"))
    call_command("migrate", verbosity=0)
    if User.objects.exists():  # BENCH_DATABASE_URL names one database for every size: start each one empty
        call_command("flush", interactive=False, verbosity=0)
    s = seed(events)
    narrator, player = Client(), Client()
    narrator.force_login(User.objects.get(pk=s["narrator"]))
    player.force_login(User.objects.get(pk=s["player"]))
    c, q = s["campaign"], s["sequence"]
    odds_url = f"/conflicts/{c}/participants/{s['me']}/odds/"

    def get(client: Client, url: str) -> Callable[[], object]:
        def call() -> object:
            response = client.get(url)
            assert response.status_code == 200, (url, response.status_code)
            return response

        return call

    def odds(data: dict[str, str] | None = None) -> object:
        # As the panel asks: an htmx GET of the split's fields (without the CSRF token), at each change.
        response = player.get(odds_url, data or s["odds_data"], HTTP_HX_REQUEST="true")
        assert response.status_code == 200, response.status_code
        return response

    typed = iter(range(10**9))

    def odds_new() -> object:
        # A split not seen yet, the table unchanged (a player typing): a number of cards and a teammate's cover
        # reason that no earlier request sent.
        n = next(typed)
        return odds({**s["odds_data"], f"attack_{s['target']}": str(1 + n % 3), f"reason_{s['mate']}": f"r{n}"})

    def forget() -> None:
        # Everything kept (all of it can be rebuilt): the fragments cache.
        caches["fragments"].clear()

    def odds_cold() -> object:
        # The first answer after a change of the table: nothing kept.
        forget()
        return odds()

    def cold(call: Callable[[], object]) -> Callable[[], object]:
        # A page's first render after a change: every kept part rebuilt (the worst case: a change of the
        # sequence misses only its board and story, one elsewhere only the parts keyed by the stream head).
        def first() -> object:
            forget()
            return call()

        return first

    flips = iter(range(10**9))

    def changed(call: Callable[[], object]) -> Callable[[], object]:
        # The first render after one participant's row changed (as a draw changes it): a thug's upper hand flips,
        # the sequence's version moves on and one Event names the Sequence and the thug's character, as every use
        # case of a Sequence appends one; so the board and its story are rendered again, and the seven other rows
        # are found kept. The two UPDATEs and the Event are timed too.
        from django.db.models import F

        from campaigns.models import Campaign
        from campaigns.services import event_append
        from conflicts.models import Sequence

        target = Participant.objects.select_related("character", "sequence").get(pk=s["target"])
        thug, sequence = target.character, target.sequence
        campaign = Campaign.objects.get(pk=c)
        payload = {"sequence": q, "scene": sequence.scene_id, "title": sequence.title, "draw": sequence.draw_number,
                   "participant": target.pk, "name": thug.name, "goal": "", "trait": ""}  # fmt: skip

        def first() -> object:
            Participant.objects.filter(pk=s["target"]).update(upper_hand_cards=next(flips) % 2)
            Sequence.objects.filter(pk=q).update(version=F("version") + 1)
            event_append(campaign=campaign, kind="sequence.declared", payload=payload, characters=[thug])
            return call()

        return first

    from campaigns.models import Membership
    from campaigns.services import note_write

    writer = Membership.objects.select_related("campaign").get(campaign_id=c, user_id=s["narrator"])
    notes = iter(range(10**9))

    def note() -> object:
        return note_write(membership=writer, text=f"Note {next(notes)}")

    def after_note(call: Callable[[], object]) -> Callable[[], object]:
        # The first view after the page's content changed: a note written just before each request (the write is
        # timed too: ``note_write`` alone is measured beside it).
        def first() -> object:
            note()
            return call()

        return first

    pages: dict[str, Callable[[], object]] = {
        "bare": get(narrator, "/bench/page/"),
        "note_write": note,
        "dashboard_after_note": after_note(get(narrator, f"/campaigns/{c}/dashboard/")),
        "log_after_note": after_note(get(narrator, f"/campaigns/{c}/log/")),
        "dashboard": get(narrator, f"/campaigns/{c}/dashboard/"),
        "log": get(narrator, f"/campaigns/{c}/log/"),
        "log_player": get(player, f"/campaigns/{c}/log/"),
        "log_kind": get(player, f"/campaigns/{c}/log/?kind=note"),
        "log_search": get(player, f"/campaigns/{c}/log/?q=chronique"),
        "log_search_rare": get(player, f"/campaigns/{c}/log/?q=lanterne"),
        # Deep in the log: the middle page and the last page the narrator may read.
        "log_deep": get(narrator, deep_url(c, s["events"] // 2)),
        "log_last": get(narrator, last_url(c)),
        "sheet": get(player, f"/characters/{s['sheet']}/"),
        "home": get(player, f"/campaigns/{c}/"),
        "sequence_narrator": get(narrator, f"/conflicts/{c}/sequences/{q}/"),
        "sequence_narrator_cold": cold(get(narrator, f"/conflicts/{c}/sequences/{q}/")),
        "sequence_narrator_row": changed(get(narrator, f"/conflicts/{c}/sequences/{q}/")),
        "sequence_player": get(player, f"/conflicts/{c}/sequences/{q}/"),
        "sequence_player_cold": cold(get(player, f"/conflicts/{c}/sequences/{q}/")),
        "odds": odds,
        "odds_new": odds_new,
        "odds_cold": odds_cold,
    }
    change = changes(s)
    pages.update({
        # First view after a change: each timed request follows one use case that changed the page's content.
        "dashboard_after_note": AfterChange(change["note"], get(narrator, f"/campaigns/{c}/dashboard/")),
        "log_after_note": AfterChange(change["note"], get(narrator, f"/campaigns/{c}/log/")),
        "sheet_after_atout": AfterChange(change["atout"], get(player, f"/characters/{s['sheet']}/")),
        "sequence_narrator_after_draw": AfterChange(change["draw"], get(narrator, f"/conflicts/{c}/sequences/{q}/")),
    })  # fmt: skip
    if os.environ.get("BENCH_PAGES_MODE") == "changed":  # the warm pages and their first view after a change
        pages = {name: pages[name] for name in ("bare", "dashboard", "dashboard_after_note", "log", "log_after_note",
                 "sheet", "sheet_after_atout", "sequence_narrator", "sequence_narrator_after_draw")}  # fmt: skip
    if only := os.environ.get("BENCH_PAGES"):  # e.g. "odds,odds_new": those pages and the bare page
        pages = {name: call for name, call in pages.items() if name == "bare" or name in only.split(",")}
    queries = {}
    for name, call in pages.items():
        before: Callable[[], object] = getattr(call, "before", lambda: None)
        before()
        call()  # warm caches and templates
        before()
        with CaptureQueriesContext(connection) as ctx:
            call()
        queries[name] = len(ctx.captured_queries)
    samples: dict[str, list[float]] = {name: [] for name in pages}
    ratios: dict[str, list[float]] = {name: [] for name in pages}
    for _ in range(rounds):
        for name, call in pages.items():
            if name == "bare":
                continue
            bare = cpu_ms(pages["bare"], batch)
            ours = cpu_ms(call, batch)
            samples["bare"].append(bare)
            samples[name].append(ours)
            ratios[name].append(bare / ours)
    out = {
        "events": s["events"],
        "load": os.getloadavg(),
        "pages": {
            name: {
                "cpu_ms": statistics.median(samples[name]),
                "ratio": statistics.median(ratios[name]) if ratios[name] else 1.0,
                "ratio_min": min(ratios[name]) if ratios[name] else 1.0,
                "ratio_max": max(ratios[name]) if ratios[name] else 1.0,
                "queries": queries[name],
            }
            for name in pages
        },
    }
    print(json.dumps(out))


if __name__ == "__main__":
    main()
