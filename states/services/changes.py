"""Use cases of the Savage-style states. Each is atomic, locks the state row, checks the expected
version, applies the pure rules and appends one Event with every die rolled.
"""

from __future__ import annotations

import datetime as dt
import random
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from dataclasses import asdict
from typing import Any

from django.contrib.auth.models import User
from django.db import transaction
from django.utils.translation import gettext as _

from campaigns.models import Campaign, Visibility
from campaigns.services import event_append
from characters.models import Character, CharacterKind
from core.errors import ServiceError, StaleState
from states.models import SavageFatigue, SavageRound, SavageSettings, SavageState
from states.rules import fatigue as fatigue_rules
from states.rules import states as rules
from states.rules.dice import TARGET, Modifier, TraitDie, TraitRoll, trait_roll
from states.rules.errors import IllegalTransition
from states.rules.initiative import deal_round, is_joker
from states.rules.ranks import validated_mapping
from states.rules.situations import (
    AttackContext,
    AttackKind,
    ParryBreakdown,
    Situation,
    attack_modifiers,
    parry,
    situations_at_turn_start,
    surprise_damage_bonus,
    total_defence_modifiers,
)
from states.selectors import card_state, fatigue_sources, settings_for, tracks_of, trait_die

Rng = random.Random
# The clock hook has no caller to pass dice: tests replace this factory with a seeded one.
clock_rng: Callable[[], Rng] = random.SystemRandom


def _refusal(exc: IllegalTransition) -> ServiceError:
    """The rules' reason, in the user's language."""
    messages: dict[str, Callable[[], str]] = {
        "dead": lambda: _("A dead character cannot act."),
        "incapacitated": lambda: _("An incapacitated character cannot act."),
        "unconscious": lambda: _("An unconscious character cannot act."),
        "already_shaken": lambda: _("The character is already Shaken."),
        "not_shaken": lambda: _("The character is not Shaken."),
        "token_count": lambda: _("Award at least one token."),
        "no_token": lambda: _("No token left to spend."),
        "wound_count": lambda: _("Give a number of wounds of at least one."),
        "fifth_wound": lambda: _(
            "A character has at most three wounds, and a fourth means Incapacitated: there is no fifth wound."
        ),
        "heal_too_many": lambda: _("The character does not have that many wounds."),
        "no_change": lambda: _("Nothing to change."),
        "no_incapacitation_roll": lambda: _("No incapacitation roll is due."),
        "already_bleeding": lambda: _("The character is already bleeding out."),
        "not_bleeding": lambda: _("The character is not bleeding out."),
        "fatigue_full": lambda: _("The character already suffers a third level of Fatigue."),
        "no_critical_from_source": lambda: _(
            "A third level of Fatigue cannot come from bumps and bruises: they never incapacitate."
        ),
        "no_fatigue_from_source": lambda: _("No Fatigue from this source."),
        "unknown_action": lambda: _("Unknown recovery action."),
        "nothing_to_recover": lambda: _("This action starts no recovery for the character's Fatigue."),
    }
    message = messages.get(exc.code)
    return ServiceError(message() if message else exc.reason)


@contextmanager
def _translated_refusals() -> Iterator[None]:
    """An illegal transition of the rules becomes a ServiceError in the user's language."""
    try:
        yield
    except IllegalTransition as exc:
        raise _refusal(exc) from exc


def _change_card(
    character: Character,
    *,
    actor: User,
    expected_version: int | None,
    transition: Callable[[rules.CardState], rules.CardState],
    kind: str,
    payload: dict[str, Any],
) -> SavageState:
    """The one-tap changes: lock, let the card's rule decide, store, log one event."""
    state = _lock(character, expected_version)
    with _translated_refusals():
        card = transition(card_state(state))
    _store(state, card)
    _log(state, kind=kind, actor=actor, payload=payload)
    return state


def _rng(rng: Rng | None) -> Rng:
    return rng if rng is not None else random.SystemRandom()


def _ensure_enabled(campaign: Campaign) -> None:
    if not campaign.savage_states:
        raise ServiceError(_("Savage-style states are turned off in this campaign's settings."))


