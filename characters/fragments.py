"""The declaration of a character's sheet, a region (``core.regions``).

``sheet_depends`` below declares what the sheet reads, and ``core.kept_regions`` derives its key from that
declaration (``characters.views.sheet.SHEET`` puts the declaration, the context builder and the template
together). The dashboard's panels are regions too (``characters.panels``).
"""

from __future__ import annotations

from typing import Any

from campaigns.event_subjects import CAST, CHARACTER, CHARACTERS, MEMBERS, SESSION, SETTINGS, STATES
from campaigns.kept import campaign_row, table_head
from characters.models import Character
from core.regions import Depends, subject


def reader_session(request: Any) -> tuple[tuple[str, Any], ...]:
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
        rows=(character.pk, character.version, owner, campaign_row(character.campaign)),
        viewer=(membership.pk, membership.role, membership.user_id, reader_session(request)),
        head=table_head(membership),
    )
