"""Catch-up after 100 events: how long and how heavy a page's first message is when it comes back.

A campaign with a narrator and three players, each running a character; the pages are opened, then 100 events
are appended while they are away (notes, Tests, wounds and Atouts by various people, some private to a player or to
the narrator). Each page's socket then reconnects with ``?after=<the position it rendered>``: the time from the
connection to its first message (the catch-up), and that message's size. Three pages: a player's page watching
three sheets (``?watch=character:…`` ×3), a player's campaign page (``home`` and ``feed``) and the narrator's
dashboard. Measured with the server as it is (past ``LIVE_CATCH_UP_REPLAY_MAX`` missed events, the regions as they
stand: campaigns/live_catch_up.py) and, for comparison, with every missed event replayed one by one
(``LIVE_CATCH_UP_REPLAY_MAX=100000``). ``BENCH_CATCH_UP_ROUNDS`` (default 3) rounds of 100 events, each followed by
one catch-up of each page: the figures are their medians (the first catch-up after the events, nothing kept yet
for what changed). The same catch-up asked again ``BENCH_CATCH_UP_REPEAT`` (default 3) times right after is
reported as « again » (what the pages of a table coming back together cost after the first). Beside each time, the
server's CPU for that catch-up (user+system, /proc): on a machine others load, the time grows with their load,
the CPU much less.
"""

from __future__ import annotations

import asyncio
import json
import os
import statistics
import tempfile
import time
import zlib
from dataclasses import dataclass
from pathlib import Path

from bench.figures import Figure
from bench.live_server import SIGN_IN, LiveBenchServer, page_socket, seeded

EVENTS = 100
ROUNDS = int(os.environ.get("BENCH_CATCH_UP_ROUNDS", "3"))
REPEAT = int(os.environ.get("BENCH_CATCH_UP_REPEAT", "3"))

SEED = (
    SIGN_IN
    + r"""
from campaigns import services as campaigns
from campaigns.models import Membership, Role
from characters.services.creation import character_create

narrator = User.objects.create_user("catch-mj", password="x")
campaign = campaigns.campaign_create(owner=narrator, data={"name": "Bench du rattrapage", "savage_states": True})
players, characters = [], []
for i in range(3):
    user = User.objects.create_user(f"catch-pj{i}", password="x")
    Membership.objects.create(campaign=campaign, user=user, role=Role.PLAYER)
    players.append(user)
    characters.append(character_create(campaign=campaign, actor=user, name=f"PJ {i}", concept="Docker",
                                       goal="Passer", ranks={"medecine": 4, "esprit": 5}).pk)
session = campaigns.game_session_create(campaign=campaign, actor=narrator, date=__import__("datetime").date(2026, 11, 28))
campaigns.game_session_open(game_session=session, actor=narrator)
print(json.dumps({"campaign": campaign.pk, "characters": characters,
                  "narrator": session_of(narrator), "player": session_of(players[0])}))
"""
)

AWAY = r"""
import random
from django.contrib.auth.models import User
from campaigns import services as campaigns
from campaigns.models import Campaign, CampaignStream, Membership
from characters.models import Character
from characters.services.atouts import atout_gain
from conflicts.services.fudge_tests import fudge_test_roll
from states.services.wounds import savage_wounds_set

campaign = Campaign.objects.get(pk=%(campaign)d)
narrator = User.objects.get(username="catch-mj")
members = {m.user.username: m for m in Membership.objects.filter(campaign=campaign).select_related("user", "campaign")}
characters = %(characters)r
rng = random.Random(%(offset)d)
print(CampaignStream.objects.get(campaign=campaign).position)  # where the pages stand when they go away
for step in range(%(offset)d, %(offset)d + %(events)d):
    who = Character.objects.select_related("campaign", "owner").get(pk=characters[step %% 3])
    match step %% 7:
        case 0:
            campaigns.note_write(membership=members["catch-pj0"], text=f"Note publique {step}")
        case 1:
            campaigns.note_write(membership=members["catch-pj1"], text=f"Note privée {step}", private=True)
        case 2:
            campaigns.note_write(membership=members["catch-mj"], text=f"Secret du MJ {step}", private=True)
        case 3:
            fudge_test_roll(character=who, actor=who.owner, data={"trait_code": "medecine", "difficulty": 4}, rng=rng)
        case 4:
            savage_wounds_set(character=who, actor=narrator, count=1 + (step // 21) %% 3, expected_version=None)
        case 5:
            atout_gain(character=who, actor=narrator, amount=1)
        case _:
            campaigns.note_write(membership=members["catch-mj"], text=f"Le MJ raconte {step}")
"""


