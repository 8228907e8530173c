"""A draw and its rendering for twenty open pages, in one process: CPU per draw beside a bare Django page.

What ``bench/live.py`` measures through sockets, without them: the draw POST (a player's draw form, through
Django's test client) with twenty pages registered as open in the process (``campaigns.live_pages``), so the request
renders every copy those pages need right after its commit, as the live server's request does
(``campaigns.live_announce``). ``time.process_time`` around each POST: no /proc ticks, no socket, no other process, so
single draws are timed and the spread is the draws'. The bare page (``bench.views.bare_page``: 12 queries, a 40-row
table in the site's base template) is timed in the same process, between the draws, as the yardstick.

Three mixes of pages (``BENCH_FANOUT_MIXES``, default all three), each in a fresh database:

- ``fight``: every player's character is in the fight (three Sequences, the 19 PCs against a thug in each, each
  player drawing in turn); the narrator and half the players keep the campaign's home open (home and feed), the other
  half the Sequence page watching the three Sequences;
- ``duels``: 40 duels, one PC against a thug each; the narrator's console and half the players' Sequence pages watch
  the duel drawn in, the other half the campaign's home;
- ``older``: the duels with ``bench/live.py``'s older mix: half the pages on the home, half naming no region.

Figures per mix: the median, lowest and highest CPU of a draw (the first three draws of a database are not counted:
its caches fill), its queries, and the bare page's median CPU and the ratio draw / bare page.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

from bench.figures import Figure

ROOT = Path(__file__).resolve().parent.parent
DRAWS = int(os.environ.get("BENCH_FANOUT_DRAWS", "40"))

SCRIPT = r"""
import json, os, statistics, sys, time
import django
django.setup()
from django.conf import settings
from django.core.management import call_command
call_command("migrate", verbosity=0)
settings.ALLOWED_HOSTS = ["*"]
from django.contrib.auth.models import User
from django.db import connection
from django.test import Client
from campaigns import live_pages, services as campaigns
from campaigns.live import console_subject, feed_subject, home_subject, sequence_subject
from campaigns.models import Membership, Role
from characters.services.creation import character_create, npc_create
from conflicts.services.sequences import participant_add, scene_create, sequence_create

MIX, N = %(mix)r, %(draws)d
narrator = User.objects.create_user("mj", password="x")
campaign = campaigns.campaign_create(owner=narrator, data={"name": "Bench"})
scene = scene_create(campaign=campaign, actor=narrator, title="Duels")
users, pcs = [], []
for i in range(19):
    user = User.objects.create_user(f"pj{i}", password="x")
    Membership.objects.create(campaign=campaign, user=user, role=Role.PLAYER)
    users.append(user)
    pcs.append(character_create(campaign=campaign, actor=user, name=f"PJ {i}", concept="Docker", goal="Passer",
                                ranks={"combat": 3, "esprit": 3}))
draws, fights = [], []
if MIX == "fight":
    for k in range(3):
        seq = sequence_create(scene=scene, actor=narrator, data={"title": f"Mêlée {k}"})
        thug = npc_create(campaign=campaign, actor=narrator, name=f"Truand {k}", concept="Truand", ranks={"combat": 2})
        them = participant_add(sequence=seq, actor=narrator, character=thug, side="Truands", trait_code="combat")
        fights.append(seq)
        for user, pc in zip(users, pcs):
            me = participant_add(sequence=seq, actor=narrator, character=pc, side="PJ", trait_code="combat")
            draws.append((user, seq, me, them))
else:
    for d in range(N):
        seq = sequence_create(scene=scene, actor=narrator, data={"title": f"Duel {d}"})
        thug = npc_create(campaign=campaign, actor=narrator, name=f"Truand {d}", concept="Truand", ranks={"combat": 2})
        me = participant_add(sequence=seq, actor=narrator, character=pcs[d %% 19], side="PJ", trait_code="combat")
        them = participant_add(sequence=seq, actor=narrator, character=thug, side="Truands", trait_code="combat")
        draws.append((users[d %% 19], seq, me, them))
