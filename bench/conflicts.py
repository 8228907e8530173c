"""Resolution: exact odds of a split, and the round trip of a draw with 20 players drawing at once.

- Exact odds for 10 attack and 10 defence cards against a fresh 40-card deck (pure rules): median ms
  and computations per second.
- Draw latency: one uvicorn process (bench.server) on its own SQLite file (or BENCH_DATABASE_URL),
  20 players on loopback, each with a keep-alive HTTP connection, post their draw (the htmx form of
  the phone panel) at the same instant; all 20 sequences deal from the campaign's one table deck, so
  the draws queue on its row lock. Rounds repeat on fresh sequences; p50 and p95 in ms.
"""

from __future__ import annotations

import http.client
import json
import os
import statistics
import tempfile
import threading
import time
from pathlib import Path

from bench.figures import Figure, median_ms, per_second
from bench.server import BenchServer
from conflicts.rules.odds import one_on_one

PLAYERS = 20
ROUNDS = int(os.environ.get("BENCH_DRAW_ROUNDS", "8"))
CSRF = "benchcsrftokenbenchcsrftoken0123"  # 32 characters: accepted unmasked by Django's CSRF check

SEED = r"""
import json
from django.contrib.auth.models import User
from django.contrib.sessions.backends.db import SessionStore
from django.contrib.auth import SESSION_KEY, BACKEND_SESSION_KEY, HASH_SESSION_KEY
from campaigns import services as campaigns
from campaigns.models import Membership, Role
from characters.services.creation import character_create, npc_create
from conflicts.services.sequences import participant_add, scene_create, sequence_create

PLAYERS, ROUNDS = %(players)d, %(rounds)d
narrator = User.objects.create_user("bench-mj", password="x")
campaign = campaigns.campaign_create(owner=narrator, data={"name": "Bench des docks"})
scene = scene_create(campaign=campaign, actor=narrator, title="Vingt duels")
players = []
for i in range(PLAYERS):
    user = User.objects.create_user(f"bench-pj{i}", password="x")
    Membership.objects.create(campaign=campaign, user=user, role=Role.PLAYER)
    pc = character_create(campaign=campaign, actor=user, name=f"PJ {i}", concept="Docker", goal="Passer",
                                     ranks={"combat": 3, "esprit": 3})
    session = SessionStore()
    session[SESSION_KEY] = str(user.pk)
    session[BACKEND_SESSION_KEY] = "django.contrib.auth.backends.ModelBackend"
    session[HASH_SESSION_KEY] = user.get_session_auth_hash()
    session.save()
    players.append({"user": user, "pc": pc, "session": session.session_key, "draws": []})
for r in range(ROUNDS):
    for i, p in enumerate(players):
        seq = sequence_create(scene=scene, actor=narrator, data={"title": f"Duel {r}-{i}"})
        thug = npc_create(campaign=campaign, actor=narrator, name=f"Truand {r}-{i}", concept="Truand",
                                     ranks={"combat": 2})
        me = participant_add(sequence=seq, actor=narrator, character=p["pc"], side="PJ", trait_code="combat")
        them = participant_add(sequence=seq, actor=narrator, character=thug, side="Truands", trait_code="combat")
        p["draws"].append({"url": f"/conflicts/{campaign.pk}/participants/{me.pk}/split/",
                           "body": f"attack_{them.pk}=2&defence_{me.pk}=1&action=draw"})
print(json.dumps([{"session": p["session"], "draws": p["draws"]} for p in players]))
"""


def _draw_round(port: int, players: list[dict[str, object]], round_index: int) -> tuple[list[float], int]:
    barrier = threading.Barrier(len(players))
    latencies: list[float] = []
    errors = [0]
    lock = threading.Lock()

    def player(p: dict[str, object]) -> None:
        draw = p["draws"][round_index]  # type: ignore[index]
        connection = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
        headers = {
            "Cookie": f"sessionid={p['session']}; csrftoken={CSRF}",
            "X-CSRFToken": CSRF,
            "HX-Request": "true",
            "Content-Type": "application/x-www-form-urlencoded",
        }
        barrier.wait()
        start = time.perf_counter()
        connection.request("POST", draw["url"], body=draw["body"], headers=headers)
        response = connection.getresponse()
        body = response.read()
        elapsed = (time.perf_counter() - start) * 1000
        connection.close()
        with lock:
            if response.status == 200 and b"playing-card" in body:
                latencies.append(elapsed)
            else:
                errors[0] += 1

    threads = [threading.Thread(target=player, args=(p,)) for p in players]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return latencies, errors[0]


def run() -> list[Figure]:
    figures = [
        median_ms(
            "conflicts exact odds 10 attack vs 10 defence of 40 (median)",
            lambda: one_on_one(40, 20, 10, 10),
            repeat=2000,
        ),
        per_second("conflicts exact odds computations", lambda: one_on_one(40, 20, 10, 10), seconds=1.0),
    ]
    with tempfile.TemporaryDirectory(prefix="tablee-bench-conflicts-") as workdir:
        server = BenchServer(Path(workdir))
        server.start()
        try:
            players = json.loads(
                server.python(SEED % {"players": PLAYERS, "rounds": ROUNDS + 1}).strip().splitlines()[-1]
            )
            latencies: list[float] = []
            errors = 0
            for r in range(ROUNDS):
                got, failed = _draw_round(server.port, players, r)
                latencies += got
                errors += failed
            alone: list[float] = []
            for p in players:  # the last round, one player at a time: the cost of one draw without a queue
                got, failed = _draw_round(server.port, [p], ROUNDS)
                alone += got
                errors += failed
        finally:
            server.stop()
    latencies.sort()
    figures += [
        Figure(f"conflicts draw round trip p50 ({PLAYERS} players at once)", statistics.median(latencies), "ms"),
        Figure(
            f"conflicts draw round trip p95 ({PLAYERS} players at once)",
            latencies[int(len(latencies) * 0.95) - 1],
            "ms",
        ),
        Figure("conflicts draw round trip p50 (one player alone)", statistics.median(alone), "ms"),
        Figure("conflicts draw errors", float(errors), "requests"),
    ]
    return figures
