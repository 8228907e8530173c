"""Characters refreshed live by every ``character.*`` event (and by a Test bought with an Atout, ``test.rolled``,
or its follow-up, ``test.atout``, for the character who paid it): the narrator dashboard's panels and the summary
strip of a sheet shown without watching it. The whole open sheet is a region (``characters.views.sheet.SHEET``), pushed by
``campaigns.live_regions`` to the pages watching it whenever an event changes what it declares."""

from __future__ import annotations

from collections.abc import Hashable
from typing import TYPE_CHECKING

from django.template.loader import render_to_string

from campaigns.live import NOT_SHOWN, Viewer, audience_unless_concerned, event_fact, home_subject, live_fragment
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
    a page that watches the sheet gets it from the regions (campaigns.live_regions), and nothing from here unless
    it is the narrator's dashboard too."""
    watched = character is not None and viewer.watches(sheet_subject(character.pk))
    if watched and not (viewer.is_narrator and viewer.shows(home_subject(event.campaign_id))):
        return NOT_SHOWN
    return audience_unless_concerned(viewer, [character.owner_id] if character is not None else [])


def character_audience(event: Event, viewer: Viewer) -> Hashable:
    return _audience(event, viewer, _character(event))


@live_fragment("character.", audience=character_audience)
def character_panels(event: Event, viewer: Viewer) -> list[str]:
    """A page showing the character's sheet gets the whole sheet, rendered for that member; the
    narrator's dashboard gets the changed character's panel as an out-of-band swap (a new one is
    appended); a page that names no region gets the summary strip (Atouts, Revers) as it used to."""
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
    summary: list[str] = []  # a page watching the sheet gets the whole sheet from campaigns.live_regions
    if viewer.shows(sheet_subject(character.pk)) and not viewer.watches(sheet_subject(character.pk)):
        summary = [
            render_to_string(
                "characters/partials/summary.html",
                # characters_for_panels has prefetched the active Revers.
                {"character": character, "oob": True, "revers": character.revers.all()},
            )
        ]
    if not viewer.is_narrator or not viewer.shows(home_subject(event.campaign_id)):
        return summary
    html = render_to_string(
        "characters/partials/panel.html",
        {"character": character, "oob": event.kind != "character.created", "quick": True},
    )
    if event.kind == "character.created":
        return [
            f'<div hx-swap-oob="beforeend:#character-panels">{html}</div>',
            '<p id="no-characters" hx-swap-oob="delete"></p>',
        ]
    return [html, *summary]
