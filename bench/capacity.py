"""Capacity: the most tables one server of 2 uvicorn workers on Redis serves with action-to-last-screen p95 < 250 ms.

Each table is a campaign with a narrator and four players, each player running a character; its five screens are
open (the narrator's dashboard and the four players' campaign pages: websockets watching ``home`` and ``feed``,
so every action of the table reaches all five). Every table acts once every ``--period`` seconds (default 5),
in turn a note by the narrator and a player's draw (the player's own split form, posted as that player, in a
Sequence against a thug who has not drawn, so no draw resolves). The time from the POST leaving to the action's
message on the last of the table's five screens is the figure; its p95 over a step decides the step. A step's
first period is a warm-up (each table's first actions, the first renders of new tables' pages), not counted.

The table count steps up (``--tables``, default 10,25,50,100,150,200,300), each step lasting ``--minutes``
(default 10, the record; 1–2 to try it); tables of a step stay open in the next. The run stops at the first step
whose p95 reaches ``--p95`` (default 250 ms) or that loses messages (``--all-steps`` runs them all, for the
curve; the answer is still the last step before the first that broke). The answer is the last step that held, with
each uvicorn worker's resident memory (VmRSS) after the run. Tables and their draws are written between steps,
from another process, while nothing is timed.

The load generator is one asyncio process (``websockets`` for the screens, raw HTTP/1.1 for the POSTs), on the
same 2 cores as the server: its own CPU is reported per step. Redis: ``BENCH_REDIS_URL`` (default
``redis://127.0.0.1:6379/4``); port ``BENCH_CAPACITY_PORT`` (default 8360).

    python -m bench.capacity --minutes 2 --tables 10,25,50
    python -m bench capacity        # BENCH_CAPACITY_MINUTES, BENCH_CAPACITY_TABLES
"""

from __future__ import annotations

import argparse
import asyncio
import json
import math
import os
import random
import statistics
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

from bench.figures import Figure
from bench.live import CSRF, REDIS, LiveBenchServer
from bench.live_server import SIGN_IN

SCREENS = 5  # the narrator and four players
DEFAULT_STEPS = "10,25,50,100,150,200,300"

# Writes ``new`` tables after the ``existing`` ones, then ``draws`` more draw slots for every table: Sequences of
# the table's four characters against one thug who never draws, so each gives four draws that resolve nothing.
SEED = (
    SIGN_IN.replace("%", "%%")  # the sign-in's code, then this seed's, formatted with % below
    + r"""
from campaigns import services as campaigns
from campaigns.models import Campaign, Membership, Role
from characters.models import Character
from characters.services.creation import character_create, npc_create
from conflicts.models import Scene
from conflicts.services.sequences import participant_add, scene_create, sequence_create

EXISTING, NEW, DRAWS, STEP = %(existing)d, %(new)d, %(draws)d, %(step)d

tables = []
for t in range(EXISTING, EXISTING + NEW):
    narrator = User.objects.create_user(f"cap-mj{t}", password="x")
    campaign = campaigns.campaign_create(owner=narrator, data={"name": f"Table {t}"})
    screens = [session_of(narrator)]
    for i in range(4):
        user = User.objects.create_user(f"cap-pj{t}-{i}", password="x")
        Membership.objects.create(campaign=campaign, user=user, role=Role.PLAYER)
        character_create(campaign=campaign, actor=user, name=f"PJ {t}.{i}", concept="Docker", goal="Passer",
                         ranks={"combat": 3, "esprit": 3})
        screens.append(session_of(user))
    scene_create(campaign=campaign, actor=narrator, title="Les docks")
    npc_create(campaign=campaign, actor=narrator, name=f"Truand {t}", concept="Truand", ranks={"combat": 2})
    tables.append({"table": t, "campaign": campaign.pk, "screens": screens})

draws = {}
for t in range(EXISTING + NEW):
    campaign = Campaign.objects.get(name=f"Table {t}")
    narrator = User.objects.get(username=f"cap-mj{t}")
    scene = Scene.objects.filter(campaign=campaign).first()
    thug = Character.objects.get(campaign=campaign, kind="npc")
    pcs = list(Character.objects.filter(campaign=campaign).exclude(kind="npc").select_related("owner").order_by("pk"))
    slots = []
    for n in range(-(-DRAWS // len(pcs))):
        seq = sequence_create(scene=scene, actor=narrator, data={"title": f"Bagarre {STEP}.{n}"})
        them = participant_add(sequence=seq, actor=narrator, character=thug, side="Truands", trait_code="combat")
        for pc in pcs:
            me = participant_add(sequence=seq, actor=narrator, character=pc, side="PJ", trait_code="combat")
            slots.append({"session": session_of(pc.owner), "url": f"/conflicts/{campaign.pk}/participants/{me.pk}/split/",
                          "body": f"attack_{them.pk}=2&defence_{me.pk}=1&action=draw"})
    draws[t] = slots
print(json.dumps({"tables": tables, "draws": draws}))
"""
)


