"""Django's ASGI handler with its request threads kept, their database connections with them, and each request run
in one go on its thread.

Django's ASGI handler runs each request's synchronous code (middleware, view, template) in a thread of its own: it
enters ``asgiref.sync.ThreadSensitiveContext()``, which makes a one-thread executor for the request, starts its
thread, and on leaving shuts it down from yet another thread started to join it. Django's connections are per
thread, and so are the reads ``core.prepared`` compiles: every request opened a database connection and closed it,
and compiled its reads again. Measured under a live table (py-spy, docs/benchmarks.md), the connections were some 8 %
of a draw's server CPU and the compiling 5 %, whatever ``CONN_MAX_AGE`` said, since no thread lived to reuse them.

``PooledThreadsASGIHandler`` hands each request a one-thread executor of its own, as Django does, but takes it from a
pool and gives it back after the answer (``ThreadSensitiveContext(executor=…)``, asgiref's way of supplying one):
requests still never share a thread at the same time, and a thread, with its connection, serves request after
request. A request whose view is still running when its context ends (the client went away and Django cancelled the
task) leaves work queued on its executor; the executor runs one call at a time, so the next request given it waits
for that work rather than sharing its connection. The pool keeps at most ``REQUEST_THREADS_KEPT`` idle executors; one
more request at once gets a new executor, shut down when it is given back to a full pool.

Django also builds an ASGI handler's middleware chain to end in its asynchronous ``_get_response_async``: with
synchronous middleware (all of ours, and axes' below them, which takes the mode of what it wraps), a request went
from the event loop to its thread for the middleware, back to the loop for ``_get_response_async``, and to the thread
again for the view. No view of ours is asynchronous, so the handler builds the chain as Django does for WSGI, view
included, and enters it once from the loop.
"""

from __future__ import annotations

from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from asgiref.sync import ThreadSensitiveContext, sync_to_async
from django.conf import settings
from django.core.handlers.asgi import ASGIHandler
from django.http import HttpRequest, HttpResponseBase


class ExecutorPool:
    """One-thread executors handed out one per request and taken back afterwards (last in, first out: the
    warmest thread, whose connection is freshest, serves next)."""

    def __init__(self, kept: int) -> None:
        self.kept = kept
        self._idle: list[ThreadPoolExecutor] = []
        self.made = 0

    def take(self) -> ThreadPoolExecutor:
        # Only the event loop's thread takes and gives back, so no lock is needed around the list.
        if self._idle:
            return self._idle.pop()
        self.made += 1
        return ThreadPoolExecutor(max_workers=1, thread_name_prefix=f"request-{self.made}")

    def give_back(self, executor: ThreadPoolExecutor) -> None:
        if len(self._idle) < self.kept:
            self._idle.append(executor)
        else:
            # wait=False: the loop must not block on a view that is still finishing; the thread ends after it.
            executor.shutdown(wait=False)


class PooledThreadsASGIHandler(ASGIHandler):
    """Django's ASGI handler, each request run on a kept thread rather than a new one."""

    def __init__(self) -> None:
        super().__init__()
        self.executors = ExecutorPool(settings.REQUEST_THREADS_KEPT)

    def load_middleware(self, is_async: bool = False) -> None:
        # The synchronous chain, view included, entered once on the request's thread (the module's docstring).
        super().load_middleware(is_async=False)
        chain: Callable[[HttpRequest], HttpResponseBase] = self._middleware_chain  # type: ignore[has-type]  # set by Django, undeclared in its stubs
        self._middleware_chain = sync_to_async(chain, thread_sensitive=True)

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> None:
        if scope["type"] != "http":
            raise ValueError(f"Django can only handle ASGI/HTTP connections, not {scope['type']}.")
        executor = self.executors.take()
        try:
            async with ThreadSensitiveContext(executor=executor):
                await self.handle(scope, receive, send)
        finally:
            self.executors.give_back(executor)
