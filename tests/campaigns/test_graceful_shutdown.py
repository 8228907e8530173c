"""SIGTERM to a real server (issue 30, item 3): the open sockets are closed with 1001 ("going away") and the process
exits within 10 s, with a catch-up still waiting on one of them; the pages then reconnect to the next server and
catch up. A worker used to wait "for background tasks to complete" for more than 120 s.

The server is the README's production command (uvicorn, ``--timeout-graceful-shutdown``) on a loopback port, over
a database file of its own (the test database lives in this process's memory)."""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import ClientConnection, connect

pytestmark = [pytest.mark.slow, pytest.mark.filterwarnings("ignore:connect\\(\\) must be used as a context manager")]

ROOT = Path(__file__).resolve().parents[2]
SETUP = """
from django.contrib.sessions.backends.db import SessionStore
from django.contrib.auth import BACKEND_SESSION_KEY, HASH_SESSION_KEY, SESSION_KEY
from campaigns import services
from tests.campaigns.factories import campaign_with, membership, narrator_of, players_of
campaign = campaign_with(players=2)
keys = []
for user in players_of(campaign):
    session = SessionStore()
    session[SESSION_KEY] = str(user.pk)
    session[BACKEND_SESSION_KEY] = "django.contrib.auth.backends.ModelBackend"
    session[HASH_SESSION_KEY] = user.get_session_auth_hash()
    session.save()
    keys.append(session.session_key)
services.note_write(membership=membership(campaign, narrator_of(campaign)), text="Avant la coupure")
print("SETUP", campaign.pk, *keys)
"""
NOTE = """
from campaigns import services
from campaigns.models import Campaign
from tests.campaigns.factories import membership, narrator_of
campaign = Campaign.objects.get(pk={pk})
services.note_write(membership=membership(campaign, narrator_of(campaign)), text="Pendant la coupure")
"""


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@pytest.fixture(scope="module")
def env(tmp_path_factory: pytest.TempPathFactory) -> dict[str, str]:
    database = tmp_path_factory.mktemp("server") / "db.sqlite3"
    keep = {k: v for k, v in os.environ.items() if k not in ("DATABASE_URL", "DJANGO_SETTINGS_MODULE", "SECRET_KEY")}
    environment = {**keep, "DATABASE_URL": f"sqlite:///{database}", "TABLEE_ENGINE": "python", "DEBUG": "false"}
    _manage(environment, "migrate", "--noinput")
    return environment


def _manage(env: dict[str, str], *args: str) -> str:
    done = subprocess.run(
        [sys.executable, "manage.py", *args], cwd=ROOT, env=env, capture_output=True, text=True, timeout=300
    )
    assert done.returncode == 0, done.stdout + done.stderr
    return done.stdout


def _serve(env: dict[str, str], port: int) -> subprocess.Popen[str]:
    """The README's production command, one worker, on a loopback port."""
    server = subprocess.Popen(
        [sys.executable, "-m", "uvicorn", "config.asgi:application", "--host", "127.0.0.1", "--port", str(port),
         "--timeout-graceful-shutdown", "5", "--no-proxy-headers", "--no-access-log"],
        cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
    )  # fmt: skip
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{port}/healthz", timeout=2) as answer:
                if answer.status == 200:
                    return server
        except OSError:
            time.sleep(0.3)
    server.kill()
    raise AssertionError(server.communicate()[0])


def _open(port: int, campaign_id: int, session_key: str, after: int | None = None) -> tuple[ClientConnection, Any]:
    query = f"?after={after}" if after is not None else f"?since={time.time() - 60}"
    page = connect(
        f"ws://127.0.0.1:{port}/ws/campaigns/{campaign_id}/{query}",
        origin=f"http://127.0.0.1:{port}",  # type: ignore[arg-type]
        additional_headers={"Cookie": f"sessionid={session_key}"},
        open_timeout=10,
    )
    return page, json.loads(page.recv(timeout=10))


