"""An engine's refusals, in the reader's language: the one mechanism both game engines use.

A pure engine (``tragic/engine``, ``frag/engine``) cannot import Django, so it refuses in English with a
template and its parameters (``IllegalAction.template``, ``.params``, ``.reason`` filled in). Each app
lists the templates its engine uses once, each wrapped in ``gettext_noop`` so that ``makemessages`` puts
it in the app's catalogue, and :meth:`RefusalCatalogue.text` translates a refusal when it is shown. The
apps' tests compare that list with the engine's source, so a new refusal cannot go untranslated.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from typing import Protocol

from django.utils.functional import Promise
from django.utils.translation import gettext

# A parameter that is a code word (an attribute letter, a card id, a phase) becomes a name to read.
Word = Callable[[object], object]


class Refusal(Protocol):
    """What both engines' ``IllegalAction`` carry."""

    template: str
    params: dict[str, object]
    reason: str


def labelled(labels: Mapping[str, object]) -> Word:
    """A word read through a table of (lazily translated) labels; values not in the table stay as they are."""

    def name(value: object) -> object:
        return str(labels[value]) if isinstance(value, str) and value in labels else value

    return name


class RefusalCatalogue:
    """The templates an engine refuses with, and how to read the words they name.

    ``templates`` are the engine's templates, which are also their English message ids. ``reworded`` maps
    the few templates whose English reads otherwise to that English message id (the Frag engine says
    « Santé » where the English page says "Health"). ``counted`` maps the templates that count something with
    their ``{n}`` blank (the engine's English says "card(s)") to ``ngettext_lazy(singular, plural, "n")``, so
    the reader gets "1 carte" and "3 cartes". ``words`` turns named parameters into names.
    """

    def __init__(
        self,
        templates: Iterable[str],
        *,
        reworded: Mapping[str, str] | None = None,
        counted: Mapping[str, Promise] | None = None,
        words: Mapping[str, Word] | None = None,
    ) -> None:
        self.messages: dict[str, str] = {template: template for template in templates} | dict(reworded or {})
        self.counted: dict[str, Promise] = dict(counted or {})
        self.words: dict[str, Word] = dict(words or {})

    @property
    def templates(self) -> set[str]:
        return set(self.messages) | set(self.counted)

    def translated(self, template: str, count: int = 2) -> str:
        """A listed template's sentence in the active language, blanks unfilled (a counted one in the form
        for ``count``)."""
        counted = self.counted.get(template)
        if counted is not None:
            # The lazy plural picks its form from the dict's "n"; a template with no %-blank comes back as it is.
            return str(counted % {"n": count})
        return gettext(self.messages[template])

    def text(self, refusal: Refusal) -> str:
        """The refusal's sentence in the active language (the engine's English when a template is not listed)."""
        if refusal.template not in self.messages and refusal.template not in self.counted:
            return refusal.reason
        params = {key: self.words[key](value) if key in self.words else value for key, value in refusal.params.items()}
        count = refusal.params.get("n", 2)
        return self.translated(refusal.template, count if isinstance(count, int) else 2).format(**params)