def _lock(character: Character, expected_version: int | None) -> SavageState:
    """The character's state row, created on demand and locked; a stale version is refused.

    Only the state row is locked (``of=("self",)``): the campaign row stays free for the clock, whose
    hook locks the states after the campaign, so the two orders never meet."""
    _ensure_enabled(character.campaign)
    SavageState.objects.get_or_create(character=character, defaults={"wild_card": character.kind == CharacterKind.PC})
    state = (
        SavageState.objects.select_for_update(of=("self",))
        .select_related("character", "character__campaign")
        .get(character=character)
    )
    if expected_version is not None and state.version != expected_version:
        raise StaleState(_("Someone changed this character's state first. Look at it again and retry."))
    return state


def _store(state: SavageState, card: rules.CardState) -> None:
    state.shaken = card.shaken
    state.wounds = card.wounds
    state.incapacitated = card.incapacitated
    state.incapacitation_roll_due = card.incapacitation_roll_due
    state.bleeding_out = card.bleeding_out
    state.unconscious = card.unconscious
    state.dead = card.dead
    state.injury = card.injury.value
    state.tokens = card.tokens
    state.tricked = card.tricked
    state.version += 1
    state.full_clean()
    state.save()


def _store_tracks(state: SavageState, tracks: dict[str, fatigue_rules.FatigueTrack]) -> None:
    existing = {row.source: row for row in state.fatigue_tracks.all()}
    for key, track in tracks.items():
        row = existing.get(key) or SavageFatigue(state=state, source=key)
        for field, value in asdict(track).items():
            if field != "source":
                setattr(row, field, value)
        row.save()


def _summary(state: SavageState) -> dict[str, Any]:
    return {
        "shaken": state.shaken,
        "wounds": state.wounds,
        "incapacitated": state.incapacitated,
        "bleeding_out": state.bleeding_out,
        "unconscious": state.unconscious,
        "dead": state.dead,
        "injury": state.injury,
        "tokens": state.tokens,
        "tricked": state.tricked,
        "free_actions_only": state.free_actions_only,
    }


def _visibility(character: Character) -> tuple[str, User | None]:
    """PCs' states are the table's; an NPC's stay the narrators' (and its runner's) until it joins a fight."""
    if character.kind != CharacterKind.NPC:
        return Visibility.EVERYONE, None
    if SavageRound.objects.filter(campaign_id=character.campaign_id, participants=character).exists():
        return Visibility.EVERYONE, None
    if character.owner_id is not None:
        return Visibility.PLAYER, character.owner
    return Visibility.NARRATORS, None


def _log(
    state: SavageState, *, kind: str, actor: User | None, payload: dict[str, Any], characters: Iterable[Character] = ()
) -> None:
    character = state.character
    visibility, recipient = _visibility(character)
    event_append(
        campaign=character.campaign,
        kind=kind,
        actor=actor,
        payload={"character": character.name, "character_id": character.pk, **payload, "state": _summary(state)},
        characters=[character, *characters],
        visibility=visibility,
        recipient=recipient,
    )


def _roll(
    state: SavageState,
    trait: str,
    rng: Rng,
    *,
    extra: Iterable[Modifier] = (),
    card: rules.CardState | None = None,
    die: TraitDie | None = None,
    target: int = TARGET,
) -> TraitRoll:
    """A trait roll of this character with its wound and fatigue penalties applied."""
    card = card or card_state(state)
    modifiers = (*rules.roll_penalties(card), *extra)
    return trait_roll(
        rng, die or trait_die(state, trait), wild_card=state.wild_card, modifiers=modifiers, target=target
    )


# --- Settings and sheet -----------------------------------------------------------------------


