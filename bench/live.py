"""The live table under a table's load: how long from a POST to each open screen's message.

20 members (the narrator and 19 players) keep a campaign page open; the narrator's HTTP client then makes 50 draws
(a player's draw form, posted as that player) and 50 notes, one after another. For every action: the time from the
POST to each socket's message (p50/p95/max over all sockets; min/p50/p95/max of "the last of the screens", the
issue's draw to the last screen), the bytes per message, and the server's CPU per event, for draws and notes apart
(user+system time of the uvicorn processes, /proc, the POST's own answer included): the mean, the mean after the first
block (warmed: what each process does once, as compiling its templates, is in the first), and the lowest and highest of
its blocks of 10 events (the spread; /proc counts in ticks of 10 ms, so single events are not sampled). Then the
yardstick, in the same server: the CPU of a bare 12-query page (``bench.views.bare_page``, ``BENCH_LIVE_BARE_REQUESTS``
GETs, default 200), and the warmed draw's CPU in bare pages, which compares across runs where milliseconds do not (a
shared core's speed drifts). ``BENCH_LIVE_SETUPS=memory`` or ``=redis`` runs one of the two setups.

Which pages (``BENCH_LIVE_MIX``):

- ``table`` (the default): a table in a fight. Every player's character takes part in the draws' Sequences (four
  Sequences, the 19 PCs against a thug in each, the players drawing in turn); half the members keep the campaign's
  home open (the narrator among them: its game card, Sequences under way and log feed), the other half the Sequence
  page, watching the four Sequences as the page watches its own (``?watch=sequence:<id>``). A draw reaches all 20
  screens (the board, or the feed's entry); a note the 10 showing the feed, and only those are waited for;
- ``older``: session 12's mix, kept to compare with the figures before it: 50 duels, one PC against a thug each,
  and the Sequence-page screens naming no region (the pages before subscriptions), so that they get the log entry,
  the draw panels and the characters' strips, not the boards.

Two setups, in the same run: the in-memory channel layer with one uvicorn process, and Redis
(``BENCH_REDIS_URL``, default ``redis://127.0.0.1:6379/4``) with two uvicorn workers. Then a soak on
Redis: 20 sockets, an action every ``BENCH_LIVE_SOAK_PAUSE`` seconds for ``BENCH_LIVE_SOAK_SECONDS``
(default 60; 0 skips it): unexpected closes and gaps in positions (a message whose ``q`` is not the
socket's last position). Ports come from ``BENCH_LIVE_PORT`` (default 8300) upwards.
"""

from __future__ import annotations

import asyncio
import http.client
import json
import os
import statistics
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

from bench.figures import Figure
from bench.live_server import CSRF, SIGN_IN, LiveBenchServer, page_socket, seeded

MEMBERS = 20
ACTIONS = int(os.environ.get("BENCH_LIVE_ACTIONS", "50"))
REDIS = os.environ.get("BENCH_REDIS_URL", "redis://127.0.0.1:6379/4")
SOAK_SECONDS = float(os.environ.get("BENCH_LIVE_SOAK_SECONDS", "60"))
SOAK_PAUSE = float(os.environ.get("BENCH_LIVE_SOAK_PAUSE", "3"))
MIX = os.environ.get("BENCH_LIVE_MIX", "table")
CPU_BLOCK = 10  # events per server-CPU sample (the spread of CPU per event is over these blocks)
BARE_REQUESTS = int(os.environ.get("BENCH_LIVE_BARE_REQUESTS", "200"))  # the yardstick's GETs (/proc ticks: 10 ms)

