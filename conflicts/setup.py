"""From database rows to the pure rules' inputs: a participant's card budget, split and hand."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import TYPE_CHECKING, Any

from characters.rules.psychic import telekinesis_mind_modifier
from conflicts import sheets
from conflicts.models import CoverMode, Participant, Sequence, SequenceKind, TableSettings
from conflicts.rules.budget import Budget, CardItem, ParticipantSetup, Split, Use, card_budget, validate_split
from conflicts.rules.cards import Card
from conflicts.rules.equipment import (
    Era,
    VehicleSize,
    armour_applies,
    defence_weight,
    successes_per_revers,
    vehicle_weapon_ignores_robustness,
)
from conflicts.rules.errors import RuleError
from conflicts.rules.fudge import Modifier
from conflicts.rules.relatedness import Relatedness, related_rank
from conflicts.rules.resolution import Hand, Played

if TYPE_CHECKING:
    from characters.models import Character


TELEKINESIS = "telekinesie"


def telekinesis_mind(character: Character, trait_code: str) -> int:
    """« Esprit / Modificateur: Faible à Médiocre -1 carte, Moyen +/- 0, Bon +1 carte, Excellent +2 cartes,
    Exceptionnel +3 cartes » when the trait used is Télékinésie (appendix 1); 0 otherwise."""
    if trait_code != TELEKINESIS:
        return 0
    return telekinesis_mind_modifier(sheets.trait_value(character, "esprit"))


def writes_to_sheets(sequence: Sequence) -> bool:
    """Chases move vehicles, demolitions damage them, friendly contests only decide a winner: none of them
    writes Revers on character sheets (docs/rules-decisions.md)."""
    return not sequence.friendly and sequence.kind == SequenceKind.STANDARD


def penalty_of(participant: Participant, sequence: Sequence, penalties: Mapping[int, int] | None = None) -> int:
    if writes_to_sheets(sequence):
        if penalties is not None:
            return penalties.get(participant.character_id, 0)
        return sheets.revers_penalty(participant.character, sequence.domain)
    return participant.friendly_worst


def armour_counts(participant: Participant, opponents: Iterable[Participant]) -> bool:
    """« Les armes à feu ignorent les armures médiévales ou non pare-balle; les armes du futur … ignorent les
    armures de l'ère moderne ou antérieure »: armour adds defence cards only if every opponent's weapon
    respects it."""
    return all(
        armour_applies(
            weapon_era=Era(o.weapon_era), weapon_is_firearm=o.weapon_firearm,
            armour_era=Era(participant.armour_era), armour_bulletproof=participant.armour_bulletproof,
        )
        for o in opponents
    )  # fmt: skip


def era_defence_weight(participant: Participant, opponents: list[Participant]) -> int:
    """The narrator's figure: attack successes each of the participant's defence successes cancels (1 or 2)."""
    return max(1, participant.defence_weight)


def era_armour(participant: Participant, opponents: list[Participant]) -> tuple[int, int]:
    """(weight, cards): « Chaque succès d'une armure du futur annule deux succès d'une arme moderne ou d'une ère
    antérieure » applies to the successes of the armour's own cards only, the first ``cards`` of the wearer's
    own defence pile (cards dealt are exchangeable, so taking the first ones is drawing them apart), when every
    opponent's weapon is that old and the armour counts at all; (1, 0) otherwise."""
    if not participant.armour or not opponents or not armour_counts(participant, opponents):
        return 1, 0
    weight = min(
        defence_weight(weapon_era=Era(o.weapon_era), armour_era=Era(participant.armour_era)) for o in opponents
    )
    return (weight, participant.armour) if weight > 1 else (1, 0)


def robustness_counts(participant: Participant, sequence: Sequence, opponents: Iterable[Participant]) -> bool:
    """« Les armes des véhicules modernes ignorent la Robustesse des véhicules de l'ère de la vapeur ou
    antérieurs. Les armes des véhicules du futur ignorent la Robustesse des véhicules de l'ère moderne ou
    antérieurs. » (VII). In a demolition a vehicle's Robustesse (its cards) counts unless every opponent's
    vehicle ignores it, as for armour: one pool of cards serves against every attacker."""
    others = list(opponents)
    if sequence.kind != SequenceKind.DEMOLITION or participant.vehicle_era is None or not others:
        return True
    return not all(
        o.vehicle_era is not None
        and vehicle_weapon_ignores_robustness(Era(o.vehicle_era), Era(participant.vehicle_era))
        for o in others
    )


