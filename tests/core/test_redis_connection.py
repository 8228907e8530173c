"""The channel layer's Redis connections keep a cancellation that lands as a command is sent
(core/redis_connection.py): a closed socket's consumer ends instead of waiting for messages nobody will read."""

from __future__ import annotations

import asyncio
import sys
from collections.abc import Coroutine
from typing import Any

import pytest
from channels.layers import get_channel_layer
from django.conf import settings

from core.redis_connection import (
    CancellableConnection,
    CancellableSSLConnection,
    CancellableUnixConnection,
    _SendUnderTimeout,
    connection_class_for,
)


class _SendsLikeRedisPy:
    """What redis-py's ``send_packed_command`` does around the write: under ``asyncio.wait_for`` when the connection has
    a socket timeout, directly otherwise."""

    def __init__(self) -> None:
        self.socket_timeout: float | None = 15
        self.sent = 0

    async def _write(self) -> None:
        await asyncio.sleep(0)  # the drain: one turn of the loop
        self.sent += 1

    async def send_packed_command(self, command: object, check_health: bool = True) -> None:
        if self.socket_timeout:
            await asyncio.wait_for(self._write(), self.socket_timeout)
        else:
            await self._write()

    async def disconnect(self, nowait: bool = False) -> None:
        pass


class _Fixed(_SendUnderTimeout, _SendsLikeRedisPy):
    pass


async def _ends_when_cancelled(work: Coroutine[Any, Any, object], turns: int) -> bool:
    """Whether ``work``, cancelled ``turns`` turns of the loop after it began, ends within half a second."""
    task = asyncio.ensure_future(work)
    for _ in range(turns):
        await asyncio.sleep(0)
    task.cancel()
    try:
        await asyncio.wait_for(asyncio.shield(task), 0.5)
    except asyncio.CancelledError:
        return True
    except TimeoutError:
        task.cancel()
        return False
    return False


async def _kept(connection: _SendsLikeRedisPy, turns: int) -> bool:
    """Whether a cancellation ``turns`` turns of the loop after a send began reaches the sender."""

    async def sender() -> str:
        await connection.send_packed_command(b"PING")
        await asyncio.sleep(3600)  # a sender that lost its cancellation would wait here (a blocking read)
        return "lost"

    return await _ends_when_cancelled(sender(), turns)


@pytest.mark.asyncio
async def test_a_cancellation_that_lands_as_the_send_completes_is_kept() -> None:
    assert all([await _kept(_Fixed(), turns) for turns in range(6)])
    assert _Fixed().socket_timeout == 15  # the timeout is put back after each send
    fixed = _Fixed()
    await fixed.send_packed_command(b"PING")
    assert fixed.socket_timeout == 15 and fixed.sent == 1


@pytest.mark.skipif(sys.version_info >= (3, 12), reason="CPython 3.12 rebuilt wait_for on asyncio.timeout")
@pytest.mark.asyncio
async def test_under_wait_for_python_3_11_loses_it() -> None:
    """Why the connections exist: the same send under ``wait_for`` drops the cancellation for some landing turn."""
    assert not all([await _kept(_SendsLikeRedisPy(), turns) for turns in range(6)])


@pytest.mark.asyncio
async def test_a_send_past_the_socket_timeout_fails_as_redis_py_says_it() -> None:
    from redis import exceptions

    class Stuck(_SendsLikeRedisPy):
        async def _write(self) -> None:
            await asyncio.sleep(3600)

    class FixedStuck(_SendUnderTimeout, Stuck):
        pass

    stuck = FixedStuck()
    stuck.socket_timeout = 0.05
    with pytest.raises(exceptions.TimeoutError, match="Timeout writing to socket"):
        await stuck.send_packed_command(b"PING")
    assert stuck.socket_timeout == 0.05


def test_each_kind_of_address_gets_its_connection() -> None:
    assert connection_class_for("redis://127.0.0.1:6379/0") is CancellableConnection
    assert connection_class_for("rediss://cache.example:6380/0") is CancellableSSLConnection
    assert connection_class_for("unix:///run/redis.sock") is CancellableUnixConnection


@pytest.mark.skipif(not settings.REDIS_URL, reason="the Redis channel layer (CI's second pass sets REDIS_URL)")
@pytest.mark.asyncio
async def test_a_closed_sockets_receive_ends_wherever_its_cancellation_lands() -> None:
    """A consumer cancels its channel-layer receive when its socket closes and waits for it to end. Cancelled at every
    point of its first round trips (the connection's set-up and health check, the clean-up script, BZPOPMIN), the
    receive ends at once; with redis-py's own connections, some landing points left it blocking for good."""
    layer = get_channel_layer()
    assert layer is not None
    for turns in range(40):
        channel = await layer.new_channel()
        assert await _ends_when_cancelled(layer.receive(channel), turns), f"cancelled {turns} turns in, it blocked on"
