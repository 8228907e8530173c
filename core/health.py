"""What ``/healthz`` checks: the database and the channel layer the live table runs on."""

from __future__ import annotations

import logging

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
from django.db import connection

logger = logging.getLogger(__name__)


def database_ok() -> bool:
    try:
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")
            row: tuple[object, ...] | None = cursor.fetchone()
            return row == (1,)
    except Exception as error:  # an unreachable database shows as any driver error
        logger.warning("healthz: database down: %r", error)
        return False


def channel_layer_ok() -> bool:
    """A message to a group nobody is in exercises the layer's connection (Redis) without side effects."""
    layer = get_channel_layer()
    if layer is None:
        return False
    try:
        async_to_sync(layer.group_send)("healthz", {"type": "healthz"})
    except Exception as error:  # a refused or timed-out Redis
        logger.warning("healthz: channel layer down: %r", error)
        return False
    return True


def components_down() -> list[str]:
    """The names of what does not answer, in a stable order (empty when all is well)."""
    checks = (("database", database_ok), ("channel_layer", channel_layer_ok))
    return [name for name, check in checks if not check()]