@dataclass
class Table:
    """One table: its campaign, its five screens' sessions and arrivals, its draws to come."""

    number: int
    campaign: int
    sessions: list[str]
    draws: list[dict[str, str]] = field(default_factory=list)
    arrivals: list[list[float]] = field(default_factory=list)  # per screen: when each event message came
    ready: asyncio.Event = field(default_factory=asyncio.Event)
    opened: set[int] = field(default_factory=set)
    closed: int = 0
    refused: int = 0  # sockets refused for now (1013) or closed, then opened again as the page does
    acted: int = 0


async def _post(port: int, session: str, url: str, body: str) -> int:
    """One POST over a fresh connection (HTTP/1.1, ``Connection: close``); returns the status."""
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    data = body.encode()
    head = (
        f"POST {url} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nCookie: sessionid={session}; csrftoken={CSRF}\r\n"
        f"X-CSRFToken: {CSRF}\r\nHX-Request: true\r\nContent-Type: application/x-www-form-urlencoded\r\n"
        f"Content-Length: {len(data)}\r\nConnection: close\r\n\r\n"
    )
    writer.write(head.encode() + data)
    await writer.drain()
    status_line = await reader.readline()
    await reader.read()  # the answer, to the close
    writer.close()
    try:
        return int(status_line.split()[1])
    except (IndexError, ValueError):
        return 0


async def _screen(port: int, table: Table, index: int, stop: asyncio.Event) -> None:
    """One open page's socket. Refused for now (1013: its handshake's database read waited past
    ``LIVE_HANDSHAKE_DB_SECONDS``, as when a whole step's pages open at once) or closed before the run ends, it comes
    back as the page does (``static/js/tablee.js``: exponential backoff with jitter, 0.5 s doubling up to 15 s); its
    refusals are counted (``Table.refused``) and a close during a step is a lost screen (``Table.closed``)."""
    import websockets

    attempts = 0
    while not stop.is_set():
        try:
            await _screen_once(port, table, index, stop)
            return
        except (websockets.ConnectionClosed, websockets.InvalidStatus, OSError, TimeoutError):
            if stop.is_set():
                return
            if table.ready.is_set():
                table.closed += 1  # a screen lost while the table is measured: its messages go missing
            table.refused += 1
            attempts += 1
            ceiling = min(15.0, 0.5 * 2 ** min(attempts - 1, 5))
            await asyncio.sleep(ceiling / 2 + random.random() * ceiling / 2)


async def _screen_once(port: int, table: Table, index: int, stop: asyncio.Event) -> None:
    import websockets

    arrivals = table.arrivals[index]
    query = f"?watch=home:{table.campaign}&watch=feed:{table.campaign}"
    headers = {"Cookie": f"sessionid={table.sessions[index]}; csrftoken={CSRF}", "Origin": f"http://127.0.0.1:{port}"}
    url = f"ws://127.0.0.1:{port}/ws/campaigns/{table.campaign}/{query}"
    async with websockets.connect(url, additional_headers=headers, max_size=None, ping_interval=None,
                                  open_timeout=120) as socket:  # fmt: skip
        while not stop.is_set():
            try:
                raw = await asyncio.wait_for(socket.recv(), timeout=1)
            except TimeoutError:
                continue
            now = time.perf_counter()
            kind = json.loads(raw)["t"]
            if kind == "ev":
                arrivals.append(now)
            elif kind == "at":  # the socket's first answer: this screen is open
                table.opened.add(index)
                if len(table.opened) == SCREENS:
                    table.ready.set()


@dataclass
class Step:
    tables: int
    times: list[float] = field(default_factory=list)  # action to last screen, ms
    missing: int = 0
    failed: int = 0
    late_starts: int = 0
    server_cpu: float = 0.0  # share of one core
    cpu_per_action: float = 0.0  # server CPU ms per action, its push to the five screens included
    generator_cpu: float = 0.0
    load: tuple[float, float, float] = (0.0, 0.0, 0.0)

    @property
    def p50(self) -> float:
        return statistics.median(self.times) if self.times else math.nan

    @property
    def p95(self) -> float:
        ordered = sorted(self.times)
        return ordered[min(len(ordered) - 1, int(len(ordered) * 0.95))] if ordered else math.nan

    def line(self) -> str:
        return (
            f"{self.tables} tables: {len(self.times)} actions, to the last of {SCREENS} screens p50 {self.p50:.0f} ms,"
            f" p95 {self.p95:.0f} ms, max {max(self.times, default=math.nan):.0f} ms; {self.missing} messages"
            f" missing, {self.failed} POSTs refused, {self.late_starts} late starts; server CPU"
            f" {self.server_cpu:.2f} cores ({self.cpu_per_action:.0f} ms per action), load generator"
            f" {self.generator_cpu:.2f} cores;"
            f" load {self.load[0]:.1f} {self.load[1]:.1f} {self.load[2]:.1f}"
        )


