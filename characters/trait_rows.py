"""The sheet's trait rows as regions nested in the sheet (``core.regions``, ``{% region %}``).

The three trait lists (aptitudes, fields, power domains) and the Savage attribute rows are most of the sheet's
markup (each trait row carries its one-tap chance and its roll dialog's controls), and they read less than the
sheet: the traits and their ranks, the states, the Revers and a power's boost (the chances), the table's settings
(trait list, Savage dice), the reader's rights and remembered difficulty. They do not read the Atouts, so an Atout
gained, spent or refunded (``campaigns.event_subjects.ATOUTS_ONLY``) renders the sheet anew around them and serves
them as kept.

Declaration (``trait_rows_depends``): ``traits:<id>``, which every Event naming the character touches but the
Atouts-only ones (it covers what ``states:<id>`` and ``character:<id>`` would say for these rows), and
``settings:<campaign>``. Rows: the character's id, which list, its owner (who may roll) and the campaign row
(whether states are on). Viewer: the member's role and user, and the session the roll controls remember a
difficulty in.
The sheet's own declaration (``characters.fragments.sheet_depends``) names all of these too: its kept bytes hold
the rows'.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from campaigns.event_subjects import SETTINGS, TRAITS
from campaigns.kept import campaign_row, table_head
from characters.fragments import reader_session
from characters.models import Character
from core.regions import Depends, Region, register, subject


@dataclass(frozen=True)
class TraitRows:
    """One of the sheet's trait lists: the character and the lines the sheet's selector read already."""

    character: Character
    part: str  # which list: aptitudes, fields, power_domains
    lines: tuple[Any, ...]
    revers: tuple[Any, ...]  # its active Revers, which the chances weigh


def trait_rows_depends(thing: TraitRows | Character, membership: Any, request: Any = None) -> Depends:
    """What a trait list or the Savage attribute rows of a character read (see the module's docstring)."""
    character, part = (thing.character, thing.part) if isinstance(thing, TraitRows) else (thing, "")
    campaign_id = character.campaign_id
    return Depends(
        campaign_id=campaign_id,
        subjects=frozenset({subject(TRAITS, character.pk), subject(SETTINGS, campaign_id)}),
        rows=(character.pk, part, character.owner_id, campaign_row(character.campaign)),
        viewer=(membership.role, membership.user_id, reader_session(request)),
        head=table_head(membership),
    )


def _rights(character: Character, membership: Any) -> dict[str, Any]:
    return {
        "character": character,
        "membership": membership,
        "is_narrator": membership.is_narrator,
        "can_roll": membership.is_narrator or character.owner_id == membership.user_id,
    }


TRAIT_LIST = register(
    Region(
        name="sheet-traits",
        template="characters/partials/trait_list.html",
        load=lambda pk, membership: None,  # shown inside the sheet only
        context=lambda thing, membership, _request: {
            **_rights(thing.character, membership),
            "lines": thing.lines,
            "revers": thing.revers,
        },
        depends=trait_rows_depends,
    )
)
"""One trait list of the sheet (``{% region "sheet-traits" trait_rows.aptitudes %}``)."""

SAVAGE_ATTRIBUTES = register(
    Region(
        name="sheet-attributes",
        template="conflicts/partials/attribute_rows.html",
        load=lambda pk, membership: None,
        context=lambda character, membership, _request: _rights(character, membership),
        depends=trait_rows_depends,
    )
)
"""The Savage attribute rows of the sheet, states on (``{% region "sheet-attributes" character %}``)."""


def trait_rows_of(character: Character, sheet: Any) -> dict[str, TraitRows]:
    """The sheet's three trait lists, as the sheet's template nests them."""
    revers = tuple(sheet.revers)
    return {
        name: TraitRows(character, name, tuple(getattr(sheet, name)), revers)
        for name in ("aptitudes", "fields", "power_domains")
    }
