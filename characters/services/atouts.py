"""Atouts: spending them on a roll, raising traits with them, gaining and refunding them, the session award."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.contrib.auth.models import User
from django.db import transaction
from django.utils.translation import gettext as _

from campaigns.models import CreationMode, GameSession
from campaigns.selectors import open_session
from campaigns.services import event_append
from characters.models import (
    AtoutEntry,
    Character,
    CharacterKind,
    CharacterRules,
    CharacterTrait,
)
from characters.rules.atouts import (
    AtoutUse,
    GainReason,
    Pool,
    RollHistory,
    SpendRequest,
    in_play_raise_cost,
    in_play_rank_cost,
    progression_cost,
    session_award,
    spend_plan,
)
from characters.rules.errors import RuleViolation
from characters.rules.ladder import Rank
from characters.rules.traits import TraitKind
from characters.selectors import character_rules, trait_def_map

# ---------------------------------------------------------------- helpers
from characters.services.changes import (
    _append,
    _balances,
    _bump,
    _lock,
    _refuse,
    _require_editor,
    _require_narrator,
    _visibility,
    _write_entries,
)
from characters.services.creation import progression_scheme
from core.errors import ServiceError


def _roll_history(character: Character, roll: str) -> tuple[RollHistory, list[AtoutEntry]]:
    entries = list(
        AtoutEntry.objects.filter(character__campaign_id=character.campaign_id, context__roll=roll, delta__lt=0)
        .exclude(refunded_by__isnull=False)
        .order_by("pk")
    )
    own = {e.group for e in entries if e.character_id == character.pk and e.use == AtoutUse.TEMPORARY_BONUS}
    countered = {
        e.group for e in entries if e.use == AtoutUse.COUNTER and e.context.get("target_character") == character.pk
    }
    helped = any(e.character_id == character.pk and e.use == AtoutUse.HELP_OTHER for e in entries)
    return RollHistory(own_bonuses=len(own), countered=len(countered), helped=helped), entries


def _target(character: Character, context: Mapping[str, Any]) -> Character | None:
    target_id = context.get("target_character")
    if target_id is None:
        return None
    target = Character.objects.filter(pk=target_id, campaign_id=character.campaign_id).first()
    if target is None or target.pk == character.pk:
        raise ServiceError(_("Choose another character of this campaign."))
    return target


@transaction.atomic
def atout_spend(
    *,
    character: Character,
    actor: User,
    use: str,
    amount: int = 1,
    justification: str = "",
    context: Mapping[str, Any] | None = None,
) -> AtoutEntry:
    """Spend Atouts for one of the uses of II, IV and appendix 4; returns the (first) ledger entry.

    ``context`` carries what the use is about: ``roll`` (an id of the roll or draw, for temporary
    bonuses, counters and help), ``target_character`` (help, counter, take a Revers), ``trait``
    (raises). Raises ``ServiceError`` naming the broken rule, changing nothing. Logs one
    ``character.atout_spent`` Event.
    """
    entry, payload, character = _spend(
        character=character, actor=actor, use=use, amount=amount, justification=justification, context=context
    )
    _append(character, "character.atout_spent", actor, payload)
    return entry


def atout_pay(
    *,
    character: Character,
    actor: User,
    use: str,
    amount: int = 1,
    justification: str = "",
    context: Mapping[str, Any] | None = None,
) -> dict[str, Any]:
    """``atout_spend`` for a use whose own Event tells the spending with its effect (a Test's follow-up:
    ``test.atout``): the same ledger rows, balances and checks, and no ``character.atout_spent`` Event. Returns
    what that Event would have carried (use, amount, pools, justification, context, balance, target,
    ``character_id``), for the caller's Event to carry. The caller appends its Event in the same transaction,
    naming this character among its characters."""
    _entry, payload, character = _spend(
        character=character, actor=actor, use=use, amount=amount, justification=justification, context=context
    )
    return {"character": character.name, "character_id": character.pk, **payload}


def _spend(
    *,
    character: Character,
    actor: User,
    use: str,
    amount: int,
    justification: str,
    context: Mapping[str, Any] | None,
) -> tuple[AtoutEntry, dict[str, Any], Character]:
    _require_editor(character, actor)
    character = _lock(character)
    context = dict(context or {})
    try:
        use = AtoutUse(use)
    except ValueError as exc:
        raise ServiceError(_("Unknown use of an Atout.")) from exc
    campaign = character.campaign
    game_session = open_session(campaign)
    target = _target(character, context)
    rules = character_rules(campaign)
    roll_history = None
    if "roll" in context:
        context["roll"] = str(context["roll"])
        roll_history, _entries = _roll_history(character, context["roll"])
        if use == AtoutUse.COUNTER and target is not None:
            target_history, _unused = _roll_history(target, context["roll"])
            if target_history.own_bonuses <= target_history.countered:
                raise _refuse(RuleViolation("atout.counter.no_target"))
    raise_row, expected_cost, to_rank = None, None, None
    if use in (AtoutUse.RAISE_IN_PLAY, AtoutUse.RAISE_BETWEEN_SESSIONS):
        raise_row, expected_cost, to_rank = _raise_plan(character, rules, use, amount, context)
    request = SpendRequest(
        use=use,
        amount=amount,
        justification=justification,
        in_session=game_session is not None,
        roll=roll_history,
        expected_cost=expected_cost,
        targets_other=target is not None,
        single_atout_help=rules.single_atout_help,
    )
    try:
        plan = spend_plan(request, _balances(character))
    except RuleViolation as violation:
        raise _refuse(violation, {context.get("trait", ""): raise_row.name_fr if raise_row else ""}) from violation
    entry = _write_entries(
        character, plan, sign=-1, actor=actor, game_session=game_session, use=use,
        justification=justification.strip(), context=context,
    )  # fmt: skip
    payload: dict[str, Any] = {
        "use": str(use),
        "amount": amount,
        "pools": {str(k): v for k, v in plan.items()},
        "justification": justification.strip(),
        "context": context,
        "balance": character.atout_balance,
    }
    if raise_row is not None and to_rank is not None:
        payload.update({"trait": raise_row.code, "trait_name": raise_row.name_fr, "trait_name_en": raise_row.name_en,
                        "from": raise_row.rank, "to": to_rank})  # fmt: skip
        raise_row.rank = to_rank
        raise_row.save()
    if target is not None:
        payload["target"] = target.name
    _bump(character, "atouts_creation", "atouts_experience")
    return entry, payload, character


def _raise_plan(
    character: Character, rules: CharacterRules, use: AtoutUse, amount: int, context: Mapping[str, Any]
) -> tuple[CharacterTrait, int, int]:
    code = context.get("trait")
    if not code:
        raise ServiceError(_("Choose the trait to raise."))
    defs = trait_def_map(rules)
    row = CharacterTrait.objects.filter(character=character, code=code).first()
    if row is None:
        trait = defs.get(code)
        if trait is None:
            raise _refuse(RuleViolation("creation.unknown_trait", trait=code))
        row = CharacterTrait(
            character=character, code=code, kind=trait.kind, name_fr=trait.name_fr, name_en=trait.name_en,
            rank=trait.default,
        )  # fmt: skip
    if use == AtoutUse.RAISE_IN_PLAY:
        # « dépense 2 Atouts en Tir […] un rang Moyen » : one creation Atout per rank gained; in streamlined
        # creation « Aptitudes ±3 » and « aucune Caractéristique ne peut avoir un Rang […] supérieur à Excellent »
        # (appendix 3): ``amount`` is the Atouts paid, a whole number of ranks.
        streamlined = character.campaign.creation_mode == CreationMode.STREAMLINED
        per_rank = in_play_rank_cost(TraitKind(row.kind), streamlined=streamlined)
        to_rank = row.rank + max(amount // per_rank, 1)
        cost = in_play_raise_cost(row.rank, to_rank, per_rank=per_rank)
        if streamlined and to_rank > Rank.EXCELLENT:
            raise _refuse(RuleViolation("streamlined.above_excellent", trait=code), {code: row.name_fr})
    else:
        to_rank = row.rank + 1
        cost = progression_cost(
            TraitKind(row.kind), row.rank, scheme=progression_scheme(rules, character.campaign, character)
        )
    if to_rank > rules.human_maximum:
        raise _refuse(RuleViolation("rank.above_maximum", trait=code, maximum=int(rules.human_maximum)),
                      {code: row.name_fr})  # fmt: skip
    return row, cost, to_rank


def trait_raise(
    *, character: Character, actor: User, trait_code: str, justification: str = "", ranks: int = 1
) -> AtoutEntry:
    """Raise a trait permanently: in play with creation Atouts and a plausible explanation (II), or
    between sessions at the campaign's progression cost (IV, appendix 3)."""
    in_session = open_session(character.campaign) is not None
    if in_session:
        return atout_spend(
            character=character, actor=actor, use=AtoutUse.RAISE_IN_PLAY, amount=ranks * _in_play_per_rank(character, trait_code),
            justification=justification, context={"trait": trait_code},
        )  # fmt: skip
    rules = character_rules(character.campaign)
    rank = CharacterTrait.objects.filter(character=character, code=trait_code).values_list("rank", flat=True).first()
    defs = trait_def_map(rules)
    trait = defs.get(trait_code)
    kind = TraitKind(
        CharacterTrait.objects.filter(character=character, code=trait_code).values_list("kind", flat=True).first()
        or (trait.kind if trait else TraitKind.FIELD)
    )
    current = rank if rank is not None else (trait.default if trait else Rank.FAIBLE)
    cost = progression_cost(kind, current, scheme=progression_scheme(rules, character.campaign, character))
    return atout_spend(
        character=character, actor=actor, use=AtoutUse.RAISE_BETWEEN_SESSIONS, amount=cost,
        justification=justification, context={"trait": trait_code},
    )  # fmt: skip