async def _table_loop(
    port: int, table: Table, step: Step, until: float, period: float, timeout: float, *, counted_from: float
) -> None:
    """The table's actions during a step: one every ``period`` seconds from a random phase, note and draw in turn.
    Actions that start before ``counted_from`` (the step's first period: new tables' first renders) are not counted."""
    rng = random.Random(table.number)
    tick = time.perf_counter() + rng.uniform(0, period)
    while True:
        await asyncio.sleep(max(0.0, tick - time.perf_counter()))
        if time.perf_counter() >= until:
            return
        if time.perf_counter() - tick > 0.5:
            step.late_starts += 1  # the generator fell behind its own schedule
        marks = [len(a) for a in table.arrivals]
        start = time.perf_counter()
        if table.acted % 2 and table.draws:
            draw = table.draws.pop(0)
            status = await _post(port, draw["session"], draw["url"], draw["body"])
        else:
            body = f"text=Note+{table.acted}+de+la+table+{table.number}"
            status = await _post(port, table.sessions[0], f"/campaigns/{table.campaign}/log/notes/", body)
        table.acted += 1
        if status != 200:
            step.failed += 1
        else:
            deadline = start + timeout
            while (
                any(len(a) <= m for a, m in zip(table.arrivals, marks, strict=True)) and time.perf_counter() < deadline
            ):
                await asyncio.sleep(0.005)
            got = [a[m] for a, m in zip(table.arrivals, marks, strict=True) if len(a) > m]
            if start >= counted_from:
                step.missing += SCREENS - len(got)
                step.times.append(((max(got) if len(got) == SCREENS else deadline) - start) * 1000)
        tick += period
        while tick < time.perf_counter():  # an action slower than the period: the next starts now, not in a burst
            tick += period


def _worker_memory(server: LiveBenchServer) -> dict[int, float]:
    """Resident memory (MiB) of the server's processes: the uvicorn supervisor and its workers."""
    assert server.process is not None
    found = {}
    for status in Path("/proc").glob("[0-9]*/status"):
        try:
            text = status.read_text()
        except OSError:
            continue
        fields = dict(line.split(":", 1) for line in text.splitlines() if ":" in line)
        pid, ppid = int(fields["Pid"]), int(fields["PPid"])
        try:
            command = (status.parent / "cmdline").read_bytes()
        except OSError:
            continue
        if b"resource_tracker" in command:  # multiprocessing's helper, not a worker
            continue
        if (pid == server.process.pid or ppid == server.process.pid) and "VmRSS" in fields:
            found[pid] = int(fields["VmRSS"].split()[0]) / 1024
    return found


async def _run(
    server: LiveBenchServer, steps: list[int], minutes: float, period: float, limit: float, keep_going: bool
) -> list[Step]:
    stop = asyncio.Event()
    tables: list[Table] = []
    screens: list[asyncio.Task[None]] = []
    results: list[Step] = []
    loop = asyncio.get_running_loop()
    per_step = math.ceil((minutes * 60 + period) / period / 2) + 2
    for count in steps:
        began = time.perf_counter()
        seed_code = SEED % {"existing": len(tables), "new": count - len(tables), "draws": per_step, "step": count}
        seed = json.loads((await loop.run_in_executor(None, server.python, seed_code)).strip().splitlines()[-1])
        for row in seed["tables"]:
            table = Table(row["table"], row["campaign"], row["screens"], arrivals=[[] for _ in range(SCREENS)])
            tables.append(table)
            screens += [asyncio.create_task(_screen(server.port, table, i, stop)) for i in range(SCREENS)]
        for table in tables:
            table.draws = seed["draws"][str(table.number)]
        await asyncio.wait_for(asyncio.gather(*(t.ready.wait() for t in tables)), timeout=300)
        refused = sum(t.refused for t in tables)
        print(f"  {count} tables ready ({time.perf_counter() - began:.0f} s to write and open them; {refused} sockets "
              "refused for now and opened again)", flush=True)  # fmt: skip
        step = Step(count)
        cpu_before, mine_before, wall = server.cpu_seconds(), time.process_time(), time.perf_counter()
        until = wall + period + minutes * 60
        await asyncio.gather(
            *(_table_loop(server.port, t, step, until, period, timeout=5.0, counted_from=wall + period) for t in tables)
        )
        wall = time.perf_counter() - wall
        spent = server.cpu_seconds() - cpu_before
        step.server_cpu = spent / wall
        step.cpu_per_action = spent * 1000 / max(1, len(step.times) + step.failed)
        step.generator_cpu = (time.process_time() - mine_before) / wall
        step.load = os.getloadavg()
        step.missing += sum(t.closed for t in tables)
        results.append(step)
        print("  " + step.line(), flush=True)
        if (not step.p95 < limit or step.missing) and not keep_going:
            break
    stop.set()
    await asyncio.gather(*screens, return_exceptions=True)
    return results


