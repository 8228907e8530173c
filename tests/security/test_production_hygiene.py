"""Production hygiene (issue 14, item 6): the default SECRET_KEY, the socket's Origin, the admin's path."""

from __future__ import annotations

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


def _manage(*args: str, **env: str) -> subprocess.CompletedProcess[str]:
    base = {k: v for k, v in os.environ.items() if k not in ("DJANGO_ALLOW_ASYNC_UNSAFE", "SECRET_KEY", "ADMIN_URL")}
    return subprocess.run(
        [sys.executable, "manage.py", *args], cwd=ROOT, env={**base, **env}, capture_output=True, text=True
    )


def test_check_deploy_refuses_the_repositorys_default_key() -> None:
    """Django's own W009 let the default through (it is long and varied); anyone can read it in the source."""
    done = _manage("check", "--deploy", **PRODUCTION)
    assert done.returncode != 0
    assert "tablee.E001" in done.stderr + done.stdout


def test_check_deploy_passes_with_a_real_key() -> None:
    done = _manage("check", "--deploy", "--fail-level", "WARNING", SECRET_KEY="q8" * 30 + "-real", **PRODUCTION)
    assert done.returncode == 0, done.stdout + done.stderr


def test_the_default_key_is_fine_for_a_local_table_in_debug() -> None:
    done = _manage("check", "--deploy", DEBUG="true")
    assert "tablee.E001" not in done.stderr + done.stdout


def test_the_admin_path_comes_from_admin_url() -> None:
    code = "from django.urls import reverse; print(reverse('admin:index'))"
    assert _manage("shell", "-c", code, ADMIN_URL="/gestion-7f3k/").stdout.strip().splitlines()[-1] == "/gestion-7f3k/"
    assert _manage("shell", "-c", code).stdout.strip().splitlines()[-1] == "/admin/"


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


def _start(module: str, **env: str) -> subprocess.CompletedProcess[str]:
    """What a server does first: import the application (uvicorn config.asgi:application, a WSGI server)."""
    base = {k: v for k, v in os.environ.items() if k not in ("DJANGO_ALLOW_ASYNC_UNSAFE", "SECRET_KEY", "ADMIN_URL")}
    code = f"import {module}; print('started')"
    return subprocess.run([sys.executable, "-c", code], cwd=ROOT, env={**base, **env}, capture_output=True, text=True)


@pytest.mark.parametrize("module", ["config.asgi", "config.wsgi"])
def test_a_public_server_does_not_start_with_the_default_key(module: str) -> None:
    """Issue 30, item 7: the server started and served with the default key when DEBUG was off."""
    done = _start(module, **PRODUCTION)
    assert done.returncode != 0 and "started" not in done.stdout
    assert "SECRET_KEY is the repository's public default" in done.stderr
    assert _start(module, SECRET_KEY="q8" * 30 + "-real", **PRODUCTION).stdout.strip().endswith("started")


def test_a_table_on_ones_own_machine_still_starts_with_the_default_key() -> None:
    """``make run`` (DEBUG off, the default key, local hosts only) and a DEBUG server both start."""
    assert _start("config.asgi", DEBUG="false").stdout.strip().endswith("started")
    assert _start("config.asgi", DEBUG="true", ALLOWED_HOSTS="tablee.example.org").stdout.strip().endswith("started")


def test_the_readmes_production_command_bounds_the_shutdown_and_leaves_the_address_to_the_site() -> None:
    """What tests/campaigns/test_graceful_shutdown.py runs is what the README tells a host to run (issue 30)."""
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    commands = [
        line for line in readme.splitlines() if "uvicorn config.asgi:application" in line and "--workers" in line
    ]
    assert commands
    for command in commands:
        assert "--timeout-graceful-shutdown" in command and "--no-proxy-headers" in command, command
