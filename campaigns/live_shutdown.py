"""A server going away closes its live sockets with 1001 ("going away") first, so pages reconnect to the next one.

On SIGTERM uvicorn stops accepting, closes every connection with 1012, then waits for the application's tasks;
a socket's task could still be busy, and a worker waited "for background tasks to complete" for minutes. Here the
process's own signal handler (installed at the ASGI lifespan's start, after uvicorn's) first asks every open socket
to close with 1001, which ends its task through ``disconnect``, then hands the signal on to uvicorn after
``GOING_AWAY_SECONDS``. The command's ``--timeout-graceful-shutdown`` bounds whatever is left (README).
"""

from __future__ import annotations

import asyncio
import logging
import signal
import weakref
from collections.abc import Awaitable, Callable
from types import FrameType
from typing import Any, Protocol

logger = logging.getLogger(__name__)

GOING_AWAY = 1001
# Time for the close frames to leave before uvicorn closes the connections itself (with 1012).
GOING_AWAY_SECONDS = 0.3
HANDLED = (signal.SIGTERM, signal.SIGINT)


class Closable(Protocol):
    def close(self, code: int | None = ..., reason: str | None = ...) -> Awaitable[None]: ...


_open: weakref.WeakSet[Any] = weakref.WeakSet()


def socket_opened(consumer: Closable) -> None:
    _open.add(consumer)


def socket_closed(consumer: Closable) -> None:
    _open.discard(consumer)


def open_sockets() -> int:
    return len(_open)


async def close_every_socket() -> int:
    """Close every open socket of the process with 1001; how many there were."""
    consumers = list(_open)
    _open.clear()
    results = await asyncio.gather(*(consumer.close(code=GOING_AWAY) for consumer in consumers), return_exceptions=True)
    failed = [result for result in results if isinstance(result, BaseException)]
    logger.warning("shutting down: %d live socket(s) closed with 1001 (%d failed)", len(consumers), len(failed))
    return len(consumers)


def install_going_away(loop: asyncio.AbstractEventLoop) -> None:
    """Put this process's handler in front of the server's for SIGTERM and SIGINT (main thread only)."""
    for sig in HANDLED:
        previous = signal.getsignal(sig)
        if getattr(previous, "going_away", False):
            continue  # installed already (a second lifespan)
        signal.signal(sig, _handler(loop, previous))


def _handler(loop: asyncio.AbstractEventLoop, previous: Any) -> Callable[[int, FrameType | None], None]:
    state = {"seen": False}

    def pass_on(signum: int, frame: FrameType | None) -> None:
        if callable(previous):
            previous(signum, frame)
        elif previous == signal.SIG_DFL:
            signal.signal(signum, signal.SIG_DFL)
            signal.raise_signal(signum)

    def going_away(signum: int, frame: FrameType | None) -> None:
        if state["seen"]:  # a second signal: no more grace
            pass_on(signum, frame)
            return
        state["seen"] = True
        loop.call_soon_threadsafe(lambda: loop.create_task(close_every_socket()))
        loop.call_soon_threadsafe(loop.call_later, GOING_AWAY_SECONDS, pass_on, signum, frame)

    going_away.going_away = True  # type: ignore[attr-defined]  # marks the handler as ours
    return going_away


async def lifespan(scope: dict[str, Any], receive: Any, send: Any) -> None:
    """The ASGI lifespan: installs the handler once the server has installed its own."""
    while True:
        message = await receive()
        if message["type"] == "lifespan.startup":
            try:
                install_going_away(asyncio.get_running_loop())
            except ValueError as error:  # not the main thread (a server that runs us in a thread)
                logger.info("no going-away handler: %s", error)
            await send({"type": "lifespan.startup.complete"})
        elif message["type"] == "lifespan.shutdown":
            await send({"type": "lifespan.shutdown.complete"})
            return
