"""Atouts spent during a draw: an extra card, a redraw, a changed card, a counter."""

from __future__ import annotations

import random
from typing import Any

from django.contrib.auth.models import User
from django.db import transaction
from django.utils.translation import gettext as _

from characters.models import Character, CharacterKind
from conflicts import decks as deck_store
from conflicts import sheets
from conflicts.models import (
    Participant,
    Phase,
    Sequence,
)
from conflicts.rules import deck as deck_rules
from conflicts.rules.budget import Split
from conflicts.rules.cards import Card, codes
from conflicts.services.changes import _append, _bump, _lock_sequence, _member, _participants, _rng, _roll_id, controls
from conflicts.services.drawing import _discard, _resolve
from core.errors import PermissionRefused, ServiceError


class AtoutUse:
    CARD = "card"  # +1 card (« augmenter temporairement … de 1 Rang »)
    HELP = "help"  # two Atouts: +1 card to another
    REDRAW = "redraw"  # « retirer les cartes »
    CHANGE = "change"  # « changer le résultat … de l'une des cartes »
    TAKE_REVERS = "take_revers"  # « supporter un Revers à la place d'un autre »
    COUNTER = "counter"  # « contrer la dépense d'un Atout par une autre personne et ainsi l'annuler »


LEDGER_USE = {
    AtoutUse.CARD: "temporary_bonus",
    AtoutUse.HELP: "help_other",
    AtoutUse.REDRAW: "reroll",
    AtoutUse.CHANGE: "change_result",
    AtoutUse.TAKE_REVERS: "take_revers",
    AtoutUse.COUNTER: "counter",
}


@transaction.atomic
def participant_atout(
    *, participant: Participant, actor: User, use: str, expected_version: int | None, target: Participant | None = None,
    card: str = "", justification: str = "", rng: random.Random | None = None, direction: str = "",
) -> Participant:  # fmt: skip
    """Spend Atouts during a draw, through the characters' ledger, and apply the effect.

    Changing a card names the card and ``direction``, what it becomes (``success`` or ``failure``): « obtenir un
    succès ou un échec supplémentaire », the player's choice, never a default that could turn against them."""
    membership = _member(participant.sequence.campaign_id, actor)
    sequence = _lock_sequence(participant.sequence, expected_version)
    everyone = _participants(sequence)
    by_key = {p.key: p for p in everyone}
    me = by_key.get(participant.key)
    if me is None or not controls(membership, me):
        raise PermissionRefused(_("You can only act for your own characters."))
    if use not in LEDGER_USE:
        raise ServiceError(_("Unknown use of an Atout."))
    if sequence.phase == Phase.ENDED:
        raise ServiceError(_("This sequence is over."))
    other = by_key.get(target.key) if target is not None else None
    context: dict[str, Any] = {"roll": _roll_id(sequence), "sequence": sequence.pk}
    amount = 1
    if use == AtoutUse.COUNTER:
        # App. 4: « Dans ce cas, les deux opposants perdent chacun un Atout, mais le personnage qui a dépensé
        # l'Atout originel peut décider de dépenser un second Atout pour gagner à nouveau le bonus espéré. »
        if sequence.phase != Phase.DRAWING:
            raise ServiceError(_("Extra cards are bought before drawing."))
        if other is None or other.pk == me.pk or not other.atout_card or other.drawn:
            raise ServiceError(_("Counter the Atout of someone who bought a card and has not drawn yet."))
        context["target_character"] = other.character_id
    elif use in (AtoutUse.CARD, AtoutUse.HELP):
        if sequence.phase != Phase.DRAWING:
            raise ServiceError(_("Extra cards are bought before drawing."))
        if use == AtoutUse.CARD:
            if me.drawn:
                raise ServiceError(_("%(name)s already drew.") % {"name": me.character.name})
            if me.atout_card:
                raise ServiceError(_("Only one Atout can add a card to a draw, unless it is countered."))
        else:
            if other is None or other.pk == me.pk or other.side != me.side or other.drawn:
                raise ServiceError(_("Help a teammate who has not drawn yet."))
            amount = 2
            context["target_character"] = other.character_id
    else:
        if sequence.phase != Phase.RESOLVED:
            raise ServiceError(
                _("This Atout is spent once the cards are on the table, before the Revers are recorded.")
            )
        if use in (AtoutUse.REDRAW, AtoutUse.CHANGE) and not me.drawn:
            raise ServiceError(_("%(name)s has no cards on the table.") % {"name": me.character.name})
        if use == AtoutUse.CHANGE:
            _check_change(sequence, me, card, direction)
        if use == AtoutUse.TAKE_REVERS:
            received = sequence.outcome.get("targets", {}).get(other.key if other else "", {}).get("severity", 0)
            if other is None or other.pk == me.pk or other.side != me.side or not received:
                raise ServiceError(_("Take a Revers a teammate received in this draw."))
            if other.key in sequence.outcome.get("interpose", {}):
                raise ServiceError(_("Someone already takes that Revers."))
            # « peut exiger du joueur qu'il dépense un Atout par revers supporté »: one per Revers point.
            amount = received
            context["target_character"] = other.character_id
    # One Atout spent, one log line: the draw's Event carries the ledger's line (as a Test's follow-up does)
    # instead of a ``character.atout_spent`` beside it that said the same thing a second time.
    ledger = sheets.atout_pay(character=me.character, actor=actor, use=LEDGER_USE[use], amount=amount,
                              justification=justification, context=context)  # fmt: skip
    payload: dict[str, Any] = {"participant": me.pk, "name": me.character.name, "use": use, "amount": amount,
                               "atout": _ledger_line(ledger, me.character)}  # fmt: skip
    if use == AtoutUse.CARD:
        me.atout_card = 1
        me.save(update_fields=["atout_card"])
    elif use == AtoutUse.COUNTER:
        assert other is not None
        # The countered card goes: its owner may buy it again (the ledger allows one more while countered).
        other.atout_card = 0
        other.save(update_fields=["atout_card"])
        payload["target"] = other.character.name
        payload["target_participant"] = other.pk
    elif use == AtoutUse.HELP:
        assert other is not None
        other.help_cards += 1
        other.save(update_fields=["help_cards"])
        payload["target"] = other.character.name
        payload["target_participant"] = other.pk
    elif use == AtoutUse.REDRAW:
        _discard(sequence, me)
        split = Split(
            attack={k: len(v) for k, v in me.hand.get("attack", {}).items()},
            defence={k: len(v) for k, v in me.hand.get("defence", {}).items()},
        )
        old = me.hand
        me.hand, payload["reshuffles"] = _deal_hand_exact(sequence, me, split, _rng(rng))
        me.save(update_fields=["hand"])
        payload.update({"old_cards": old, "cards": me.hand})
    elif use == AtoutUse.CHANGE:
        part, key, index = _card_ref(me, card)
        flipped = set(me.hand.get("flipped", []))
        ref = f"{part}:{key}:{index}"
        flipped ^= {ref}
        me.hand = {**me.hand, "flipped": sorted(flipped)}
        me.save(update_fields=["hand"])
        payload.update({"card": me.hand[part][key][index], "part": part, "target": by_key[key].character.name,
                        "direction": direction})  # fmt: skip
    else:
        assert other is not None
        sequence.outcome["interpose"] = {**sequence.outcome.get("interpose", {}), other.key: me.key}
        payload["target"] = other.character.name
        payload["target_participant"] = other.pk
    if use in (AtoutUse.REDRAW, AtoutUse.CHANGE):
        interpose = sequence.outcome.get("interpose", {})
        sequence.outcome = _resolve(sequence, everyone)
        sequence.outcome["interpose"] = interpose
        payload["outcome"] = sequence.outcome
    _append(sequence, "sequence.atout", actor, payload, [me.character])
    _bump(sequence, "outcome")
    return me


