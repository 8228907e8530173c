"""Use cases of conflicts: scenes, sequences, participants, draws, Atouts during a draw, Fudge tests.

Each one runs in a transaction, locks the sequence (and the decks it deals from, in a fixed order),
checks the sequence's ``version`` when the caller acted from a page that may be stale, and appends one
Event holding every card or die.
"""

from __future__ import annotations

import random
import uuid
from collections.abc import Mapping
from typing import Any

from django.contrib.auth.models import User
from django.db import transaction
from django.utils import translation
from django.utils.translation import gettext as _

from campaigns.models import Campaign, Membership, Visibility
from campaigns.services import event_append
from characters.models import Character
from conflicts import decks as deck_store
from conflicts import sheets
from conflicts.messages import refuse
from conflicts.models import (
    DeckLayout,
    Participant,
    Phase,
    Scene,
    Sequence,
    SequenceKind,
    SuccessRule,
    TableSettings,
)
from conflicts.rules import deck as deck_rules
from conflicts.rules.budget import Split, validate_split
from conflicts.rules.cards import Card, codes
from conflicts.rules.equipment import Era, outdistancing_side
from conflicts.rules.errors import RuleError
from conflicts.rules.fudge import FudgeTestSetup, Modifier, TechnicalPolicy, fudge_test, simple_conflict, success_chance
from conflicts.rules.ranks import Difficulty, difficulty_from_rank
from conflicts.rules.relatedness import Relatedness
from conflicts.rules.resolution import DrawOutcome, DrawVerdict, Severity, resolve_draw
from conflicts.rules.sequence import CutChoice, cut_short, is_out, over
from conflicts.setup import (
    attack_draws,
    budget_of,
    costs_of,
    era_armour,
    era_defence_weight,
    hand_of,
    opponents_of,
    penalty_of,
    split_json,
    telekinesis_mind,
    writes_to_sheets,
)
from core.errors import PermissionRefused, ServiceError, StaleState

SEQUENCE_FIELDS = ("title", "kind", "collective", "friendly", "secret_cut", "domain", "nature")
NARRATOR_PARTICIPANT_FIELDS = (
    "side", "trait_value", "relatedness", "weapon", "weapon_use", "two_weapons", "two_weapons_use", "armour", "shield", "surprise",
    "weapon_era", "weapon_firearm", "armour_era", "armour_bulletproof",
    "conditions", "cover", "scale", "vehicle", "telekinesis_mind", "robustness_as_armour", "range_defence", "other", "defence_weight", "vehicle_size",
    "vehicle_era", "out_of_range_bands", "out_after",
)  # fmt: skip
PLAYER_PARTICIPANT_FIELDS = ("goal", "trait_code")


def _rng(rng: random.Random | None) -> random.Random:
    return rng or random.SystemRandom()


def _member(campaign_id: int, actor: User) -> Membership:
    membership = Membership.objects.select_related("campaign").filter(campaign_id=campaign_id, user=actor).first()
    if membership is None:
        raise PermissionRefused(_("You are not a member of this campaign."))
    return membership


def _narrator(campaign_id: int, actor: User) -> Membership:
    membership = _member(campaign_id, actor)
    if not membership.is_narrator:
        raise PermissionRefused(_("Only a narrator can do this."))
    return membership


def controls(membership: Membership, participant: Participant) -> bool:
    """Players act only for the characters they run; narrators for everyone."""
    return membership.is_narrator or participant.character.owner_id == membership.user_id


def _lock_sequence(sequence: Sequence, expected_version: int | None) -> Sequence:
    locked = Sequence.objects.select_for_update(of=("self",)).select_related("campaign", "scene").get(pk=sequence.pk)
    if expected_version is not None and locked.version != expected_version:
        raise StaleState(
            _("Someone acted first: the sequence changed since your page was loaded. Check it and try again.")
        )
    return locked


def _participants(sequence: Sequence) -> list[Participant]:
    return list(
        Participant.objects.select_for_update(of=("self",))
        .select_related("character")
        .filter(sequence=sequence)
        .order_by("position", "pk")
    )


