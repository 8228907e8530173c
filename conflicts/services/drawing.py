"""Drawing in a Sequence: the split declared, the hand dealt, the draw resolved, being outdistanced."""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from django.contrib.auth.models import User
from django.db import transaction
from django.utils.translation import gettext as _

from campaigns.models import Membership, Visibility
from campaigns.services import event_append
from conflicts import decks as deck_store
from conflicts import sheets
from conflicts.messages import refuse
from conflicts.models import (
    Participant,
    Phase,
    Sequence,
    SequenceKind,
)
from conflicts.rules import deck as deck_rules
from conflicts.rules.budget import Split, validate_split
from conflicts.rules.cards import Card, codes
from conflicts.rules.equipment import Era, outdistancing_side
from conflicts.rules.errors import RuleError
from conflicts.rules.resolution import DrawOutcome, resolve_draw
from conflicts.services.changes import _append, _bump, _lock_sequence, _member, _rng, controls
from conflicts.setup import (
    attack_draws,
    costs_of,
    effect_of,
    era_armour,
    era_defence_weight,
    hand_of,
    opponents_of,
    split_json,
)
from conflicts.snapshot import SequenceSnapshot, load
from core.errors import PermissionRefused, ServiceError


def _opponents(me: Participant, everyone: list[Participant]) -> dict[str, Participant]:
    return {p.key: p for p in everyone if p.side != me.side and p.active}


def _teammates(me: Participant, everyone: list[Participant]) -> dict[str, Participant]:
    return {p.key: p for p in everyone if p.side == me.side and p.active and p.pk != me.pk}


def _deal_hand(
    sequence: Sequence, participant: Participant, split: Split, everyone: list[Participant], rng: random.Random
) -> tuple[dict[str, Any], list[str]]:
    """Deal a split's cards from the participant's decks (locked in a fixed order); return hand and reshuffles."""
    settings = deck_store.table_settings(sequence.campaign)
    targets = {p.key: p for p in everyone}
    groups: list[tuple[str, str, int, tuple[str, str, int | None]]] = []
    for target, n in attack_draws(split, targets, settings).items():
        groups.append(("attack", target, n, deck_store.deck_address(settings, participant, "attack")))
    for protected, n in split.defence.items():
        groups.append(("defence", protected, n, deck_store.deck_address(settings, participant, "defence")))
    demand: dict[tuple[str, str, int | None], int] = {}
    for _part, _key, n, address in groups:
        demand[address] = demand.get(address, 0) + n
    dealt: dict[tuple[str, str, int | None], list[Card]] = {}
    reshuffles: list[str] = []
    for address in sorted(demand, key=lambda a: (a[0], a[1], a[2] or 0)):
        deck = deck_store.deck_get(sequence.campaign, *address, lock=True)
        try:
            deal = deck_rules.deal(deck_store.state_of(deck), demand[address], rng)
        except RuleError as error:
            raise refuse(error) from error
        deck_store.store(deck, deal.state)
        dealt[address] = list(deal.cards)
        reshuffles += [f"{deck}:{r}" for r in deal.reshuffles]
    hand: dict[str, Any] = {"attack": {}, "defence": {}, "flipped": []}
    for part, key, n, address in groups:
        cards, dealt[address] = dealt[address][:n], dealt[address][n:]
        hand[part][key] = codes(cards)
    return hand, reshuffles


def _discard(sequence: Sequence, participant: Participant) -> None:
    _discard_all(sequence, [participant])


def _discard_all(sequence: Sequence, participants: list[Participant]) -> None:
    """The cards of ``participants`` to their decks' discard piles, each deck locked once, in the order of the
    addresses as a draw locks them (``_deal_hand``): two use cases never hold two decks in crossed orders."""
    settings = deck_store.table_settings(sequence.campaign)
    by_deck: dict[tuple[str, str, int | None], list[Card]] = {}
    for participant in participants:
        for part in ("attack", "defence"):
            address = deck_store.deck_address(settings, participant, part)
            for cards in participant.hand.get(part, {}).values():
                by_deck.setdefault(address, []).extend(Card.parse(c) for c in cards)
    for address in sorted(by_deck, key=lambda a: (a[0], a[1], a[2] or 0)):
        deck = deck_store.deck_get(sequence.campaign, *address, lock=True)
        deck_store.store(deck, deck_rules.discard_cards(deck_store.state_of(deck), by_deck[address]))