@transaction.atomic
def savage_settings_update(
    *, campaign: Campaign, actor: User, revers_to_wounds: bool, rank_dice: dict[str, str], expected_version: int
) -> SavageSettings:
    SavageSettings.objects.get_or_create(campaign=campaign)
    settings = SavageSettings.objects.select_for_update().get(campaign=campaign)
    if settings.version != expected_version:
        raise StaleState(_("Someone changed these settings first. Reload the page and try again."))
    try:
        mapping = {str(k): v for k, v in validated_mapping(rank_dice).items()}
    except ValueError as exc:
        raise ServiceError(_("Each rank needs a trait die such as d4, d8 or d12+1.")) from exc
    settings.revers_to_wounds = revers_to_wounds
    settings.rank_dice = mapping
    settings.version += 1
    settings.save()
    event_append(
        campaign=campaign,
        kind="savage.settings_changed",
        actor=actor,
        payload={"revers_to_wounds": revers_to_wounds, "rank_dice": mapping},
    )
    return settings


@transaction.atomic
def savage_sheet_update(
    *, character: Character, actor: User, data: dict[str, Any], expected_version: int | None
) -> SavageState:
    """The dice and base values entered on the sheet (an empty die is derived from the rank)."""
    state = _lock(character, expected_version)
    for trait in ("vigor", "spirit", "agility", "smarts"):
        text = (data.get(f"{trait}_die") or "").strip()
        if text:
            try:
                text = str(TraitDie.parse(text))
            except ValueError as exc:
                raise ServiceError(_("“%(die)s” is not a trait die (d4 … d12, d12+1).") % {"die": text}) from exc
        setattr(state, f"{trait}_die", text)
    for field in ("wild_card", "base_pace", "base_parry"):
        if field in data:
            setattr(state, field, data[field])
    state.version += 1
    state.full_clean()
    state.save()
    _log(
        state,
        kind="savage.sheet_changed",
        actor=actor,
        payload={
            "dice": {t: str(trait_die(state, t)) for t in ("vigor", "spirit", "agility", "smarts")},
            "wild_card": state.wild_card,
        },
    )
    return state


# --- Secoué and Jetons ------------------------------------------------------------------------


@transaction.atomic
def savage_shaken_set(*, character: Character, actor: User, shaken: bool, expected_version: int | None) -> SavageState:
    return _change_card(
        character, actor=actor, expected_version=expected_version,
        transition=lambda card: rules.shaken_set(card, shaken), kind="savage.shaken_set", payload={"shaken": shaken},
    )  # fmt: skip


@transaction.atomic
def savage_shaken_roll(
    *, character: Character, actor: User, expected_version: int | None, rng: Rng | None = None
) -> SavageState:
    """The Âme roll at the start of the Shaken character's round."""
    state = _lock(character, expected_version)
    card = card_state(state)
    if not card.shaken:
        raise _refusal(IllegalTransition("not_shaken", ""))
    roll = _roll(state, "spirit", _rng(rng), card=card)
    with _translated_refusals():
        card, result = rules.shaken_recovery(card, roll)
    state.free_actions_only = result is not rules.ShakenResult.ENDS_ACTS
    _store(state, card)
    _log(state, kind="savage.shaken_roll", actor=actor, payload={"roll": roll.to_json(), "result": result.value})
    return state


@transaction.atomic
def savage_token_award(
    *, character: Character, actor: User, count: int = 1, expected_version: int | None
) -> SavageState:
    return _change_card(
        character, actor=actor, expected_version=expected_version,
        transition=lambda card: rules.token_award(card, count), kind="savage.token_awarded", payload={"count": count},
    )  # fmt: skip


@transaction.atomic
def savage_token_unshake(*, character: Character, actor: User, expected_version: int | None) -> SavageState:
    """Spend a Jeton to end Shaken at any moment; the character then acts normally."""
    state = _lock(character, expected_version)
    with _translated_refusals():
        card = rules.token_unshake(card_state(state))
    state.free_actions_only = False
    _store(state, card)
    _log(state, kind="savage.token_spent", actor=actor, payload={"use": "unshake"})
    return state


# --- Blessures, Encaissement, État critique, Hémorragie ---------------------------------------