def _roll_id(sequence: Sequence) -> str:
    return f"sequence-{sequence.pk}-draw-{sequence.draw_number}"


def _bump(sequence: Sequence, *fields: str) -> None:
    sequence.version += 1
    sequence.save(update_fields=["version", *fields])


def _append(
    sequence: Sequence, kind: str, actor: User | None, payload: dict[str, Any], characters: list[Character]
) -> None:
    base = {"sequence": sequence.pk, "scene": sequence.scene_id, "title": sequence.title, "draw": sequence.draw_number}
    event_append(campaign=sequence.campaign, kind=kind, actor=actor, payload={**base, **payload}, characters=characters)


# Table settings and decks ---------------------------------------------------------------------------------


@transaction.atomic
def table_settings_update(
    *, campaign: Campaign, actor: User, data: Mapping[str, Any], expected_version: int
) -> TableSettings:
    _narrator(campaign.pk, actor)
    settings = TableSettings.objects.select_for_update().get(pk=deck_store.table_settings(campaign).pk)
    if settings.version != expected_version:
        raise StaleState(_("Someone changed the table settings first. Reload the page and try again."))
    changed = {}
    for field in ("success_rule", "layout", "cover_mode"):
        if field in data and getattr(settings, field) != data[field]:
            changed[field] = [getattr(settings, field), data[field]]
            setattr(settings, field, data[field])
    if settings.success_rule == SuccessRule.RED and settings.layout not in (DeckLayout.TABLE, DeckLayout.SMALL_DEFENCE):
        raise ServiceError(_("Method 2 counts red cards: it needs the table deck, not attack and defence decks."))
    if settings.success_rule != SuccessRule.RED and settings.layout == DeckLayout.SMALL_DEFENCE:
        raise ServiceError(_("The smaller defence deck is a method 2 option."))
    if not changed:
        return settings
    settings.version += 1
    settings.full_clean()
    settings.save()
    event_append(campaign=campaign, kind="table.settings_changed", actor=actor, payload={"changed": changed})
    return settings


@transaction.atomic
def deck_reshuffle(*, campaign: Campaign, actor: User, kind: str, holder: str, player_id: int | None = None,
                   rng: random.Random | None = None) -> None:  # fmt: skip
    """The dealer's privilege: played cards go back under the pile and everything is shuffled."""
    membership = _member(campaign.pk, actor)
    if not membership.is_narrator and holder == "narrator":
        raise PermissionRefused(_("Only a narrator can shuffle the narrator's decks."))
    if not membership.is_narrator and holder == "player" and player_id != actor.pk:
        raise PermissionRefused(_("You can only shuffle your own decks."))
    deck = deck_store.deck_get(campaign, kind, holder, player_id, lock=True)
    state = deck_rules.reshuffle(deck_store.state_of(deck), _rng(rng))
    deck_store.store(deck, state)
    event_append(
        campaign=campaign, kind="deck.reshuffled", actor=actor,
        payload={"deck": str(deck), "kind": kind, "holder": holder, "pile": len(state.pile), "in_play": len(state.in_play)},
    )  # fmt: skip


# Scenes, sequences, participants -------------------------------------------------------------------------


@transaction.atomic
def scene_create(*, campaign: Campaign, actor: User, title: str, description: str = "") -> Scene:
    _narrator(campaign.pk, actor)
    scene = Scene(campaign=campaign, title=title.strip(), description=description.strip())
    scene.full_clean()
    scene.save()
    event_append(
        campaign=campaign, kind="scene.created", actor=actor, payload={"scene": scene.pk, "title": scene.title}
    )
    return scene


@transaction.atomic
def sequence_create(*, scene: Scene, actor: User, data: Mapping[str, Any]) -> Sequence:
    _narrator(scene.campaign_id, actor)
    sequence = Sequence(
        scene=scene, campaign_id=scene.campaign_id, **{k: v for k, v in data.items() if k in SEQUENCE_FIELDS}
    )
    sequence.full_clean()
    sequence.save()
    _append(sequence, "sequence.created", actor, {"kind": sequence.kind, "friendly": sequence.friendly,
                                                  "collective": sequence.collective}, [])  # fmt: skip
    return sequence