def _outcome_json(outcome: DrawOutcome, everyone: list[Participant]) -> dict[str, Any]:
    names = {p.key: p.character.name for p in everyone}
    return {
        "verdict": str(outcome.verdict),
        "winner": outcome.winner,
        "by_side": dict(outcome.by_side),
        "targets": {
            key: {
                "name": names.get(key, key),
                "attacks": dict(t.attack_successes),
                "defence": t.defence_successes,
                "weight": t.defence_weight,
                "credited": dict(t.credited),
                "cost": t.cost,
                "severity": int(t.severity),
                "upper": dict(t.upper_hand_cards),
            }
            for key, t in outcome.targets.items()
        },
        "range_closed": {k: v for k, v in outcome.range_closed.items() if v},
        "upper_hand_cards": dict(outcome.upper_hand_cards),
        "names": names,
        "interpose": {},
    }


def _resolve(sequence: Sequence, everyone: list[Participant]) -> dict[str, Any]:
    settings = deck_store.table_settings(sequence.campaign)
    hands = [hand_of(p) for p in everyone if p.drawn]
    outcome = resolve_draw(
        hands,
        deck_store.success_rule(settings),
        collective=sequence.collective,
        defence_weights={p.key: era_defence_weight(p, opponents_of(p, everyone)) for p in everyone},
        armour={p.key: era_armour(p, opponents_of(p, everyone)) for p in everyone},
        costs=costs_of(sequence, everyone),
    )
    previous = sequence.outcome.get("interpose", {}) if sequence.phase == Phase.RESOLVED else {}
    result = _outcome_json(outcome, everyone)
    result["interpose"] = previous
    return result


def _hand_payload(participant: Participant) -> dict[str, Any]:
    return {"participant": participant.pk, "name": participant.character.name, "side": participant.side,
            "cards": participant.hand, "split": participant.split}  # fmt: skip


@transaction.atomic
def participant_declare_split(
    *, participant: Participant, actor: User, split: Split, reasons: Mapping[str, str] | None = None
) -> Participant:
    """Set one's cards aside before drawing: the narrator sees it at once, and opponents' odds count its defence."""
    membership = _member(participant.sequence.campaign_id, actor)
    sequence = _lock_sequence(participant.sequence, None)
    me = (
        Participant.objects.select_for_update(of=("self",))
        .select_related("character")
        .get(pk=participant.pk, sequence=sequence)
    )
    if not controls(membership, me):
        raise PermissionRefused(_("You can only act for your own characters."))
    if sequence.phase != Phase.DRAWING or me.drawn or not me.active:
        raise ServiceError(_("Out of turn: %(name)s cannot change cards now.") % {"name": me.character.name})
    for target in split.attack:
        if not sequence.participants.filter(pk=int(target), active=True).exclude(side=me.side).exists():
            raise refuse(RuleError("not_an_opponent", target=target))
    me.split = split_json(split, reasons)
    me.version += 1
    me.save(update_fields=["split", "version"])
    event_append(
        campaign=sequence.campaign, kind="sequence.split", actor=actor, visibility=Visibility.NARRATORS,
        payload={"sequence": sequence.pk, "title": sequence.title, "draw": sequence.draw_number, "participant": me.pk,
                 "name": me.character.name, "split": me.split},
        characters=[me.character],
    )  # fmt: skip
    return me


SplitReader = Callable[[Participant, list[Participant]], tuple[Split, Mapping[str, str] | None]]
"""How a use case reads the split it is sent against its snapshot: the panel's form names participants by id,
and only the locked snapshot says who they are now (``conflicts.forms.split_from_post``)."""


@dataclass
class Drawn:
    """A draw done: the participant who drew and the snapshot as the writer left it (the answer's board)."""

    me: Participant
    snapshot: SequenceSnapshot


@transaction.atomic
def participant_draw(
    *, participant: Participant, actor: User, expected_version: int | None, split: Split | None = None,
    reasons: Mapping[str, str] | None = None, rng: random.Random | None = None,
) -> Participant:  # fmt: skip
    """Draw a participant's cards for the current draw; the last one to draw resolves it (``draw_on_snapshot``)."""
    chosen = split if split is not None else Split()
    return draw_on_snapshot(
        sequence=participant.sequence, participant_id=participant.pk, actor=actor, expected_version=expected_version,
        read_split=lambda _me, _everyone: (chosen, reasons), rng=rng,
    ).me  # fmt: skip