@transaction.atomic
def savage_wounds_take(
    *,
    character: Character,
    actor: User,
    count: int,
    soak: bool = False,
    lethal: bool = True,
    expected_version: int | None,
    rng: Rng | None = None,
    cause: str = "",
) -> SavageState:
    """Wounds arrive; with ``soak`` a Jeton pays a Vigueur roll that may cancel some of them."""
    state = _lock(character, expected_version)
    card = card_state(state)
    soak_roll = None
    with _translated_refusals():
        if soak:
            rules.soak_check(card, count)
            soak_roll = _roll(state, "vigor", _rng(rng), card=card)
        card, result = rules.wounds_take(card, count, soak_roll=soak_roll)
    if result.taken:
        state.bleeding_lethal = lethal
    _store(state, card)
    _log(
        state,
        kind="savage.wounds_taken",
        actor=actor,
        payload={
            "incoming": result.incoming,
            "soaked": result.soaked,
            "taken": result.taken,
            "soak_roll": soak_roll.to_json() if soak_roll else None,
            "incapacitated_now": result.incapacitated_now,
            "cause": cause,
        },
    )
    return state


@transaction.atomic
def savage_wounds_set(*, character: Character, actor: User, count: int, expected_version: int | None) -> SavageState:
    """The one-tap wound track: set the count 0–4 (4 is État critique)."""
    state = _lock(character, expected_version)
    before = state.wounds
    with _translated_refusals():
        card, result = rules.wounds_set(card_state(state), count)
    _store(state, card)
    _log(
        state,
        kind="savage.wounds_set",
        actor=actor,
        payload={"from": before, "to": count, "incapacitated_now": bool(result and result.incapacitated_now)},
    )
    return state


@transaction.atomic
def savage_incapacitation_roll(
    *, character: Character, actor: User, expected_version: int | None, rng: Rng | None = None
) -> SavageState:
    """The immediate Vigueur roll of État critique, with the wound penalties."""
    state = _lock(character, expected_version)
    card = card_state(state)
    if not card.incapacitation_roll_due:
        raise _refusal(IllegalTransition("no_incapacitation_roll", ""))
    roll = _roll(state, "vigor", _rng(rng), card=card)
    card, result = rules.incapacitation_roll(card, roll)
    _store(state, card)
    if card.injury == rules.Injury.DAY:
        state.injury_until = state.character.campaign.game_clock + dt.timedelta(hours=24)
        state.save(update_fields=["injury_until"])
    _log(
        state, kind="savage.incapacitation_roll", actor=actor, payload={"roll": roll.to_json(), "result": result.value}
    )
    return state


@transaction.atomic
def savage_bleeding_set(
    *, character: Character, actor: User, bleeding: bool, expected_version: int | None
) -> SavageState:
    return _change_card(
        character, actor=actor, expected_version=expected_version,
        transition=lambda card: rules.bleeding_set(card, bleeding), kind="savage.bleeding_set",
        payload={"bleeding_out": bleeding},
    )  # fmt: skip


@transaction.atomic
def savage_bleeding_roll(
    *, character: Character, actor: User, expected_version: int | None, rng: Rng | None = None
) -> SavageState:
    """Hémorragie: the Vigueur roll at the start of every round (every minute out of combat)."""
    state = _lock(character, expected_version)
    card = card_state(state)
    if not card.bleeding_out:
        raise _refusal(IllegalTransition("not_bleeding", ""))
    rng = _rng(rng)
    roll = _roll(state, "vigor", rng, card=card)
    with _translated_refusals():
        card, outcome = rules.bleeding_roll(card, roll, lethal=state.bleeding_lethal, rng=rng)
    _store(state, card)
    if outcome.result is rules.BleedingResult.UNCONSCIOUS:
        state.unconscious_until = state.character.campaign.game_clock + dt.timedelta(hours=outcome.unconscious_hours)
        state.save(update_fields=["unconscious_until"])
    _log(
        state,
        kind="savage.bleeding_roll",
        actor=actor,
        payload={
            "roll": roll.to_json(),
            "result": outcome.result.value,
            "unconscious_faces": list(outcome.unconscious_faces),
            "lethal": state.bleeding_lethal,
        },
    )
    return state


# --- Fatigue ----------------------------------------------------------------------------------


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


# --- Situations, rolls and Ruse ---------------------------------------------------------------


