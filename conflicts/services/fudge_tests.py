"""MicroFudge Tests (the dice against a Difficulty) and simple conflicts (one roll against another)."""

from __future__ import annotations

import random
import uuid
from collections.abc import Mapping
from typing import Any

from django.contrib.auth.models import User
from django.db import transaction
from django.utils.translation import gettext as _

from campaigns.models import Visibility
from campaigns.redaction import PARTS
from campaigns.services import event_append
from characters.models import Character
from conflicts import sheets
from conflicts.rules.fudge import (
    FudgeTestSetup,
    Modifier,
    TechnicalPolicy,
    fudge_test,
    simple_conflict,
    simple_conflict_chances,
    success_chance,
)
from conflicts.rules.ranks import Difficulty, difficulty_from_rank
from conflicts.rules.relatedness import Relatedness
from conflicts.services.changes import _member, _narrator, _rng
from conflicts.services.roll_follow_ups import ledger_line
from conflicts.services.sequences import _trait_name, _trait_names
from core.errors import PermissionRefused, ServiceError


def standing_modifiers(effect: Any, *, domain: str, penalty: int) -> list[Modifier]:
    """What the sheet itself takes off a Test of ``domain``: the worst Revers of that domain (``penalty``) and
    the state cards' wounds and fatigue (states.bridge), −1 rank each; wounds or the physical Revers, the worse.
    The sheet's roll dialog shows the same lines before the roll (``conflicts.sheet_roll.standing``)."""
    modifiers = []
    # « Un Revers est considéré comme une Blessure » and « pas cumulatifs »: wherever both weigh, the worse one.
    # (Off the body with the narrow reading, no wounds weigh: the Revers line stays alone.)
    if penalty and effect.keeps_revers(penalty):
        modifiers.append(Modifier("revers", -penalty, domain))
    modifiers += [Modifier(code, amount) for code, amount in effect.lines(penalty)]
    return modifiers


def fudge_test_setup(
    character: Character, data: Mapping[str, Any], *, effect: Any = None
) -> tuple[FudgeTestSetup, str]:
    """A Test as the form describes it: the sheet's rank, relatedness and every modifier (read only). ``effect``:
    the state cards' effect for the data's domain when the caller has read it (the Test has, for its refusal)."""
    trait_code = data.get("trait_code", "")
    rank = data.get("trait_value")
    if rank is None:
        rank = sheets.trait_value(character, trait_code)
    domain = data.get("revers_domain", "")
    penalty = sheets.revers_penalty(character, domain) if domain else 0
    if effect is None:
        effect = sheets.states_effect(character, domain=domain)
    modifiers = standing_modifiers(effect, domain=domain, penalty=penalty)
    notes = data.get("notes") or {}  # why a line applies (the gear used, whose scale), shown with it
    for code in ("equipment", "scale", "other"):
        if data.get(code):
            modifiers.append(Modifier(code, int(data[code]), str(notes.get(code, ""))))
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
            # What a later Atout (conflicts.services.roll_follow_ups) needs to rebuild the Test.
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
    # Loaded once, in this order, then decided on: the state cards (they may refuse the Test), the trait (its rank
    # and its names in both languages, for the log), the sheet's other lines (fudge_test_setup).
    effect = sheets.states_effect(character, domain=data.get("revers_domain", ""))
    refusal = sheets.states_refusal(effect, test=True,
                                    free_action=bool(data.get("free_action")) and membership.is_narrator)  # fmt: skip
    if refusal:
        raise ServiceError(refusal)
    trait_code = data.get("trait_code", "")
    trait = sheets.trait_facts(character, trait_code) if trait_code else None
    if trait is not None and data.get("trait_value") is None:
        data = {**data, "trait_value": trait.rank}
    setup, trait_code = fudge_test_setup(character, data, effect=effect)
    roll_id = f"test-{uuid.uuid4().hex[:12]}"
    spent = None
    if data.get("atout"):
        # The Test's one Event tells the Atout too (``atout``), as a follow-up's ``test.atout`` does.
        spent = sheets.atout_pay(character=character, actor=actor, use="temporary_bonus", context={"roll": roll_id})
    chance = success_chance(setup)
    result = fudge_test(setup, _rng(rng))
    sheets.boost_used(character, trait_code, draw=False)
    payload = {"character": character.name, "trait": trait_code, **_trait_names(character, trait_code, trait),
               **_setup_payload(setup), "dice": list(result.dice), "final": result.final_rank, "success": result.success,
               "rolled": result.rolled, "automatic_failure": result.automatic_failure, "revers": result.revers,
               "chance": float(chance), "roll": roll_id}  # fmt: skip
    if data.get("range_band"):
        payload["range_band"] = data["range_band"]
    if data.get("asked"):
        payload["asked"] = int(data["asked"])  # the Test the narrator asked for, answered by this roll (asked_tests)
    if data.get("power"):
        payload["power"] = dict(data["power"])  # the power used (characters.services.powers.power_use spent it)
    if opponent is not None and data.get("opponent_trait"):
        payload["difficulty_from"] = {"name": opponent.name, "trait": _trait_name(opponent, data["opponent_trait"])}
    domain, nature = data.get("revers_domain") or "physical", data.get("nature") or "blunt"
    payload["revers_domain"], payload["nature"] = domain, nature
    if result.revers:
        # Asked before it is written: a character already in État critique takes no more wounds (an empty part), and
        # an Atout on this Test can no longer move them either way (roll_follow_ups).
        if sheets.revers_become_wounds(character, domain):
            payload["revers_wounds"] = True
        # One change, one Event: the Revers (or the wounds it becomes) is a part of the Test's (``campaigns.redaction``),
        # with the visibility its own Event had (an NPC's stay the narrators' and its runner's).
        part = sheets.revers_record(
            character=character, actor=actor, domain=domain, severity=result.revers,
            source=data.get("source") or _("Hazardous test"), payload={"roll": roll_id}, nature=nature,
        )  # fmt: skip
        if part:
            payload[PARTS] = [part]
    visibility = Visibility.NARRATORS if character.kind == "npc" and membership.is_narrator else Visibility.EVERYONE
    if spent is not None:
        payload["atout"] = ledger_line(spent, character, visibility=visibility, recipient_id=None)
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
    if second.campaign_id != first.campaign_id or second.pk == first.pk:
        raise ServiceError(_("Choose another character of this campaign."))
    refuse_out_of_action(first, second)
    a, code_a, b, code_b = simple_conflict_setups(first, second, first_data, second_data)
    result = simple_conflict(a.effective_rank, b.effective_rank, _rng(rng))
    chances = simple_conflict_chances(a.effective_rank, b.effective_rank)
    sheets.boost_used(first, code_a, draw=False)
    sheets.boost_used(second, code_b, draw=False)
    payload = {
        "first": {"name": first.name, "trait": code_a, **_trait_names(first, code_a), "effective": a.effective_rank,
                  "trait_rank": a.trait_rank, "relatedness": str(a.relatedness), "dice": list(result.first_dice),
                  "final": result.first_final, "modifiers": [[m.code, m.amount, m.note] for m in a.modifiers]},
        "second": {"name": second.name, "trait": code_b, **_trait_names(second, code_b), "effective": b.effective_rank,
                   "trait_rank": b.trait_rank, "relatedness": str(b.relatedness), "dice": list(result.second_dice),
                   "final": result.second_final, "modifiers": [[m.code, m.amount, m.note] for m in b.modifiers]},
        "winner": str(result.winner),
        "chances": {str(k): float(v) for k, v in chances.items()},
    }  # fmt: skip
    if first_data.get("power"):
        payload["power"] = dict(first_data["power"])
    event_append(
        campaign=first.campaign, kind="conflict.simple", actor=actor, payload=payload, characters=[first, second]
    )
    return payload


