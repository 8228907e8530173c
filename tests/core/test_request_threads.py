"""The ASGI handler keeps its request threads (core/request_threads.py), and a request makes no hop back to the event
loop between its middleware and its view (core.middleware.LockoutMiddleware)."""

from __future__ import annotations

import asyncio
import threading
from typing import Any

import pytest
from asgiref import sync
from asgiref.testing import ApplicationCommunicator
from django.core.signals import request_finished

from core.request_threads import ExecutorPool, PooledThreadsASGIHandler

pytestmark = pytest.mark.django_db(transaction=True)


def _scope(path: str) -> dict[str, Any]:
    return {
        "type": "http", "asgi": {"version": "3.0"}, "http_version": "1.1", "method": "GET", "scheme": "http",
        "path": path, "raw_path": path.encode(), "query_string": b"", "root_path": "",
        "headers": [(b"host", b"testserver")], "client": ("127.0.0.1", 5000), "server": ("testserver", 80),
    }  # fmt: skip


async def _get(app: Any, path: str = "/healthz") -> int:
    communicator = ApplicationCommunicator(app, _scope(path))
    await communicator.send_input({"type": "http.request", "body": b"", "more_body": False})
    start = await communicator.receive_output(10)
    await communicator.receive_output(10)  # the body
    await communicator.wait(10)
    return int(start["status"])


def _threads_of_requests(app: Any, count: int, *, at_once: bool) -> list[str]:
    """The threads the requests' answers were closed on (Django closes an answer on the request's thread)."""
    names: list[str] = []

    def note(**_kwargs: Any) -> None:
        names.append(threading.current_thread().name)

    request_finished.connect(note)
    try:

        async def requests() -> list[int]:
            if at_once:
                return list(await asyncio.gather(*(_get(app) for _ in range(count))))
            return [await _get(app) for _ in range(count)]

        assert asyncio.run(requests()) == [200] * count
    finally:
        request_finished.disconnect(note)
    return names


def test_requests_one_after_another_run_on_one_kept_thread() -> None:
    app = PooledThreadsASGIHandler()
    names = _threads_of_requests(app, 3, at_once=False)
    assert len(names) == 3 and len(set(names)) == 1, names
    assert names[0].startswith("request")
    assert app.executors.made == 1


def test_requests_at_once_never_share_a_thread_then_their_threads_are_kept() -> None:
    app = PooledThreadsASGIHandler()
    at_once = _threads_of_requests(app, 3, at_once=True)
    assert len(set(at_once)) == 3, at_once
    made = app.executors.made
    again = _threads_of_requests(app, 3, at_once=True)
    assert set(again) == set(at_once)
    assert app.executors.made == made


def test_a_full_pool_lets_an_extra_thread_go() -> None:
    pool = ExecutorPool(kept=1)
    first, second = pool.take(), pool.take()
    pool.give_back(first)
    pool.give_back(second)
    assert pool.take() is first
    assert second._shutdown  # type: ignore[attr-defined]  # the executor's own flag: no public accessor


def test_a_request_goes_from_its_middleware_to_its_view_without_a_hop_back_to_the_event_loop(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # Django adapts a middleware chain mixing synchronous and asynchronous parts with async_to_sync; axes' own
    # middleware ran asynchronously below the others, one hop to the event loop and back per request.
    hops: list[object] = []
    real_call = sync.AsyncToSync.__call__

    def counted(self: Any, *args: Any, **kwargs: Any) -> Any:
        hops.append(self.awaitable)
        return real_call(self, *args, **kwargs)

    monkeypatch.setattr(sync.AsyncToSync, "__call__", counted)
    app = PooledThreadsASGIHandler()
    assert asyncio.run(_get(app)) == 200
    # /healthz itself sends to the channel layer through async_to_sync: only the chain's own adapters count.
    assert [hop for hop in hops if getattr(hop, "__name__", "") != "group_send"] == []


def test_the_server_s_application_uses_the_kept_threads() -> None:
    from config.asgi import django_asgi_app

    assert isinstance(django_asgi_app, PooledThreadsASGIHandler)
