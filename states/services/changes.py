"""The steps every Savage-style state change shares: lock the state row and check the expected version,
let the pure rules decide, store the card, append one Event with every die rolled.

The use cases themselves live beside this module, one per concept (``shaken``, ``wounds``, ``fatigue``,
``clock``, ``situations``, ``rolls``, ``revers``, ``rounds``, ``sheet``); each is atomic.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from dataclasses import asdict
from typing import Any

from django.contrib.auth.models import User
from django.core.exceptions import ValidationError
from django.db.backends.base.operations import BaseDatabaseOperations
from django.utils.translation import gettext as _

from campaigns.models import Campaign, Visibility
from campaigns.redaction import event_part
from campaigns.services import event_append
from characters.models import Character, CharacterKind
from core.errors import ServiceError, StaleState
from states.hooks import run_out_of_action
from states.models import SavageFatigue, SavageRound, SavageState
from states.rules import fatigue as fatigue_rules
from states.rules import states as rules
from states.rules.dice import TARGET, Modifier, TraitDie, TraitRoll, trait_roll
from states.rules.errors import IllegalTransition
from states.selectors import card_state, trait_die

Rng = random.Random


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
    try:
        _check_column_ranges(state)
        state.full_clean()
    except ValidationError as exc:
        # The columns' ranges (tokens fit a small integer, at most four wounds): a refusal, never a 500.
        raise ServiceError(_("This change would put the character's state out of range.")) from exc
    state.save()


def _check_column_ranges(state: SavageState) -> None:
    """Every integer within its column's portable range, whatever the database: SQLite stores any integer
    (so ``full_clean`` lets 32,768 Jetons pass there) where PostgreSQL's smallint refuses it with a DataError."""
    for field in state._meta.concrete_fields:
        bounds = BaseDatabaseOperations.integer_field_ranges.get(field.get_internal_type())
        value = getattr(state, field.attname)
        if bounds and isinstance(value, int) and not bounds[0] <= value <= bounds[1]:
            raise ValidationError({field.name: f"{value} is outside {bounds[0]}–{bounds[1]}"})


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
    if state.incapacitated or state.dead or state.unconscious:
        run_out_of_action(character, actor)


def _part(state: SavageState, *, kind: str, actor: User | None, payload: dict[str, Any]) -> dict[str, Any]:
    """What ``_log`` would append, as a part of another use case's one Event (``campaigns.redaction``): with the
    visibility that Event would have had (an NPC's state is the narrators' until it joins a fight). The hooks of a
    character put out of action run here, as ``_log``'s do after its Event."""
    character = state.character
    visibility, recipient = _visibility(character)
    part = event_part(
        kind, {"character": character.name, "character_id": character.pk, **payload, "state": _summary(state)},
        visibility=visibility, recipient_id=recipient.pk if recipient is not None else None,
    )  # fmt: skip
    if state.incapacitated or state.dead or state.unconscious:
        run_out_of_action(character, actor)
    return part


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
