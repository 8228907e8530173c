"""Redis connections for the channel layer that lose no cancellation (``settings.CHANNEL_LAYERS``).

redis-py sends a command under ``asyncio.wait_for`` when the connection has a socket timeout (ours: 15 s, above
channels-redis's 5 s blocking read). On Python 3.11, ``wait_for`` returns the send's result and drops a cancellation
that lands in the same turn of the loop as the send completes (the race CPython 3.12 fixed by rebuilding ``wait_for``
on ``asyncio.timeout``). A socket's consumer cancels its channel-layer receive when the socket closes: when that
cancellation landed on the receive's send (its health-check PING, the backup queue's clean-up script, the BZPOPMIN
itself), the receive went on blocking for messages addressed to a channel nobody reads any more, and the consumer,
which waits for it, never ended.

Here the send runs under ``asyncio.timeout``, which keeps the cancellation, with the same socket timeout and the same
error when it expires.
"""

from __future__ import annotations

import asyncio
from typing import Any

from redis import exceptions
from redis.asyncio.connection import AbstractConnection, Connection, SSLConnection, UnixDomainSocketConnection


class _SendUnderTimeout:
    """``send_packed_command`` bounded by ``asyncio.timeout`` rather than ``asyncio.wait_for``."""

    socket_timeout: float | None

    async def send_packed_command(self, command: Any, check_health: bool = True) -> None:
        timeout = self.socket_timeout
        if not timeout:
            await super().send_packed_command(command, check_health)  # type: ignore[misc]  # a mixin: the class after it sends
            return
        try:
            async with asyncio.timeout(timeout):
                # Without a socket timeout redis-py writes and drains directly (no ``wait_for``); the health check's
                # PING read on the way is bounded by this same timeout. One command at a time uses a connection.
                self.socket_timeout = None
                try:
                    await super().send_packed_command(command, check_health)  # type: ignore[misc]  # as above
                finally:
                    self.socket_timeout = timeout
        except TimeoutError as error:  # this timeout's own (redis-py's errors are not ``TimeoutError``)
            await self.disconnect(nowait=True)  # type: ignore[attr-defined]  # a mixin: the connection's
            raise exceptions.TimeoutError("Timeout writing to socket") from error


class CancellableConnection(_SendUnderTimeout, Connection):
    """``redis://``"""


class CancellableSSLConnection(_SendUnderTimeout, SSLConnection):
    """``rediss://``"""


class CancellableUnixConnection(_SendUnderTimeout, UnixDomainSocketConnection):
    """``unix://``"""


def connection_class_for(url: str) -> type[AbstractConnection]:
    """The connection class for a Redis URL, as redis-py would choose it by its scheme."""
    if url.startswith("rediss://"):
        return CancellableSSLConnection
    if url.startswith("unix://"):
        return CancellableUnixConnection
    return CancellableConnection