@transaction.atomic
def participant_add(
    *, sequence: Sequence, actor: User, character: Character, side: str, goal: str = "", trait_code: str = "",
    trait_value: int | None = None, out_after: int | None = None, equip: bool = True,
) -> Participant:  # fmt: skip
    """Bring a PC or NPC into the sequence, with its trait read from its sheet and its combat gear."""
    _narrator(sequence.campaign_id, actor)
    sequence = _lock_sequence(sequence, None)
    if character.campaign_id != sequence.campaign_id:
        raise ServiceError(_("This character is not in this campaign."))
    if not sequence.is_open:
        raise ServiceError(_("This sequence is over."))
    if sequence.participants.filter(character=character).exists():
        raise ServiceError(_("%(name)s is already in this sequence.") % {"name": character.name})
    if not side.strip():
        raise ServiceError(_("Say which side %(name)s is on.") % {"name": character.name})
    participant = Participant(
        sequence=sequence, character=character, side=side.strip(), goal=goal.strip(), trait_code=trait_code,
        position=sequence.participants.count(),
        out_after=out_after if out_after is not None else getattr(character, "out_after_revers", None),
    )  # fmt: skip
    if character.kind != "npc":
        participant.out_after = None
    if trait_code:
        participant.trait_value = trait_value if trait_value is not None else sheets.sheet_rank(character, trait_code)
        participant.trait_name = _trait_name(character, trait_code)
        participant.telekinesis_mind = telekinesis_mind(character, trait_code)
    elif trait_value is not None:
        participant.trait_value = trait_value
    if equip:
        gear = sheets.combat_equipment(character)
        participant.weapon = min(3, max(0, gear.weapon_bonus))
        participant.armour = min(3, max(0, gear.armour))
        participant.shield = bool(gear.shield)
        participant.two_weapons = bool(gear.two_weapons)
        participant.weapon_era, participant.weapon_firearm = int(gear.weapon_era), bool(gear.weapon_firearm)
        participant.armour_era, participant.armour_bulletproof = int(gear.armour_era), bool(gear.armour_bulletproof)
    participant.full_clean(exclude=["sequence", "character"])
    participant.save()
    _bump(sequence)
    _append(sequence, "sequence.joined", actor, {"participant": participant.pk, "name": character.name,
                                                 "side": participant.side, "goal": participant.goal}, [character])  # fmt: skip
    return participant


def _trait_name(character: Character, trait_code: str) -> str:
    for code, name, _value in sheets.trait_choices(character):
        if code == trait_code:
            return name
    return trait_code


def _trait_names(character: Character, trait_code: str | None) -> dict[str, str]:
    """The trait's name in both languages, so the log reads « Tir » in French and "Shooting" in English."""
    if not trait_code:
        return {"trait_name": ""}
    with translation.override("fr"):
        name_fr = _trait_name(character, trait_code)
    with translation.override("en"):
        name_en = _trait_name(character, trait_code)
    return {"trait_name": name_fr, "trait_name_en": name_en}