def _in_play_per_rank(character: Character, trait_code: str) -> int:
    rules = character_rules(character.campaign)
    row = CharacterTrait.objects.filter(character=character, code=trait_code).first()
    trait = trait_def_map(rules).get(trait_code)
    kind = TraitKind(row.kind if row else (trait.kind if trait else TraitKind.FIELD))
    return in_play_rank_cost(kind, streamlined=character.campaign.creation_mode == CreationMode.STREAMLINED)


def raise_cost(character: Character, trait_code: str) -> int:
    """What the next raise of a trait costs now (in play: the creation price of one rank)."""
    if open_session(character.campaign) is not None:
        return _in_play_per_rank(character, trait_code)
    rules = character_rules(character.campaign)
    row = CharacterTrait.objects.filter(character=character, code=trait_code).first()
    trait = trait_def_map(rules).get(trait_code)
    kind = TraitKind(row.kind if row else (trait.kind if trait else TraitKind.FIELD))
    current = row.rank if row else (trait.default if trait else Rank.FAIBLE)
    return progression_cost(kind, current, scheme=progression_scheme(rules, character.campaign, character))


@transaction.atomic
def atout_gain(
    *,
    character: Character,
    actor: User,
    amount: int,
    reason: str = GainReason.NARRATOR,
    pool: str = Pool.EXPERIENCE,
    note: str = "",
    game_session: GameSession | None | bool = True,
) -> AtoutEntry:
    """Give Atouts: a narrator's gift or adjustment, or the end-of-session award (IV)."""
    _require_narrator(character.campaign_id, actor)
    if amount < 1:
        raise _refuse(RuleViolation("atout.amount_positive"))
    character = _lock(character)
    if game_session is True:
        game_session = open_session(character.campaign)
    entry = _write_entries(
        character, {Pool(pool): amount}, sign=1, actor=actor, game_session=game_session or None,
        reason=GainReason(reason), justification=note.strip(),
    )  # fmt: skip
    _bump(character, "atouts_creation", "atouts_experience")
    _append(
        character,
        "character.atout_gained",
        actor,
        {"amount": amount, "reason": str(reason), "note": note.strip(), "balance": character.atout_balance},
    )
    return entry