def refuse_out_of_action(*characters: Character) -> None:
    """État critique « Il ne peut plus agir »; the dead and the unconscious neither: such a character leads no
    simple conflict, resists none, uses no power, whatever the bridge's setting (``states.bridge``)."""
    for character in characters:
        effect = sheets.states_effect(character, domain="")
        if effect.out:
            raise ServiceError(
                _("%(name)s cannot take part: %(reason)s")
                % {"name": character.name, "reason": sheets.states_refusal(effect)}
            )


def defender_setups(first: Character, others: list[Character], trait_code: str) -> dict[int, FudgeTestSetup]:
    """The other side of a simple conflict against ``first`` for each of ``others`` using ``trait_code``, as
    ``simple_conflict_setups`` builds it (the sheet's rank, the state cards' lines, a running boost, the scale
    compared with ``first``'s), in a fixed number of queries: the roll dialog offers every opponent with its
    chance (a test compares each with the roll made)."""
    ranks = sheets.trait_values(others, trait_code, first.campaign)
    effects = sheets.states_effects(others, domain="", campaign=first.campaign)
    out = {}
    for other in others:
        modifiers = standing_modifiers(effects.get(other.pk, sheets.no_states_effect()), domain="", penalty=0)
        if scale := max(0, sheets.scale_modifier(other, first, trait_code)):
            modifiers.append(Modifier("scale", scale, first.name))
        modifiers += [Modifier(c, a) for c, a, use in sheets.boost_lines(other, trait_code) if use == "any"]
        out[other.pk] = FudgeTestSetup(trait_rank=ranks[other.pk], difficulty=Difficulty.FACILE,
                                       modifiers=tuple(modifiers))  # fmt: skip
    return out


def simple_conflict_setups(
    first: Character, second: Character, first_data: Mapping[str, Any], second_data: Mapping[str, Any]
) -> tuple[FudgeTestSetup, str, FudgeTestSetup, str]:
    """Both sides of a simple conflict as they will roll (read only): the roll dialog shows these very setups.

    « Pour résoudre un Conflit simple, les deux adversaires lancent chacun 4 dés *Fudge* et modifient leurs
    Caractéristiques respectives. Le Rang final le plus élevé l'emporte. Un même résultat indique une égalité. » (V)
    """
    # « lorsque l'ogre dont la Vigueur est bonne est comparé à un humain, il est considéré comme ayant une
    # Excellente Vigueur » (appendix 8): the difference counts once, for the larger side only (the human keeps
    # its own rank), unless the form says otherwise.
    first_data, second_data = dict(first_data), dict(second_data)
    for data, me, other in ((first_data, first, second), (second_data, second, first)):
        if "scale" not in data and data.get("trait_code"):
            data["scale"] = max(0, sheets.scale_modifier(me, other, data["trait_code"]))
            data["notes"] = {**(data.get("notes") or {}), "scale": other.name}
    a, code_a = fudge_test_setup(first, {**first_data, "difficulty": Difficulty.FACILE})
    b, code_b = fudge_test_setup(second, {**second_data, "difficulty": Difficulty.FACILE})
    return a, code_a, b, code_b
