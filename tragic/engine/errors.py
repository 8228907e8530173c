from __future__ import annotations


class IllegalAction(Exception):
    """An action the rules refuse. The state it was applied to is unchanged.

    ``code`` is stable (the web layer translates it); ``reason`` is a readable English sentence.
    """

    def __init__(self, code: str, reason: str) -> None:
        super().__init__(reason)
        self.code = code
        self.reason = reason