def _ledger_line(ledger: dict[str, Any], spender: Character) -> dict[str, Any]:
    """The spending as ``character.atout_spent`` told it. A draw's Event is read by the whole table; an NPC's
    balance and reason were read by the narrators only: they stay under ``narrator_`` keys (as on a Test's)."""
    line = {k: v for k, v in ledger.items() if k not in ("balance", "justification")}
    prefix = "" if spender.kind == CharacterKind.PC else "narrator_"
    line[f"{prefix}balance"] = ledger.get("balance")
    if ledger.get("justification"):
        line[f"{prefix}justification"] = ledger["justification"]
    return line


def _deal_hand_exact(
    sequence: Sequence, me: Participant, split: Split, rng: random.Random
) -> tuple[dict[str, Any], list[str]]:
    """Redeal the same number of cards per target (cover already applied the first time)."""
    settings = deck_store.table_settings(sequence.campaign)
    hand: dict[str, Any] = {"attack": {}, "defence": {}, "flipped": []}
    reshuffles: list[str] = []
    for part, amounts in (("attack", split.attack), ("defence", split.defence)):
        address = deck_store.deck_address(settings, me, part)
        total = sum(amounts.values())
        if not total:
            continue
        deck = deck_store.deck_get(sequence.campaign, *address, lock=True)
        deal = deck_rules.deal(deck_store.state_of(deck), total, rng)
        deck_store.store(deck, deal.state)
        reshuffles += list(deal.reshuffles)
        cards = list(deal.cards)
        for key, n in amounts.items():
            hand[part][key], cards = codes(cards[:n]), cards[n:]
    return hand, reshuffles


def _check_change(sequence: Sequence, me: Participant, card: str, direction: str) -> None:
    """The card exists and can turn the way asked (before anything is paid)."""
    part, key, index = _card_ref(me, card)
    if direction not in ("success", "failure"):
        raise ServiceError(_("Say whether the card becomes a success or a failure."))
    rule = deck_store.success_rule(deck_store.table_settings(sequence.campaign))
    reads_success = Card.parse(me.hand[part][key][index]).is_success(rule) != (card in me.hand.get("flipped", []))
    if reads_success == (direction == "success"):
        raise ServiceError(
            _("This card is already a success: choose a failure to turn.")
            if reads_success
            else _("This card is already a failure: choose a success to turn.")
        )


def _card_ref(me: Participant, ref: str) -> tuple[str, str, int]:
    try:
        part, key, index_text = ref.split(":")
        index = int(index_text)
        me.hand[part][key][index]  # noqa: B018 - the lookup is the check
    except (ValueError, KeyError, IndexError) as exc:
        raise ServiceError(_("Choose one of your cards on the table.")) from exc
    return part, key, index
