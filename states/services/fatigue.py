"""Fatigue: levels gained from a source, lost, and the actions that start a recovery."""

from __future__ import annotations

from dataclasses import asdict

from django.contrib.auth.models import User
from django.db import transaction
from django.utils.translation import gettext as _

from characters.models import Character
from core.errors import ServiceError
from states.models import SavageState
from states.rules import fatigue as fatigue_rules
from states.rules import states as rules
from states.selectors import card_state, fatigue_sources, tracks_of, trait_die
from states.services.changes import Rng, _lock, _log, _rng, _store, _store_tracks, _translated_refusals


@transaction.atomic
def savage_fatigue_gain(
    *, character: Character, actor: User, source: str, expected_version: int | None, rng: Rng | None = None
) -> SavageState:
    state = _lock(character, expected_version)
    sources = fatigue_sources()
    if source not in sources:
        raise ServiceError(_("Unknown fatigue source."))
    now = state.character.campaign.game_clock
    tracks = tracks_of(state)
    vigor = trait_die(state, "vigor")
    with _translated_refusals():
        tracks, gain = fatigue_rules.fatigue_gain(tracks, sources[source], now=now, rng=_rng(rng), vigor=vigor)
    _store_tracks(state, tracks)
    card = card_state(state, tracks)
    if gain.critical_now:
        # « Un troisième niveau de Fatigue provoque alors une perte de conscience (ou pire …) »
        card = rules.CardState(**{**asdict(card), "unconscious": True})
        if sources[source].critical.kind == "unconscious_for":
            state.unconscious_until = gain.deadline
    _store(state, card)
    _log(
        state,
        kind="savage.fatigue_gained",
        actor=actor,
        payload={
            "source": source,
            "total": gain.total,
            "critical_now": gain.critical_now,
            "effect": gain.effect,
            "faces": list(gain.faces),
            "hours": gain.hours,
            "rounds": gain.rounds,
            "deadline": gain.deadline.isoformat() if gain.deadline else None,
        },
    )
    return state


@transaction.atomic
def savage_fatigue_lose(*, character: Character, actor: User, source: str, expected_version: int | None) -> SavageState:
    state = _lock(character, expected_version)
    before = tracks_of(state)
    with _translated_refusals():
        tracks = fatigue_rules.fatigue_lose(before, source)
    _store_tracks(state, tracks)
    card = card_state(state, tracks)
    if _fatigue_woke(before, tracks):
        card = rules.CardState(**{**asdict(card), "unconscious": False})
        state.unconscious_until = None
    _store(state, card)
    _log(state, kind="savage.fatigue_lost", actor=actor, payload={"source": source})
    return state


@transaction.atomic
def savage_fatigue_action(
    *, character: Character, actor: User, action: str, expected_version: int | None, rng: Rng | None = None
) -> SavageState:
    """A logged recovery action: food, water, warmth, out of the water, sleep, decontamination, treatment."""
    state = _lock(character, expected_version)
    now = state.character.campaign.game_clock
    with _translated_refusals():
        tracks, effects = fatigue_rules.fatigue_action(
            tracks_of(state), fatigue_sources(), action, now=now, rng=_rng(rng), vigor=trait_die(state, "vigor")
        )
    _store_tracks(state, tracks)
    state.version += 1
    state.save(update_fields=["version"])
    _log(
        state,
        kind="savage.recovery_action",
        actor=actor,
        payload={
            "action": action,
            "effects": [
                {
                    "source": e.source,
                    "started": e.started,
                    "accelerated": e.accelerated,
                    "faces": list(e.faces),
                    "days": e.days,
                }
                for e in effects
            ],
        },
    )
    return state


def _fatigue_woke(before: fatigue_rules.Tracks, after: fatigue_rules.Tracks) -> bool:
    """The third level of Fatigue is gone: the unconsciousness it brought ends with it."""
    critical = fatigue_rules.CRITICAL_LEVEL
    return fatigue_rules.total_levels(before) >= critical > fatigue_rules.total_levels(after)