def opponents_of(participant: Participant, everyone: Iterable[Participant]) -> list[Participant]:
    return [p for p in everyone if p.side != participant.side and p.active]


def fed_of(participant: Participant, lowered: Mapping[int, int] | None = None) -> int:
    """Ranks the participant's trait has lost feeding a power domain, read at the draw (its declared value is
    the sheet's rank before that loss, so that a power fed during the sequence counts at once)."""
    if not participant.trait_code:
        return 0
    if lowered is not None:
        return lowered.get(participant.character_id, 0)
    return sheets.ranks_lowered(participant.character, participant.trait_code)


def effect_of(participant: Participant, sequence: Sequence, effects: Mapping[int, Any] | None = None) -> Any:
    """The state cards' effect on the participant's draws (``states.bridge``), from ``effects`` when read in bulk."""
    if effects is not None:
        return effects.get(participant.character_id, sheets.no_states_effect())
    return sheets.states_effect(participant.character, domain=sequence.domain)


def setup_of(
    participant: Participant, sequence: Sequence, settings: TableSettings, *, penalty: int,
    opponents: Iterable[Participant] = (), lowered: Mapping[int, int] | None = None,
    effects: Mapping[int, Any] | None = None,
) -> ParticipantSetup:  # fmt: skip
    opponents = list(opponents)
    effect = effect_of(participant, sequence, effects)
    # Wounds and a sheet's physical Revers are one harm: the worse counts (states.rules.bridge); fatigue adds.
    sheet_revers = penalty if writes_to_sheets(sequence) else 0
    bridge = [CardItem(Modifier(code, amount)) for code, amount in effect.lines(sheet_revers)]
    if not effect.keeps_revers(sheet_revers):
        penalty = 0
    fed = fed_of(participant, lowered)
    vehicle = participant.vehicle
    if vehicle > 0 and not robustness_counts(participant, sequence, opponents):
        vehicle = 0
    return ParticipantSetup(
        trait_value=participant.trait_value,
        relatedness=participant.trait_value
        - related_rank(participant.trait_value, Relatedness(participant.relatedness)),
        revers_penalty=penalty,
        fed=fed,
        weapon=participant.weapon,
        weapon_use=Use(participant.weapon_use),
        armour=participant.armour if armour_counts(participant, opponents) else 0,
        shield=participant.shield,
        two_weapons=participant.two_weapons,
        two_weapons_use=Use(participant.two_weapons_use),
        surprise=participant.surprise,
        conditions=participant.conditions,
        scale=participant.scale,
        vehicle=vehicle,
        telekinesis_mind=participant.telekinesis_mind if participant.trait_code == TELEKINESIS else 0,
        vehicle_as_armour=participant.robustness_as_armour and sequence.kind == SequenceKind.STANDARD,
        atout_card=participant.atout_card,
        help_cards=participant.help_cards,
        upper_hand_cards=participant.upper_hand_cards,
        range_defence=participant.range_defence,
        cover_defence=participant.cover if settings.cover_mode == CoverMode.DEFENCE else 0,
        other=participant.other,
        extra=tuple(bridge)
        + tuple(
            CardItem(Modifier(code, amount), Use(use))
            for code, amount, use in sheets.boost_lines(participant.character, participant.trait_code)
        ),
    )


def budget_of(
    participant: Participant, sequence: Sequence, settings: TableSettings, *, penalty: int,
    everyone: Iterable[Participant] = (), lowered: Mapping[int, int] | None = None,
    effects: Mapping[int, Any] | None = None,
) -> Budget:  # fmt: skip
    setup = setup_of(
        participant, sequence, settings, penalty=penalty, opponents=opponents_of(participant, everyone),
        lowered=lowered, effects=effects,
    )  # fmt: skip
    return card_budget(setup, first_draw=sequence.draw_number == 1)


def split_from(data: Mapping[str, Any] | None) -> Split:
    data = data or {}
    return Split(
        attack={str(k): int(v) for k, v in (data.get("attack") or {}).items() if int(v)},
        defence={str(k): int(v) for k, v in (data.get("defence") or {}).items() if int(v)},
        upper_hand=bool(data.get("upper_hand")),
    )