@transaction.atomic
def participant_update(
    *, participant: Participant, actor: User, data: Mapping[str, Any], expected_version: int
) -> Participant:
    """Goal and trait (the participant's controller) and every modifier (the narrator), before drawing."""
    membership = _member(participant.sequence.campaign_id, actor)
    sequence = _lock_sequence(participant.sequence, expected_version)
    participant = Participant.objects.select_for_update(of=("self",)).select_related("character").get(pk=participant.pk)
    if not controls(membership, participant):
        raise PermissionRefused(_("You can only act for your own characters."))
    if not sequence.is_open:
        raise ServiceError(_("This sequence is over."))
    if participant.drawn:
        raise ServiceError(
            _("%(name)s already drew: change this before the next draw.") % {"name": participant.character.name}
        )
    allowed = PLAYER_PARTICIPANT_FIELDS + (NARRATOR_PARTICIPANT_FIELDS if membership.is_narrator else ())
    changed = {}
    for field in allowed:
        if field in data and getattr(participant, field) != data[field]:
            changed[field] = data[field]
            setattr(participant, field, data[field])
    if "trait_code" in changed and participant.trait_code:
        participant.trait_name = _trait_name(participant.character, participant.trait_code)
        if not (membership.is_narrator and "trait_value" in changed):
            participant.trait_value = sheets.sheet_rank(participant.character, participant.trait_code)
        if not (membership.is_narrator and "telekinesis_mind" in changed):
            participant.telekinesis_mind = telekinesis_mind(participant.character, participant.trait_code)
    if not changed:
        return participant
    participant.full_clean(exclude=["sequence", "character"])
    participant.version += 1
    participant.save()
    _bump(sequence)
    public = {k: v for k, v in changed.items() if k in ("goal", "trait_code", "side")}
    _append(sequence, "sequence.declared", actor, {"participant": participant.pk, "name": participant.character.name,
            "goal": participant.goal, "trait": participant.trait_name, "changed": sorted(public)}, [participant.character])  # fmt: skip
    return participant


# Drawing ---------------------------------------------------------------------------------------------------


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
    settings = deck_store.table_settings(sequence.campaign)
    by_deck: dict[tuple[str, str, int | None], list[Card]] = {}
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


@transaction.atomic
def participant_draw(
    *, participant: Participant, actor: User, expected_version: int | None, split: Split | None = None,
    reasons: Mapping[str, str] | None = None, rng: random.Random | None = None,
) -> Participant:  # fmt: skip
    """Draw a participant's cards for the current draw; the last one to draw resolves it."""
    membership = _member(participant.sequence.campaign_id, actor)
    sequence = _lock_sequence(participant.sequence, expected_version)
    everyone = _participants(sequence)
    me = next((p for p in everyone if p.pk == participant.pk), None)
    if me is None:
        raise ServiceError(_("This participant is not in this sequence."))
    if not controls(membership, me):
        raise PermissionRefused(_("You can only draw for your own characters."))
    if sequence.phase == Phase.ENDED:
        raise ServiceError(_("This sequence is over."))
    if sequence.phase == Phase.RESOLVED:
        raise ServiceError(_("Out of turn: this draw is over; the narrator records its Revers before the next one."))
    if not me.active:
        raise ServiceError(_("Out of turn: %(name)s is out of this sequence.") % {"name": me.character.name})
    if me.drawn:
        raise ServiceError(
            _("Out of turn: %(name)s already drew in this draw. Wait for the others.") % {"name": me.character.name}
        )
    if _outdistanced(sequence, everyone, actor):
        return me
    split = split if split is not None else Split()
    reasons = dict(reasons or me.split.get("reasons", {}))
    settings = deck_store.table_settings(sequence.campaign)
    budget = budget_of(me, sequence, settings, penalty=penalty_of(me, sequence), everyone=everyone)
    try:
        validate_split(
            budget, split, me=me.key, opponents=set(_opponents(me, everyone)), teammates=set(_teammates(me, everyone)),
            out_of_range=me.out_of_range_bands > 0, collective=sequence.collective, cover_reasons=reasons,
        )  # fmt: skip
    except RuleError as error:
        raise refuse(error) from error
    hand, reshuffles = _deal_hand(sequence, me, split, everyone, _rng(rng))
    sheets.boost_used(me.character, me.trait_code, draw=True)
    me.split = split_json(split, reasons)
    me.hand = hand
    me.drawn = True
    me.version += 1
    me.save(update_fields=["split", "hand", "drawn", "version"])
    payload = _hand_payload(me)
    payload["names"] = {p.key: p.character.name for p in everyone}
    payload["reshuffles"] = reshuffles
    if me.character.kind != "npc":
        # An NPC's card count would give its trait away: only PCs' breakdowns go in the public log.
        payload["budget"] = [[i.modifier.code, i.modifier.amount, str(i.use)] for i in budget.items]
    _append(sequence, "sequence.drew", actor, payload, [me.character])
    if all(p.drawn for p in everyone if p.active):
        sequence.outcome = _resolve(sequence, everyone)
        sequence.phase = Phase.RESOLVED
        _append(sequence, "sequence.resolved", actor, {"outcome": sequence.outcome}, [p.character for p in everyone])
        _bump(sequence, "outcome", "phase")
    else:
        _bump(sequence)
    return me


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
    for p in everyone:
        if p.drawn:
            _discard(sequence, p)
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


