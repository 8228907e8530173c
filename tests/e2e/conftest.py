"""Browser tests: a real ASGI server (uvicorn, WebSockets included) and Debian's Chromium.

Fixtures:
- ``live_server_url``: base URL of a uvicorn server on a free port, on its own migrated SQLite
  file, shared by the tests of a session. ``run_in_server_db(code)`` runs Python (Django set up)
  against that same database, e.g. to create accounts.
- ``browser``: a headless Chromium (Playwright, ``executable_path=/usr/bin/chromium``).
- ``new_context(**kwargs)``: a fresh browser context (its own cookies), closed after the test.
- ``make_user(username, password)`` and ``login(page, username, password)``.
"""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
import warnings
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
CHROMIUM = os.environ.get("CHROMIUM", "/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
    "--disable-quic",
]
E2E_PASSWORD = "e2e-password-123"


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


class LiveServer:
    def __init__(self, workdir: Path) -> None:
        self.db_path = workdir / "e2e.sqlite3"
        self.port = _free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.env = {
            **os.environ,
            "DATABASE_URL": f"sqlite:///{self.db_path}",
            "DEBUG": "false",
            "STATIC_MANIFEST": "false",
            "ALLOWED_HOSTS": "127.0.0.1,localhost",
            "DJANGO_SETTINGS_MODULE": "config.settings",
            "PYTHONPATH": str(ROOT),
        }
        self.env.pop("REDIS_URL", None)  # one server process: the in-memory channel layer is enough
        self.log = (workdir / "server.log").open("w")
        self.process: subprocess.Popen[bytes] | None = None

    def start(self) -> None:
        subprocess.run(
            [sys.executable, "manage.py", "migrate", "--noinput", "-v", "0"], cwd=ROOT, env=self.env, check=True
        )
        self.process = subprocess.Popen(
            [sys.executable, "-m", "uvicorn", "config.asgi:application", "--host", "127.0.0.1",
             "--port", str(self.port), "--no-access-log"],
            cwd=ROOT, env=self.env, stdout=self.log, stderr=subprocess.STDOUT,
        )  # fmt: skip
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            try:
                with urllib.request.urlopen(self.url + "/healthz", timeout=1) as response:
                    if response.status == 200:
                        return
            except OSError:
                time.sleep(0.2)
        raise RuntimeError(f"the live server did not start; see {self.log.name}")

    def run_python(self, code: str) -> str:
        """Run Python with Django set up against the server's database; returns stdout."""
        script = "import django; django.setup()\n" + code
        done = subprocess.run(
            [sys.executable, "-c", script], cwd=ROOT, env=self.env, check=True, capture_output=True, text=True
        )
        return done.stdout

    def stop(self) -> None:
        if self.process is not None:
            self.process.terminate()
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.process.kill()
        self.log.close()


@pytest.fixture(scope="session")
def live_server_obj() -> Iterator[LiveServer]:
    with tempfile.TemporaryDirectory(prefix="tablee-e2e-") as workdir:
        server = LiveServer(Path(workdir))
        server.start()
        try:
            yield server
        finally:
            server.stop()


@pytest.fixture(scope="session")
def live_server_url(live_server_obj: LiveServer) -> str:
    return live_server_obj.url


@pytest.fixture(scope="session")
def run_in_server_db(live_server_obj: LiveServer) -> Callable[[str], str]:
    return live_server_obj.run_python


@pytest.fixture(scope="session")
def browser():  # type: ignore[no-untyped-def]
    from playwright.sync_api import sync_playwright

    if not Path(CHROMIUM).exists():
        pytest.fail(f"{CHROMIUM} is missing: `make e2e` installs Debian's chromium package.")
    with sync_playwright() as playwright:
        chromium = playwright.chromium.launch(executable_path=CHROMIUM, headless=True, args=CHROMIUM_ARGS)
        yield chromium
        chromium.close()


@pytest.fixture
def new_context(browser, live_server_url: str):  # type: ignore[no-untyped-def]
    """Every page of every context is watched: a live message sent for a region the page does not show
    (htmx logs ``htmx:oobErrorNoTarget``) fails the test, whatever the test was about."""
    contexts = []
    no_target: list[str] = []

    def watch(message) -> None:  # type: ignore[no-untyped-def]
        if "oobErrorNoTarget" in message.text or message.text.startswith("oob-no-target"):
            no_target.append(f"{message.page.url if message.page else '?'}: {message.text}")

    def make(**kwargs):  # type: ignore[no-untyped-def]
        kwargs.setdefault("base_url", live_server_url)
        kwargs.setdefault("locale", "fr-FR")
        context = browser.new_context(**kwargs)
        context.set_default_timeout(20_000)
        context.on("console", watch)
        # Names the fragment in the failure: htmx's own log line says only "htmx:oobErrorNoTarget".
        context.add_init_script(
            "document.addEventListener('htmx:oobErrorNoTarget', function (e) {"
            " var c = e.detail && e.detail.content; console.warn('oob-no-target '"
            " + (c && c.outerHTML ? c.outerHTML.slice(0, 160) : '?')); });"
        )
        contexts.append(context)
        return context

    yield make
    for context in contexts:
        context.close()
    # Issue 10 asks for none: the server sends a page only the regions it names (campaigns.live) and the
    # pages drop what a POST answer carries for regions they do not have. E2E_STRICT_OOB=0 only warns.
    report = "live fragments sent for regions the page does not show:\n" + "\n".join(no_target)
    if os.environ.get("E2E_STRICT_OOB", "1") != "0":
        assert not no_target, report
    elif no_target:
        warnings.warn(report, stacklevel=1)


@pytest.fixture
def make_user(run_in_server_db: Callable[[str], str]) -> Callable[..., str]:
    def make(username: str, password: str = E2E_PASSWORD) -> str:
        run_in_server_db(
            "from django.contrib.auth.models import User\n"
            f"u, _ = User.objects.get_or_create(username={username!r})\n"
            f"u.set_password({password!r}); u.save()\n"
        )
        return username

    return make


def login(page, username: str, password: str = E2E_PASSWORD) -> None:  # type: ignore[no-untyped-def]
    page.goto("/accounts/login/")
    page.locator("input[name=username]").fill(username)
    page.locator("input[name=password]").fill(password)
    page.locator("main form button[type=submit]").click()
    page.wait_for_url(lambda url: "/accounts/login/" not in url)


def box_of(locator):  # type: ignore[no-untyped-def]
    """The element's box once it is on screen: a live push may replace it while it is measured."""
    for _ in range(50):
        box = locator.bounding_box()
        if box is not None:
            return box
        locator.page.wait_for_timeout(100)
    raise AssertionError(f"{locator} never came on screen")


def add_to_sequence(page, name: str, side: str, goal: str = "", trait: str = "Combat") -> None:  # type: ignore[no-untyped-def]
    """The narrator adds a participant from the Sequence page: its fold loads the form when opened (French)."""
    from playwright.sync_api import expect

    page.locator("#add-participant").click()
    form = page.locator("details", has=page.locator("#add-participant")).locator("form")
    form.get_by_label("Personnage").select_option(label=name)
    form.get_by_label("Camp").fill(side)
    if goal:
        form.get_by_label("But").fill(goal)
    form.get_by_label("Caractéristique", exact=False).first.select_option(label=trait)
    form.get_by_role("button", name="Ajouter à la Séquence").click()
    expect(page.locator(".board")).to_contain_text(name)
