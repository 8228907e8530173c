"""Game boards' fan-out: one TRAGIC move seen by N open sockets, before and after (A/B in one run).

"Before" is the game consumer this branch started from (the htmx ws extension's: the board rendered for each
socket, one after another), loaded from git (``BENCH_GAMES_BASE``, default the merge base with main);
"after" is tragic/consumers.py on campaigns.live_boards (rendered once per seat and language, copied to the
others). Two duels with the same seed and the same moves, ``BENCH_GAME_SOCKETS`` sockets each (half per seat,
default 20), ``BENCH_GAME_MOVES`` moves (default 30), interleaved move by move, the first variant alternating;
a third duel with no socket gives the move's own cost. For every move: CPU of the process (all threads) from
the service call until the last socket has its board, minus nothing (the move is included, see the
no-socket figure), database queries, boards rendered, bytes per message and the wall time to the last socket.
One process, in-memory channel layer, its own SQLite file.
"""

from __future__ import annotations

import asyncio
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
import types
from pathlib import Path
from typing import Any

from bench.figures import Figure

ROOT = Path(__file__).resolve().parents[1]
SOCKETS = int(os.environ.get("BENCH_GAME_SOCKETS", "20"))
MOVES = int(os.environ.get("BENCH_GAME_MOVES", "30"))


def run() -> list[Figure]:
    base = (
        os.environ.get("BENCH_GAMES_BASE")
        or subprocess.run(
            ["git", "merge-base", "HEAD", "main"], cwd=ROOT, capture_output=True, text=True, check=True
        ).stdout.strip()
    )
    old_source = subprocess.run(
        ["git", "show", f"{base}:tragic/consumers.py"], cwd=ROOT, capture_output=True, text=True, check=True
    ).stdout
    with tempfile.TemporaryDirectory(prefix="tablee-bench-games-") as workdir:
        env = {
            **os.environ,
            "DATABASE_URL": f"sqlite:///{workdir}/bench.sqlite3",
            "DJANGO_SETTINGS_MODULE": "config.settings",
        }
        env.pop("REDIS_URL", None)
        (Path(workdir) / "old_consumer.py").write_text(old_source)
        done = subprocess.run(
            [sys.executable, "-m", "bench.live_games", workdir], cwd=ROOT, env=env, capture_output=True, text=True
        )
        if done.returncode:
            raise RuntimeError(done.stderr[-3000:])
        results: dict[str, dict[str, float]] = json.loads(done.stdout.strip().splitlines()[-1])
    figures = []
    for variant, values in results.items():
        for name, (value, unit) in values.items():
            figures.append(Figure(f"game fan-out {variant}, {SOCKETS} sockets: {name}", value, unit))
    return figures


# -- the worker (python -m bench.live_games <workdir>) -------------------------------------------------------

QUERIES = [0]


def _count_queries() -> None:
    from django.db.backends import utils

    original = utils.CursorWrapper._execute

    def counted(self: Any, *args: Any, **kwargs: Any) -> Any:
        QUERIES[0] += 1
        return original(self, *args, **kwargs)

    utils.CursorWrapper._execute = counted  # type: ignore[method-assign]


def _choose(state: Any, player: int) -> dict[str, Any]:
    legal = [a for a in state.legal_actions(player) if a["kind"] != "concede"]
    for kind in ("end_turn", "pass", "end_upkeep"):
        for action in legal:
            if action["kind"] == kind:
                return action
    return legal[0]