# Atouts during a draw --------------------------------------------------------------------------------------


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
    card: str = "", justification: str = "", rng: random.Random | None = None,
) -> Participant:  # fmt: skip
    """Spend Atouts during a draw, through the characters' ledger, and apply the effect."""
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
        if use == AtoutUse.TAKE_REVERS:
            received = sequence.outcome.get("targets", {}).get(other.key if other else "", {}).get("severity", 0)
            if other is None or other.pk == me.pk or other.side != me.side or not received:
                raise ServiceError(_("Take a Revers a teammate received in this draw."))
            if other.key in sequence.outcome.get("interpose", {}):
                raise ServiceError(_("Someone already takes that Revers."))
            # « peut exiger du joueur qu'il dépense un Atout par revers supporté »: one per Revers point.
            amount = received
            context["target_character"] = other.character_id
    sheets.atout_spend(character=me.character, actor=actor, use=LEDGER_USE[use], amount=amount,
                       justification=justification, context=context)  # fmt: skip
    payload: dict[str, Any] = {"participant": me.pk, "name": me.character.name, "use": use, "amount": amount}
    if use == AtoutUse.CARD:
        me.atout_card = 1
        me.save(update_fields=["atout_card"])
    elif use == AtoutUse.COUNTER:
        assert other is not None
        # The countered card goes: its owner may buy it again (the ledger allows one more while countered).
        other.atout_card = 0
        other.save(update_fields=["atout_card"])
        payload["target"] = other.character.name
    elif use == AtoutUse.HELP:
        assert other is not None
        other.help_cards += 1
        other.save(update_fields=["help_cards"])
        payload["target"] = other.character.name
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
        payload.update({"card": me.hand[part][key][index], "part": part, "target": by_key[key].character.name})
    else:
        assert other is not None
        sequence.outcome["interpose"] = {**sequence.outcome.get("interpose", {}), other.key: me.key}
        payload["target"] = other.character.name
    if use in (AtoutUse.REDRAW, AtoutUse.CHANGE):
        interpose = sequence.outcome.get("interpose", {})
        sequence.outcome = _resolve(sequence, everyone)
        sequence.outcome["interpose"] = interpose
        payload["outcome"] = sequence.outcome
    _append(sequence, "sequence.atout", actor, payload, [me.character])
    _bump(sequence, "outcome")
    return me


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


def _card_ref(me: Participant, ref: str) -> tuple[str, str, int]:
    try:
        part, key, index_text = ref.split(":")
        index = int(index_text)
        me.hand[part][key][index]  # noqa: B018 - the lookup is the check
    except (ValueError, KeyError, IndexError) as exc:
        raise ServiceError(_("Choose one of your cards on the table.")) from exc
    return part, key, index


# Recording the Revers, cutting short --------------------------------------------------------------------


