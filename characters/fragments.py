"""A character's sheet and dashboard panel, rendered once and kept.

The sheet is a region (``core.regions``): ``sheet_depends`` below declares what it reads, and
``core.kept_regions`` derives its key from that declaration (``characters.views.sheet.SHEET`` puts the
declaration, the context builder and the template together). The dashboard's panels are still kept by a key
made here by hand (``panel_key``): the character's version and its state's, the campaign row and the reader's
role; they are the next to become a region.

The page (``characters.views.sheet``), the dashboard (``{% character_panel %}``) and the live layer all render
through these functions, so a push reuses what a page kept (and the reverse).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from django.template.loader import render_to_string
from django.utils.safestring import SafeString, mark_safe

from campaigns.event_subjects import CAST, CHARACTER, CHARACTERS, MEMBERS, SESSION, SETTINGS, STATES
from campaigns.kept import table_head
from characters.models import Character
from characters.selectors import characters_for_panels
from core.fragment_cache import kept
from core.regions import Depends, subject

PANEL_TEMPLATE = "characters/partials/panel.html"
PANEL_SEPARATOR = "\x1e"  # between the panels kept as one string (never in HTML)


@dataclass(frozen=True)
class CastRow:
    """One character of a campaign as keys need it: one light query reads them all."""

    pk: int
    name: str
    kind: str
    owner_id: int | None
    version: int
    state_version: int | None


def cast_of(campaign_id: int) -> list[CastRow]:
    """The campaign's characters in the dashboard's order, with their versions and their states' versions."""
    rows = (
        Character.objects.filter(campaign_id=campaign_id)
        .order_by("kind", "name", "pk")
        .values_list("pk", "name", "kind", "owner_id", "version", "savage_state__version")
    )
    return [CastRow(*row) for row in rows]


def _session(request: Any) -> tuple[tuple[str, Any], ...]:
    # The roll controls read the reader's remembered difficulty from the session (conflicts' sheet roll); Django's
    # own entries (``_auth_user_id``…) are read by no sheet, and leaving them out lets a page and a live push (which
    # has no session) share one rendering.
    session = getattr(request, "session", None)
    return tuple(sorted((k, v) for k, v in session.items() if not k.startswith("_"))) if session is not None else ()


def sheet_depends(character: Character, membership: Any, request: Any = None) -> Depends:
    """The declaration of the sheet region (``characters.views.sheet.SHEET``): what ``detail.html#sheet`` of
    ``character`` reads for ``membership``.

    Subjects: the character and its states (traits, Revers, gear, ledger, badges, the roll chips' standing);
    the table's settings (character options, trait list, the Savage dice table the attribute rows read through
    ``conflicts_tags.attribute_rolls``); who is in the campaign and its members (the lists of the « take a
    Revers », « hand the ally » forms); whether a session is open; and every character of the campaign, whose
    active Revers the « take a Revers in another's place » form offers, each with its character's ``version``
    (the form's optimistic-concurrency token): one subject for them all rather than one per other character,
    so the key needs no read of the cast (a change to a character the reader may not see re-renders the sheet,
    and shows nothing more). Rows: the character's own
    version and the campaign row (options, and the ``log_epoch`` renames of people and sessions bump). Viewer:
    the member's rights and the session the roll controls remember a difficulty in."""
    campaign_id = character.campaign_id
    own = {subject(CHARACTER, character.pk), subject(STATES, character.pk)}
    table = {subject(scope, campaign_id) for scope in (SETTINGS, CAST, SESSION, MEMBERS, CHARACTERS)}
    owner = character.owner.username if character.owner_id else None  # type: ignore[union-attr]  # owner_id set
    return Depends(
        campaign_id=campaign_id,
        subjects=frozenset(own | table),
        rows=(character.pk, character.version, owner, character.campaign),
        viewer=(membership.pk, membership.role, membership.user_id, _session(request)),
        head=table_head(membership),
    )


def panel_key(character: CastRow, campaign: Any, membership: Any, quick: Any, oob: Any) -> tuple[Any, ...]:
    """What decides the bytes of a character's panel: its version and its state's (traits, Revers, Atouts,
    badges), the campaign row (options, and the ``log_epoch`` an owner's new name bumps), the reader's role."""
    is_narrator = getattr(membership, "is_narrator", False)
    return (PANEL_TEMPLATE, character.pk, character.version, character.state_version, campaign, is_narrator,
            bool(quick), bool(oob))  # fmt: skip


def panels_html(campaign: Any, membership: Any, *, quick: Any = None, oob: Any = None) -> list[SafeString]:
    """The dashboard's panels of every character of ``campaign``, in order; only those not kept yet are
    loaded (``characters.selectors.characters_for_panels``) and rendered."""

    def all_panels(_token: str | None) -> str:
        return PANEL_SEPARATOR.join(_panels(campaign, membership, quick, oob))

    # Until the table changes (an Event moves the stream head), not even the characters' versions are read.
    at = ("panels-at", table_head(membership), campaign, membership, quick, oob)
    joined = kept("panels-at", at, all_panels, None, template=PANEL_TEMPLATE)
    return [mark_safe(html) for html in joined.split(PANEL_SEPARATOR)] if joined else []  # noqa: S308


def _panels(campaign: Any, membership: Any, quick: Any, oob: Any) -> list[SafeString]:
    cast = cast_of(campaign.pk)
    loaded: dict[int, Character] = {}

    def render_one(row: CastRow) -> Callable[[str | None], str]:
        def render(_token: str | None) -> str:
            if not loaded:
                loaded.update({character.pk: character for character in characters_for_panels(campaign)})
            character = loaded.get(row.pk) or characters_for_panels(campaign).get(pk=row.pk)
            context = {"character": character, "campaign": campaign, "membership": membership,
                       "quick": quick, "oob": oob}  # fmt: skip
            return render_to_string(PANEL_TEMPLATE, context)

        return render

    return [
        kept("panel", panel_key(row, campaign, membership, quick, oob), render_one(row), None, template=PANEL_TEMPLATE)
        for row in cast
    ]