@transaction.atomic
def savage_situation_toggle(
    *, character: Character, actor: User, situation: str, expected_version: int | None
) -> SavageState:
    state = _lock(character, expected_version)
    try:
        key = Situation(situation).value
    except ValueError as exc:
        raise ServiceError(_("Unknown combat situation.")) from exc
    situations = list(state.situations)
    on = key not in situations
    if on:
        if key.startswith("cover_"):
            # One cover at a time: the new one replaces the old.
            situations = [s for s in situations if not s.startswith("cover_")]
        situations.append(key)
    else:
        situations.remove(key)
        if key == Situation.TOTAL_DEFENCE.value:
            state.total_defence_total = None
    state.situations = situations
    state.version += 1
    state.save(update_fields=["situations", "total_defence_total", "version"])
    _log(state, kind="savage.situation_set", actor=actor, payload={"situation": key, "on": on})
    return state


@transaction.atomic
def savage_total_defence(
    *, character: Character, actor: User, die: str, expected_version: int | None, rng: Rng | None = None
) -> TraitRoll:
    """Défense totale: « un jet de Combat avec un bonus de +2 … à la place de sa Parade jusqu'à son
    action suivante »; a lower roll keeps the Parade. No movement while it lasts."""
    state = _lock(character, expected_version)
    card = card_state(state)
    with _translated_refusals():
        rules.ensure_can_act(card)
    try:
        fighting = TraitDie.parse(die)
    except ValueError as exc:
        raise ServiceError(_("“%(die)s” is not a trait die (d4 … d12, d12+1).") % {"die": die}) from exc
    roll = _roll(state, "fighting", _rng(rng), card=card, extra=total_defence_modifiers(), die=fighting)
    if Situation.TOTAL_DEFENCE.value not in state.situations:
        state.situations = [*state.situations, Situation.TOTAL_DEFENCE.value]
    state.total_defence_total = roll.total
    state.version += 1
    state.save(update_fields=["situations", "total_defence_total", "version"])
    breakdown = parry_of(state)
    _log(
        state,
        kind="savage.total_defence",
        actor=actor,
        payload={"roll": roll.to_json(), "base_parry": state.base_parry, "parry": breakdown.value},
    )
    return roll


def parry_of(state: SavageState, *, melee_attack: bool = True) -> ParryBreakdown:
    return parry(
        state.base_parry,
        [Situation(s) for s in state.situations],
        tricked=state.tricked,
        melee_attack=melee_attack,
        total_defence_total=state.total_defence_total,
    )


@transaction.atomic
def savage_tricked_clear(*, character: Character, actor: User, expected_version: int | None) -> SavageState:
    """The trick's −2 Parade lasts « jusqu'à sa prochaine action »: cleared when the target acts."""
    state = _lock(character, expected_version)
    if not state.tricked:
        raise ServiceError(_("Nothing to change."))
    state.tricked = False
    state.version += 1
    state.save(update_fields=["tricked", "version"])
    _log(state, kind="savage.trick_ended", actor=actor, payload={})
    return state


