"""Time passing on the campaign clock: fatigue recovers, critical effects fall due, injuries heal."""

from __future__ import annotations

import datetime as dt
import random
from collections.abc import Callable
from dataclasses import asdict
from typing import Any

from django.contrib.auth.models import User

from campaigns.models import Campaign
from states.models import SavageState
from states.rules import fatigue as fatigue_rules
from states.rules import states as rules
from states.rules.dice import TraitRoll
from states.selectors import card_state, fatigue_sources, tracks_of
from states.services.changes import Rng, _log, _roll, _store, _store_tracks
from states.services.fatigue import _fatigue_woke

# The clock hook has no caller to pass dice: tests replace this factory with a seeded one.
clock_rng: Callable[[], Rng] = random.SystemRandom


def savage_clock_advance(campaign: Campaign, old: dt.datetime, new: dt.datetime, actor: User) -> None:
    """``campaigns.hooks.on_clock_advance``: fatigue recovers, critical effects fall due, injuries heal."""
    if not campaign.savage_states:
        return
    rng = clock_rng()
    sources = fatigue_sources()
    states = (
        SavageState.objects.select_for_update(of=("self",))
        .filter(character__campaign=campaign, dead=False)
        .select_related("character", "character__campaign")
        .prefetch_related("fatigue_tracks")
    )
    for state in states:
        state.character.campaign = campaign
        tracks = tracks_of(state)
        card = card_state(state, tracks)
        rolls: list[TraitRoll] = []

        def roll_vigor(state: SavageState = state, card: rules.CardState = card) -> TraitRoll:
            return _roll(state, "vigor", rng, card=card)

        report = fatigue_rules.ElapseReport()
        before = tracks
        if any(t.levels for t in tracks.values()):
            tracks, report = fatigue_rules.fatigue_elapse(tracks, sources, old=old, new=new, roll_vigor=roll_vigor)
            rolls = list(report.vigor_rolls)
        healed_injury = (
            state.injury == rules.Injury.DAY and state.injury_until is not None and state.injury_until <= new
        )
        woke = state.unconscious and (
            (state.unconscious_until is not None and state.unconscious_until <= new)
            or (state.unconscious_until is None and _fatigue_woke(before, tracks))
        )
        if not (report.anything or healed_injury or woke):
            continue
        _store_tracks(state, tracks)
        changes: dict[str, Any] = {}
        if report.died_of:
            changes["dead"] = True
        if woke or report.woke_up:
            changes["unconscious"] = False
            state.unconscious_until = None
        if healed_injury:
            changes["injury"] = rules.Injury.NONE
            state.injury_until = None
        card = rules.CardState(**{**asdict(card_state(state, tracks)), **changes})
        _store(state, card)
        _log(
            state,
            kind="savage.time_passed",
            actor=actor,
            payload={
                "recovered": report.recovered,
                "died_of": report.died_of,
                "woke_up": bool(woke or report.woke_up),
                "injury_healed": healed_injury,
                "vigor_rolls": [r.to_json() for r in rolls],
            },
        )