# Both mixes' table: the narrator and 19 players, each running a PC; half the players on the campaign's home (with
# the narrator), half on a Sequence page (``query`` set by each mix).
TABLE_HEAD = r"""
from campaigns import services as campaigns
from campaigns.models import Membership, Role
from characters.services.creation import character_create, npc_create
from conflicts.services.sequences import participant_add, scene_create, sequence_create

MEMBERS, DRAWS = %(members)d, %(draws)d
narrator = User.objects.create_user("live-mj", password="x")
campaign = campaigns.campaign_create(owner=narrator, data={"name": "Bench du direct"})
home = f"?watch=home:{campaign.pk}&watch=feed:{campaign.pk}"
members = [{"session": session_of(narrator), "page": "home", "query": home}]
players = []
for i in range(MEMBERS - 1):
    user = User.objects.create_user(f"live-pj{i}", password="x")
    Membership.objects.create(campaign=campaign, user=user, role=Role.PLAYER)
    pc = character_create(campaign=campaign, actor=user, name=f"PJ {i}", concept="Docker", goal="Passer",
                          ranks={"combat": 3, "esprit": 3})
    players.append((user, pc))
    page = "home" if i %% 2 else "sequence"
    members.append({"session": session_of(user), "page": page, **({"query": home} if page == "home" else {})})
"""

SEED = (
    SIGN_IN
    + TABLE_HEAD
    + r"""
scene = scene_create(campaign=campaign, actor=narrator, title="Cinquante duels")
for member in members[1:]:
    member.setdefault("query", "")  # the older Sequence pages name no region
draws = []
for d in range(DRAWS):
    user, pc = players[d %% len(players)]
    seq = sequence_create(scene=scene, actor=narrator, data={"title": f"Duel {d}"})
    thug = npc_create(campaign=campaign, actor=narrator, name=f"Truand {d}", concept="Truand",
                                 ranks={"combat": 2})
    me = participant_add(sequence=seq, actor=narrator, character=pc, side="PJ", trait_code="combat")
    them = participant_add(sequence=seq, actor=narrator, character=thug, side="Truands", trait_code="combat")
    draws.append({"session": members[1 + d %% len(players)]["session"], "sequence": seq.pk,
                  "url": f"/conflicts/{campaign.pk}/participants/{me.pk}/split/",
                  "body": f"attack_{them.pk}=2&defence_{me.pk}=1&action=draw"})
print(json.dumps({"campaign": campaign.pk, "members": members, "draws": draws, "narrator": members[0]["session"]}))
"""
)

TABLE_SEED = (
    SIGN_IN
    + TABLE_HEAD
    + r"""
scene = scene_create(campaign=campaign, actor=narrator, title="La mêlée")
draws, sequences = [], []
while len(draws) < DRAWS:  # each Sequence: every PC against a thug, each player drawing once (none resolves it)
    seq = sequence_create(scene=scene, actor=narrator, data={"title": f"Mêlée {len(sequences) + 1}"})
    sequences.append(seq.pk)
    thug = npc_create(campaign=campaign, actor=narrator, name=f"Truand {len(sequences)}", concept="Truand",
                      ranks={"combat": 2})
    them = participant_add(sequence=seq, actor=narrator, character=thug, side="Truands", trait_code="combat")
    for i, (user, pc) in enumerate(players):
        me = participant_add(sequence=seq, actor=narrator, character=pc, side="PJ", trait_code="combat")
        draws.append({"session": members[1 + i]["session"], "sequence": seq.pk,
                      "url": f"/conflicts/{campaign.pk}/participants/{me.pk}/split/",
                      "body": f"attack_{them.pk}=2&defence_{me.pk}=1&action=draw"})
# A Sequence page watches its Sequence; these watch every Sequence the draws are in (four at most per socket).
watch = "?" + "&".join(f"watch=sequence:{pk}" for pk in sequences[:4])
for member in members[1:]:
    member.setdefault("query", watch)
print(json.dumps({"campaign": campaign.pk, "members": members, "draws": draws[:DRAWS],
                  "narrator": members[0]["session"]}))
"""
)


@dataclass
class Screen:
    """One open page: its socket's arrivals (monotonic time, bytes) and the stream positions it saw."""

    member: dict[str, str]
    arrivals: list[tuple[float, int, int]] = field(default_factory=list)  # (time, bytes, position)
    last: int | None = None
    gaps: int = 0
    closed: bool = False


