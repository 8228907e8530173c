"""The sheet's parts an Atout changes, as holes in the kept sheet (``core.regions.Frame``, ``{% hole %}``).

An Atout gained, spent or refunded (``campaigns.event_subjects.ATOUTS_ONLY``) changes, on a sheet: its balance (the
summary's badge, the Atouts card's counters), its ledger, and the row's ``version``, which the sheet's root carries
(``data-version``: an answer older than the sheet shown is not swapped in) and so do the forms that edit the row
(name, concept and goal; the narrator's notes and award: ``characters/partials/action_form.html`` prints an unbound
form's version as this part). It changes nothing else the sheet shows, so the sheet is kept as a frame around these
parts (``sheet_frame_depends``), and after an Atout only they are rendered.

Each part is a region of its own, a partial of the sheet's templates, that shows the character:

- ``sheet-version``, ``sheet-atout-badge``, ``sheet-atouts`` and ``sheet-ledger`` declare ``atouts_depends``: the
  character (``character:<id>``, which every Event naming it touches, and its row's version), the sessions (a ledger
  line names its session), the campaign row and who reads. The ledger's lines are regions of their own
  (``sheet-ledger-line``, ``ledger_line_depends``), so a new line is the only one rendered;
- ``sheet-take-revers``, the « take a Revers in another's place » form, declares ``take_revers_depends``: every
  character of the campaign (``characters:<campaign>``: the other characters' active Revers, each choice with its
  character's ``version``), who is in it and its members (``cast``, ``members``: whom the reader may list).

The frame (``sheet_frame_depends``) declares the rest of the sheet's declaration (``characters.fragments``) without
what only these parts read: ``traits:<id>`` stands for the character and its states, which it covers but for the
Atouts-only Events, and the row's version is left out. The sheet's own declaration still names all of it, so a
sheet's pushes and its whole key follow every part. ``sheet_context`` takes these parts' values from the builders
below, so a sheet rendered in one go (a form's errors, the caches off) prints the same bytes.
"""

from __future__ import annotations

from typing import Any

from campaigns.event_subjects import CAST, CHARACTER, CHARACTERS, MEMBERS, SESSION, SETTINGS, TRAITS
from campaigns.kept import campaign_row, table_head
from campaigns.models import Membership
from characters import selectors
from characters.forms import ReversTakeForm
from characters.fragments import reader_session
from characters.models import AtoutEntry, Character
from core.regions import ContextBuilder, Depends, Region, register, subject


def _viewer(membership: Membership) -> tuple[Any, ...]:
    return (membership.pk, membership.role, membership.user_id)


def atouts_depends(character: Character, membership: Membership, request: Any = None) -> Depends:
    """What a sheet's Atout parts read (see the module's docstring)."""
    campaign_id = character.campaign_id
    return Depends(
        campaign_id=campaign_id,
        subjects=frozenset({subject(CHARACTER, character.pk), subject(SESSION, campaign_id)}),
        rows=(character.pk, character.version, campaign_row(character.campaign)),
        viewer=_viewer(membership),
        # No head: a part is rendered when the sheet kept at this head was not found, so it was not either.
    )


def take_revers_depends(character: Character, membership: Membership, request: Any = None) -> Depends:
    """What the « take a Revers in another's place » form reads (see the module's docstring)."""
    campaign_id = character.campaign_id
    return Depends(
        campaign_id=campaign_id,
        subjects=frozenset({subject(scope, campaign_id) for scope in (CHARACTERS, CAST, MEMBERS)}),
        rows=(character.pk, campaign_row(character.campaign)),
        viewer=_viewer(membership),
    )


def sheet_frame_depends(character: Character, membership: Membership, request: Any = None) -> Depends:
    """What the sheet reads outside its Atout parts (see the module's docstring): the sheet's declaration
    (``characters.fragments.sheet_depends``) with ``traits:<id>`` for the character and its states, without every
    character of the campaign and without the row's version."""
    campaign_id = character.campaign_id
    table = {subject(scope, campaign_id) for scope in (SETTINGS, CAST, SESSION, MEMBERS)}
    owner = character.owner.username if character.owner_id else None  # type: ignore[union-attr]  # owner_id set
    return Depends(
        campaign_id=campaign_id,
        subjects=frozenset({subject(TRAITS, character.pk), *table}),
        rows=(character.pk, owner, campaign_row(character.campaign)),
        viewer=(*_viewer(membership), reader_session(request)),
        head=table_head(membership),
    )


def _character(character: Character, _membership: Membership, _request: Any) -> dict[str, Any]:
    return {"character": character}


def _take_revers(character: Character, membership: Membership, _request: Any) -> dict[str, Any]:
    return {"character": character,
            "take_revers_form": ReversTakeForm(revers=selectors.revers_others(character, membership))}  # fmt: skip


def _ledger(character: Character, membership: Membership, _request: Any) -> dict[str, Any]:
    return {"character": character, "membership": membership, "ledger": selectors.ledger_of(character)}


def ledger_line_depends(entry: AtoutEntry, membership: Membership, request: Any = None) -> Depends:
    """What one line of the ledger reads: its entry, which is never changed once written, its session's name
    (``session:<campaign>``), and whether the reader may veto it (the narrators)."""
    campaign_id = membership.campaign_id
    return Depends(
        campaign_id=campaign_id,
        subjects=frozenset({subject(SESSION, campaign_id)}),
        rows=(
            entry.pk,
            entry.character_id,
            entry.delta,
            entry.use,
            entry.reason,
            entry.justification,
            entry.game_session_id,
        ),  # fmt: skip
        viewer=(membership.is_narrator,),
    )


LEDGER_LINE = register(
    Region(
        name="sheet-ledger-line",
        template="characters/detail.html#ledger_line",
        load=lambda pk, membership: None,  # shown inside the ledger only
        context=lambda entry, membership, _request: {"entry": entry, "is_narrator": membership.is_narrator},
        depends=ledger_line_depends,
    )
)
"""One line of a sheet's ledger (``{% regions "sheet-ledger-line" ledger %}``): after an Atout, the new line is
rendered and the others are found kept."""


def _part(name: str, template: str, context: ContextBuilder, depends: Any = atouts_depends) -> Region:
    return register(
        Region(name=name, template=template, load=lambda pk, membership: None, context=context, depends=depends)
    )


PARTS = (
    _part("sheet-version", "characters/detail.html#version", _character),
    _part("sheet-atout-badge", "characters/partials/summary.html#atouts", _character),
    _part("sheet-atouts", "characters/detail.html#atout_counts", _character),
    _part("sheet-take-revers", "characters/detail.html#take_revers", _take_revers, take_revers_depends),
    _part("sheet-ledger", "characters/detail.html#ledger", _ledger),
)
"""The sheet's holes, shown only inside the sheet (``load`` finds nothing on its own)."""


def parts_context(character: Character, membership: Membership) -> dict[str, Any]:
    """Every part's values, for a sheet rendered in one go (``characters.views.sheet.sheet_context``)."""
    context: dict[str, Any] = {}
    for part in PARTS:
        context.update(part.context(character, membership, None))
    return context
