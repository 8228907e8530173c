"""Characters refreshed live by every ``character.*`` event (and by a Test bought with an Atout, ``test.rolled``,
or its follow-up, ``test.atout``, for the character who paid it): the summary strip of a sheet shown without
watching it. The whole open sheet (``characters.views.sheet.SHEET``) and the narrator dashboard's panels
(``characters.panels``) are regions, pushed by ``campaigns.live_regions`` to the pages watching them whenever an
event changes what they declare."""

from __future__ import annotations

from collections.abc import Hashable
from typing import TYPE_CHECKING

from django.template.loader import render_to_string

from campaigns.live import NOT_SHOWN, Viewer, audience_unless_concerned, event_fact, live_fragment
from characters.access import can_view
from characters.models import Character
from characters.selectors import characters_for_panels
from characters.subjects import sheet_subject

if TYPE_CHECKING:
    from campaigns.models import Event


def _character(event: Event) -> Character | None:
    """The event's character, loaded once per event for every socket of the process."""
    character_id = event.payload.get("character_id")
    if character_id is None:
        return None
    character: Character | None = event_fact(
        event, "character", lambda: characters_for_panels(event.campaign_id).filter(pk=character_id).first()
    )
    return character


def _audience(event: Event, viewer: Viewer, character: Character | None) -> Hashable:
    """What a member sees of a character (can_view, can_edit, the sheet's sections) differs only for its owner;
    only a page that shows the sheet without watching it gets the strip (the regions, campaigns.live_regions, bring
    the rest)."""
    if (
        character is None
        or viewer.watches(sheet_subject(character.pk))
        or not viewer.shows(sheet_subject(character.pk))
    ):
        return NOT_SHOWN
    return audience_unless_concerned(viewer, [character.owner_id] if character is not None else [])


def character_audience(event: Event, viewer: Viewer) -> Hashable:
    return _audience(event, viewer, _character(event))


@live_fragment("character.", audience=character_audience)
def character_panels(event: Event, viewer: Viewer) -> list[str]:
    """A page that names no region gets the summary strip (Atouts, Revers) as it used to."""
    return _panels(event, viewer, _character(event))


def _giver(event: Event) -> Character | None:
    """The character a taken Revers left (``character.revers_taken``), loaded once per event."""
    giver_id = event.payload.get("from_id")
    giver: Character | None = event_fact(
        event, "giver", lambda: characters_for_panels(event.campaign_id).filter(pk=giver_id).first()
    )
    return giver


def giver_audience(event: Event, viewer: Viewer) -> Hashable:
    return _audience(event, viewer, _giver(event))


@live_fragment("character.revers_taken", audience=giver_audience)
def giver_panels(event: Event, viewer: Viewer) -> list[str]:
    """The Revers left the other sheet too: its panel, strip or whole sheet follows."""
    return _panels(event, viewer, _giver(event))


def _spender(event: Event) -> Character | None:
    """The character whose Atouts paid a Test's follow-up: ``test.atout`` carries its ledger line (``atout``),
    as ``character.atout_spent`` did, so the sheet's counters and panel follow from that one Event."""
    ledger = event.payload.get("atout")
    if not isinstance(ledger, dict) or ledger.get("character_id") is None:
        return None
    spender: Character | None = event_fact(
        event, "spender", lambda: characters_for_panels(event.campaign_id).filter(pk=ledger["character_id"]).first()
    )
    return spender


def spender_audience(event: Event, viewer: Viewer) -> Hashable:
    return _audience(event, viewer, _spender(event))


@live_fragment("test.atout", audience=spender_audience)
def spender_panels(event: Event, viewer: Viewer) -> list[str]:
    """An Atout spent on a Test (re-roll, change a die, help, counter): the spender's panel, strip or sheet."""
    return _panels(event, viewer, _spender(event))


def rolled_spender_audience(event: Event, viewer: Viewer) -> Hashable:
    """A Test bought with an Atout (``test.rolled`` carrying ``atout``); a Test without one changes no panel."""
    spender = _spender(event)
    return NOT_SHOWN if spender is None else _audience(event, viewer, spender)


@live_fragment("test.rolled", audience=rolled_spender_audience)
def rolled_spender_panels(event: Event, viewer: Viewer) -> list[str]:
    """The +1 bought with the roll: the roller's panel, strip or sheet shows the balance it left."""
    return _panels(event, viewer, _spender(event))


@live_fragment("sequence.atout", audience=spender_audience)
def sequence_spender_panels(event: Event, viewer: Viewer) -> list[str]:
    """An Atout spent in a draw (a card, help, counter, redraw, change, take a Revers): the spender's panel."""
    return _panels(event, viewer, _spender(event))


def _panels(event: Event, viewer: Viewer, character: Character | None) -> list[str]:
    if character is None or not can_view(viewer.membership, character):
        return []
    if not viewer.shows(sheet_subject(character.pk)) or viewer.watches(sheet_subject(character.pk)):
        return []
    # characters_for_panels has prefetched the active Revers.
    context = {"character": character, "oob": True, "revers": character.revers.all()}
    return [render_to_string("characters/partials/summary.html", context)]
