"""The one domain error of the state cards."""

from __future__ import annotations


class IllegalTransition(Exception):
    """A move the cards forbid. ``code`` lets the shell translate ``reason``; nothing was changed."""

    def __init__(self, code: str, reason: str, **params: object) -> None:
        super().__init__(reason)
        self.code = code
        self.reason = reason
        self.params = params