draws = draws[:N]
members = {m.user_id: m for m in Membership.objects.filter(campaign=campaign)}
home = frozenset({home_subject(campaign.pk), feed_subject(campaign.pk)})


def open_pages(seq):
    live_pages.forget_pages()
    for i, user in enumerate([narrator, *users]):
        if MIX == "fight":
            watching = frozenset(sequence_subject(s.pk) for s in fights) if i %% 2 else home
        elif MIX == "older":
            watching = home if i %% 2 == 0 else frozenset()
        elif user == narrator:
            watching = frozenset({sequence_subject(seq.pk), console_subject(seq.pk)})
        else:
            watching = frozenset({sequence_subject(seq.pk)}) if i %% 2 else home
        live_pages.page_opened(campaign.pk, f"socket-{i}", live_pages.OpenPage(members[user.pk].pk, watching, "fr"))


clients = {}
for user in [narrator, *users]:
    clients[user.pk] = Client(HTTP_HX_REQUEST="true")
    clients[user.pk].force_login(user)
    clients[user.pk].get("/healthz")  # the handler's middleware is loaded before anything is timed
bare_client = clients[narrator.pk]
cpu, queries, bare = [], [], []
for k, (user, seq, me, them) in enumerate(draws):
    open_pages(seq)
    body = {f"attack_{them.pk}": "2", f"defence_{me.pk}": "1", "action": "draw"}
    counted = []

    def count(execute, sql, params, many, context):
        counted.append(sql)
        return execute(sql, params, many, context)

    with connection.execute_wrapper(count):
        start = time.process_time()
        answer = clients[user.pk].post(f"/conflicts/{campaign.pk}/participants/{me.pk}/split/", body)
        spent = time.process_time() - start
    assert answer.status_code == 200, answer.status_code
    start = time.process_time()
    assert bare_client.get("/bench/page/").status_code == 200
    bare_spent = time.process_time() - start
    if k >= 3:
        cpu.append(spent * 1000)
        queries.append(len(counted))
        bare.append(bare_spent * 1000)
print(json.dumps({"cpu": cpu, "queries": queries, "bare": bare}))
"""


def _run(mix: str) -> dict[str, list[float]]:
    with tempfile.TemporaryDirectory(prefix="tablee-fanout-") as workdir:
        env = {
            **os.environ,
            "DATABASE_URL": f"sqlite:///{Path(workdir) / 'fanout.sqlite3'}",
            "DEBUG": "false",
            "STATIC_MANIFEST": "false",
            "BENCH_VIEWS": "true",
            "REDIS_URL": "",
            "DJANGO_SETTINGS_MODULE": "config.settings",
            "PYTHONPATH": str(ROOT),
        }
        done = subprocess.run(
            [sys.executable, "-c", SCRIPT % {"mix": mix, "draws": DRAWS}],
            cwd=ROOT, env=env, check=True, capture_output=True, text=True,
        )  # fmt: skip
    result: dict[str, list[float]] = json.loads(done.stdout.strip().splitlines()[-1])
    return result


def run() -> list[Figure]:
    import statistics

    figures = [Figure("fanout machine load average (1 min) before", os.getloadavg()[0], "load")]
    for mix in os.environ.get("BENCH_FANOUT_MIXES", "fight,duels,older").split(","):
        found = _run(mix)
        cpu, bare = found["cpu"], found["bare"]
        name = f"fanout {mix}: a draw to 20 open pages"
        figures += [
            Figure(f"{name}, CPU median", statistics.median(cpu), "ms"),
            Figure(f"{name}, CPU lowest", min(cpu), "ms"),
            Figure(f"{name}, CPU highest", max(cpu), "ms"),
            Figure(f"{name}, queries (median)", statistics.median(found["queries"]), "queries"),
            Figure(f"fanout {mix}: the bare page, CPU median", statistics.median(bare), "ms"),
            Figure(f"{name}, in bare pages", statistics.median(cpu) / statistics.median(bare), "bare pages"),
        ]
    figures.append(Figure("fanout machine load average (1 min) after", os.getloadavg()[0], "load"))
    return figures