@transaction.atomic
def savage_trait_roll(
    *,
    character: Character,
    actor: User,
    trait: str,
    expected_version: int | None,
    die: str = "",
    modifier: int = 0,
    attack: str = "",
    target: Character | None = None,
    distance: int = 1,
    surprise: bool = False,
    rng: Rng | None = None,
) -> TraitRoll:
    """A trait roll from the roll dialog: the dialog applies wounds, fatigue and situations itself."""
    state = _lock(character, expected_version)
    card = card_state(state)
    with _translated_refusals():
        rules.ensure_can_act(card)
    if die:
        try:
            rolled_die = TraitDie.parse(die)
        except ValueError as exc:
            raise ServiceError(_("“%(die)s” is not a trait die (d4 … d12, d12+1).") % {"die": die}) from exc
    elif trait in ("vigor", "spirit", "agility", "smarts"):
        rolled_die = trait_die(state, trait)
    else:
        raise ServiceError(_("Choose a trait or enter its die."))
    extra: list[Modifier] = []
    if attack:
        target_situations: frozenset[Situation] = frozenset()
        if target is not None:
            target_state = SavageState.objects.filter(character=target).first()
            if target_state is not None:
                target_situations = frozenset(Situation(s) for s in target_state.situations)
        context = AttackContext(
            kind=AttackKind(attack),
            attacker=frozenset(Situation(s) for s in state.situations),
            target=target_situations,
            distance_squares=distance,
            surprise=surprise,
        )
        extra.extend(attack_modifiers(context))
    if modifier:
        extra.append(Modifier("other", modifier))
    target_number = TARGET
    parry_payload = None
    if attack == AttackKind.MELEE and target is not None:
        # A melee attack must reach the target's Parade, with Défense, À terre and Ruse applied.
        target_state = SavageState.objects.filter(character=target).first()
        if target_state is not None:
            breakdown = parry_of(target_state)
            target_number = breakdown.value
            parry_payload = {
                "base": breakdown.base,
                "value": breakdown.value,
                "modifiers": [{"key": m.key, "value": m.value} for m in breakdown.modifiers],
            }
    roll = _roll(state, trait, _rng(rng), card=card, extra=extra, die=rolled_die, target=target_number)
    if attack and Situation.AIM.value in state.situations and attack in (AttackKind.RANGED, AttackKind.THROWN):
        # « son prochain jet de Tir ou de Lancer »: the aim is spent by the shot.
        state.situations = [s for s in state.situations if s != Situation.AIM.value]
    state.version += 1
    state.save(update_fields=["situations", "version"])
    _log(
        state,
        kind="savage.roll",
        actor=actor,
        payload={
            "trait": trait,
            "roll": roll.to_json(),
            "attack": attack,
            "target": target.name if target else "",
            "damage_bonus": surprise_damage_bonus(surprise) if attack else 0,
            "parry": parry_payload,
        },
        characters=[target] if target else (),
    )
    return roll


@transaction.atomic
def savage_trick(
    *,
    character: Character,
    target: Character,
    actor: User,
    attribute: str,
    expected_version: int | None,
    rng: Rng | None = None,
) -> SavageState:
    """Ruse: an opposed Agilité or Intellect roll (the narrator picks the attribute)."""
    if attribute not in ("agility", "smarts"):
        raise ServiceError(_("A trick is an Agility or a Smarts roll."))
    if target.pk == character.pk or target.campaign_id != character.campaign_id:
        raise ServiceError(_("Choose another character of this campaign as the target."))
    rng = _rng(rng)
    # Two rows are locked: always in the same order, so two crossing tricks cannot deadlock.
    if target.pk < character.pk:
        victim = _lock(target, None)
        trickster = _lock(character, expected_version)
    else:
        trickster = _lock(character, expected_version)
        victim = _lock(target, None)
    trickster_card = card_state(trickster)
    with _translated_refusals():
        rules.ensure_can_act(trickster_card)
    victim_card = card_state(victim)
    attacker_roll = _roll(trickster, attribute, rng, card=trickster_card)
    defender_roll = _roll(victim, attribute, rng, card=victim_card)
    with _translated_refusals():
        victim_card, result = rules.trick_resolve(victim_card, attacker_roll, defender_roll)
    _store(victim, victim_card)
    trickster.version += 1
    trickster.save(update_fields=["version"])
    _log(
        victim,
        kind="savage.trick",
        actor=actor,
        payload={
            "trickster": character.name,
            "attribute": attribute,
            "attacker_roll": attacker_roll.to_json(),
            "defender_roll": defender_roll.to_json(),
            "result": result.value,
        },
        characters=[character],
    )
    return victim


# --- Revers from conflicts --------------------------------------------------------------------

REVERS_WOUNDS = {1: 1, 2: 2, 3: 3}