@transaction.atomic
def sequence_settle(*, sequence: Sequence, actor: User, expected_version: int | None) -> Sequence:
    """Record the draw's Revers (on the sheets unless friendly, chase or demolition), then open the next draw."""
    _narrator(sequence.campaign_id, actor)
    sequence = _lock_sequence(sequence, expected_version)
    if sequence.phase != Phase.RESOLVED:
        raise ServiceError(_("There is no draw waiting for its Revers."))
    everyone = _participants(sequence)
    by_key = {p.key: p for p in everyone}
    outcome = sequence.outcome
    interpose = outcome.get("interpose", {})
    recorded = []
    for key, target in outcome.get("targets", {}).items():
        severity = Severity(target["severity"])
        if not severity or key not in by_key:
            continue
        receiver = by_key[interpose.get(key, key)]
        if writes_to_sheets(sequence):
            sheets.revers_inflict(
                character=receiver.character, actor=actor, domain=sequence.domain, severity=int(severity),
                source=f"{sequence.scene.title} · {sequence.title}", nature=sequence.nature,
                payload={"sequence": sequence.pk, "draw": sequence.draw_number},
            )  # fmt: skip
        receiver.revers_taken += int(severity)
        receiver.friendly_worst = max(receiver.friendly_worst, int(severity))
        out = is_out(severity=severity, revers_taken=receiver.revers_taken, out_after=receiver.out_after)
        if out:
            receiver.active = False
        recorded.append({"participant": receiver.pk, "name": receiver.character.name, "severity": int(severity),
                         "instead_of": by_key[key].character.name if receiver.key != key else "", "out": out})  # fmt: skip
    closed = outcome.get("range_closed", {})
    for p in everyone:
        _discard(sequence, p)
        p.upper_hand_cards = outcome.get("upper_hand_cards", {}).get(p.key, 0)
        p.out_of_range_bands = max(0, p.out_of_range_bands - closed.get(p.key, 0))
        p.hand, p.drawn, p.atout_card, p.help_cards = {}, False, 0, 0
        p.version += 1
        p.save()
    sequence.last_verdict = outcome.get("verdict", "")
    sequence.last_winner = outcome.get("winner") or ""
    sequence.cut_choices = {}
    standing = {p.key: p.active for p in everyone}
    sides = {p.key: p.side for p in everyone}
    ended = over(standing, sides)
    payload = {"revers": recorded, "verdict": sequence.last_verdict, "winner": sequence.last_winner,
               "upper_hand_cards": outcome.get("upper_hand_cards", {}), "range_closed": closed, "names": outcome.get("names", {}),
               "kind": sequence.kind, "written": writes_to_sheets(sequence)}  # fmt: skip
    if ended:
        standing_sides = sorted({p.side for p in everyone if p.active})
        sequence.phase = Phase.ENDED
        sequence.winner = standing_sides[0] if len(standing_sides) == 1 else ""
        sequence.ended_how = "decisive"
        payload.update({"ended": True, "sequence_winner": sequence.winner})
    else:
        sequence.phase = Phase.DRAWING
        sequence.draw_number += 1
    _append(sequence, "sequence.settled", actor, payload, [p.character for p in everyone])
    _bump(sequence, "phase", "draw_number", "last_verdict", "last_winner", "cut_choices", "winner", "ended_how")
    return sequence


@transaction.atomic
def sequence_cut_short(
    *, sequence: Sequence, actor: User, side: str, choice: str, expected_version: int | None
) -> Sequence:
    """« Abréger une Séquence »: the draw's winner ends it; on equal Revers both sides must want it."""
    membership = _member(sequence.campaign_id, actor)
    sequence = _lock_sequence(sequence, expected_version)
    everyone = _participants(sequence)
    if not any(p.side == side and controls(membership, p) for p in everyone):
        raise PermissionRefused(_("You can only choose for a side you play."))
    if sequence.phase != Phase.DRAWING or sequence.draw_number == 1:
        raise ServiceError(_("A sequence is cut short once a draw's Revers are recorded."))
    if any(p.drawn for p in everyone):
        raise ServiceError(_("Cards are already on the table for the next draw: finish it first."))
    choices = {**{k: CutChoice(v) for k, v in sequence.cut_choices.items()}, side: CutChoice(choice)}
    standing = sorted({p.side for p in everyone if p.active})
    try:
        decision = cut_short(
            verdict=DrawVerdict(sequence.last_verdict) if sequence.last_verdict else None, winner=sequence.last_winner or None,
            side=side, choices=choices, sides=standing,
        )  # fmt: skip
    except RuleError as error:
        raise refuse(error) from error
    sequence.cut_choices = {k: str(v) for k, v in choices.items()}
    payload: dict[str, Any] = {"side": side, "waiting_for": list(decision.waiting_for), "ended": decision.ended}
    if not (sequence.secret_cut and decision.waiting_for):
        payload["choices"] = sequence.cut_choices  # revealed together once every side chose
    if decision.ended:
        sequence.phase = Phase.ENDED
        sequence.winner = decision.winner or ""
        sequence.ended_how = "cut_short"
        payload["sequence_winner"] = sequence.winner
    elif not decision.waiting_for:
        sequence.cut_choices = {}
    _append(sequence, "sequence.cut", actor, payload, [])
    _bump(sequence, "cut_choices", "phase", "winner", "ended_how")
    return sequence