@transaction.atomic
def atout_refund(*, entry: AtoutEntry, actor: User) -> AtoutEntry:
    """« Le Narrateur a un droit de veto sur ce type d'utilisation, si cela est le cas, le joueur ne
    dépense pas d'Atout […] et peut même rendre l'Atout au joueur » (narrative control)."""
    character = entry.character
    _require_narrator(character.campaign_id, actor)
    character = _lock(character)
    entries = list(AtoutEntry.objects.select_for_update().filter(character=character, group=entry.group, delta__lt=0))
    if not entries or entries[0].use != AtoutUse.NARRATIVE_CONTROL:
        raise _refuse(RuleViolation("atout.refund.not_refundable"))
    if AtoutEntry.objects.filter(refunds__in=entries).exists():
        raise _refuse(RuleViolation("atout.refund.already"))
    plan = {Pool(e.pool): -e.delta for e in entries}
    refund = _write_entries(
        character, plan, sign=1, actor=actor, game_session=open_session(character.campaign),
        reason=GainReason.REFUND, refunds=entries[0],
    )  # fmt: skip
    _bump(character, "atouts_creation", "atouts_experience")
    _append(
        character, "character.atout_refunded", actor, {"amount": sum(plan.values()), "balance": character.atout_balance}
    )
    return refund


def run_session_award(game_session: GameSession, actor: User) -> None:
    """Hook of ``campaigns.hooks.on_session_close``: each PC and ally gains the campaign's award,
    or the narrator's figure for that character; the figure is then cleared."""
    campaign = game_session.campaign
    characters = (
        Character.objects.select_for_update()
        .filter(campaign=campaign)
        .exclude(kind=CharacterKind.NPC, owner__isnull=True)
    )
    for character in characters:
        amount = session_award(campaign.session_award, character.award_adjustment)
        character.campaign = campaign
        if amount:
            _write_entries(
                character, {Pool.EXPERIENCE: amount}, sign=1, actor=actor, game_session=game_session,
                reason=GainReason.SESSION_AWARD,
            )  # fmt: skip
        character.award_adjustment = None
        _bump(character, "atouts_experience", "award_adjustment")
        if amount:
            event_append(
                campaign=campaign,
                kind="character.atout_gained",
                actor=actor,
                game_session=game_session,
                payload={"character": character.name, "character_id": character.pk, "amount": amount,
                         "reason": str(GainReason.SESSION_AWARD), "note": "", "balance": character.atout_balance},
                characters=[character],
                **_visibility(character),
            )  # fmt: skip