@transaction.atomic
def draw_on_snapshot(
    *, sequence: Sequence, participant_id: int, actor: User, expected_version: int | None, read_split: SplitReader,
    rng: random.Random | None = None, membership: Membership | None = None,
) -> Drawn:  # fmt: skip
    """Load → decide → write: the Sequence and everything its rules read, locked and read once
    (``conflicts.snapshot``); the rules decide on it; the writer deals the cards and appends **one** Event,
    ``sequence.drew``. « Lorsque tous les participants ont tiré leurs cartes, les succès obtenus … sont
    transformés en Revers » (V, 2): the last card down resolves the draw, and its resolution goes in the same
    Event (``outcome``). ``membership``: the actor's, when the caller read it already."""
    if membership is None or membership.user_id != actor.pk or membership.campaign_id != sequence.campaign_id:
        membership = _member(sequence.campaign_id, actor)
    snap = load(sequence, expected_version)
    me = snap.participant(participant_id)
    if not controls(membership, me):
        raise PermissionRefused(_("You can only draw for your own characters."))
    current = snap.sequence
    if current.phase == Phase.ENDED:
        raise ServiceError(_("This sequence is over."))
    if current.phase == Phase.RESOLVED:
        raise ServiceError(_("Out of turn: this draw is over; the narrator records its Revers before the next one."))
    if not me.active:
        raise ServiceError(_("Out of turn: %(name)s is out of this sequence.") % {"name": me.character.name})
    if me.drawn:
        raise ServiceError(
            _("Out of turn: %(name)s already drew in this draw. Wait for the others.") % {"name": me.character.name}
        )
    if _outdistanced(current, snap.everyone, actor):
        return Drawn(me, snap)
    split, reasons = read_split(me, snap.everyone)
    payload = _deal_for(snap, me, split, reasons, _rng(rng))
    _append_draws(snap, actor, [(me, payload)])
    return Drawn(me, snap)


def _append_draws(
    snap: SequenceSnapshot, actor: User, drawn: list[tuple[Participant, dict[str, Any]]], *, tap: bool = False
) -> None:
    """One Event for the hands dealt: a participant's draw is a ``sequence.drew`` (its hand's payload), the
    narrator's tap for every NPC one ``sequence.npcs_drew`` holding every hand dealt (``hands``, each as a
    ``sequence.drew`` would say it). It carries the draw's resolution when nobody is left to draw (then it names
    every participant's character, as the resolution concerns them all); ``tap``: the narrator's tap."""
    sequence = snap.sequence
    outcome = resolution(sequence, snap.everyone, snap.effects)
    payload: dict[str, Any]
    if tap:
        kind, payload = "sequence.npcs_drew", {"hands": [hand for _p, hand in drawn]}
    else:
        ((_me, payload),) = drawn
        kind = "sequence.drew"
    characters = [p.character for p, _hand in drawn]
    if outcome is not None:
        payload["outcome"] = outcome
        characters = [q.character for q in snap.everyone]
    _append(sequence, kind, actor, payload, characters)
    if outcome is not None:
        _bump(sequence, "outcome", "phase")
    else:
        _bump(sequence)


def _deal_for(
    snap: SequenceSnapshot, me: Participant, split: Split, reasons: Mapping[str, str] | None, rng: random.Random
) -> dict[str, Any]:
    """One participant's cards for this draw, checked on the snapshot and dealt; returns the ``sequence.drew``
    payload for the caller's Event (the sequence is locked by the caller, which resolves the draw once everyone
    has drawn)."""
    sequence, everyone = snap.sequence, snap.everyone
    # The state cards (states.bridge): État critique, unconscious or dead draw nothing; Shaken draws no attack.
    effect = snap.effect(me)
    refusal = sheets.states_refusal(effect, attack=split.attack_cards > 0)
    if refusal:
        raise ServiceError(refusal)
    reasons = dict(reasons or me.split.get("reasons", {}))
    budget = snap.budget(me)
    try:
        validate_split(
            budget, split, me=me.key, opponents=set(_opponents(me, everyone)), teammates=set(_teammates(me, everyone)),
            out_of_range=me.out_of_range_bands > 0, shaken=bool(effect.shaken), collective=sequence.collective,
            cover_reasons=reasons,
        )  # fmt: skip
    except RuleError as error:
        raise refuse(error) from error
    hand, reshuffles = _deal_hand(sequence, me, split, everyone, rng)
    boosted = sheets.boost_used(me.character, me.trait_code, draw=True)
    me.split = split_json(split, reasons)
    me.hand = hand
    me.drawn = True
    me.version += 1
    me.save(update_fields=["split", "hand", "drawn", "version"])
    payload = _hand_payload(me)
    # The drawer's character, so that what a reader may see of the split follows the drawer alone
    # (``chronicle_kinds``) when the Event names everyone's characters.
    payload["character_id"] = me.character_id
    payload["names"] = {p.key: p.character.name for p in everyone}
    payload["reshuffles"] = reshuffles
    payload["rule"] = str(deck_store.success_rule(snap.settings))  # which cards succeeded, for the log's pictures
    if boosted:
        payload["boost"] = True  # a use of the boost spent: the character changed (``campaigns.event_subjects``)
    if me.character.kind != "npc":
        # An NPC's card count would give its trait away: only PCs' breakdowns go in the public log.
        payload["budget"] = [[i.modifier.code, i.modifier.amount, str(i.use)] for i in budget.items]
    return payload