async def _watch(port: int, campaign: int, screen: Screen, ready: asyncio.Event, stop: asyncio.Event) -> None:
    import websockets

    # What the page names (the seed says it: the mix's docstring).
    async with page_socket(port, campaign, screen.member["session"], screen.member["query"]) as socket:
        while not stop.is_set():
            try:
                raw = await asyncio.wait_for(socket.recv(), timeout=0.5)
            except TimeoutError:
                continue
            except websockets.ConnectionClosed:
                screen.closed = True
                return
            now = time.perf_counter()
            message = json.loads(raw)
            if message["t"] == "at":
                screen.last = message["p"]
                ready.set()
            elif message["t"] == "ev":
                if message["q"] != screen.last:
                    screen.gaps += 1
                screen.last = message["p"]
                screen.arrivals.append((now, len(raw), message["p"]))
            elif message["t"] == "ping" and message["p"] != screen.last:
                screen.gaps += 1


def _reached(screens: list[Screen], kind: str) -> list[Screen]:
    """The screens an action of ``kind`` reaches: a draw every one; a note the pages showing the log feed (every page
    of the older mix, whose Sequence pages name nothing)."""
    return [s for s in screens if kind == "draw" or not s.member["query"] or "feed:" in s.member["query"]]


def _request(port: int, method: str, url: str, headers: dict[str, str], body: str | None = None) -> tuple[float, int]:
    """One request on a connection of its own: when it started, and its status."""
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
    start = time.perf_counter()
    connection.request(method, url, body=body, headers=headers)
    response = connection.getresponse()
    response.read()
    connection.close()
    return start, response.status


def _post(port: int, session: str, url: str, body: str) -> tuple[float, int]:
    headers = {
        "Cookie": f"sessionid={session}; csrftoken={CSRF}",
        "X-CSRFToken": CSRF,
        "HX-Request": "true",
        "Content-Type": "application/x-www-form-urlencoded",
    }
    return _request(port, "POST", url, headers, body)


def _get(port: int, session: str, url: str) -> None:
    _start, status = _request(port, "GET", url, {"Cookie": f"sessionid={session}; csrftoken={CSRF}"})
    if status != 200:
        raise RuntimeError(f"GET {url} answered {status}")


def _pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(len(ordered) * q))] if ordered else float("nan")