def measure(
    *, minutes: float, steps: list[int], period: float = 5.0, limit: float = 250.0, keep_going: bool = False
) -> list[Figure]:
    port = int(os.environ.get("BENCH_CAPACITY_PORT", "8360"))
    env = {"REDIS_URL": REDIS, "REDIS_PREFIX": f"bench-capacity-{os.getpid()}"}
    with tempfile.TemporaryDirectory(prefix="tablee-capacity-") as workdir:
        server = LiveBenchServer(Path(workdir), port=port, workers=2, extra_env=env)
        server.start()
        try:
            results = asyncio.run(_run(server, steps, minutes, period, limit, keep_going))
            memory = _worker_memory(server)
        finally:
            server.stop()
    held = []  # the steps up to the first that broke
    for s in results:
        if not s.p95 < limit or s.missing:
            break
        held.append(s.tables)
    figures = [Figure(f"capacity: tables served with action-to-last-screen p95 < {limit:g} ms", float(max(held, default=0)),
                      "tables")]  # fmt: skip
    for s in results:
        prefix = f"capacity {s.tables} tables"
        figures += [
            Figure(f"{prefix}: action to the last of {SCREENS} screens p50", s.p50, "ms"),
            Figure(f"{prefix}: action to the last of {SCREENS} screens p95", s.p95, "ms"),
            Figure(f"{prefix}: messages missing", float(s.missing), "messages"),
            Figure(f"{prefix}: server CPU", s.server_cpu, "cores"),
            Figure(f"{prefix}: server CPU per action (5 screens)", s.cpu_per_action, "ms"),
            Figure(f"{prefix}: load generator CPU", s.generator_cpu, "cores"),
            Figure(f"{prefix}: load average (1 min)", s.load[0], "load"),
        ]
    if results and results[-1].cpu_per_action:
        # What the server's CPU alone would allow if it had every core to itself (no load generator, no neighbours,
        # no queueing): an upper bound beside the measured answer, not a substitute for it.
        per_table = results[-1].cpu_per_action / 1000 / period
        figures.append(Figure(f"capacity: CPU-bound ceiling ({os.cpu_count()} cores / CPU per table)",
                              (os.cpu_count() or 1) / per_table, "tables"))  # fmt: skip
    assert server.process is not None
    for pid, mib in sorted(memory.items()):
        role = "supervisor" if pid == server.process.pid else f"worker {pid}"
        figures.append(Figure(f"capacity: uvicorn {role} RSS after the run", mib, "MiB"))
    return figures


def _steps(text: str) -> list[int]:
    return sorted({int(n) for n in text.split(",") if n.strip()})


def run() -> list[Figure]:
    minutes = float(os.environ.get("BENCH_CAPACITY_MINUTES", "10"))
    return measure(minutes=minutes, steps=_steps(os.environ.get("BENCH_CAPACITY_TABLES", DEFAULT_STEPS)))


def main() -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.capacity", description=__doc__.split("\n\n")[0])
    parser.add_argument("--minutes", type=float, default=10.0, help="length of each step (default 10)")
    parser.add_argument(
        "--tables", default=DEFAULT_STEPS, help=f"table counts to step through (default {DEFAULT_STEPS})"
    )
    parser.add_argument("--period", type=float, default=5.0, help="seconds between two actions of a table (default 5)")
    parser.add_argument("--p95", type=float, default=250.0, help="the p95 a step must stay under, ms (default 250)")
    parser.add_argument("--all-steps", action="store_true", help="run every step, even after one broke (the curve)")
    args = parser.parse_args()
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    print(f"capacity: steps {args.tables}, {args.minutes:g} min each, load {os.getloadavg()[0]:.1f}", flush=True)
    found = measure(minutes=args.minutes, steps=_steps(args.tables), period=args.period, limit=args.p95,
                    keep_going=args.all_steps)  # fmt: skip
    for figure in found:
        print(f"{figure.name}: {figure.value:.4g} {figure.unit}", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
