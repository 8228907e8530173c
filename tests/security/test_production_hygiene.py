"""Production hygiene (issue 14, item 6): the default SECRET_KEY, the socket's Origin, the admin's path."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from asgiref.sync import sync_to_async
from channels.testing import WebsocketCommunicator

from config.asgi import application
from core.origin import origin_allowed
from tests.campaigns.factories import campaign_with, players_of
from tests.campaigns.test_live import session_cookie

ROOT = Path(__file__).resolve().parents[2]
PRODUCTION = {
    "DEBUG": "false",
    "ALLOWED_HOSTS": "tablee.example.org",
    "SECURE_COOKIES": "1",
    "SECURE_SSL_REDIRECT": "1",
    "SECURE_HSTS_SECONDS": "31536000",
    "BEHIND_PROXY": "1",
}


# One process per environment a server can start in: it imports Django with that environment, runs
# ``check --deploy`` and imports each server entry point, as a host would (settings are read once, at import, so
# each environment needs its own process; eleven processes became five).
PROBE = """
import io, json, sys
import django
from django.core.management import call_command
django.setup()
found = {}
out = io.StringIO()
try:
    call_command("check", deploy=True, fail_level="WARNING", stdout=out, stderr=out)
    found["check"] = "ok: " + out.getvalue()
except BaseException as error:  # SystemCheckError: the messages are in its text
    found["check"] = "refused: " + str(error) + out.getvalue()
from django.urls import reverse
found["admin"] = reverse("admin:index")
for module in ("config.asgi", "config.wsgi"):
    try:
        __import__(module)
        found[module] = "started"
    except BaseException as error:
        found[module] = "refused: " + str(error)
print(json.dumps(found))
"""


def _probe(**env: str) -> dict[str, str]:
    """What a host sees with ``env``: ``check --deploy``, the admin's path and the start of each entry point."""
    base = {k: v for k, v in os.environ.items() if k not in ("DJANGO_ALLOW_ASYNC_UNSAFE", "SECRET_KEY", "ADMIN_URL")}
    base["DJANGO_SETTINGS_MODULE"] = "config.settings"
    done = subprocess.run([sys.executable, "-c", PROBE], cwd=ROOT, env={**base, **env}, capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout.strip().splitlines()[-1])


REAL_KEY = "q8" * 30 + "-real"
DEFAULT_KEY_REFUSED = "SECRET_KEY is the repository's public default"


def test_a_public_server_with_the_default_key_is_refused_by_check_deploy_and_at_start() -> None:
    """Django's own W009 let the default through (it is long and varied); anyone can read it in the source.
    Issue 30, item 7: the server also started and served with it when DEBUG was off: both entry points refuse."""
    found = _probe(**PRODUCTION)
    assert found["check"].startswith("refused") and "tablee.E001" in found["check"]
    for module in ("config.asgi", "config.wsgi"):
        assert found[module].startswith("refused") and DEFAULT_KEY_REFUSED in found[module], found[module]


def test_a_public_server_with_a_real_key_passes_check_deploy_and_starts() -> None:
    found = _probe(SECRET_KEY=REAL_KEY, **PRODUCTION)
    assert found["check"].startswith("ok"), found["check"]
    assert "no issues" in found["check"]
    assert found["config.asgi"] == found["config.wsgi"] == "started"


def test_a_table_on_ones_own_machine_still_starts_with_the_default_key() -> None:
    """``make run`` (DEBUG off, the default key, local hosts only) and a DEBUG server both start; in DEBUG
    ``check --deploy`` does not call the default key an error."""
    assert _probe(DEBUG="false")["config.asgi"] == "started"
    debug = _probe(DEBUG="true", ALLOWED_HOSTS="tablee.example.org")
    assert debug["config.asgi"] == "started"
    assert "tablee.E001" not in debug["check"]


def test_the_admin_path_comes_from_admin_url() -> None:
    from django.urls import reverse

    assert reverse("admin:index") == "/admin/"
    assert _probe(ADMIN_URL="/gestion-7f3k/", SECRET_KEY=REAL_KEY, **PRODUCTION)["admin"] == "/gestion-7f3k/"