async def _drive(server: LiveBenchServer, seed: dict, *, label: str, soak: float = 0.0) -> list[Figure]:  # type: ignore[type-arg]
    campaign = seed["campaign"]
    screens = [Screen(member) for member in seed["members"]]
    stop = asyncio.Event()
    readies = [asyncio.Event() for _ in screens]
    tasks = [
        asyncio.create_task(_watch(server.port, campaign, s, r, stop)) for s, r in zip(screens, readies, strict=True)
    ]
    await asyncio.wait_for(asyncio.gather(*(r.wait() for r in readies)), timeout=60)
    note_url = f"/campaigns/{campaign}/log/notes/"
    loop = asyncio.get_running_loop()

    async def act(kind: str, index: int) -> tuple[str, float]:
        if kind == "draw":
            draw = seed["draws"][index % len(seed["draws"])]
            start, status = await loop.run_in_executor(
                None, _post, server.port, draw["session"], draw["url"], draw["body"]
            )
        else:
            body = f"text=Note+{label}+{index}"
            start, status = await loop.run_in_executor(None, _post, server.port, seed["narrator"], note_url, body)
        if status != 200:
            raise RuntimeError(f"{kind} {index} answered {status}")
        return kind, start

    figures: list[Figure] = []
    if not soak:
        actions: list[tuple[str, float, float, int]] = []  # (kind, POST start, time to a screen, bytes)
        cpu_blocks: dict[str, list[float]] = {"draw": [], "note": []}  # server CPU ms per event, per block
        for kind in ("draw", "note"):
            cpu_before, in_block = server.cpu_seconds(), 0
            reached = _reached(screens, kind)
            for i in range(ACTIONS):
                marks = [len(s.arrivals) for s in reached]
                _kind, start = await act(kind, i)
                deadline = time.perf_counter() + 5
                while (
                    any(len(s.arrivals) <= m for s, m in zip(reached, marks, strict=True))
                    and time.perf_counter() < deadline
                ):
                    await asyncio.sleep(0.002)
                for s, m in zip(reached, marks, strict=True):
                    if len(s.arrivals) > m:
                        actions.append((kind, start, s.arrivals[m][0] - start, s.arrivals[m][1]))
                last_screen = max(
                    (s.arrivals[m][0] for s, m in zip(reached, marks, strict=True) if len(s.arrivals) > m),
                    default=start,
                )
                actions.append((f"{kind}-last", start, last_screen - start, 0))
                in_block += 1
                if in_block == CPU_BLOCK or i == ACTIONS - 1:
                    # /proc counts CPU in ticks of 10 ms: a block of events keeps the per-event figure readable.
                    await asyncio.sleep(0.05)  # the last sends of the block are counted in it
                    now = server.cpu_seconds()
                    cpu_blocks[kind].append((now - cpu_before) * 1000 / in_block)
                    cpu_before, in_block = now, 0
        for kind in ("draw", "note"):
            each = [a[2] * 1000 for a in actions if a[0] == kind]
            last = [a[2] * 1000 for a in actions if a[0] == f"{kind}-last"]
            sizes = [a[3] for a in actions if a[0] == kind]
            screens_of = len(_reached(screens, kind))
            last_of = f"live {label} {kind} to the last of {screens_of} screens"
            cpu = f"live {label} server CPU per {kind} ({MEMBERS} sockets)"
            figures += [
                Figure(f"live {label} {kind} to a screen p50", statistics.median(each), "ms"),
                Figure(f"live {label} {kind} to a screen p95", _pct(each, 0.95), "ms"),
                Figure(f"live {label} {kind} to a screen max", max(each), "ms"),
                Figure(f"{last_of} min", min(last), "ms"),
                Figure(f"{last_of} p50", statistics.median(last), "ms"),
                Figure(f"{last_of} p95", _pct(last, 0.95), "ms"),
                Figure(f"{last_of} max", max(last), "ms"),
                Figure(f"live {label} {kind} bytes per message", statistics.mean(sizes), "bytes"),
                Figure(f"live {label} {kind} messages missing", float(ACTIONS * screens_of - len(each)), "messages"),
                Figure(cpu, statistics.mean(cpu_blocks[kind]), "ms"),
                # The first block pays for what each process does once (its templates compiled, its request thread's
                # reads compiled, its first connection): a table served for hours pays the others' cost.
                Figure(
                    f"{cpu}, warmed (after the first block of {CPU_BLOCK})",
                    statistics.mean(cpu_blocks[kind][1:] or cpu_blocks[kind]),
                    "ms",
                ),
                Figure(f"{cpu}, lowest block of {CPU_BLOCK}", min(cpu_blocks[kind]), "ms"),
                Figure(f"{cpu}, highest block of {CPU_BLOCK}", max(cpu_blocks[kind]), "ms"),
            ]
        spent = [c for kind in ("draw", "note") for c in cpu_blocks[kind]]
        figures.append(Figure(f"live {label} server CPU per event (all sockets)", statistics.mean(spent), "ms"))
        # The yardstick, in the same server and run: the bare 12-query page (``bench.views.bare_page``), GET one after
        # another with the narrator's session while the sockets stay open. A shared core's speed drifts within a
        # session (the bare page took 3.2 ms in process at one hour and 3.9 ms at the next): the draw's CPU in bare
        # pages compares across runs and machines where its milliseconds do not.
        cpu_before = server.cpu_seconds()
        for _ in range(BARE_REQUESTS):
            await loop.run_in_executor(None, _get, server.port, seed["narrator"], "/bench/page/")
        bare = (server.cpu_seconds() - cpu_before) * 1000 / BARE_REQUESTS
        warmed = statistics.mean(cpu_blocks["draw"][1:] or cpu_blocks["draw"])
        figures += [
            Figure(f"live {label} server CPU per bare page (HTTP, {BARE_REQUESTS} requests)", bare, "ms"),
            Figure(f"live {label} server CPU per draw, warmed, in bare pages", warmed / bare, "bare pages"),
        ]
    else:
        end, i = time.perf_counter() + soak, 0
        while time.perf_counter() < end:
            # Each draw of the soak its own participant (the seed has one for each): an odd index modulo their number
            # came back to a participant who had drawn, and a second draw is refused.
            await act("draw", i // 2) if i % 2 else await act("note", 10_000 + i)
            i += 1
            await asyncio.sleep(SOAK_PAUSE)
        await asyncio.sleep(1)
        figures += [
            Figure(f"live soak {label} {soak:.0f} s actions", float(i), "actions"),
            Figure(f"live soak {label} unexpected closes", float(sum(s.closed for s in screens)), "sockets"),
            Figure(f"live soak {label} gaps in positions", float(sum(s.gaps for s in screens)), "gaps"),
        ]
    stop.set()
    await asyncio.gather(*tasks, return_exceptions=True)
    return figures


def _setup(workdir: Path, *, port: int, workers: int, env: dict[str, str], draws: int) -> tuple[LiveBenchServer, dict]:  # type: ignore[type-arg]
    server = LiveBenchServer(workdir, port=port, workers=workers, extra_env=env)
    server.start()
    script = TABLE_SEED if MIX == "table" else SEED
    seed = seeded(server, script % {"members": MEMBERS, "draws": draws})
    return server, seed


# The table's measured draws all reach the twenty screens only while they fall in the four Sequences the Sequence pages
# watch (four at most per socket: campaigns.live.MAX_WATCHED), each player drawing once in each. A draw past them is
# made in a Sequence no page watches: its POST's answer builds the board alone, and its figures are another bench's.
TABLE_WATCHED_DRAWS = 4 * (MEMBERS - 1)


def run() -> list[Figure]:
    if MIX == "table" and ACTIONS > TABLE_WATCHED_DRAWS:
        raise ValueError(f"BENCH_LIVE_ACTIONS={ACTIONS}: the table mix measures at most {TABLE_WATCHED_DRAWS} draws")
    port = int(os.environ.get("BENCH_LIVE_PORT", "8300"))
    figures: list[Figure] = []
    soak_draws = int(SOAK_SECONDS / max(SOAK_PAUSE, 0.1) / 2) + 1
    setups = [
        ("memory 1 worker", 1, {"REDIS_URL": ""}),
        ("redis 2 workers", 2, {"REDIS_URL": REDIS, "REDIS_PREFIX": "bench-live"}),
    ]
    only = os.environ.get("BENCH_LIVE_SETUPS", "")
    for n, (label, workers, env) in enumerate(setups):
        if only and not label.startswith(tuple(only.split(","))):
            continue
        with tempfile.TemporaryDirectory(prefix="tablee-live-bench-") as workdir:
            server, seed = _setup(Path(workdir), port=port + n, workers=workers, env=env, draws=ACTIONS + soak_draws)
            try:
                figures += asyncio.run(_drive(server, seed, label=label))
                if SOAK_SECONDS and env["REDIS_URL"]:
                    seed = {**seed, "draws": seed["draws"][ACTIONS:]}
                    figures += asyncio.run(_drive(server, seed, label=label, soak=SOAK_SECONDS))
            finally:
                server.stop()
    load1, load5, load15 = os.getloadavg()
    figures.append(Figure("live machine load average (1 min) at the end", load1, "load"))
    return figures
