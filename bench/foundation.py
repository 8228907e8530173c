"""Dashboard and log pages of a campaign with 1,000 events, against a bare view of equal query count.

Prints requests per second and p50/p95 latency at 1 and 20 concurrent keep-alive clients on
loopback (one uvicorn process; the load generator runs on the same machine), queries per page,
and Tablée's overhead as a ratio of the bare view's throughput.
"""

from __future__ import annotations

import json
import os
import tempfile
from pathlib import Path

from bench.figures import Figure
from bench.server import BenchServer, load

SEED = r"""
import json
from django.contrib.auth.models import User
from django.contrib.sessions.backends.db import SessionStore
from django.contrib.auth import SESSION_KEY, BACKEND_SESSION_KEY, HASH_SESSION_KEY
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from campaigns import services
from campaigns.models import Membership
from characters.models import Character

narrator = User.objects.create_user("bench-narrator", password="x")
campaign = services.campaign_create(owner=narrator, data={"name": "Bench"})
membership = Membership.objects.select_related("campaign", "user").get(campaign=campaign, user=narrator)
people = [Character.objects.create(campaign=campaign, name=f"PJ {i}") for i in range(6)]
for i in range(999):
    services.note_write(membership=membership, text=f"Événement **{i}** de la chronique.", characters=[people[i % 6]], private=i % 7 == 0)
session = SessionStore()
session[SESSION_KEY] = str(narrator.pk)
session[BACKEND_SESSION_KEY] = "django.contrib.auth.backends.ModelBackend"
session[HASH_SESSION_KEY] = narrator.get_session_auth_hash()
session.save()
client = Client()
client.force_login(narrator)
counts = {}
for name, url in (("dashboard", f"/campaigns/{campaign.pk}/dashboard/"), ("log", f"/campaigns/{campaign.pk}/log/")):
    with CaptureQueriesContext(connection) as ctx:
        assert client.get(url).status_code == 200
    counts[name] = len(ctx.captured_queries)
print(json.dumps({"campaign": campaign.pk, "session": session.session_key, "queries": counts}))
"""


def run() -> list[Figure]:
    seconds = float(os.environ.get("BENCH_SECONDS", "4"))
    figures: list[Figure] = []
    with tempfile.TemporaryDirectory(prefix="tablee-bench-") as workdir:
        server = BenchServer(Path(workdir))
        server.start()
        try:
            seeded = json.loads(server.python(SEED).strip().splitlines()[-1])
            cookie = f"sessionid={seeded['session']}"
            pages = {
                "dashboard": f"/campaigns/{seeded['campaign']}/dashboard/",
                "log": f"/campaigns/{seeded['campaign']}/log/",
            }
            for page, path in pages.items():
                queries = seeded["queries"][page]
                figures.append(Figure(f"foundation.{page}.queries", queries, "queries"))
                for clients in (1, 20):
                    ours = load(server.port, path, clients=clients, seconds=seconds, cookie=cookie)
                    bare = load(server.port, f"/bench/bare/{queries}/", clients=clients, seconds=seconds)
                    # The bare page (12 queries, a 40-row table in base.html, signed in): the floor of issue 11.
                    page_floor = load(server.port, "/bench/page/", clients=clients, seconds=seconds, cookie=cookie)
                    prefix = f"foundation.{page}.c{clients}"
                    figures += [
                        Figure(f"{prefix}.rps", ours.requests_per_second, "req/s"),
                        Figure(f"{prefix}.p50", ours.p50_ms, "ms"),
                        Figure(f"{prefix}.p95", ours.p95_ms, "ms"),
                        Figure(f"{prefix}.errors", ours.errors, "requests"),
                        Figure(f"{prefix}.bare_rps", bare.requests_per_second, "req/s"),
                        Figure(f"{prefix}.bare_p50", bare.p50_ms, "ms"),
                        Figure(f"{prefix}.bare_page_p50", page_floor.p50_ms, "ms"),
                        Figure(f"{prefix}.bare_page_p95", page_floor.p95_ms, "ms"),
                        Figure(f"{prefix}.bare_page_errors", page_floor.errors, "requests"),
                        Figure(
                            f"{prefix}.bare_page_ratio",
                            ours.requests_per_second / page_floor.requests_per_second
                            if page_floor.requests_per_second
                            else 0.0,
                            "bare page time / page time",
                        ),
                        Figure(
                            f"{prefix}.overhead_ratio",
                            bare.requests_per_second / ours.requests_per_second if ours.requests_per_second else 0.0,
                            "x bare time",
                        ),
                    ]
        finally:
            server.stop()
    return figures
