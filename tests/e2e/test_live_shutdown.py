"""SIGTERM while two pages are open (issue 30, item 3): the server closes both pages' sockets with 1001 ("going
away") and exits within 10 s; the next server on the same address takes them back. Both pages reconnect by
themselves and catch up on what was written while no server ran, without a reload.

The server runs the README's production command (uvicorn with ``--timeout-graceful-shutdown``) on a database file
of its own and a fixed port: the pages reconnect to the address they were served from, as behind a proxy that
sends them to the next worker."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest
from playwright.sync_api import expect

from tests.e2e.conftest import E2E_PASSWORD, login

pytestmark = pytest.mark.e2e

ROOT = Path(__file__).resolve().parents[2]
SETUP = f"""
import django; django.setup()
from django.contrib.auth.models import User
from campaigns import services
from campaigns.models import Membership, Role
narrator = User.objects.create_user("mj-coupure", password={E2E_PASSWORD!r})
player = User.objects.create_user("pj-coupure", password={E2E_PASSWORD!r})
campaign = services.campaign_create(owner=narrator, data={{"name": "Serveur arrêté"}})
Membership.objects.create(campaign=campaign, user=player, role=Role.PLAYER)
print(campaign.pk)
"""
NOTE = """
import django; django.setup()
from campaigns import services
from campaigns.models import Membership
narrator = Membership.objects.select_related("campaign").get(campaign_id={pk}, role="narrator")
services.note_write(membership=narrator, text="Écrit pendant que le serveur redémarrait")
services.note_write(membership=narrator, text="SECRET DU MJ pendant la coupure", private=True)
"""
# Each page notes the close codes its sockets receive.
CLOSE_CODES = """
window.__closeCodes = [];
const Native = window.WebSocket;
window.WebSocket = function (url, protocols) {
  const ws = protocols === undefined ? new Native(url) : new Native(url, protocols);
  ws.addEventListener("close", (event) => window.__closeCodes.push(event.code));
  return ws;
};
window.WebSocket.prototype = Native.prototype;
Object.assign(window.WebSocket, { CONNECTING: 0, OPEN: 1, CLOSING: 2, CLOSED: 3 });
"""


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def _python(env: dict[str, str], code: str) -> str:
    done = subprocess.run([sys.executable, "-c", code], cwd=ROOT, env=env, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stdout + done.stderr
    return done.stdout


def _serve(env: dict[str, str], port: int, log: Path) -> subprocess.Popen[bytes]:
    """The README's production command (one worker) on a loopback port."""
    server = subprocess.Popen(
        [sys.executable, "-m", "uvicorn", "config.asgi:application", "--host", "127.0.0.1", "--port", str(port),
         "--timeout-graceful-shutdown", "5", "--no-proxy-headers", "--no-access-log"],
        cwd=ROOT, env=env, stdout=log.open("a"), stderr=subprocess.STDOUT,
    )  # fmt: skip
    deadline = time.monotonic() + 90  # a loaded machine starts slowly
    while time.monotonic() < deadline:
        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{port}/healthz", timeout=2) as answer:
                if answer.status == 200:
                    return server
        except OSError:
            time.sleep(0.3)
    server.kill()
    raise AssertionError(log.read_text())


def test_sigterm_with_two_pages_open_both_reconnect_to_the_next_server_and_catch_up(browser, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    keep = {k: v for k, v in os.environ.items() if k not in ("DATABASE_URL", "REDIS_URL", "SECRET_KEY")}
    env = {**keep, "DATABASE_URL": f"sqlite:///{tmp_path / 'db.sqlite3'}", "DEBUG": "false", "STATIC_MANIFEST": "false",
           "ALLOWED_HOSTS": "127.0.0.1,localhost", "DJANGO_SETTINGS_MODULE": "config.settings", "TABLEE_ENGINE": "python",
           "PYTHONPATH": str(ROOT)}  # fmt: skip
    subprocess.run([sys.executable, "manage.py", "migrate", "--noinput", "-v", "0"], cwd=ROOT, env=env, check=True)
    campaign_id = int(_python(env, SETUP).strip().splitlines()[-1])
    port, log = _free_port(), tmp_path / "server.log"
    base = f"http://127.0.0.1:{port}"
    servers = [_serve(env, port, log)]
    contexts, pages = [], []
    try:
        for name, path in (("mj-coupure", "dashboard/"), ("pj-coupure", "")):
            context = browser.new_context(base_url=base, locale="fr-FR")
            context.set_default_timeout(20_000)
            context.add_init_script(CLOSE_CODES)
            contexts.append(context)
            page = context.new_page()
            login(page, name)
            page.goto(f"/campaigns/{campaign_id}/{path}")
            expect(page.locator("#live-status")).to_have_attribute("data-state", "open")
            page.evaluate("window.__stillTheSamePage = true")
            pages.append(page)

        stopped = time.monotonic()
        servers[0].send_signal(signal.SIGTERM)
        servers[0].wait(timeout=10)
        assert time.monotonic() - stopped < 10
        for page in pages:
            expect(page.locator("#live-status")).not_to_have_attribute("data-state", "open")
            assert 1001 in page.evaluate("window.__closeCodes"), "closed as going away, not dropped"

        _python(env, NOTE.format(pk=campaign_id))  # while no server runs
        servers.append(_serve(env, port, log))
        for page in pages:
            # The backoff after a few failed attempts may reach several seconds on a loaded machine.
            expect(page.locator("#live-feed")).to_contain_text(
                "Écrit pendant que le serveur redémarrait", timeout=60_000
            )
            expect(page.locator("#live-status")).to_have_attribute("data-state", "open")
            assert page.evaluate("window.__stillTheSamePage === true"), "caught up without a reload"
        assert "SECRET DU MJ" in pages[0].locator("#live-feed").inner_text()  # the narrator's own private note
        assert "SECRET DU MJ" not in pages[1].content()  # filtered for the player, as a fresh page is
    finally:
        for context in contexts:
            context.close()
        for server in servers:
            if server.poll() is None:
                server.send_signal(signal.SIGTERM)
                try:
                    server.wait(timeout=15)
                except subprocess.TimeoutExpired:
                    server.kill()
    assert "Traceback" not in log.read_text(), log.read_text()
