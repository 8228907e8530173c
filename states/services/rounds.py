"""The round tracker: the initiative deck, who acts when, and what a turn's start clears."""

from __future__ import annotations

from typing import Any

from django.contrib.auth.models import User
from django.db import transaction
from django.utils.translation import gettext as _

from campaigns.models import Campaign
from campaigns.services import event_append
from characters.models import Character
from core.errors import ServiceError, StaleState
from states.models import SavageRound, SavageState
from states.rules.initiative import deal_round, is_joker
from states.rules.situations import (
    Situation,
    situations_at_turn_start,
)
from states.services.changes import Rng, _ensure_enabled, _rng


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
