"""The going-away handler (campaigns/live_shutdown.py) with fake sockets, in this process: SIGTERM closes every open
socket with 1001 ("going away") first, then hands the signal on to the server after a short grace; a second signal
hands it on at once. The real server is exercised by the slow ``test_graceful_shutdown``."""

from __future__ import annotations

import asyncio
import gc
import logging
import signal
from types import FrameType
from typing import Any

import pytest

from campaigns import live_shutdown
from campaigns.live_shutdown import (
    GOING_AWAY,
    close_every_socket,
    install_going_away,
    lifespan,
    open_sockets,
    socket_closed,
    socket_opened,
)


class FakeSocket:
    def __init__(self, fails: bool = False) -> None:
        self.codes: list[int | None] = []
        self.fails = fails

    async def close(self, code: int | None = None, reason: str | None = None) -> None:
        self.codes.append(code)
        if self.fails:
            raise ConnectionResetError("peer gone")


@pytest.fixture(autouse=True)
def no_open_socket() -> Any:
    live_shutdown._open.clear()
    yield
    live_shutdown._open.clear()


def test_the_process_counts_its_open_sockets_and_forgets_a_collected_one() -> None:
    one, two = FakeSocket(), FakeSocket()
    socket_opened(one)
    socket_opened(two)
    socket_opened(one)  # twice: still one socket
    assert open_sockets() == 2
    socket_closed(one)
    socket_closed(one)  # closing twice is harmless
    assert open_sockets() == 1
    del two
    gc.collect()
    assert open_sockets() == 0  # held weakly: a consumer that went away is not kept alive for the shutdown


@pytest.mark.asyncio
async def test_every_open_socket_is_closed_with_1001_even_if_one_of_them_fails(caplog) -> None:  # type: ignore[no-untyped-def]
    sockets = [FakeSocket(), FakeSocket(fails=True), FakeSocket()]
    for socket in sockets:
        socket_opened(socket)
    with caplog.at_level(logging.WARNING, logger="campaigns.live_shutdown"):
        assert await close_every_socket() == 3
    assert [socket.codes for socket in sockets] == [[GOING_AWAY]] * 3
    assert open_sockets() == 0
    assert "3 live socket(s) closed with 1001 (1 failed)" in caplog.text
    assert await close_every_socket() == 0  # already closed: nothing to do a second time


def test_the_first_signal_closes_the_sockets_then_reaches_the_server_after_the_grace(monkeypatch) -> None:  # type: ignore[no-untyped-def]
    heard: list[tuple[int, float]] = []
    loop_time: list[float] = []

    def server(signum: int, frame: FrameType | None) -> None:
        heard.append((signum, asyncio.get_running_loop().time()))

    monkeypatch.setattr(live_shutdown, "GOING_AWAY_SECONDS", 0.05)
    socket = FakeSocket()
    socket_opened(socket)

    async def main() -> None:
        loop = asyncio.get_running_loop()
        handler = live_shutdown._handler(loop, server)
        loop_time.append(loop.time())
        handler(signal.SIGTERM, None)
        await asyncio.sleep(0.01)
        assert socket.codes == [GOING_AWAY] and heard == []  # the sockets first, the server not yet
        await asyncio.sleep(0.15)

    asyncio.run(main())
    assert [signum for signum, _ in heard] == [signal.SIGTERM]
    assert heard[0][1] - loop_time[0] >= 0.05


def test_a_second_signal_reaches_the_server_at_once(monkeypatch) -> None:  # type: ignore[no-untyped-def]
    heard: list[int] = []
    monkeypatch.setattr(live_shutdown, "GOING_AWAY_SECONDS", 10)

    async def main() -> None:
        handler = live_shutdown._handler(asyncio.get_running_loop(), lambda signum, frame: heard.append(signum))
        handler(signal.SIGTERM, None)
        handler(signal.SIGINT, None)  # impatience: no more grace
        assert heard == [signal.SIGINT]

    asyncio.run(main())