@transaction.atomic
def savage_revers_to_wounds(
    *,
    character: Character,
    severity: int,
    actor: User | None,
    domain: str = "physical",
    lethal: bool = True,
    cause: str = "",
) -> SavageState | None:
    """A physical Revers from a conflict becomes wounds, when the campaign uses both.

    Revers 1 wound, Revers sérieux 2, Revers décisif 3 and État critique with its immediate Vigueur
    roll (« Un Revers Décisif lors d'un combat laisse le plus souvent le blessé dans un état critique »).
    Returns None, changing nothing, when the Revers is not physical or the campaign does not turn
    Revers into wounds: the caller then writes the Revers on the sheet as usual. So a conflict does
    ``if savage_revers_to_wounds(...) is None: revers_inflict(...)``.
    """
    if severity not in REVERS_WOUNDS:
        raise ServiceError(_("A Revers has a severity of 1, 2 or 3."))
    campaign = character.campaign
    if domain != "physical" or not campaign.savage_states or not settings_for(campaign).revers_to_wounds:
        return None
    state = _lock(character, None)
    card = card_state(state)
    if card.wounds >= rules.INCAPACITATING_WOUND:
        # Already in État critique: the Revers adds nothing the cards can count.
        return state
    incoming = REVERS_WOUNDS[severity]
    if severity == 3:
        incoming = max(incoming, rules.INCAPACITATING_WOUND - card.wounds)
    card, result = rules.wounds_take(card, incoming)
    state.bleeding_lethal = lethal
    _store(state, card)
    _log(
        state,
        kind="savage.revers_wounds",
        actor=actor,
        payload={
            "severity": severity,
            "wounds": REVERS_WOUNDS[severity],
            "taken": result.taken,
            "incapacitated_now": result.incapacitated_now,
            "cause": cause,
        },
    )
    return state


# --- Round tracker ----------------------------------------------------------------------------


def _lock_round(campaign: Campaign, expected_version: int | None) -> SavageRound:
    _ensure_enabled(campaign)
    SavageRound.objects.get_or_create(campaign=campaign)
    tracker = SavageRound.objects.select_for_update().get(campaign=campaign)
    if expected_version is not None and tracker.version != expected_version:
        raise StaleState(_("Someone moved the round tracker first. Look at it again and retry."))
    return tracker


def _round_payload(tracker: SavageRound, names: dict[int, str]) -> dict[str, Any]:
    return {
        "number": tracker.number,
        "cards": {names.get(int(k), k): v for k, v in tracker.cards.items()},
        "order": [names.get(int(pk), str(pk)) for pk in tracker.order],
    }


def _turn_starts(character_id: int | None) -> tuple[Character | None, list[str]]:
    """The character whose turn comes: what lasted « jusqu'à son action suivante » ends now."""
    if character_id is None:
        return None, []
    state = (
        SavageState.objects.select_for_update(of=("self",))
        .select_related("character")
        .filter(character_id=character_id)
        .first()
    )
    if state is None:
        return Character.objects.filter(pk=character_id).first(), []
    kept, ended = situations_at_turn_start(state.situations)
    if state.tricked:
        ended.append("trick")
    state.situations = kept
    state.tricked = False
    state.free_actions_only = False
    if Situation.TOTAL_DEFENCE.value in ended:
        state.total_defence_total = None
    state.version += 1
    state.save()
    return state.character, ended


@transaction.atomic
def savage_round_set_participants(
    *, campaign: Campaign, actor: User, characters: list[Character], expected_version: int | None
) -> SavageRound:
    tracker = _lock_round(campaign, expected_version)
    if any(c.campaign_id != campaign.pk for c in characters):
        raise ServiceError(_("Every participant must belong to this campaign."))
    tracker.participants.set(characters)
    tracker.version += 1
    tracker.save(update_fields=["version"])
    event_append(
        campaign=campaign,
        kind="savage.round_participants",
        actor=actor,
        payload={"names": [c.name for c in characters]},
        characters=characters,
    )
    return tracker