@dataclass(frozen=True)
class Arrival:
    """One catch-up: milliseconds from opening the socket to its first message, the server's CPU milliseconds
    meanwhile (what the machine's load does not inflate), the message's bytes as sent and deflated, its type."""

    ms: float
    cpu_ms: float
    size: int
    deflated: int
    kind: str


async def _first_message(server: LiveBenchServer, campaign: int, session: str, query: str) -> Arrival:
    cpu = server.cpu_seconds()
    start = time.perf_counter()
    async with page_socket(server.port, campaign, session, query) as socket:
        raw = await asyncio.wait_for(socket.recv(), timeout=60)
    elapsed = (time.perf_counter() - start) * 1000
    cpu_ms = (server.cpu_seconds() - cpu) * 1000
    data = raw.encode() if isinstance(raw, str) else raw
    # What permessage-deflate (uvicorn's default, negotiated by browsers) sends for it: raw deflate, one message.
    squeezer = zlib.compressobj(6, zlib.DEFLATED, -15)
    wire = len(squeezer.compress(data) + squeezer.flush())
    kind = json.loads(data)["t"] + (" regions" if b'"regions"' in data else "")
    return Arrival(elapsed, cpu_ms, len(data), wire, kind)


def _pages(seed: dict[str, object], after: int) -> dict[str, tuple[str, str]]:
    campaign = seed["campaign"]
    sheets = "".join(f"&watch=character:{pk}" for pk in seed["characters"])  # type: ignore[attr-defined]
    home = f"&watch=home:{campaign}&watch=feed:{campaign}"
    return {
        "3 sheets": (str(seed["player"]), f"?after={after}{sheets}"),
        "player home": (str(seed["player"]), f"?after={after}{home}"),
        "narrator dashboard": (str(seed["narrator"]), f"?after={after}{home}"),
    }


def _measure(label: str, replay_max: str) -> list[Figure]:
    figures = []
    with tempfile.TemporaryDirectory() as tmp:
        server = LiveBenchServer(Path(tmp), extra_env={"LIVE_CATCH_UP_REPLAY_MAX": replay_max})
        server.start()
        try:
            seed = seeded(server, SEED)
            cold: dict[str, list[Arrival]] = {}
            warm: dict[str, list[Arrival]] = {}
            for round_ in range(ROUNDS):
                # Each round, 100 more events while the pages are away: every catch-up renders what they changed.
                away = {"campaign": seed["campaign"], "characters": seed["characters"], "events": EVENTS,
                        "offset": round_ * EVENTS}  # fmt: skip
                after = int(server.python(AWAY % away).strip().splitlines()[-1])
                for page, (session, query) in _pages(seed, after).items():
                    runs = [asyncio.run(_first_message(server, seed["campaign"], session, query))
                            for _ in range(1 + REPEAT)]  # fmt: skip
                    cold.setdefault(page, []).append(runs[0])
                    warm.setdefault(page, []).extend(runs[1:])
                    print(f"  {label}, {page}: {runs[0].kind}; cold {runs[0].ms:.0f} ms (server CPU "
                          f"{runs[0].cpu_ms:.0f} ms), {runs[0].size / 1000:.1f} kB")  # fmt: skip
            for page in cold:
                name = f"catch-up after {EVENTS} events, {page}, {label}"
                figures.append(Figure(f"{name}: time", statistics.median(r.ms for r in cold[page]), "ms"))
                figures.append(Figure(f"{name}: server CPU", statistics.median(r.cpu_ms for r in cold[page]), "ms"))
                figures.append(Figure(f"{name}: again, time", statistics.median(r.ms for r in warm[page]), "ms"))
                figures.append(Figure(f"{name}: size", statistics.median(r.size for r in cold[page]) / 1000, "kB"))
                figures.append(
                    Figure(f"{name}: deflated", statistics.median(r.deflated for r in cold[page]) / 1000, "kB")
                )
        finally:
            server.stop()
    return figures


def run() -> list[Figure]:
    return [
        *_measure("by regions", os.environ.get("LIVE_CATCH_UP_REPLAY_MAX", "10")),
        *_measure("event by event", "100000"),
    ]
