"""The campaign's characters, as the app that owns them lends them to the campaign's pages.

The campaign floor sits below ``characters``, yet its pages name characters: the dashboard's panels, the
player's home page, the log's note form and filter, the demo's cast. The characters app registers how to
read them here from its ``AppConfig.ready()`` (as it registers its ``campaigns.hooks``), so that
``campaigns`` never imports it.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from django.core.exceptions import ImproperlyConfigured

if TYPE_CHECKING:
    from django.contrib.auth.models import User
    from django.db.models import QuerySet
    from django.utils.safestring import SafeString

    from campaigns.models import Campaign, Membership


@dataclass(frozen=True)
class Cast:
    # The campaign's characters this member may see: never the narrator's secret NPCs.
    viewable: Callable[[Membership], QuerySet[Any]]
    # The narrator dashboard's characters, with what their panels show, in a fixed number of queries.
    for_panels: Callable[[Campaign], QuerySet[Any]]
    # The dashboard's grid of every character's panel for a narrator (a region, kept by its declaration), with the
    # request whose CSRF token it prints.
    panels: Callable[[Membership, Any], SafeString]
    # The characters a person plays in the campaign (their home page).
    owned: Callable[[Campaign, User], QuerySet[Any]]
    # The demo campaign's characters, made for its players, in the order its notes name them.
    demo: Callable[[Campaign, Sequence[User]], Sequence[Any]]


_cast: list[Cast] = []


def register_cast(cast: Cast) -> Cast:
    """Called once, from the characters app's ``ready()``."""
    _cast[:] = [cast]
    return cast


def cast() -> Cast:
    if not _cast:
        raise ImproperlyConfigured("no app registered the campaign's cast (is 'characters' installed?)")
    return _cast[0]