def _close_code(page: ClientConnection) -> int | None:
    try:
        while True:
            page.recv(timeout=10)
    except ConnectionClosed as closed:
        return closed.rcvd.code if closed.rcvd is not None else None


@pytest.fixture(scope="module")
def server_setup(env: dict[str, str]) -> Iterator[tuple[dict[str, str], int, list[str]]]:
    campaign, *keys = _manage(env, "shell", "-c", SETUP).split("SETUP", 1)[1].split()
    yield env, int(campaign), keys


def test_sigterm_closes_the_sockets_with_1001_and_the_server_exits_then_pages_catch_up_on_the_next(
    server_setup,
) -> None:  # type: ignore[no-untyped-def]
    env, campaign_id, keys = server_setup
    port = _free_port()
    server = _serve(env, port)
    try:
        pages = [_open(port, campaign_id, key) for key in keys]
        positions = [at["p"] for _page, at in pages]
        assert all(at["t"] == "at" for _page, at in pages)
        # A catch-up in flight: the second resume waits out the first's interval (campaigns.live_socket).
        pages[0][0].send(json.dumps({"resume": 0}))
        pages[0][0].send(json.dumps({"resume": 0}))
        time.sleep(0.3)
        stopped = time.monotonic()
        server.send_signal(signal.SIGTERM)
        codes = [_close_code(page) for page, _at in pages]
        server.wait(timeout=10)
        took = time.monotonic() - stopped
        output = server.stdout.read() if server.stdout else ""
    finally:
        if server.poll() is None:
            server.kill()
    assert codes == [1001, 1001], output
    assert took < 10, output
    assert "Traceback" not in output, output

    _manage(env, "shell", "-c", NOTE.format(pk=campaign_id))
    following = _serve(env, port)
    try:
        for key, position in zip(keys, positions, strict=True):
            page, at = _open(port, campaign_id, key, after=position)
            assert at["t"] == "at"
            assert any("Pendant la coupure" in html for _p, html in at["missed"])
            page.close()
    finally:
        following.send_signal(signal.SIGTERM)
        following.wait(timeout=15)


def _login_attempt(port: int, username: str, forwarded: str) -> int:
    """One wrong password through the real server, with the login page's CSRF token, from 127.0.0.1."""
    import http.cookiejar
    import re
    import urllib.error
    import urllib.parse

    jar = http.cookiejar.CookieJar()
    opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(jar))
    url = f"http://127.0.0.1:{port}/accounts/login/"
    page = opener.open(url, timeout=10).read().decode()
    token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', page)
    assert token is not None
    body = urllib.parse.urlencode(
        {"csrfmiddlewaretoken": token.group(1), "username": username, "password": "Spring2026!"}
    ).encode()
    request = urllib.request.Request(url, data=body, headers={"X-Forwarded-For": forwarded, "Referer": url})
    try:
        return int(opener.open(request, timeout=10).status)
    except urllib.error.HTTPError as error:
        return int(error.code)


def test_a_new_forwarded_address_per_attempt_is_still_one_client_for_the_real_server(server_setup) -> None:  # type: ignore[no-untyped-def]
    """Issue 30, item 2: with uvicorn's own proxy headers (on for 127.0.0.1 by default) each attempt's
    X-Forwarded-For became the client's address, and one password sprayed at many accounts was never locked out.
    The README's command (``--no-proxy-headers``) leaves the address to the site: BEHIND_PROXY is off here."""
    env, _campaign_id, _keys = server_setup
    port = _free_port()
    server = _serve(env, port)
    try:
        codes = [_login_attempt(port, f"victim-{n}", f"198.51.100.{n}") for n in range(1, 8)]
        codes.append(_login_attempt(port, "victim-x", "not-an-ip"))
    finally:
        server.send_signal(signal.SIGTERM)
        server.wait(timeout=15)
    assert codes == [200] * 4 + [429] * 4
