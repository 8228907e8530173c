"""The narrator dashboard's character panels, as regions (``core.regions``).

Two regions, each with its context builder, its template and its declaration:

- ``panel`` (``characters/partials/panel.html``): one character's card. It reads the character and its traits,
  active Revers and Atouts (``character:<id>``), its Savage-style state badges (``states:<id>``), the table's
  settings (the campaign's options, the trait list) and the campaign row (whether it plays the states, the
  ``log_epoch`` an owner's new name bumps). The viewer is the reader's role: the narrators' quick edits.
- ``panels`` (``characters/partials/panels.html``, the ``#character-panels`` grid): every panel of the campaign,
  in the dashboard's order. Which characters there are and in what order is the cast (``cast:<campaign>``: a
  character created, handed or renamed); what each panel shows changes with any character of the campaign
  (``characters:<campaign>``, touched by every Event that names one). It is the region a page watching the
  campaign's home (``home:<campaign>``) shows, so its live push, its catch-up and the dashboard's GET are one
  rendering; only narrators see it.

The grid's HTML is kept under its declaration; when a character changes, the grid is built again from the panels
still kept under theirs, and only the changed panel is rendered.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from django.utils.safestring import SafeString

from campaigns.event_subjects import CAST, CHARACTER, CHARACTERS, SETTINGS, STATES
from campaigns.kept import campaign_row, table_head
from characters.models import Character
from characters.selectors import characters_for_panels
from core.kept_regions import region_html
from core.regions import Depends, Items, Region, register, subject

if TYPE_CHECKING:
    from campaigns.models import Campaign, Membership


def _cast(campaign: Campaign) -> list[Character]:
    """The campaign's characters in the dashboard's order, with what their panels show (a fixed number of queries:
    the panels not kept yet are rendered from them, the others need nothing more)."""
    return list(characters_for_panels(campaign).order_by("kind", "name", "pk"))


@dataclass(frozen=True)
class PanelOf:
    """What the panel region shows: one character (loaded with ``characters_for_panels``) of its campaign."""

    character: Character
    campaign: Campaign

    @property
    def campaign_id(self) -> int:
        return self.campaign.pk


def _viewer(membership: Membership) -> tuple[str, bool]:
    return ("narrator" if membership.is_narrator else "player", membership.is_narrator)


def panel_depends(panel: PanelOf, membership: Membership, request: Any = None) -> Depends:
    """The declaration of a character's panel (see the module's docstring)."""
    campaign, character = panel.campaign, panel.character
    pk = character.pk
    state = getattr(character, "savage_state", None)
    return Depends(
        campaign_id=campaign.pk,
        subjects=frozenset({subject(CHARACTER, pk), subject(STATES, pk), subject(SETTINGS, campaign.pk)}),
        # The rows' own versions too: a change made without an Event still shows.
        rows=(pk, character.version, state.version if state is not None else None, campaign_row(campaign)),
        viewer=_viewer(membership),
        head=table_head(membership),
    )


def panel_context(panel: PanelOf, membership: Membership, request: Any = None) -> dict[str, Any]:
    return {"character": panel.character, "campaign": panel.campaign, "membership": membership}


def _panel_of(character_id: int, membership: Membership) -> PanelOf | None:
    if not membership.is_narrator:
        return None
    campaign = membership.campaign
    character = characters_for_panels(campaign).filter(pk=character_id).first()
    return None if character is None else PanelOf(character, campaign)


PANEL = register(
    Region(
        name="panel",
        template="characters/partials/panel.html",
        load=_panel_of,
        context=panel_context,
        depends=panel_depends,
        element_id=lambda panel: f"character-panel-{panel.character.pk}",
    )
)
"""One character's panel: inside the grid, and alone as the answer to a quick edit made from it."""


def panels_depends(campaign: Campaign, membership: Membership, request: Any = None) -> Depends:
    """The declaration of the grid of panels (see the module's docstring): the cast, any character, the table's
    settings, the campaign row and the reader's role; the union of its panels' declarations, and who they are."""
    return _grid_depends(campaign, membership, (CAST, CHARACTERS, SETTINGS))


def panels_frame(campaign: Campaign, membership: Membership, request: Any = None) -> Depends:
    """What the grid reads besides its panels (``core.regions.Items``): who they are and in what order (the cast), the
    settings and the campaign row. An Event that changed characters and not this sends their panels alone."""
    return _grid_depends(campaign, membership, (CAST, SETTINGS))


def changed_panels(campaign: Campaign, membership: Membership, touched: frozenset[str]) -> list[tuple[Region, Any]]:
    """The panels of the characters an Event named (it touched their ``character:<id>``), in the grid's order."""
    prefix = f"{CHARACTER}:"
    ids = [int(name[len(prefix) :]) for name in touched if name.startswith(prefix)]
    characters = characters_for_panels(campaign).filter(pk__in=ids).order_by("kind", "name", "pk")
    return [(PANEL, PanelOf(character, campaign)) for character in characters]


def _grid_depends(campaign: Campaign, membership: Membership, names: tuple[str, ...]) -> Depends:
    return Depends(
        campaign_id=campaign.pk,
        subjects=frozenset(subject(name, campaign.pk) for name in names),
        rows=(campaign_row(campaign),),
        viewer=_viewer(membership),
        head=table_head(membership),
    )


def panels_context(campaign: Campaign, membership: Membership, request: Any = None) -> dict[str, Any]:
    panels = [
        region_html(PANEL, PanelOf(character, campaign), membership, request=request, token=None)
        for character in _cast(campaign)
    ]
    return {"panels": panels, "campaign": campaign, "membership": membership}


def _panels_of(campaign_id: int, membership: Membership) -> Campaign | None:
    # Only narrators have a dashboard; a socket may name any campaign: only the member's own.
    if not membership.is_narrator or campaign_id != membership.campaign_id:
        return None
    return membership.campaign


PANELS = register(
    Region(
        name="panels",
        template="characters/partials/panels.html",
        load=_panels_of,
        context=panels_context,
        depends=panels_depends,
        items=Items(depends=panels_frame, changed=changed_panels),
        watch="home",  # the dashboard watches home:<campaign> (campaigns.live.home_subject)
        element_id=lambda _campaign: "character-panels",
    )
)
"""The dashboard's grid of every character's panel."""


def panels_html(membership: Membership, request: Any = None) -> SafeString:
    """The grid as the dashboard shows it to ``membership`` (a narrator), kept by its declaration."""
    return region_html(PANELS, membership.campaign, membership, request=request)


def panel_html(character: Character, membership: Membership, request: Any = None) -> SafeString:
    """One character's panel, as the answer to a quick edit made from it (the same region the grid holds)."""
    campaign = character.campaign
    loaded = characters_for_panels(campaign).get(pk=character.pk)
    return region_html(PANEL, PanelOf(loaded, campaign), membership, request=request)