@transaction.atomic
def savage_round_deal(
    *, campaign: Campaign, actor: User, expected_version: int | None, rng: Rng | None = None
) -> SavageRound:
    """A new round: one initiative card for each participant able to act, none in État critique."""
    tracker = _lock_round(campaign, expected_version)
    participants = list(tracker.participants.all())
    if not participants:
        raise ServiceError(_("Add the characters who take part first."))
    states = {s.character_id: s for s in SavageState.objects.filter(character__in=participants)}

    def gets_card(c: Character) -> bool:
        s = states.get(c.pk)
        return s is None or not (s.incapacitated or s.dead or s.unconscious)

    dealt_to = [c.pk for c in participants if gets_card(c)]
    deal = deal_round(_rng(rng), tracker.draw_pile, dealt_to, joker_last_round=tracker.joker_dealt)
    tracker.active = True
    tracker.number += 1
    tracker.draw_pile = list(deal.draw_pile)
    tracker.cards = {str(k): v for k, v in deal.cards.items()}
    tracker.order = list(deal.order)
    tracker.turn = 0
    tracker.joker_dealt = any(is_joker(card) for card in deal.cards.values())
    tracker.version += 1
    tracker.save()
    # A new round: last round's « actions gratuites seulement » is over for everyone.
    SavageState.objects.filter(character__in=participants, free_actions_only=True).update(free_actions_only=False)
    ended = _turn_starts(tracker.current_character_id)[1]
    names = {c.pk: c.name for c in participants}
    payload = _round_payload(tracker, names)
    payload["reshuffled"] = deal.reshuffled
    payload["without_card"] = [c.name for c in participants if c.pk not in deal.cards]
    payload["ended"] = ended
    event_append(campaign=campaign, kind="savage.round_dealt", actor=actor, payload=payload, characters=participants)
    return tracker


@transaction.atomic
def savage_round_next_turn(*, campaign: Campaign, actor: User, expected_version: int | None) -> SavageRound:
    tracker = _lock_round(campaign, expected_version)
    if not tracker.active or tracker.turn >= len(tracker.order):
        raise ServiceError(_("Every character has acted this round: deal the next round."))
    tracker.turn += 1
    tracker.version += 1
    tracker.save(update_fields=["turn", "version"])
    character, ended = _turn_starts(tracker.current_character_id)
    event_append(
        campaign=campaign,
        kind="savage.round_turn",
        actor=actor,
        payload={
            "number": tracker.number,
            "turn": tracker.turn,
            "character": character.name if character else "",
            "ended": ended,
        },
        characters=[character] if character else (),
    )
    return tracker


@transaction.atomic
def savage_round_end(*, campaign: Campaign, actor: User, expected_version: int | None) -> SavageRound:
    tracker = _lock_round(campaign, expected_version)
    if not tracker.active:
        raise ServiceError(_("No round is under way."))
    tracker.active = False
    tracker.cards = {}
    tracker.order = []
    tracker.turn = 0
    tracker.number = 0
    tracker.version += 1
    tracker.save()
    event_append(campaign=campaign, kind="savage.round_ended", actor=actor, payload={})
    return tracker


# --- Demo -------------------------------------------------------------------------------------


def savage_demo_step(campaign: Campaign) -> None:
    """``campaigns.demo`` step: a fight under way in the demo campaign, written through the services."""
    if not campaign.savage_states:
        return
    narrator = campaign.memberships.filter(role="narrator").select_related("user").first()
    if narrator is None:
        return
    actor = narrator.user
    by_name = {c.name: c for c in Character.objects.filter(campaign=campaign)}
    fighters = [by_name[name] for name in ("Jim Bones", "Lisa Benny", "Inspecteur Garnier") if name in by_name]
    if not fighters:
        return
    rng = random.Random(1925)  # the demo reads the same every time it is loaded
    for character in fighters:
        if character.kind == CharacterKind.PC:
            savage_token_award(character=character, actor=actor, count=1, expected_version=None)
    garnier = by_name.get("Inspecteur Garnier")
    if garnier is not None:
        savage_situation_toggle(character=garnier, actor=actor, situation="cover_medium", expected_version=None)
        savage_wounds_take(character=garnier, actor=actor, count=1, expected_version=None, rng=rng, cause="Bagarre")
    savage_round_set_participants(campaign=campaign, actor=actor, characters=fighters, expected_version=None)
    savage_round_deal(campaign=campaign, actor=actor, expected_version=None, rng=rng)
