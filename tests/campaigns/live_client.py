"""A test client for the campaign socket's JSON protocol (campaigns.consumers) that reads like the old one:
``receive_from`` returns the HTML of the next event, ``receive_nothing`` is true when no event arrives.
The protocol's own messages (the connection's ``at``, pings) are kept in ``frames`` for tests about them.
Game boards' sockets (campaigns.live_boards) speak the same JSON, with the game's version as the position; a
moment played out on the way to a version (``frame``) is read as HTML too.

When the application closes the socket, the communicator answers as a server does: a ``websocket.disconnect``
(``receive_output``), and waits for the consumer to stop by itself. Left running, it would be cancelled from outside when the
test's event loop ends, and cancelling its Redis channel-layer read mid-reply can stall for good (CI's PostgreSQL +
Redis pass ran out of time on it)."""

from __future__ import annotations

import asyncio
import json
from typing import Any

from channels.testing import WebsocketCommunicator


class LiveCommunicator(WebsocketCommunicator):
    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.frames: list[dict[str, Any]] = []
        self.pending: list[str] = []

    async def receive_output(self, timeout: float = 1) -> dict[str, Any]:
        """The next message the application sends; a close is answered with the server's disconnect, and the
        consumer is let stop by itself before the test goes on."""
        output: dict[str, Any] = await super().receive_output(timeout=timeout)
        if output["type"] == "websocket.close":
            await self.send_input({"type": "websocket.disconnect", "code": output.get("code", 1000)})
            await self.wait(timeout=5)
        return output

    async def receive_json_frame(self, timeout: float = 1) -> dict[str, Any]:
        frame = json.loads(await super().receive_from(timeout=timeout))
        self.frames.append(frame)
        return frame

    @property
    def speaks_json(self) -> bool:
        return str(self.scope["path"]).startswith(("/ws/campaigns/", "/ws/tragic/", "/ws/frag/"))

    async def receive_from(self, timeout: float = 1) -> str:  # type: ignore[override]
        """The HTML of the next event (replayed ones included), skipping pings and empty catch-ups."""
        if not self.speaks_json:
            return await super().receive_from(timeout=timeout)
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        while not self.pending:
            frame = await self.receive_json_frame(timeout=max(0.01, deadline - loop.time()))
            if frame["t"] in ("ev", "frame"):
                self.pending.append(frame["html"])
            elif frame["t"] == "at":
                self.pending.extend(html for _position, html in frame["missed"])
        return self.pending.pop(0)

    async def receive_nothing(self, timeout: float = 0.1, interval: float = 0.01) -> bool:
        """True when no event arrives within the timeout (pings and empty catch-ups are not events)."""
        if not self.speaks_json:
            return await super().receive_nothing(timeout=timeout, interval=interval)
        if self.pending:
            return False
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        while True:
            remaining = deadline - loop.time()
            if await super().receive_nothing(timeout=max(0.01, remaining), interval=interval):
                return True
            frame = await self.receive_json_frame()
            if frame["t"] in ("ev", "frame") or (frame["t"] == "at" and frame["missed"]):
                self.pending.extend([frame["html"]] if frame["t"] != "at" else [h for _p, h in frame["missed"]])
                return False
            if remaining <= 0:
                return True