# Fudge tests and simple conflicts --------------------------------------------------------------------------


def fudge_test_setup(character: Character, data: Mapping[str, Any]) -> tuple[FudgeTestSetup, str]:
    """A Test as the form describes it: the sheet's rank, relatedness and every modifier (read only)."""
    trait_code = data.get("trait_code", "")
    rank = data.get("trait_value")
    if rank is None:
        rank = sheets.trait_value(character, trait_code)
    modifiers = []
    domain = data.get("revers_domain", "")
    if domain:
        penalty = sheets.revers_penalty(character, domain)
        if penalty:
            modifiers.append(Modifier("revers", -penalty, domain))
    for code in ("equipment", "scale", "other"):
        if data.get(code):
            modifiers.append(Modifier(code, int(data[code])))
    if data.get("atout"):
        modifiers.append(Modifier("atout", 1))
    modifiers += [
        Modifier(code, amount) for code, amount, use in sheets.boost_lines(character, trait_code) if use == "any"
    ]
    difficulty = Difficulty(int(data["difficulty"]))
    opponent, opponent_trait = data.get("opponent"), data.get("opponent_trait")
    if opponent is not None and opponent_trait:
        # « la Difficulté peut provenir d'une Caractéristique du ou des adversaires … Le Rang de la
        # Caractéristique donne alors la Difficulté de l'action (un Rang Bon indique une action Difficile) » (V).
        rank_against = sheets.trait_value(opponent, opponent_trait)
        # Appendix 8: the opponent's trait as it compares with this character's scale.
        rank_against += sheets.scale_modifier(opponent, character, opponent_trait)
        difficulty = difficulty_from_rank(rank_against)
    setup = FudgeTestSetup(
        trait_rank=int(rank), difficulty=difficulty, relatedness=Relatedness(data.get("relatedness") or "close"),
        modifiers=tuple(modifiers), highly_technical=bool(data.get("highly_technical")),
        technical_policy=TechnicalPolicy(data.get("technical_policy") or "none"),
        allow_automatic=bool(data.get("allow_automatic")),
        hazard_fixed_revers=data.get("hazard_fixed_revers"), hazard_per_rank=bool(data.get("hazard_per_rank")),
    )  # fmt: skip
    return setup, trait_code


def _setup_payload(setup: FudgeTestSetup) -> dict[str, Any]:
    return {"trait_rank": setup.trait_rank, "difficulty": setup.difficulty.name, "required": setup.required_rank,
            "relatedness": str(setup.relatedness), "effective": setup.effective_rank,
            "modifiers": [[m.code, m.amount, m.note] for m in setup.modifiers],
            # What a later Atout (conflicts.test_atouts) needs to rebuild the Test.
            "technical": [setup.highly_technical, str(setup.technical_policy), setup.technical_steps],
            "hazard": [setup.hazard_fixed_revers, setup.hazard_per_rank], "allow_automatic": setup.allow_automatic}  # fmt: skip


