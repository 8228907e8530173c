"""ASGI entry point: HTTP through Django, WebSockets through Channels (one group per campaign/game)."""

from __future__ import annotations

import gc
import os

import django

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
# What django.core.asgi.get_asgi_application does, with the handler that keeps its request threads (and so their
# database connections) from one request to the next.
django.setup(set_prefix=False)

from core.request_threads import PooledThreadsASGIHandler  # noqa: E402

django_asgi_app = PooledThreadsASGIHandler()

from core.checks import refuse_public_key_on_a_public_server  # noqa: E402

# A server others reach does not start with the repository's public SECRET_KEY (not only `check --deploy`).
refuse_public_key_on_a_public_server()

from channels.auth import AuthMiddlewareStack  # noqa: E402
from channels.routing import ProtocolTypeRouter, URLRouter  # noqa: E402

from campaigns.live_shutdown import lifespan  # noqa: E402
from config.routing import websocket_urlpatterns  # noqa: E402
from core.origin import SameOriginValidator  # noqa: E402

application = ProtocolTypeRouter(
    {
        "http": django_asgi_app,
        "websocket": SameOriginValidator(AuthMiddlewareStack(URLRouter(websocket_urlpatterns))),
        # SIGTERM closes the live sockets with 1001 before the server shuts down (campaigns/live_shutdown.py).
        "lifespan": lifespan,
    }
)


# What the app holds from its start (modules, URL patterns, settings, registries) lives as long as the process: frozen out
# of the garbage collector's reach, so that a full collection no longer walks it (40–80 ms of pause, which a live draw
# waited through on a 2-core machine; 10–25 ms after). Collected first, so that no garbage of the start is kept with it.
gc.collect()
gc.freeze()