def split_json(split: Split, reasons: Mapping[str, str] | None = None) -> dict[str, Any]:
    return {
        "attack": dict(split.attack),
        "defence": dict(split.defence),
        "upper_hand": split.upper_hand,
        "reasons": {k: v for k, v in (reasons or {}).items() if v},
    }


def attack_draws(split: Split, targets: Mapping[str, Participant], settings: TableSettings) -> dict[str, int]:
    """Cards actually drawn against each target: cover that takes cards from the attacker lowers them."""
    out = {}
    for target, n in split.attack.items():
        cover = targets[target].cover if settings.cover_mode == CoverMode.ATTACKER and target in targets else 0
        out[target] = max(0, n - cover)
    return out


def hand_of(participant: Participant) -> Hand:
    flipped = set(participant.hand.get("flipped", []))

    def played(part: str, key: str, codes: list[str]) -> tuple[Played, ...]:
        return tuple(Played(Card.parse(c), f"{part}:{key}:{i}" in flipped) for i, c in enumerate(codes))

    return Hand(
        key=participant.key,
        side=participant.side,
        attack={k: played("attack", k, v) for k, v in participant.hand.get("attack", {}).items()},
        defence={k: played("defence", k, v) for k, v in participant.hand.get("defence", {}).items()},
        upper_hand=bool(participant.split.get("upper_hand")),
        out_of_range=participant.out_of_range_bands > 0,
    )


def hand_cards(participant: Participant) -> list[Card]:
    cards = []
    for part in ("attack", "defence"):
        for codes in participant.hand.get(part, {}).values():
            cards += [Card.parse(c) for c in codes]
    return cards


def costs_of(sequence: Sequence, participants: list[Participant]) -> dict[tuple[str, str], int]:
    """Vehicle sizes make Revers dearer in demolitions (« Catégories de véhicules »)."""
    if sequence.kind != SequenceKind.DEMOLITION:
        return {}
    out = {}
    for a in participants:
        for t in participants:
            if a.pk != t.pk and a.vehicle_size is not None and t.vehicle_size is not None:
                out[(a.key, t.key)] = successes_per_revers(VehicleSize(a.vehicle_size), VehicleSize(t.vehicle_size))
    return out


def can_attack(me: Participant, everyone: list[Participant], *, shaken: bool) -> bool:
    """Whether the participant may put cards in attack at all: an opponent still in, within range, not Shaken."""
    return any(p.side != me.side and p.active for p in everyone) and me.out_of_range_bands == 0 and not shaken


def default_split(
    me: Participant, everyone: list[Participant], budget: Budget, *, shaken: bool = False, collective: bool = False
) -> Split:
    """The split a form starts from, always one the rules accept (``validate_split``): the saved one if it still
    is, else all attack cards on the first opponent and the rest defending; every card that can defend when the
    participant may not attack (Shaken, out of range), the attack-only cards left out (``Budget.to_place``)."""
    opponents = [p for p in everyone if p.side != me.side and p.active]
    teammates = {p.key for p in everyone if p.side == me.side and p.active and p.pk != me.pk}
    out_of_range = me.out_of_range_bands > 0
    saved = split_from(me.split)
    if saved.cards:

        def legal(split: Split) -> bool:
            try:
                validate_split(
                    budget, split, me=me.key, opponents={p.key for p in opponents}, teammates=teammates,
                    out_of_range=out_of_range, shaken=shaken, collective=collective,
                    cover_reasons=me.split.get("reasons", {}),
                )  # fmt: skip
            except RuleError:
                return False
            return True

        # The saved split if it still holds, else completed with the cards it left unplaced in defence; one the
        # table has since made illegal (an attack saved before the character was Shaken) starts again.
        left = budget.to_place(can_attack=can_attack(me, everyone, shaken=shaken)) - saved.cards
        completed = Split(
            saved.attack, {**saved.defence, me.key: saved.defence.get(me.key, 0) + left}, saved.upper_hand
        )
        for split in (saved, completed) if left > 0 else (saved,):
            if legal(split):
                return split
    attacks = can_attack(me, everyone, shaken=shaken)
    attack = budget.free + budget.attack_only if attacks else 0
    defence = budget.to_place(can_attack=attacks) - attack
    return Split(
        attack={opponents[0].key: attack} if attack else {},
        defence={me.key: defence} if defence else {},
    )