@transaction.atomic
def fudge_test_roll(
    *, character: Character, actor: User, data: Mapping[str, Any], rng: random.Random | None = None
) -> dict[str, Any]:
    """Roll a Test with every modifier shown; a failed hazardous Test writes its Revers on the sheet."""
    membership = _member(character.campaign_id, actor)
    if not (membership.is_narrator or character.owner_id == actor.pk):
        raise PermissionRefused(_("You can only roll for your own characters."))
    opponent = data.get("opponent")
    if opponent is not None and (opponent.campaign_id != character.campaign_id or
                                 (opponent.kind == "npc" and not membership.is_narrator)):  # fmt: skip
        raise PermissionRefused(_("Only a narrator can set a difficulty from an NPC's trait."))
    setup, trait_code = fudge_test_setup(character, data)
    roll_id = f"test-{uuid.uuid4().hex[:12]}"
    if data.get("atout"):
        sheets.atout_spend(character=character, actor=actor, use="temporary_bonus", context={"roll": roll_id})
    chance = success_chance(setup)
    result = fudge_test(setup, _rng(rng))
    sheets.boost_used(character, trait_code, draw=False)
    payload = {"character": character.name, "trait": trait_code, **_trait_names(character, trait_code),
               **_setup_payload(setup), "dice": list(result.dice), "final": result.final_rank, "success": result.success,
               "rolled": result.rolled, "automatic_failure": result.automatic_failure, "revers": result.revers,
               "chance": float(chance), "roll": roll_id}  # fmt: skip
    if data.get("range_band"):
        payload["range_band"] = data["range_band"]
    if opponent is not None and data.get("opponent_trait"):
        payload["difficulty_from"] = {"name": opponent.name, "trait": _trait_name(opponent, data["opponent_trait"])}
    payload["revers_domain"], payload["nature"] = data.get("revers_domain") or "physical", data.get("nature") or "blunt"
    if result.revers:
        sheets.revers_inflict(character=character, actor=actor, domain=data.get("revers_domain") or "physical",
                              severity=result.revers, source=data.get("source") or _("Hazardous test"),
                              payload={"roll": roll_id}, nature=data.get("nature") or "blunt")  # fmt: skip
    visibility = Visibility.NARRATORS if character.kind == "npc" and membership.is_narrator else Visibility.EVERYONE
    event_append(campaign=character.campaign, kind="test.rolled", actor=actor, payload=payload,
                 characters=[character], visibility=visibility)  # fmt: skip
    return payload


@transaction.atomic
def simple_conflict_roll(
    *, first: Character, second: Character, actor: User, first_data: Mapping[str, Any], second_data: Mapping[str, Any],
    rng: random.Random | None = None,
) -> dict[str, Any]:  # fmt: skip
    """Both roll 4dF on their modified trait; the higher final rank wins, equal is a tie."""
    _narrator(first.campaign_id, actor)
    if second.campaign_id != first.campaign_id:
        raise ServiceError(_("Both characters must be in this campaign."))
    # « lorsque l'ogre dont la Vigueur est bonne est comparé à un humain, il est considéré comme ayant une
    # Excellente Vigueur » (appendix 8): the difference counts once, for the larger side only (the human keeps
    # its own rank), unless the form says otherwise.
    first_data, second_data = dict(first_data), dict(second_data)
    for data, me, other in ((first_data, first, second), (second_data, second, first)):
        if "scale" not in data and data.get("trait_code"):
            data["scale"] = max(0, sheets.scale_modifier(me, other, data["trait_code"]))
    a, code_a = fudge_test_setup(first, {**first_data, "difficulty": Difficulty.FACILE})
    b, code_b = fudge_test_setup(second, {**second_data, "difficulty": Difficulty.FACILE})
    result = simple_conflict(a.effective_rank, b.effective_rank, _rng(rng))
    sheets.boost_used(first, code_a, draw=False)
    sheets.boost_used(second, code_b, draw=False)
    payload = {
        "first": {"name": first.name, "trait": code_a, "effective": a.effective_rank, "dice": list(result.first_dice),
                  "final": result.first_final, "modifiers": [[m.code, m.amount, m.note] for m in a.modifiers]},
        "second": {"name": second.name, "trait": code_b, "effective": b.effective_rank, "dice": list(result.second_dice),
                   "final": result.second_final, "modifiers": [[m.code, m.amount, m.note] for m in b.modifiers]},
        "winner": str(result.winner),
    }  # fmt: skip
    event_append(
        campaign=first.campaign, kind="conflict.simple", actor=actor, payload=payload, characters=[first, second]
    )
    return payload