class FakeLoop:
    """Records what the handler schedules; a signal handler runs outside the loop and may only schedule."""

    def __init__(self) -> None:
        self.scheduled: list[Any] = []

    def call_soon_threadsafe(self, callback: Any, *args: Any) -> None:
        self.scheduled.append((callback, *args))

    def call_later(self, delay: float, callback: Any, *args: Any) -> None:
        self.scheduled.append((delay, callback, *args))


def test_without_a_server_handler_the_default_action_is_restored_and_raised(monkeypatch) -> None:  # type: ignore[no-untyped-def]
    installed: list[tuple[int, Any]] = []
    raised: list[int] = []
    monkeypatch.setattr(signal, "signal", lambda signum, action: installed.append((signum, action)))
    monkeypatch.setattr(signal, "raise_signal", raised.append)
    loop = FakeLoop()
    handler = live_shutdown._handler(loop, signal.SIG_DFL)  # type: ignore[arg-type]
    handler(signal.SIGTERM, None)
    assert installed == [] and raised == [] and len(loop.scheduled) == 2  # the close, then the pass-on, scheduled
    handler(signal.SIGTERM, None)
    assert installed == [(signal.SIGTERM, signal.SIG_DFL)] and raised == [signal.SIGTERM]

    ignored = live_shutdown._handler(FakeLoop(), signal.SIG_IGN)  # type: ignore[arg-type]
    ignored(signal.SIGINT, None)
    ignored(signal.SIGINT, None)  # the signal was ignored before us: still ignored
    assert installed == [(signal.SIGTERM, signal.SIG_DFL)] and raised == [signal.SIGTERM]


def test_the_handler_goes_in_front_of_the_servers_once() -> None:
    saved = {sig: signal.getsignal(sig) for sig in live_shutdown.HANDLED}
    loop = asyncio.new_event_loop()
    try:
        install_going_away(loop)
        ours = {sig: signal.getsignal(sig) for sig in live_shutdown.HANDLED}
        assert all(getattr(handler, "going_away", False) for handler in ours.values())
        install_going_away(loop)  # a second lifespan does not stack a second handler
        assert {sig: signal.getsignal(sig) for sig in live_shutdown.HANDLED} == ours
    finally:
        for sig, handler in saved.items():
            signal.signal(sig, handler)
        loop.close()


async def _lifespan(messages: list[str]) -> list[dict[str, str]]:
    queue = [{"type": kind} for kind in messages]
    sent: list[dict[str, str]] = []

    async def receive() -> dict[str, str]:
        return queue.pop(0)

    async def send(message: dict[str, str]) -> None:
        sent.append(message)

    await lifespan({"type": "lifespan"}, receive, send)
    return sent


@pytest.mark.asyncio
async def test_the_lifespan_installs_the_handler_at_startup_and_completes_both_phases(monkeypatch) -> None:  # type: ignore[no-untyped-def]
    loops: list[asyncio.AbstractEventLoop] = []
    monkeypatch.setattr(live_shutdown, "install_going_away", loops.append)
    sent = await _lifespan(["lifespan.startup", "lifespan.shutdown"])
    assert sent == [{"type": "lifespan.startup.complete"}, {"type": "lifespan.shutdown.complete"}]
    assert loops == [asyncio.get_running_loop()]


@pytest.mark.asyncio
async def test_a_server_running_the_app_off_the_main_thread_still_starts(monkeypatch, caplog) -> None:  # type: ignore[no-untyped-def]
    def off_the_main_thread(loop: asyncio.AbstractEventLoop) -> None:
        raise ValueError("signal only works in main thread of the main interpreter")

    monkeypatch.setattr(live_shutdown, "install_going_away", off_the_main_thread)
    with caplog.at_level(logging.INFO, logger="campaigns.live_shutdown"):
        sent = await _lifespan(["lifespan.startup", "lifespan.shutdown"])
    assert sent == [{"type": "lifespan.startup.complete"}, {"type": "lifespan.shutdown.complete"}]
    assert "no going-away handler: signal only works in main thread" in caplog.text
