"""The one error the pure rules raise: an illegal move, with a reason code and its values."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any


class RuleError(Exception):
    """An illegal request. ``code`` names the reason; the Django layer turns it into a sentence.

    Rules never build display text (design rule 1), so the code and its ``values`` are what
    callers translate (``conflicts.messages``).
    """

    def __init__(self, code: str, /, **values: Any) -> None:
        super().__init__(f"{code}: {values}" if values else code)
        self.code = code
        self.values: Mapping[str, Any] = values