async def _measure(workdir: str) -> dict[str, dict[str, tuple[float, str]]]:
    from asgiref.sync import sync_to_async
    from channels.auth import AuthMiddlewareStack
    from channels.routing import URLRouter
    from channels.testing import WebsocketCommunicator
    from django.contrib.auth import BACKEND_SESSION_KEY, HASH_SESSION_KEY, SESSION_KEY
    from django.contrib.auth.models import User
    from django.contrib.sessions.backends.db import SessionStore
    from django.urls import path

    from campaigns.live_boards import forget_boards
    from tragic import services
    from tragic.consumers import GameConsumer
    from tragic.models import Game

    old = types.ModuleType("bench_old_tragic_consumers")
    exec(compile((Path(workdir) / "old_consumer.py").read_text(), "old_consumer.py", "exec"), old.__dict__)  # noqa: S102 - our own code, from git
    application = AuthMiddlewareStack(
        URLRouter(
            [
                path("ws/before/<int:game_id>/", old.GameConsumer.as_asgi()),
                path("ws/after/<int:game_id>/", GameConsumer.as_asgi()),
            ]
        )
    )

    def setup() -> tuple[list[Game], dict[int, str]]:
        users = [User.objects.create_user(f"bench-{name}", password="x") for name in ("alice", "bob")]
        cookies = {}
        for user in users:
            session = SessionStore()
            session[SESSION_KEY] = str(user.pk)
            session[BACKEND_SESSION_KEY] = "django.contrib.auth.backends.ModelBackend"
            session[HASH_SESSION_KEY] = user.get_session_auth_hash()
            session.save()
            cookies[user.pk] = f"sessionid={session.session_key}; django_language=fr"
        games = []
        for _variant in range(3):
            game = services.game_create(
                user=users[0], deck_ref="ready:acier-et-plomb", opponent="invite", seed=7, reaction_seconds=300
            )
            game = services.game_join(
                token=game.invite_token, user=users[1], deck_ref="ready:la-bande-des-terres-desolees"
            )
            for kind, field, value in (
                ("choose_traits", "traits", []),
                ("choose_skills", "skills", ["medecine-1", "troc-1", "science-1"]),
            ):
                for user in users:
                    game = services.game_act(
                        game=game, user=user, action={"kind": kind, field: value}, expected_version=game.version
                    )
            games.append(game)
        return games, cookies

    games, cookies = await sync_to_async(setup)()
    users = await sync_to_async(lambda: list(User.objects.order_by("pk")))()
    variants = {"before": games[0], "after": games[1], "no socket": games[2]}
    sockets: dict[str, list[WebsocketCommunicator]] = {"before": [], "after": [], "no socket": []}
    for variant in ("before", "after"):
        game = variants[variant]
        for index in range(SOCKETS):
            user = users[index % 2]
            query = f"?after={game.version}" if variant == "after" else ""
            socket = WebsocketCommunicator(
                application, f"/ws/{variant}/{game.pk}/{query}", headers=[(b"cookie", cookies[user.pk].encode())]
            )
            connected, _code = await socket.connect()
            assert connected, variant
            if variant == "after":
                await socket.receive_from(timeout=10)  # the connection's "at"
            sockets[variant].append(socket)

    samples: dict[str, dict[str, list[float]]] = {
        v: {"cpu": [], "wall": [], "queries": [], "bytes": []} for v in variants
    }
    renders: dict[str, int] = {"before": 0, "after": 0, "no socket": 0}
    from django.template import loader

    original_render = loader.render_to_string
    current = ["before"]

    def counting_render(*args: Any, **kwargs: Any) -> str:
        renders[current[0]] += 1
        return original_render(*args, **kwargs)

    old.render_to_string = counting_render
    import tragic.consumers as new_consumers

    new_consumers.render_to_string = counting_render  # type: ignore[attr-defined]
    order = list(variants)
    for move in range(MOVES):
        for variant in order if move % 2 == 0 else order[::-1]:
            current[0] = variant
            game = variants[variant]
            state = await sync_to_async(services.load_state)(game)
            player = state.current_players()[0]
            action = _choose(state, player)
            forget_boards()  # every move renders afresh, as a new version would
            queries, cpu, wall = QUERIES[0], time.process_time(), time.perf_counter()
            game = variants[variant] = await sync_to_async(services.game_act)(
                game=game, user=users[player], action=action, expected_version=game.version
            )
            sizes = []
            for socket in sockets[variant]:
                text = await socket.receive_from(timeout=30)
                if variant == "after":
                    while json.loads(text)["t"] != "ev":
                        text = await socket.receive_from(timeout=30)
                sizes.append(len(text.encode()))
            samples[variant]["cpu"].append((time.process_time() - cpu) * 1000)
            samples[variant]["wall"].append((time.perf_counter() - wall) * 1000)
            samples[variant]["queries"].append(QUERIES[0] - queries)
            if sizes:
                samples[variant]["bytes"].append(statistics.mean(sizes))
    for variant in ("before", "after"):
        for socket in sockets[variant]:
            await socket.disconnect()
    results: dict[str, dict[str, tuple[float, str]]] = {}
    for variant, values in samples.items():
        results[variant] = {
            "CPU per move, median": (statistics.median(values["cpu"]), "ms"),
            "to the last socket, median": (statistics.median(values["wall"]), "ms"),
            "queries per move, median": (statistics.median(values["queries"]), "queries"),
            "boards rendered per move": (renders[variant] / MOVES, "boards"),
        }
        if values["bytes"]:
            results[variant]["bytes per message"] = (statistics.mean(values["bytes"]), "bytes")
    return results


def _worker(workdir: str) -> None:
    import django

    django.setup()
    from django.core.management import call_command

    call_command("migrate", verbosity=0, interactive=False)
    _count_queries()
    print(json.dumps(asyncio.run(_measure(workdir))))


if __name__ == "__main__":
    _worker(sys.argv[1])
