"""How each kind of Event reads in the log, in the reader's language.

Apps register one describer per event kind (``@describes("atout.spent")``). A describer gets the
Event and returns a sentence; it is called at render time so the log follows the reader's
language, and it never touches the database (payloads carry what it needs, characters are
prefetched).
"""

from __future__ import annotations

import copy
from collections.abc import Callable
from typing import TYPE_CHECKING

from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext as _

from campaigns.redaction import visible_parts

if TYPE_CHECKING:
    from campaigns.models import Event

Describer = Callable[["Event"], str]
Illustrator = Callable[["Event"], str]

_describers: dict[str, Describer] = {}
_illustrators: dict[str, Illustrator] = {}
_kind_labels: dict[str, Callable[[], str]] = {}


def describes(*kinds: str, label: Callable[[], str] | None = None) -> Callable[[Describer], Describer]:
    def register(func: Describer) -> Describer:
        for kind in kinds:
            _describers[kind] = func
            if label is not None:
                _kind_labels[kind] = label
        return func

    return register


def illustrates(*kinds: str) -> Callable[[Illustrator], Illustrator]:
    """Register a picture shown under the sentence of an event kind (drawn cards, for instance): HTML built
    from the event alone, escaped by the illustrator, never touching the database (as describers)."""

    def register(func: Illustrator) -> Illustrator:
        for kind in kinds:
            _illustrators[kind] = func
        return func

    return register


def illustrate(event: Event) -> SafeString:
    illustrator = _illustrators.get(event.kind)
    return mark_safe(illustrator(event)) if illustrator else SafeString("")  # noqa: S308 - illustrators escape


def describe(event: Event) -> str:
    """The event's sentence, then its parts' (``campaigns.redaction``), each as an Event of its kind reads: only
    the parts ``visible_parts`` hands over (a reader's copy: theirs; any other Event: everyone's)."""
    describer = _describers.get(event.kind)
    text = _("%(kind)s happened.") % {"kind": event.kind} if describer is None else describer(event)
    for part in visible_parts(event):
        told = copy.copy(event)
        told.kind, told.payload = str(part.get("kind", "")), dict(part.get("payload") or {})
        text += " " + describe(told)
    return text


def kind_label(kind: str) -> str:
    label = _kind_labels.get(kind)
    return label() if label else kind


def known_kinds() -> list[str]:
    return sorted(_describers)


def actor_name(event: Event) -> str:
    return event.actor.username if event.actor_id and event.actor else _("someone")


def character_names(event: Event) -> str:
    return ", ".join(c.name for c in event.characters.all())
