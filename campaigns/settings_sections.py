"""The sections of the campaign's one settings page, each lent by the app that owns its options.

The narrator's settings used to be four pages (the campaign, the character options with a raw TOML trait list,
the Savage-style options, the table's cards). They are one page now, one section per concern, each with its own
form, saved on its own (POST, then a redirect back to the section) and versioned by its own rows, so that two
narrators never overwrite each other silently. The campaign floor sits below the apps whose options these are:
each app registers its sections here from its ``AppConfig.ready()`` (as it registers its ``campaigns.cast``), so
that ``campaigns`` never imports a feature app.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from core.errors import ServiceError

if TYPE_CHECKING:
    from django.forms import BaseForm

    from campaigns.access import MemberRequest


@dataclass(frozen=True)
class SectionAnswer:
    """What a section's POST came to: saved (the page redirects, with ``message``), or refused with the bound
    forms to show again (``context``, merged over the section's own) and the HTTP status (400, 409 when stale)."""

    saved: bool
    message: str = ""
    context: dict[str, Any] = field(default_factory=dict)
    status: int = 400


@dataclass(frozen=True)
class SettingsSection:
    # The section's slug: its address (``settings/<key>/``) and its anchor on the page (``#settings-<key>``).
    key: str
    title: Callable[[], str]
    # Sections are shown by this number, low first.
    order: int
    # The section's body, rendered with ``campaign``, ``membership``, ``section`` and ``context(request)``.
    template: str
    # The section's forms and what else it shows, drawn fresh for the narrator.
    context: Callable[[MemberRequest], dict[str, Any]]
    # Apply a POST; ``None`` for a section whose forms post elsewhere (the public log's buttons).
    post: Callable[[MemberRequest], SectionAnswer] | None = None

    @property
    def anchor(self) -> str:
        return f"settings-{self.key}"


_sections: dict[str, SettingsSection] = {}


def register_settings_section(section: SettingsSection) -> SettingsSection:
    """Called from an app's ``ready()``; registering a key again replaces the section (tests reload apps)."""
    _sections[section.key] = section
    return section


def settings_sections() -> list[SettingsSection]:
    return sorted(_sections.values(), key=lambda s: (s.order, s.key))


def settings_section(key: str) -> SettingsSection | None:
    return _sections.get(key)


def saved_or_refused(forms: dict[str, BaseForm], apply: Callable[[], object], *, message: str) -> SectionAnswer:
    """The common POST of a section: every form valid, then ``apply`` (one service, atomic); a refusal of the
    service is shown on the first form, with the posted values kept (nothing typed is lost)."""
    valid = [form.is_valid() for form in forms.values()]  # every form, so that each shows its own errors
    if all(valid):
        try:
            apply()
        except ServiceError as exc:
            next(iter(forms.values())).add_error(None, exc.message)
            return SectionAnswer(False, context=dict(forms), status=exc.status)
        return SectionAnswer(True, message)
    return SectionAnswer(False, context=dict(forms), status=400)