def _scope(origin: str | None, host: str | None = "127.0.0.1:8000", scheme: str = "ws", **more: str) -> dict:
    headers = [(b"origin", origin.encode())] if origin is not None else []
    if host is not None:
        headers.append((b"host", host.encode()))
    headers += [(k.replace("_", "-").encode(), v.encode()) for k, v in more.items()]
    return {"type": "websocket", "scheme": scheme, "headers": headers}


@pytest.mark.parametrize(
    ("origin", "host", "scheme", "allowed"),
    [
        ("http://127.0.0.1:8000", "127.0.0.1:8000", "ws", True),
        ("http://localhost:8000", "localhost:8000", "ws", True),
        ("https://localhost", "localhost", "wss", True),
        ("http://[::1]:8000", "[::1]:8000", "ws", True),
        ("http://127.0.0.1:9999", "127.0.0.1:8000", "ws", False),  # another port of an allowed host
        ("https://127.0.0.1:8000", "127.0.0.1:8000", "ws", False),  # another scheme
        ("http://localhost", "localhost", "wss", False),  # an http page cannot open this wss socket
        ("http://evil.example:8000", "evil.example:8000", "ws", False),  # a host not allowed
        ("http://127.0.0.1", None, "ws", True),  # no Host: the allowed host on its own port only
        ("http://127.0.0.1:9999", None, "ws", False),
        ("null", "127.0.0.1:8000", "ws", False),
        (None, "127.0.0.1:8000", "ws", False),
        ("http://127.0.0.1:notaport", "127.0.0.1:8000", "ws", False),
    ],
)
def test_the_origin_must_be_the_sites_own_scheme_host_and_port(origin, host, scheme, allowed) -> None:
    assert origin_allowed(_scope(origin, host, scheme)) is allowed


def test_behind_a_tls_proxy_the_forwarded_scheme_counts(settings) -> None:
    settings.SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
    settings.ALLOWED_HOSTS = ["tablee.example.org"]
    proxied = {"x_forwarded_proto": "https"}
    assert origin_allowed(_scope("https://tablee.example.org", "tablee.example.org", "ws", **proxied))
    assert not origin_allowed(_scope("http://tablee.example.org", "tablee.example.org", "ws", **proxied))


def test_trusted_origins_are_accepted(settings) -> None:
    settings.CSRF_TRUSTED_ORIGINS = ["https://table.example.net"]
    assert origin_allowed(_scope("https://table.example.net", "127.0.0.1:8000"))
    assert not origin_allowed(_scope("https://table.example.net:8443", "127.0.0.1:8000"))


@pytest.mark.django_db(transaction=True)
@pytest.mark.asyncio
async def test_a_members_socket_from_another_port_is_refused() -> None:
    campaign = await sync_to_async(campaign_with)(players=1)
    player = (await sync_to_async(players_of)(campaign))[0]
    cookie = (await sync_to_async(session_cookie)(player)).encode()
    for origin, expected in ((b"http://127.0.0.1:9999", False), (b"http://127.0.0.1:8000", True)):
        headers = [(b"origin", origin), (b"host", b"127.0.0.1:8000"), (b"cookie", cookie)]
        socket = WebsocketCommunicator(application, f"/ws/campaigns/{campaign.pk}/", headers=headers)
        connected, _code = await socket.connect()
        assert connected is expected, origin
        await socket.disconnect()


def test_the_readmes_production_command_bounds_the_shutdown_and_leaves_the_address_to_the_site() -> None:
    """What tests/campaigns/test_graceful_shutdown.py runs is what the README tells a host to run (issue 30)."""
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    commands = [
        line for line in readme.splitlines() if "uvicorn config.asgi:application" in line and "--workers" in line
    ]
    assert commands
    for command in commands:
        assert "--timeout-graceful-shutdown" in command and "--no-proxy-headers" in command, command
