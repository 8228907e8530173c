"""The domain error of the character rules.

Rules never build display text: they raise ``RuleViolation`` with a stable ``code`` naming the
broken rule and the values involved; ``characters.rule_messages`` turns it into a sentence in the
reader's language.
"""

from __future__ import annotations

from typing import Any


class RuleViolation(Exception):
    """An illegal sheet, allocation or Atout use. ``code`` names the rule, ``params`` its values."""

    def __init__(self, code: str, **params: Any) -> None:
        super().__init__(f"{code}: {params}" if params else code)
        self.code = code
        self.params = params


class DataError(ValueError):
    """A data file (trait list, vehicles, powers) is malformed: the message names file, entry and field."""
