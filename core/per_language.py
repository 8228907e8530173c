"""Words translated once per language, for markup written in Python (``conflicts.odds_html``).

Those writers run on every keystroke and every board row; calling ``gettext`` for each label each time cost more
than writing the HTML. A ``PerLanguage`` builds its object (a class whose ``__init__`` translates its labels) the
first time each active language asks for it, then hands the same object back.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Generic, TypeVar

from django.utils.translation import get_language

T = TypeVar("T")


class PerLanguage(Generic[T]):
    def __init__(self, make: Callable[[], T]) -> None:
        self._make = make
        self._made: dict[str | None, T] = {}

    def __call__(self) -> T:
        language = get_language()
        made = self._made.get(language)
        if made is None:
            made = self._made[language] = self._make()
        return made