def still_to_draw(
    sequence: Sequence, everyone: list[Participant], effects: Mapping[int, Any] | None = None
) -> list[Participant]:
    """Who the draw still waits for: every participant in the sequence who has not drawn and can act. « Lorsque
    tous les participants ont tiré leurs cartes » counts those who can draw: one in État critique (« Il ne peut
    plus agir »), unconscious or dead draws nothing, so the draw never waits for them."""
    waiting = [p for p in everyone if p.active and not p.drawn]
    if not waiting:
        return []
    if effects is None:
        effects = sheets.states_effects(
            [p.character for p in waiting], domain=sequence.domain, campaign=sequence.campaign
        )
    return [p for p in waiting if not effect_of(p, sequence, effects).out]


def resolution(
    sequence: Sequence, everyone: list[Participant], effects: Mapping[int, Any] | None = None
) -> dict[str, Any] | None:
    """The draw's outcome once the last card is down (the sequence set RESOLVED, not saved: the caller's Event
    carries the outcome and its ``_bump`` saves it); ``None`` while the draw still waits for someone."""
    if any(p.drawn for p in everyone) and not still_to_draw(sequence, everyone, effects):
        sequence.outcome = _resolve(sequence, everyone)
        sequence.phase = Phase.RESOLVED
        return sequence.outcome
    return None


def _resolve_if_complete(
    sequence: Sequence, everyone: list[Participant], actor: User | None, *, effects: Mapping[int, Any] | None = None
) -> None:
    """A draw left waiting for nobody by a change outside the Sequence (a participant falls out of action on
    their sheet) resolves with an Event of its own, ``sequence.resolved``: that change is the states' use case's,
    whose Event concerns the character alone. The sequence's version moves on either way."""
    outcome = resolution(sequence, everyone, effects)
    if outcome is not None:
        _append(sequence, "sequence.resolved", actor, {"outcome": outcome}, [p.character for p in everyone])
        _bump(sequence, "outcome", "phase")
    else:
        _bump(sequence)


def _outdistanced(sequence: Sequence, everyone: list[Participant], actor: User) -> bool:
    """End a chase that no card can decide: « Les véhicules modernes distancent automatiquement les véhicules
    de l'ère de la vapeur ou antérieurs. Les véhicules du futur distancent automatiquement les véhicules de
    l'ère moderne ou antérieurs. » (VII). Checked whenever someone comes to draw in a chase, so a vehicle
    changed between draws counts too; the faster side reaches its goal as with a Revers décisif (« rattraper
    le véhicule poursuivi … ou encore à échapper à ses poursuivants »). Cards already drawn go to the discard."""
    if sequence.kind != SequenceKind.CHASE:
        return False
    standing = [p for p in everyone if p.active]
    vehicles: dict[str, list[Era | None]] = {}
    for p in standing:
        vehicles.setdefault(p.side, []).append(Era(p.vehicle_era) if p.vehicle_era is not None else None)
    side = outdistancing_side(vehicles)
    if side is None:
        return False
    _discard_all(sequence, [p for p in everyone if p.drawn])
    for p in everyone:
        if p.drawn:
            p.hand, p.drawn = {}, False
            p.version += 1
            p.save(update_fields=["hand", "drawn", "version"])
    sequence.phase = Phase.ENDED
    sequence.winner = side
    sequence.ended_how = "outdistanced"
    eras = {p.character.name: int(p.vehicle_era) for p in standing if p.vehicle_era is not None}
    _append(sequence, "sequence.outdistanced", actor, {"sequence_winner": side, "eras": eras, "ended": True},
            [p.character for p in everyone])  # fmt: skip
    _bump(sequence, "phase", "winner", "ended_how")
    return True
